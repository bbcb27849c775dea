"""Following through a reader's errors (scorer.follow): misread old tiles, cells that are not
there, misread new tiles and misread figures. Each test misreads a synthetic state on purpose."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer import Game, MeepleEntry, State, TileEntry, Turn
from scorer.catalog import load_catalog
from scorer.follow import DISAGREE_DECAY, FollowError, follow_step

PLAYERS = ("red", "blue")


def tile(tid: str):  # noqa: ANN201 - test helper
    t = load_catalog().get(tid)
    assert t is not None
    return t


def photo(game: Game, confidence: float = 0.95) -> State:
    """What a reader returns for a board read right: no track, every tile read surely."""
    state = replace(game.state(), scores={})
    return replace(state, tiles=tuple(replace(e, confidence=confidence) for e in state.tiles))


def misread(state: State, at: tuple[int, int], tid: str, rot: int, confidence: float) -> State:
    """``state`` with the tile at ``at`` read as ``tid`` at ``rot``."""
    return replace(state, tiles=tuple(replace(e, tile=tile(tid), rot=rot, confidence=confidence) if e.at == at else e
                                      for e in state.tiles))


def start_game() -> Game:
    game = Game(players=PLAYERS)
    game.start(tile("D"))
    return game


# rule 1: a laid tile never changes -------------------------------------------------------------
def test_old_tile_is_kept_against_a_confident_misread_until_photos_keep_disagreeing() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    record, previous = first.record, first.corrected_state
    wrong = misread(photo(game), (0, 0), "B", 0, 0.9)
    confidences = []
    for _ in range(2):
        res = follow_step(record, previous, wrong)
        assert record.start is not None and res.record.start is not None
        assert res.record.start.tile.id == "D", "one photo reading it otherwise is a misread"
        assert any("a laid tile does not change" in w for w in res.warnings)
        record, previous = res.record, res.corrected_state
        confidences.append(next(e.confidence for e in previous.tiles if e.at == (0, 0)))
    assert confidences == [0.95 * DISAGREE_DECAY, 0.95 * DISAGREE_DECAY ** 2]
    # photo after photo reads it otherwise: the record was wrong, it is rewritten
    res = follow_step(record, previous, wrong)
    assert res.record.start is not None and res.record.start.tile.id == "B"
    assert any("corrected from" in w for w in res.warnings)


def test_a_tile_set_by_hand_rewrites_the_record_at_once() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    res = follow_step(first.record, first.corrected_state, misread(photo(game), (0, 0), "B", 0, 1.0))
    assert res.record.start is not None and res.record.start.tile.id == "B"


def test_agreeing_photos_raise_a_record_tile_confidence() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game, 0.7))
    res = follow_step(first.record, first.corrected_state, photo(game, 0.9))
    assert next(e.confidence for e in res.corrected_state.tiles if e.at == (0, 0)) == 0.9


# rule 2: the new tile is the one that can have been laid -----------------------------------
def test_cells_not_joined_to_the_board_are_ignored() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    state = photo(game)
    state = replace(state, tiles=state.tiles + (TileEntry((5, 5), tile("B"), 0, 0.99),))
    res = follow_step(first.record, first.corrected_state, state)
    assert [(t.tile.id, t.at) for t in res.turns if t.tile] == [("U", (1, 0))]
    assert any("not joined" in w for w in res.warnings)


def test_a_flood_of_cells_keeps_only_the_likeliest_new_tile() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    state = photo(game)
    # the table read as tiles around the board: fitting or not, less sure than the real tile
    ghosts = [TileEntry((x, y), tile("V"), 90, 0.7) for x, y in ((-1, 0), (0, 1), (1, 1), (2, 0), (2, 1), (-1, 1))]
    state = replace(state, tiles=state.tiles + tuple(ghosts))
    res = follow_step(first.record, first.corrected_state, state)
    assert [(t.player, t.tile.id, t.at) for t in res.turns if t.tile] == [("red", "U", (1, 0))]
    assert any("more than" in w for w in res.warnings)


# rule 3: a misread new tile is taken as the tile that fits ---------------------------------
def test_a_new_tile_that_does_not_fit_is_taken_as_the_fitting_turn_of_it() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    # read a quarter turn off: the road would end on the start tile's road edge in a field
    res = follow_step(first.record, first.corrected_state, misread(photo(game), (1, 0), "U", 90, 0.6))
    assert [(t.tile.id, t.at, t.rot % 180) for t in res.turns if t.tile] == [("U", (1, 0), 0)]


# rule 4: figures ---------------------------------------------------------------------------
def test_a_figure_missed_on_an_open_feature_stays_on_the_board() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("U"), (1, 0), 0, meeple="E"))
    res = follow_step(record, None, photo(game))
    game.play(Turn("blue", tile("U"), (-1, 0), 0))
    missed = replace(photo(game), meeples=())  # the reader missed red's thief
    res = follow_step(res.record, res.corrected_state, missed)
    assert [(t.player, t.take_back) for t in res.turns] == [("blue", None)]
    assert [(f.player, f.at) for f in res.corrected_state.meeples] == [("red", (1, 0))]
    assert any("the game keeps it" in w for w in res.warnings)


def test_a_figure_in_the_wrong_colour_on_the_new_tile_is_the_player_whose_turn_it_is() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("U"), (1, 0), 0, meeple="E"))
    state = photo(game)
    state = replace(state, meeples=tuple(replace(m, player="blue") for m in state.meeples))
    res = follow_step(record, None, state)
    assert [(t.player, t.meeple) for t in res.turns] == [("red", "E")]
    assert not any("turn order" in w for w in res.warnings)


def test_a_figure_read_on_a_taken_feature_goes_on_another_feature_of_the_new_tile() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("U"), (1, 0), 0, meeple="E"))
    res = follow_step(record, None, photo(game))
    game.play(Turn("blue", tile("U"), (2, 0), 0, meeple="N"))
    state = photo(game)
    # blue's farmer read as standing on the road, which red's thief holds
    state = replace(state, meeples=tuple(replace(m, on="E") if m.player == "blue" else m for m in state.meeples))
    res = follow_step(res.record, res.corrected_state, state)
    (turn,) = res.turns
    assert turn.player == "blue" and turn.meeple is not None
    assert tile("U").kind_at(turn.meeple).value == "field"


def test_a_new_figure_on_an_old_tile_is_ignored() -> None:
    game = start_game()
    record = follow_step(None, None, photo(game)).record
    game.play(Turn("red", tile("U"), (1, 0), 0))
    res = follow_step(record, None, photo(game))
    game.play(Turn("blue", tile("U"), (2, 0), 0))
    state = photo(game)
    state = replace(state, meeples=(MeepleEntry("blue", (1, 0), "N", 0.9),))
    res = follow_step(res.record, res.corrected_state, state)
    assert [(t.player, t.meeple) for t in res.turns] == [("blue", None)]
    assert any("was not there before" in w for w in res.warnings)


# the first photo of a game followed from its start ------------------------------------------
def test_from_start_keeps_only_the_start_tile() -> None:
    game = start_game()
    state = photo(game)
    ghosts = tuple(TileEntry((x, y), tile("B"), 0, 0.97) for x, y in ((1, 0), (0, 1), (1, 1), (-1, 0)))
    state = replace(state, tiles=ghosts + state.tiles)
    res = follow_step(None, None, state, from_start=True)
    assert res.record.start is not None and res.record.start.tile.id == "D" and res.record.turns == ()
    assert any("a game starts from one tile" in w for w in res.warnings)
    # without it, every cell is taken as a tile already laid
    assert len(follow_step(None, None, state).record.turns) == 4


def test_from_start_refuses_a_first_photo_read_as_a_whole_board() -> None:
    """Photo game 37: the start tile alone on a wood table was read as 71 cells (the grain as a
    grid); the start tile was then a cell of table and every later photo failed to fit. More
    cells than the start tile and ``max_gap`` turns can be is a wrong grid: a clear error."""
    game = start_game()
    state = photo(game)
    ghosts = tuple(TileEntry((x, y), tile("B"), 0, 0.97) for x in range(1, 4) for y in range(2))
    with pytest.raises(FollowError, match="the first photo reads 7 cells"):
        follow_step(None, None, replace(state, tiles=ghosts + state.tiles), from_start=True)
    # as many cells as the start tile and max_gap turns can be: followed, the others ignored
    res = follow_step(None, None, replace(state, tiles=ghosts[:4] + state.tiles), from_start=True)
    assert res.record.start is not None and res.record.start.tile.id == "D"
    # a game not followed from its start takes a first photo of any size
    assert follow_step(None, None, replace(state, tiles=ghosts + state.tiles)).record.turns


def test_from_start_takes_a_misread_lone_tile_as_the_start_tile() -> None:
    state = misread(photo(start_game()), (0, 0), "E", 90, 0.5)
    res = follow_step(None, None, state, from_start=True)
    assert res.record.start is not None and res.record.start.tile.id == "D"
