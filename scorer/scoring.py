"""Score events and reports: what every scoring gave, to whom, and why (in words)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .geometry import Cell


@dataclass(frozen=True)
class Figure:
    """A follower (or other figure) on a segment: its player, cell and board slot."""

    player: str
    at: Cell
    on: str


@dataclass(frozen=True)
class ScoreEvent:
    """One scoring: ``points`` to ``player`` for feature ``what`` of ``tiles`` tiles, because
    ``why``. ``phase`` is ``turn`` (during play), ``completed`` (a completed feature still holding
    followers when a state is scored), ``end`` or ``farm``/``final`` (end-of-game scoring)."""

    player: str
    points: int
    what: str
    tiles: int
    why: str
    phase: str = "turn"
    turn: int | None = None
    cells: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The event as ``carcam/score@1`` writes it."""
        return {"player": self.player, "points": self.points, "what": self.what,
                "tiles": self.tiles, "why": self.why}


@dataclass(frozen=True)
class OpenFeature:
    """An incomplete feature: its owners now, what it would score now and if completed."""

    kind: str
    tiles: int
    owners: tuple[str, ...]
    points_now: int
    cells: tuple[Cell, ...]
    points_if_completed: int | None = None
    figures: tuple[Figure, ...] = ()
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": self.tiles, "owners": list(self.owners),
                "points_now": self.points_now, "cells": [list(c) for c in self.cells]}


@dataclass(frozen=True)
class ScoreReport:
    """The result of scoring a position: final totals, every event and every open feature."""

    players: tuple[str, ...]
    track: dict[str, int]
    events: tuple[ScoreEvent, ...]
    open: tuple[OpenFeature, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def final(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        totals.update(self.track)
        for e in self.events:
            totals[e.player] = totals.get(e.player, 0) + e.points
        return totals

    def to_json(self) -> dict[str, Any]:
        """``carcam/score@1``."""
        return {"format": "carcam/score@1", "final": self.final,
                "events": [e.to_json() for e in self.events],
                "open": [o.to_json() for o in self.open]}


def majority(figures: Iterable[Figure], players: Iterable[str] | None = None,
             strict: bool = False) -> tuple[list[str], Counter[str]]:
    """The players with the most figures. With ``strict`` (The Castle) a tie gives nobody;
    otherwise every tied player owns the feature (base game). Returns (owners, counts)."""
    counts = Counter(f.player for f in figures)
    if not counts:
        return [], counts
    top = max(counts.values())
    owners = [p for p in counts if counts[p] == top]
    if players is not None:
        order = list(players)
        owners.sort(key=lambda p: order.index(p) if p in order else len(order))
    if strict and len(owners) > 1:
        return [], counts
    return owners, counts


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``3 tiles``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def describe_majority(owners: list[str], counts: Counter[str]) -> str:
    """Why these owners score: ``red alone``, ``tie red 1 = blue 1``, ``red 2 vs blue 1``."""
    if len(counts) == 1:
        (p, n), = counts.items()
        return f"{p} alone ({plural(n, 'follower')})"
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    text = ", ".join(f"{p} {n}" for p, n in ranked)
    if len(owners) > 1:
        return f"tie ({text}): every tied player scores in full"
    return f"majority ({text})"
