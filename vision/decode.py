"""Stage 4: decode the board as a whole.

Each cell keeps its top-k (tile, rotation) candidates with a unary score from classification.
Iterated conditional modes then settles the board: a candidate gains for every neighbour whose
shared edge it matches (city-city, road-road, field-field on all three slots) and pays for every
mismatch and for every tile beyond the box count. One doubtful cell is thus settled by its
neighbours. Confidences are the softmax of each cell's final local energy over its candidates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorer.geometry import EDGE_SLOTS, EDGES, FACING_SLOT, neighbour

from .templates import Template


def edge_signature(t: Template, strict: frozenset[str] | None = None) -> dict[str, tuple[str | None, ...]]:
    """Kinds at the three slots of each board edge of a template; with ``strict``, only those
    kinds (The Castle: a path must meet a path, any other two kinds may meet), the rest None."""
    out = {}
    for e in EDGES:
        kinds = []
        for s in EDGE_SLOTS[e]:
            i = t.tile.segment_index_on_board(s, t.rot)
            kind = None if i is None else t.tile.segments[i].kind.value
            kinds.append(kind if strict is None or kind in strict else None)
        out[e] = tuple(kinds)
    return out


def compatible(sa: dict[str, tuple[str | None, ...]], sb: dict[str, tuple[str | None, ...]], edge: str) -> bool:
    """Whether template a's ``edge`` matches template b on the other side."""
    from scorer.geometry import OPPOSITE_EDGE
    mine = dict(zip(EDGE_SLOTS[edge], sa[edge]))
    theirs = dict(zip(EDGE_SLOTS[OPPOSITE_EDGE[edge]], sb[OPPOSITE_EDGE[edge]]))
    return all(mine[s] == theirs[FACING_SLOT[s]] for s in EDGE_SLOTS[edge])


@dataclass
class Decoded:
    """The chosen template index per cell, its confidence and the runner-up candidates."""

    choice: dict[tuple[int, int], int]
    confidence: dict[tuple[int, int], float]
    candidates: dict[tuple[int, int], list[int]]


def decode(unary: dict[tuple[int, int], np.ndarray], templates: list[Template], box: dict[str, int],
           cfg: dict[str, Any], top_k: int, prior: dict[tuple[int, int], tuple[str, int]] | None = None,
           strict: frozenset[str] | None = None, unknown: frozenset[tuple[int, int]] = frozenset()) -> Decoded:
    """Jointly choose a template per cell (ICM over top-k candidates: unary evidence, edges
    that must match their neighbours', the box's counts; ``unsure_first`` orders the sweeps).
    ``strict``: the kinds that must match across an edge (None: every kind, the base game).
    ``unknown``: cells that will be reported as not a tile of this game (no template fits
    well): they get a choice and their best guess still binds their neighbours' edges (it is
    mostly a base tile read poorly), but they take no tile from the box (a dim city tile read
    as nothing must not use up the box's only T that its neighbour needs)."""
    sigs = [edge_signature(t, strict) for t in templates]
    unary = dict(unary)  # the prior below changes this decode's copy, never the caller's scores
    cells = sorted(unary)
    cand = {c: list(np.argsort(-unary[c])[:top_k]) for c in cells}
    if prior:
        w = float(cfg["prior_weight"])
        for c in cells:
            p = prior.get(c)
            if p is None:
                continue
            for k, t in enumerate(templates):
                if t.tile.id == p[0] and _same_rot(t, p[1]):
                    unary[c] = unary[c].copy()
                    unary[c][k] += w
                    if k not in cand[c]:
                        cand[c].append(k)
    choice = {c: cand[c][0] for c in cells}
    ep, bp = float(cfg["edge_penalty"]), float(cfg["box_penalty"])
    trust = _trust(unary, cand, cfg)
    compat_cache: dict[tuple[int, int, str], bool] = {}

    def comp(a: int, b: int, e: str) -> bool:
        key = (a, b, e)
        if key not in compat_cache:
            compat_cache[key] = compatible(sigs[a], sigs[b], e)
        return compat_cache[key]

    def local(c: tuple[int, int], k: int, counts: Counter[str]) -> float:
        s = float(unary[c][k])
        for e in EDGES:
            nb = neighbour(c, e)
            if nb in choice:
                s += 0.0 if comp(k, choice[nb], e) else -ep * trust[nb]
        tid = templates[k].tile.id
        if tid is not None and tid in box:
            over = counts[tid] + 1 - box[tid]
            s -= bp * max(0, over)
        elif tid is not None:
            s -= bp * 3
        return s

    # the least sure cells are settled first, against the others' claims: of two cells that
    # want the box's last tile of a kind, the one whose evidence barely prefers it gives it up
    # (in reading order, the first cell visited gave it up, however sure it was)
    order = sorted(cells, key=lambda c: _margin(unary[c], cand[c])) if cfg.get("unsure_first") else cells

    def tally() -> Counter[str]:
        """Tiles taken from the box, per kind: the chosen templates of the known cells."""
        return Counter(templates[k].tile.id for c, k in choice.items() if c not in unknown)

    def put_back(c: tuple[int, int], counts: Counter[str], n: int) -> None:
        """Add ``n`` of cell ``c``'s chosen tile to ``counts`` (none for an unknown cell)."""
        if c not in unknown:
            counts[templates[choice[c]].tile.id] += n

    for _ in range(int(cfg["sweeps"])):
        changed = 0
        counts = tally()
        for c in order:
            put_back(c, counts, -1)
            scores = [local(c, k, counts) for k in cand[c]]
            best = cand[c][int(np.argmax(scores))]
            if best != choice[c]:
                choice[c] = best
                changed += 1
            put_back(c, counts, 1)
        if not changed:
            break
    counts = tally()
    conf = {}
    for c in cells:
        put_back(c, counts, -1)
        scores = np.array([local(c, k, counts) for k in cand[c]])
        put_back(c, counts, 1)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        conf[c] = float(p[cand[c].index(choice[c])])
    return Decoded(choice, conf, cand)


def _margin(u: np.ndarray, ks: list[int]) -> float:
    """A cell's best candidate's unary lead over its runner-up."""
    top = np.sort(u[ks])[::-1]
    return float(top[0] - top[1]) if len(top) > 1 else float("inf")


def _trust(unary: dict[tuple[int, int], np.ndarray], cand: dict[tuple[int, int], list[int]],
           cfg: dict[str, Any]) -> dict[tuple[int, int], float]:
    """How much each cell's current choice may constrain its neighbours (0..1).

    A cell whose evidence barely separates its best two candidates is as likely wrong as
    right; a mismatch with it costs its neighbours only part of ``edge_penalty`` (its unary
    margin over ``trust_margin``, at least ``trust_min``), so one weak cell does not force the
    cells around it to change, while it still follows its confident neighbours."""
    ref = float(cfg.get("trust_margin", 0.0))
    lo = float(cfg.get("trust_min", 1.0))
    if ref <= 0:
        return {c: 1.0 for c in cand}
    return {c: float(np.clip(_margin(unary[c], ks) / ref, lo, 1.0)) for c, ks in cand.items()}


def _same_rot(t: Template, rot: int) -> bool:
    rots = t.tile.rotations()
    # the distinct rotation equivalent to ``rot``
    period = {1: 90, 2: 180, 4: 360}.get(len(rots), 360)
    return t.rot % period == rot % period
