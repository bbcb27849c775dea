"""Compare a read state with the truth, up to translation and a whole-board quarter turn.

Used by the benchmarks and tests. Tiles are equal when their ids match and their rotations are
equivalent for that tile (a U tile at 0 equals one at 180; C, B, X at any rotation). Meeples are
equal when colour and cell match; "on the right segment" when the slot names the same segment.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scorer import State
from scorer.geometry import rotate_cell, rotate_slot


@dataclass
class Match:
    """How a reading compares with the truth."""

    tiles_truth: int
    tiles_found: int
    tiles_type: int  # right id in the right cell
    tiles_exact: int  # right id and rotation
    meeples_truth: int
    meeples_found: int
    meeples_matched: int  # right colour on the right cell
    meeples_segment: int  # and on the right segment
    rot: int
    shift: tuple[int, int]

    @property
    def exact(self) -> bool:
        return (self.tiles_exact == self.tiles_truth == self.tiles_found
                and self.meeples_segment == self.meeples_truth == self.meeples_found)


def same_rotation(tile, a: int, b: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether rotations ``a`` and ``b`` of ``tile`` look alike (B, C, X at any; F, G, H, U at
    r and r + 180)."""
    n = len(tile.rotations())
    period = {1: 90, 2: 180}.get(n, 360)
    return (a - b) % period == 0


def _transform(state: State, rot: int, shift: tuple[int, int]) -> State:
    from dataclasses import replace
    tiles = tuple(replace(t, at=_mv(t.at, rot, shift), rot=(t.rot + rot) % 360) for t in state.tiles)
    meeples = tuple(replace(m, at=_mv(m.at, rot, shift), on=rotate_slot(m.on, rot)) for m in state.meeples)
    return replace(state, tiles=tiles, meeples=meeples)


def _mv(c: tuple[int, int], rot: int, shift: tuple[int, int]) -> tuple[int, int]:
    x, y = rotate_cell(c, rot)
    return (x + shift[0], y + shift[1])


def compare(read: State, truth: State, rotations: tuple[int, ...] = (0, 90, 180, 270)) -> Match:
    """Best alignment of ``read`` onto ``truth`` and the counts under it."""
    truth_cells = {t.at: t for t in truth.tiles}
    best: Match | None = None
    for rot in rotations:
        rc = [rotate_cell(t.at, rot) for t in read.tiles]
        shifts = Counter((tc[0] - c[0], tc[1] - c[1]) for c in rc for tc in truth_cells)
        for shift, _ in shifts.most_common(6):
            m = _score(_transform(read, rot, shift), truth, rot, shift)
            if best is None or (m.tiles_exact, m.tiles_type) > (best.tiles_exact, best.tiles_type):
                best = m
    if best is None:
        best = _score(read, truth, 0, (0, 0))
    return best


def compare_in_frame(read: State, truth: State) -> Match:
    """The counts with ``read`` taken in ``truth``'s frame as it is, no turn or shift searched
    (The Castle: the layout fixes the frame, and a reading one space off is wrong)."""
    return _score(read, truth, 0, (0, 0))


def _score(read: State, truth: State, rot: int, shift: tuple[int, int]) -> Match:
    truth_cells = {t.at: t for t in truth.tiles}
    typ = exact = 0
    for t in read.tiles:
        tt = truth_cells.get(t.at)
        if tt is None or not tt.tile.known:
            if tt is not None and not t.tile.known:
                typ += 1
                exact += 1
            continue
        if t.tile.id == tt.tile.id:
            typ += 1
            if same_rotation(tt.tile, t.rot, tt.rot):
                exact += 1
    read_tiles = {t.at: t for t in read.tiles}
    pool = list(truth.meeples)
    matched = seg = 0
    for m in read.meeples:
        cands = [tm for tm in pool if tm.player == m.player and tm.at == m.at]
        if not cands:
            continue
        same = [tm for tm in cands if _same_segment(read_tiles.get(m.at), truth_cells.get(m.at), m.on, tm.on)]
        pick = same[0] if same else cands[0]
        pool.remove(pick)
        matched += 1
        seg += bool(same)
    return Match(len(truth.tiles), len(read.tiles), typ, exact, len(truth.meeples), len(read.meeples),
                 matched, seg, rot, shift)


def _same_segment(rt, tt, a: str, b: str) -> bool:  # type: ignore[no-untyped-def]
    if a == b:
        return True
    if tt is None or not tt.tile.known:
        return False
    ia = tt.tile.segment_index_on_board(a, tt.rot)
    ib = tt.tile.segment_index_on_board(b, tt.rot)
    return ia is not None and ia == ib
