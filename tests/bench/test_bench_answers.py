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


def test_of_answers_that_end_alike_the_players_answer_where_their_followers_stand() -> None:
    """Photo game 1596: asked whether blue put no follower, one on the road or one on a field of
    a new tile the photo could not recognise (a lamp's glare), "none" and the true farmer ended
    alike then; the first, "none", was taken and blue ended a point short. The players answer
    what the table shows, where their followers stand: of the answers with the true totals, the
    one that puts the followers where they are. Tiles under the followers are not what they see
    (a crest under a knight): answers that differ only there stay the first's."""
    from types import SimpleNamespace

    from bench.bench_follow import answer

    truth = random_game(1596, ("red", "blue"), turns=20)
    last = max(k for k, t in enumerate(truth.turns) if t.tile is not None and t.meeple)
    none = _with_follower(truth, last, None)
    track, final = {"red": 0, "blue": 2}, {"red": 9, "blue": 12}

    def alt(record, end: dict[str, int], tr: dict[str, int] = track) -> SimpleNamespace:  # noqa: ANN001
        return SimpleNamespace(track=tr, final=end, record=record)

    alts = [alt(none, final), alt(none, {"red": 9, "blue": 13}), alt(truth, final)]
    assert answer(alts, track, final) == 0  # by the scores alone: the first that ends alike
    assert answer(alts, track, final, truth=truth) == 2  # where blue's follower stands
    assert answer(list(reversed(alts)), track, final, truth=truth) == 0
    # only the true track counts, and answers that tell the table alike keep their order
    assert answer([alt(truth, final, {"red": 1, "blue": 2}), alt(none, final)], track, final, truth=truth) == 1
    assert answer([alt(truth, final), alt(truth, final)], track, final, truth=truth) == 0
    assert answer([alt(none, final, {"red": 1, "blue": 2})], track, final, truth=truth) is None


def test_a_photo_that_shows_no_new_tile_where_one_was_laid_is_taken_again() -> None:
    """Photo game 2603: red's N, in a lamp's glare, was missed by the photo of its turn, which
    showed no new tile and was used as a photo of no turn; the game ended a turn short. The
    follower says so (``NO_NEW_TILE``) and the players, who laid a tile, take the photo again.
    Where the retake shows no more, the photo used stands (the next photo shows the turn with its
    own); a photo with the new tile on it is not taken again."""
    from bench.bench_follow import follow, true_states
    from scorer.follow import NO_NEW_TILE

    truth = random_game(2603, ("red", "blue"), turns=3)
    states, tracks, _ = true_states(truth)
    for retake_shows in (True, False):
        takes: list[tuple[int, int]] = []

        def read(state, prior, take: int, shows: bool = retake_shows, seen: list = takes):  # noqa: ANN001, ANN202
            k = states.index(state)
            seen.append((k, take))
            return states[k - 1] if k == 2 and (take == 0 or not shows) else state

        record, _, _, _, _, retakes, left_out = follow(states, tracks, False, read, from_start=True)
        assert retakes == 1 and left_out == 0 and (2, 1) in takes
        # the retake shows the turn; else the next photo shows it with its own, a gap of two
        assert sorted(t.at for t in record.turns) == sorted(t.at for t in truth.turns)
    # the follower's warning says so, and only where the photo shows no new tile
    from scorer.follow import follow_step

    first = follow_step(None, None, states[0], from_start=True)
    same = follow_step(first.record, first.corrected_state, states[0])
    assert NO_NEW_TILE in same.warnings and not same.turns
    assert NO_NEW_TILE not in follow_step(first.record, first.corrected_state, states[1]).warnings


def test_a_photo_whose_new_tile_is_not_recognised_is_taken_again() -> None:
    """Scans photo game 4504 (10% of the photos skipped): the last photo's lamp washed out the new
    K and blue's farmer on it; the follower took it as the likeliest tile that fits, a W, without
    the farmer, and red ended a point short. The follower now tells the players to take such a
    photo again (``FollowResult.unread``), and they do; where the retake does not recognise it
    either, the photo used stands."""
    from dataclasses import replace

    from bench.bench_follow import follow, true_states
    from scorer.catalog import UNKNOWN_TILE

    truth = random_game(2603, ("red", "blue"), turns=3)
    states, tracks, _ = true_states(truth)
    new_cell = next(e.at for e in states[2].tiles if e.at not in {x.at for x in states[1].tiles})
    for retake_reads in (True, False):
        takes: list[tuple[int, int]] = []

        def read(state, prior, take: int, reads: bool = retake_reads, seen: list = takes):  # noqa: ANN001, ANN202
            k = states.index(state)
            seen.append((k, take))
            if k == 2 and (take == 0 or not reads):
                return replace(state, tiles=tuple(replace(e, tile=UNKNOWN_TILE, rot=0, confidence=0.2)
                                                  if e.at == new_cell else e for e in state.tiles))
            return state

        record, _, _, _, _, retakes, left_out = follow(states, tracks, False, read, from_start=True)
        assert retakes == 1 and left_out == 0 and (2, 1) in takes
        assert len(record.turns) == len(truth.turns)  # the photo used either way: its turn laid
        laid = {t.at: t.tile.id for t in record.turns}
        if retake_reads:
            assert [laid.get(t.at) for t in truth.turns] == [t.tile.id for t in truth.turns]

