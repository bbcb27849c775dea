"""Builders for rulebook scenarios: states and games from compact tuples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scorer import Game, Position, State, parse_game, parse_state, replay
from scorer.formats import game_to_json

TileSpec = tuple[tuple[int, int], str, int]
MeepleSpec = tuple[str, tuple[int, int], str]


def make_state(tiles: list[TileSpec], meeples: list[MeepleSpec] = (), players: tuple[str, ...] = ("red", "blue"),
               **extra: Any) -> State:
    """A state through the JSON parser, so every test also exercises the format."""
    doc = {"format": "carcam/state@1", "game": "base", "players": list(players),
           "tiles": [{"at": list(at), "tile": t, "rot": r} for at, t, r in tiles],
           "meeples": [{"player": p, "at": list(at), "on": on} for p, at, on in meeples], **extra}
    return parse_state(doc)


def score_of(tiles: list[TileSpec], meeples: list[MeepleSpec] = (), players: tuple[str, ...] = ("red", "blue"),
             **extra: Any):
    """Score a legal position (asserting it is legal first)."""
    position = Position(make_state(tiles, meeples, players, **extra))
    assert position.status() == [], position.status()
    return position.score()


def make_record(start: TileSpec, turns: list[tuple], players: tuple[str, ...] = ("red", "blue"),
                **extra: Any) -> dict[str, Any]:
    """A carcam/game@1 document; a turn is (player, tile, at, rot[, meeple slot])."""
    out = []
    for t in turns:
        d: dict[str, Any] = {"player": t[0], "tile": t[1], "at": list(t[2]), "rot": t[3]}
        if len(t) > 4 and t[4]:
            d["meeple"] = {"on": t[4]}
        out.append(d)
    return {"format": "carcam/game@1", "game": "base", "players": list(players),
            "start": {"tile": start[1], "at": list(start[0]), "rot": start[2]}, "turns": out, **extra}


def play(start: TileSpec, turns: list[tuple], players: tuple[str, ...] = ("red", "blue"), **extra: Any):
    """Replay a record built by :func:`make_record`; returns (turn results, final report)."""
    record = parse_game(make_record(start, turns, players, **extra))
    assert parse_game(game_to_json(record)) == record  # the record survives a round trip
    return replay(record)


@pytest.fixture
def build() -> dict[str, Callable[..., Any]]:
    return {"state": make_state, "score": score_of, "record": make_record, "play": play, "Game": Game}
