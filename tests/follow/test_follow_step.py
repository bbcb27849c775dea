"""Following a game photo by photo (scorer.follow): turns inferred between two states."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorer import Game, GameRecord, State, TileEntry, Turn, game_to_json, parse_game, random_game, replay
from scorer.catalog import load_catalog, rotate_slot
from scorer.follow import FollowError, Transform, follow_states, follow_step, start_record, transform_state

PLAYERS = ("red", "blue")


def tile(tid: str):  # noqa: ANN201 - test helper
    t = load_catalog().get(tid)
    assert t is not None
    return t


def photo(game: Game) -> State:
    """What a photo shows: the board and figures, not the score track."""
    return replace(game.state(), scores={})


def start_game(players: tuple[str, ...] = PLAYERS) -> Game:
    game = Game(players=players)
    game.start(tile("D"))
    return game


def board_of(state: State) -> set[tuple[tuple[int, int], str, int]]:
    return {(e.at, e.tile.id or "", e.rot) for e in state.tiles}


def test_one_tile_one_turn_with_its_follower() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    assert first.turns == () and first.record.start is not None and first.record.start.tile.id == "D"
    game.play(Turn("red", tile("W"), (-1, 0), 0, meeple="E"))
    res = follow_step(first.record, first.corrected_state, photo(game))
    assert [(t.player, t.tile.id, t.at, t.rot, t.meeple) for t in res.turns] == [("red", "W", (-1, 0), 0, "E")]
    assert not res.ambiguous and res.warnings == ()


def test_follower_goes_home_where_the_road_was_completed() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("W"), (-1, 0), 0, meeple="E"))
    record = follow_step(record, None, photo(game)).record
    game.play(Turn("blue", tile("W"), (1, 0), 0))
    assert game.figures == []  # red's thief went home
    res = follow_step(record, None, photo(game))
    assert [(t.player, t.meeple) for t in res.turns] == [("blue", None)]
    assert not res.ambiguous
    _, report = replay(res.record)
    assert report.track == {"red": 0, "blue": 0}  # the report lists turn events instead
    assert [(e.player, e.points, e.what) for e in report.events if e.phase == "turn"] == [("red", 3, "road")]
    assert res.corrected_state.scores == {"red": 3, "blue": 0}


def test_hidden_follower_on_a_completed_city_is_an_alternative() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("E"), (0, -1), 180))  # closes a 2-tile city
    res = follow_step(record, None, photo(game))
    assert res.ambiguous
    tracks = [dict(a.track) for a in res.alternatives]
    assert tracks == [{"red": 0, "blue": 0}, {"red": 4, "blue": 0}]
    assert res.alternatives[1].hidden_followers == 1 and "follower on the city" in res.alternatives[1].summary
    chosen = res.choose(1)
    assert chosen.turns[-1].meeple is not None
    assert replay(chosen)[1].final["red"] == 4
    # the score track, when the state carries it, picks the alternative
    told = follow_step(record, None, replace(photo(game), scores={"red": 4, "blue": 0}))
    assert dict(told.alternatives[0].track) == {"red": 4, "blue": 0}
    assert told.record.turns[-1].meeple is not None


def test_gap_of_two_turns_follows_turn_order_and_colours() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("W"), (-1, 0), 0, meeple="E"))
    game.play(Turn("blue", tile("U"), (1, 0), 0, meeple="Nw"))
    res = follow_step(record, None, photo(game))
    assert [(t.player, t.tile.id, t.at) for t in res.turns] == [("red", "W", (-1, 0)), ("blue", "U", (1, 0))]
    assert not res.ambiguous and res.warnings == ()
    # both followers red in a two-player game: turn order cannot hold, the photo is believed
    game2 = start_game()
    game2.play(Turn("red", tile("W"), (-1, 0), 0, meeple="E"))
    game2.play(Turn("blue", tile("U"), (1, 0), 0))
    state = photo(game2)
    state = replace(state, meeples=state.meeples + (replace(state.meeples[0], at=(1, 0), on="Nw"),))
    res2 = follow_step(record, None, state)
    assert sorted(t.player for t in res2.turns) == ["red", "red"]
    assert any("turn order" in w for w in res2.warnings)


def test_rotated_and_shifted_photo_is_aligned() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("W"), (-1, 0), 0, meeple="E"))
    turned = transform_state(photo(game), Transform(90, 7, -3))
    res = follow_step(first.record, first.corrected_state, turned)
    assert [(t.tile.id, t.at, t.rot, t.meeple) for t in res.turns] == [("W", (-1, 0), 0, "E")]
    moved = Transform(90, 7, -3)
    assert res.transform.rot == 270
    assert all(res.transform.cell(moved.cell(c)) == c for c in ((0, 0), (-1, 0), (3, 5)))
    assert board_of(res.corrected_state) == board_of(photo(game))


def test_low_confidence_misread_keeps_the_tile_seen_before() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    step = follow_step(first.record, first.corrected_state, photo(game))
    state = photo(game)
    misread = tuple(replace(e, tile=tile("B"), rot=90, confidence=0.3) if e.at == (0, 0)
                    else replace(e, confidence=0.95) for e in state.tiles)
    res = follow_step(step.record, step.corrected_state, replace(state, tiles=misread))
    assert res.turns == ()
    assert res.record.start is not None and res.record.start.tile.id == "D"
    assert ("D", 0) in {(e.tile.id, e.rot) for e in res.corrected_state.tiles if e.at == (0, 0)}


def test_sure_reading_corrects_an_unsure_tile_in_the_record() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    state = photo(game)
    unsure = replace(state, tiles=tuple(replace(e, confidence=0.4 if e.at == (1, 0) else 0.99) for e in state.tiles))
    step = follow_step(first.record, first.corrected_state, unsure)
    assert step.record.turns[-1].tile.id == "U"
    sure = replace(state, tiles=tuple(replace(e, tile=tile("W"), confidence=0.97) if e.at == (1, 0)
                                      else replace(e, confidence=0.99) for e in state.tiles))
    res = follow_step(step.record, step.corrected_state, sure)
    assert res.record.turns[-1].tile.id == "W"
    assert any("corrected" in w for w in res.warnings)


def test_start_record_from_a_photo_with_many_tiles_replays_it_with_zero_points() -> None:
    rec = random_game(11, ("red", "blue", "green"), turns=14)
    game = Game.from_record(rec)
    for t in rec.turns:
        game.play(t)
    state = photo(game)
    record = start_record(state)
    assert len(record.turns) + 1 == len(state.tiles)
    replayed = Game.from_record(record)
    for t in record.turns:
        replayed.play(t)
    assert board_of(replayed.state()) == board_of(state)
    assert {(m.player, m.at, m.on) for m in replayed.state().meeples} == {(m.player, m.at, m.on) for m in state.meeples}
    assert all(v == 0 for v in replayed.track.values())
    assert parse_game(game_to_json(record)) == record


def test_first_state_needs_players_and_tiles() -> None:
    with pytest.raises(FollowError):
        follow_step(None, None, State(players=(), tiles=(TileEntry((0, 0), tile("D"), 0),)))
    with pytest.raises(FollowError):
        follow_step(None, None, State(players=PLAYERS))


def _truth(seed: int, players: tuple[str, ...], turns: int) -> tuple[GameRecord, list[State], list[dict[str, int]], dict[str, int]]:
    rec = random_game(seed, players, turns=turns)
    game = Game.from_record(rec)
    states, tracks = [photo(game)], [dict(game.track)]
    for t in rec.turns:
        game.play(t)
        if not t.discarded:
            states.append(photo(game))
            tracks.append(dict(game.track))
    return rec, states, tracks, game.final_report().final


@pytest.mark.parametrize("seed,every", [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_following_random_games_gives_their_scores(seed: int, every: int) -> None:
    """Photos after every turn (or every 2nd/3rd), each turned and shifted at random; the
    players answer each question truthfully (the alternative giving the true track)."""
    rng = random.Random(seed)
    players = ("red", "blue", "green")
    _, states, tracks, final = _truth(seed, players, 30)
    taken = list(range(0, len(states), every))
    if taken[-1] != len(states) - 1:
        taken.append(len(states) - 1)
    record: GameRecord | None = None
    previous: State | None = None
    for i in taken:
        t = Transform(rng.choice((0, 90, 180, 270)), rng.randint(-4, 4), rng.randint(-4, 4))
        res = follow_step(record, previous, transform_state(states[i], t))
        record, previous = res.record, res.corrected_state
        if res.ambiguous:
            hit = [k for k, a in enumerate(res.alternatives) if dict(a.track) == tracks[i]]
            assert hit, f"photo {i}: the true track {tracks[i]} is not among the alternatives"
            record = res.choose(hit[0])
    assert record is not None
    assert replay(record)[1].final == final


def test_follow_states_takes_the_first_alternative() -> None:
    _, states, _, _ = _truth(5, PLAYERS, 12)
    record, results = follow_states(states)
    assert len(results) == len(states)
    assert len(record.turns) == len(states) - 1


def test_align_falls_back_when_no_tile_of_the_photo_was_seen_before() -> None:
    """A photo misread so badly that no tile id matches still aligns (no crash) by bounding box."""
    from scorer.catalog import load_catalog
    from scorer.follow import align
    from scorer.formats import State, TileEntry
    cat = load_catalog()
    ref = {(0, 0): (cat.get("D"), 0), (1, 0): (cat.get("U"), 0), (2, 0): (cat.get("U"), 0), (3, 0): (cat.get("V"), 0)}
    photo = State(players=("red", "blue"), tiles=(TileEntry((5, 5), cat.get("C"), 0), TileEntry((6, 5), cat.get("B"), 0)))
    transform, matched = align(ref, photo, [])
    assert matched == 0
    assert transform.cell((5, 5)) in ref



def test_a_follower_read_on_a_taken_feature_asks_which_other_feature_it_stands_on() -> None:
    """Photo game 782: red's knight on a K's city was read on the field beside it, which a farmer
    already held, so it cannot stand there; every other feature of the tile explained the photo
    alike, their tracks were the same, and the first (a farmer) was taken without a word though
    the end totals differ. Alternatives are told apart by their end totals too: the players are
    asked."""
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("U"), (1, 0), 0, meeple="S"))  # a farmer south of the start's road
    res = follow_step(record, None, photo(game))
    v = tile("V")
    # a curve south of the start, its wide field against the start's south field (red's farm)
    rot = next(r for r in v.rotations() if not game.board.edge_conflicts((0, 1), v, r))
    wide, road = "N", next(rotate_slot(seg.slots[0], rot) for seg in v.segments if seg.kind.value == "road")
    assert v.segments[v.segment_index_on_board(wide, rot)].kind.value == "field"  # type: ignore[index]
    game.play(Turn("blue", v, (0, 1), rot, meeple=road))
    truth = photo(game)
    read = replace(truth, meeples=tuple(replace(m, on=wide) if m.at == (0, 1) else m for m in truth.meeples))
    asked = follow_step(res.record, res.corrected_state, read)
    assert asked.ambiguous
    kinds = [v.segments[v.segment_index_on_board(a.record.turns[-1].meeple, rot)].kind.value  # type: ignore[arg-type,index]
             for a in asked.alternatives]
    assert sorted(kinds) == ["field", "road"]  # the road, or the small field inside the curve
    assert len({tuple(sorted(a.final.items())) for a in asked.alternatives}) == 2
    assert [dict(a.track) for a in asked.alternatives] == [{"red": 0, "blue": 0}] * 2
