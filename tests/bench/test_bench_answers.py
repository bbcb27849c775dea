"""The photo games' simulated players (bench.bench_follow): what they answer when asked."""

from __future__ import annotations

from dataclasses import replace

from bench.bench_follow import followers_right
from scorer import random_game
from scorer.catalog import rotate_slot
from scorer.geometry import rotate_cell


def _with_follower(record, i: int, on: str | None):  # noqa: ANN001, ANN202 - test helper
    turns = list(record.turns)
    turns[i] = replace(turns[i], meeple=on)
    return replace(record, turns=tuple(turns))


def test_followers_right_counts_followers_on_their_true_feature() -> None:
    truth = random_game(1491, ("red", "blue"), turns=20)
    n = sum(1 for t in truth.turns if t.tile is not None and not t.discarded)
    assert followers_right(truth, truth) == n
    # a follower taken off, or moved to another feature of its tile (photo game 1491: blue's
    # farmer on P read on its city; the last turn's here, so that the record still replays)
    i = next(k for k, t in enumerate(truth.turns) if t.tile is not None and t.meeple)
    assert followers_right(truth, _with_follower(truth, i, None)) == n - 1
    last = max(k for k, t in enumerate(truth.turns) if t.tile is not None and t.meeple)
    t = truth.turns[last]
    here = t.tile.segment_index_on_board(t.meeple, t.rot)
    other = next(rotate_slot(s.slots[0], t.rot) for k, s in enumerate(t.tile.segments) if k != here)
    assert followers_right(truth, _with_follower(truth, last, other)) == n - 1
    assert followers_right(truth, _with_follower(_with_follower(truth, last, other), i, None)) == n - 2

def test_followers_right_takes_any_slot_of_the_feature_and_any_frame() -> None:
    truth = random_game(1491, ("red", "blue"), turns=20)
    n = sum(1 for t in truth.turns if t.tile is not None and not t.discarded)
    # another slot of the same feature names the same follower
    i = next(k for k, t in enumerate(truth.turns) if t.meeple and len(
        t.tile.segments[t.tile.segment_index_on_board(t.meeple, t.rot)].slots) > 1)
    t = truth.turns[i]
    seg = t.tile.segments[t.tile.segment_index_on_board(t.meeple, t.rot)]
    alias = next(rotate_slot(s, t.rot) for s in seg.slots if rotate_slot(s, t.rot) != t.meeple)
    assert followers_right(truth, _with_follower(truth, i, alias)) == n
    # the whole record turned a quarter (a photo's own frame) is still every turn right
    turned = replace(truth, start=replace(truth.start, rot=(truth.start.rot + 90) % 360), turns=tuple(
        replace(u, at=rotate_cell(u.at, 90), rot=(u.rot + 90) % 360,
                meeple=rotate_slot(u.meeple, 90) if u.meeple and u.meeple not in ("C", "I") else u.meeple)
        if u.at is not None else u for u in truth.turns))
    assert followers_right(truth, turned) == n
