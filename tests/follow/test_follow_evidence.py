"""Following with a photo reader's per-cell evidence (``follow_step(evidence=...)``): the game's
knowledge leads, the evidence only tells between what can have happened (issue 8)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scorer import Game, GameRecord, State, TileEntry, Turn
from scorer.board import Board, PlacedTile
from scorer.catalog import Kind, load_catalog
from scorer.follow import (
    CREST_ASK_GAP,
    CREST_TIE_GAP,
    EVIDENCE_KEEP_MARGIN,
    START_READ_GAP,
    Alternative,
    FollowResult,
    _crossed,
    _replayed,
    follow_step,
    same_tile,
)
from scorer.formats import Reading

PLAYERS = ("red", "blue")
BASE = -30.0


def tile(tid: str):  # noqa: ANN201 - test helper
    t = load_catalog().get(tid)
    assert t is not None
    return t


#: how far below ``BASE`` a cell's other tiles lie: the tile read leads them by 5 plus this,
#: beyond every gap within which a follower's step asks about a rival (FIELD_STRIP_ASK_GAP)
BACKGROUND = 1.5


def flat() -> dict[tuple[str, int], float]:
    """A cell's evidence with nothing standing out: every base tile at each distinct rotation."""
    out = {}
    for tid in sorted(load_catalog().box("base", ())):
        for r in tile(tid).rotations():
            out[(tid, r)] = BASE - BACKGROUND - 0.01 * len(out)  # no ties, as in a real photo
    return out


def evidence_for(state: State, boost: dict[tuple[int, int], dict[tuple[str, int], float]] | None = None
                 ) -> dict[tuple[int, int], dict[tuple[str, int], float]]:
    """Evidence that ranks each cell's tile (as in ``state``) first by 5, with ``boost``
    overriding scores per cell."""
    ev = {}
    for e in state.tiles:
        cell = flat()
        for r in e.tile.rotations():
            if same_tile(e.tile, r, e.tile, e.rot):
                cell[(e.tile.id, r)] = BASE + 5.0
        cell.update((boost or {}).get(e.at, {}))
        ev[e.at] = cell
    return ev


def photo(game: Game, confidence: float = 0.95) -> State:
    state = replace(game.state(), scores={})
    return replace(state, tiles=tuple(replace(e, confidence=confidence) for e in state.tiles))


def start_game(players: tuple[str, ...] = PLAYERS) -> Game:
    """A game of ``players`` (red first by default) with the start tile D laid."""
    game = Game(players=players)
    game.start(tile("D"))
    return game


def straight_road_played() -> tuple[Game, FollowResult, State]:
    """Red laid a straight road U east of the start tile: the game, the first photo's follow
    result and the true photo after the turn."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0))
    return game, first, photo(game)


def test_new_tile_is_the_likeliest_legal_tile_not_the_free_reading() -> None:
    game, first, truth = straight_road_played()
    # the reader decoded the new cell as a city tile that cannot lie there, and its evidence likes
    # an illegal tile best; among the legal tiles the true one is likeliest
    read = replace(truth, tiles=tuple(replace(e, tile=tile("C"), rot=0, confidence=0.9) if e.at == (1, 0) else e
                                      for e in truth.tiles))
    boost = {(1, 0): {("C", 0): BASE + 9.0, ("U", 0): BASE + 6.0, ("V", 0): BASE + 5.5}}
    assert game.board.tiles[(1, 0)].tile.id == "U"
    res = follow_step(first.record, first.corrected_state, read, evidence=evidence_for(truth, boost))
    (turn,) = res.turns
    assert turn.at == (1, 0) and turn.tile is not None
    assert same_tile(turn.tile, turn.rot, tile("U"), 0)


def test_evidence_choice_beats_the_reading_among_legal_tiles() -> None:
    _, first, truth = straight_road_played()
    # the reading is a legal tile too (a curve), but the evidence clearly prefers the straight road
    read = replace(truth, tiles=tuple(replace(e, tile=tile("V"), rot=0, confidence=0.9) if e.at == (1, 0) else e
                                      for e in truth.tiles))
    res = follow_step(first.record, first.corrected_state, read, evidence=evidence_for(truth))
    (turn,) = res.turns
    assert turn.tile is not None and turn.tile.id == "U"


def test_a_seen_tile_keeps_its_identity_unless_the_evidence_clearly_disagrees() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    record, previous = first.record, first.corrected_state
    # a sure reading says B, but the evidence for D is within the margin: D stays, silently
    read = replace(photo(game), tiles=(TileEntry((0, 0), tile("B"), 0, 0.99),))
    weak = evidence_for(photo(game), {(0, 0): {("B", 0): BASE + 5.0 + EVIDENCE_KEEP_MARGIN / 2}})
    for _ in range(3):
        res = follow_step(record, previous, read, evidence=weak)
        assert res.record.start is not None and res.record.start.tile.id == "D"
        assert not any("reads as" in w for w in res.warnings)
        record, previous = res.record, res.corrected_state
    # evidence clearly for B, photo after photo: the record is corrected
    strong = evidence_for(photo(game), {(0, 0): {("B", 0): BASE + 5.0 + 2 * EVIDENCE_KEEP_MARGIN}})
    for _ in range(3):
        res = follow_step(record, previous, read, evidence=strong)
        record, previous = res.record, res.corrected_state
    assert record.start is not None and record.start.tile.id == "B"


def test_a_photo_that_fits_too_few_tiles_played_is_not_used() -> None:
    game = start_game()
    first = follow_step(None, None, photo(game))
    record, previous = first.record, first.corrected_state
    for tid in ("U", "U", "E", "V"):
        at, rot = sorted(game.board.legal_placements(tile(tid)))[0][:2]
        game.play(Turn("red" if len(record.turns) % 2 == 0 else "blue", tile(tid), at, rot))
        s = photo(game)
        if tid == "V":
            break
        res = follow_step(record, previous, s, evidence=evidence_for(s))
        assert len(res.turns) == 1
        record, previous = res.record, res.corrected_state
    s = photo(game)
    # a wrong grid: the cells' evidence says something else everywhere, and a cell is unrecognised
    garbage = evidence_for(s, {e.at: {(e.tile.id, r): BASE - 10.0 for r in e.tile.rotations()} | {("W", 0): BASE + 10.0}
                               for e in s.tiles})
    bad = replace(s, tiles=tuple(replace(e, tile=load_catalog().get("W"), rot=0) if e.at != (0, 0) else e
                                 for e in s.tiles) + (TileEntry((9, 9), tile("U"), 0, 0.2),))
    res = follow_step(record, previous, bad, evidence=garbage)
    assert res.turns == () and res.record == record and not res.used
    assert any("not used" in w for w in res.warnings)
    # the next good photo shows the turn since
    res = follow_step(record, previous, s, evidence=evidence_for(s))
    assert len(res.turns) == 1 and res.used


def test_a_photo_with_no_new_tile_that_misses_one_of_the_board_is_not_used() -> None:
    """Photo game 2829: the last photo, of a board on orange wood, lost the tile just laid and
    one more at the board's edge. It showed nothing new, so it was used as a photo of no turn,
    and the game ended a turn short. The tile laid since may be among those it misses: the
    photo is not used (the player takes it again) and the next one shows the turn. (A tile
    only one photo showed may be a ghost, which such photos take out: test_follow_history.)"""
    game = start_game()
    first = follow_step(None, None, photo(game), from_start=True)
    record, previous, total = first.record, first.corrected_state, None
    for tid in ("U", "E", "V"):
        at, rot = sorted(game.board.legal_placements(tile(tid)))[0][:2]
        game.play(Turn("red" if len(record.turns) % 2 == 0 else "blue", tile(tid), at, rot))
        s = photo(game)
        res = follow_step(record, previous, s, evidence=evidence_for(s), evidence_total=total)
        assert res.used and len(res.turns) == 1
        record, previous, total = res.record, res.corrected_state, res.evidence_total
    first_turn = record.turns[0].at  # shown by three photos
    at, rot = sorted(game.board.legal_placements(tile("B")))[0][:2]
    game.play(Turn("blue", tile("B"), at, rot))
    s = photo(game)
    lost = replace(s, tiles=tuple(e for e in s.tiles if e.at not in (at, first_turn)))
    res = follow_step(record, previous, lost, evidence=evidence_for(lost), evidence_total=total)
    assert not res.used and res.record == record
    assert any("no new tile and misses 1" in w for w in res.warnings)
    # the same photo with the older tile only hidden shows the turn, and is used
    hidden = replace(s, tiles=tuple(e for e in s.tiles if e.at != first_turn))
    res = follow_step(record, previous, hidden, evidence=evidence_for(hidden), evidence_total=total)
    assert res.used and len(res.turns) == 1 and res.turns[0].tile.id == "B"


def test_a_photo_with_two_new_cells_it_cannot_recognise_is_not_used() -> None:
    """Photo game 2927: the last photo read the hole the new E closed (table, in a lamp's
    glare) and the E itself as two unrecognised cells, and a tile was laid on each: a turn too
    many, red 2 over. A table cell read as a tile and a new tile in glare read alike: the photo
    is not used (the player takes it again). The photo after one not used is taken as before,
    and so is a photo with one new cell unrecognised."""
    from scorer.catalog import UNKNOWN_TILE

    game = start_game()
    first = follow_step(None, None, photo(game), from_start=True)
    game.play(Turn("red", tile("U"), (1, 0), 0))
    truth = photo(game)
    ghost = TileEntry((0, 1), UNKNOWN_TILE, 0, 0.3)
    for ghosted in (True, False):
        unclear = replace(truth, tiles=tuple(replace(e, tile=UNKNOWN_TILE, rot=0, confidence=0.3)
                                             if e.at == (1, 0) else e for e in truth.tiles)
                          + ((ghost,) if ghosted else ()))
        ev = evidence_for(unclear)
        ev[(1, 0)] = ev[(0, 1)] = flat()
        res = follow_step(first.record, first.corrected_state, unclear, evidence=ev,
                          evidence_total=first.evidence_total)
        if not ghosted:
            assert res.used and [t.at for t in res.turns] == [(1, 0)]
            continue
        assert not res.used and res.record == first.record
        assert any("new cells at [0, 1], [1, 0] are not recognised" in w for w in res.warnings), res.warnings
        again = follow_step(first.record, first.corrected_state, unclear, evidence=ev,
                            evidence_total=first.evidence_total, unfit=res.unfit)
        assert again.used and len(again.turns) == 2


def test_start_tile_cell_and_rotation_come_from_the_evidence() -> None:
    # the first photo shows the start tile, read as something else, and a cell of table
    state = State(game="base", players=PLAYERS, tiles=(TileEntry((0, 0), tile("B"), 0, 0.9),
                                                       TileEntry((1, 0), tile("E"), 0, 0.9)))
    ev = {(0, 0): flat(), (1, 0): flat()}
    ev[(1, 0)][("D", 90)] = BASE + 8.0
    ev[(1, 0)][("D", 0)] = BASE + 2.0
    res = follow_step(None, None, state, from_start=True, evidence=ev)
    start = res.record.start
    assert start is not None and start.tile.id == "D" and start.at == (1, 0) and start.rot == 90


def test_a_table_read_as_tiles_around_the_first_tiles_is_not_used() -> None:
    """Photo game 37: on a wood table, the photo after the first turn read the grain as six more
    tiles, all fitting; with one or two tiles played, reading "whole" says nothing (the table
    surrounds them), so more new cells than ``max_gap`` turns lay is a wrong grid."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    at, rot = sorted(game.board.legal_placements(tile("U")))[0][:2]
    game.play(Turn("red", tile("U"), at, rot))
    s = photo(game)
    taken = {e.at for e in s.tiles}
    free = sorted({(x + dx, y + dy) for x, y in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - taken)
    ghosts: list[TileEntry] = []
    for c in free:  # fields beside fields only: the ghosts fit the board and each other
        board = Board.from_tiles((e.at, e.tile, e.rot) for e in s.tiles + tuple(ghosts))
        if len(ghosts) < 6 and not board.edge_conflicts(c, tile("B"), 0):
            ghosts.append(TileEntry(c, tile("B"), 0, 0.9))
    assert len(ghosts) > 4
    table = replace(s, tiles=s.tiles + tuple(ghosts))
    res = follow_step(first.record, first.corrected_state, table, evidence=evidence_for(table))
    assert not res.used and res.record == first.record
    assert any("more than 4 turns can lay" in w for w in res.warnings)


def test_a_photo_in_which_none_of_the_first_tiles_fits_is_not_used() -> None:
    """Photo game 139: the photo after the second turn read five cells of monasteries and curves
    (a wrong grid) where the start tile and one turn lay. Below three tiles played the share of
    them that must fit the photo was not asked, so four turns were followed from it, and no
    photo after fitted that record again (1 of 20 turns right). A photo none of whose cells
    takes any tile played is a wrong grid however small the board; one that takes one of them
    (the other misread) is used."""
    game = start_game()
    first = follow_step(None, None, photo(game), from_start=True)
    at, rot = sorted(game.board.legal_placements(tile("U")))[0][:2]
    game.play(Turn("red", tile("U"), at, rot))
    s = photo(game)
    second = follow_step(first.record, first.corrected_state, s, evidence=evidence_for(s))
    assert second.used and len(second.turns) == 1
    record, previous = second.record, second.corrected_state
    at, rot = sorted(game.board.legal_placements(tile("E")))[0][:2]
    game.play(Turn("blue", tile("E"), at, rot))
    s = photo(game)
    taken = {e.at for e in s.tiles}
    free = sorted({(x + dx, y) for x, y in taken for dx in (-1, 1)} - taken)[:2]
    ghosts = tuple(TileEntry(c, tile("B"), 0, 0.9) for c in free)
    wrong = replace(s, tiles=tuple(replace(e, tile=tile("B"), rot=0) for e in s.tiles) + ghosts)
    garbage = {c: flat() | {("B", 0): BASE + 10.0} for c in {e.at for e in wrong.tiles}}
    for e in s.tiles:  # the tiles played rank nowhere near the top in their cells
        for r in e.tile.rotations():
            garbage[e.at][(e.tile.id, r)] = BASE - 10.0
    res = follow_step(record, previous, wrong, evidence=garbage)
    assert not res.used and res.record == record
    assert any("none of the 2 tiles played fits" in w for w in res.warnings)
    # one of them misread, the other still in its place: the photo is used
    half = evidence_for(s, {at: {("E", r): BASE - 10.0 for r in tile("E").rotations()} | {("B", 0): BASE + 10.0}})
    res = follow_step(record, previous, s, evidence=half)
    assert res.used


def test_a_photo_of_the_first_turn_that_misreads_the_start_tile_is_not_used_once() -> None:
    """Fresh photo game 5181 (4 players): the photo of the first turn was read on a grid a fifth
    of a tile off along its two tiles: the start tile D as a J (D third, 3.1 behind) and the new
    tile as another; the first turn was laid on the wrong side of the start
    tile, and no photo after fitted the record. Until a turn is followed, a photo whose evidence
    puts the start tile more than ``START_READ_GAP`` behind its cell's likeliest tile is not
    used (the player takes it again); one just behind is used, and so is the next photo that
    misreads it too (an edition whose start tile the reader never reads plainly)."""
    game = start_game()
    first = follow_step(None, None, photo(game), from_start=True)
    at, rot = sorted(game.board.legal_placements(tile("U")))[0][:2]
    game.play(Turn("red", tile("U"), at, rot))
    s = photo(game)
    start = first.record.start
    assert start is not None

    def behind(gap: float) -> dict:
        """The photo's evidence with a J leading the start tile's cell by ``gap``."""
        d = next(e for e in s.tiles if e.tile.id == "D")
        return evidence_for(s, {d.at: {("J", d.rot): BASE + 5.0 + gap}})

    misread = follow_step(first.record, first.corrected_state, s, evidence=behind(START_READ_GAP + 2.0))
    assert not misread.used and misread.record == first.record
    assert any(f"the start tile is {START_READ_GAP + 2.0:.1f} behind" in w for w in misread.warnings), misread.warnings
    assert misread.unfit is not None
    again = follow_step(first.record, first.corrected_state, s, evidence=behind(START_READ_GAP + 2.0),
                        unfit=misread.unfit)
    assert again.used and [t.tile.id for t in again.turns if t.tile is not None] == ["U"]
    near = follow_step(first.record, first.corrected_state, s, evidence=behind(START_READ_GAP - 0.5))
    assert near.used and [t.tile.id for t in near.turns if t.tile is not None] == ["U"]


def test_the_start_tile_is_not_put_under_the_new_tiles_follower() -> None:
    """Photo game 159: the photo of the first turn read the start tile D and the new straight road
    U, its thief on it, both as D. The start tile fitted either cell as well, and was put on the
    road's cell (the road then laid where the start tile lies, the thief lost: 8 points at the
    end). A follower is put on the tile just laid, so of two alignments that fit the record's
    tiles alike the one that leaves the photo's figure on a new tile is taken."""
    game = start_game()
    first = follow_step(None, None, photo(game), from_start=True)
    game.play(Turn("red", tile("U"), (-1, 0), 0, "W"))
    s = photo(game)
    # the photo's own frame: one cell east of the record's (so the wrong alignment is the
    # unshifted one, which the last tie-break, the smallest shift, would take), the road read D
    read = replace(s, tiles=tuple(replace(e, at=(e.at[0] + 1, e.at[1]), **({"tile": tile("D"), "rot": 180}
                                                                           if e.at == (-1, 0) else {}))
                                  for e in s.tiles),
                   meeples=tuple(replace(m, at=(m.at[0] + 1, m.at[1])) for m in s.meeples))
    both = evidence_for(read, {(0, 0): {("D", r): BASE + 5.0 for r in tile("D").rotations()}})
    res = follow_step(first.record, first.corrected_state, read, evidence=both)
    assert res.used and len(res.record.turns) == 1
    turn = res.record.turns[0]
    start = res.record.start
    assert start is not None and turn.at is not None
    # the new tile is the one the thief stands on, beside the start tile on its road
    assert turn.meeple is not None
    assert turn.player == "red" and abs(turn.at[0] - start.at[0]) + abs(turn.at[1] - start.at[1]) == 1


def test_reader_prefers_the_grid_that_fits_the_prior() -> None:
    from vision.reader import BoardReader, choose_attempt, prior_fit

    reader = BoardReader()
    templates = reader.templates("base", ())
    index = {(t.tile.id, t.rot): k for k, t in enumerate(templates)}

    def unary(cells: dict[tuple[int, int], tuple[str, int] | None]) -> dict[tuple[int, int], np.ndarray]:
        out = {}
        for c, key in cells.items():
            u = np.full(len(templates), -30.0)
            if key is not None:
                u[index[key]] = -20.0
            out[c] = u
        return out

    prior = State(game="base", players=PLAYERS, tiles=(TileEntry((0, 0), tile("D"), 0),
                                                       TileEntry((1, 0), tile("U"), 0)))
    cfg = reader.cfg["decode"]
    # the right grid: the prior's two tiles (turned a quarter, as a photo has no north) and a new cell
    right = unary({(5, 5): ("D", 90), (5, 6): ("U", 90), (4, 5): None})
    # a grid too fine: many cells, none of them like the prior
    fine = unary({(x, y): None for x in range(6) for y in range(6)})
    assert prior_fit(right, templates, prior, cfg) > prior_fit(fine, templates, prior, cfg)

    class G:
        pitch_px = 100.0

    attempts = [(30.0, G(), None, fine), (2.0, G(), None, right)]
    assert choose_attempt(attempts, 0.75, None, templates, cfg)[3] is fine
    assert choose_attempt(attempts, 0.75, prior, templates, cfg)[3] is right


def test_a_previous_tile_under_a_figure_fits_as_its_cells_second_likeliest() -> None:
    """A figure may hide what tells a tile from its likeliest rival (a W's village under a
    thief reads as the straight road U): where the fit is judged with the cells under a
    figure's foot, a previous tile ranked second there still fits
    (``decode.prior_fit_covered_rank``), and nowhere else."""
    from vision.reader import BoardReader, fits_every_prior_tile, prior_fit

    reader = BoardReader()
    templates = reader.templates("base", ())
    index = {(t.tile.id, t.rot): k for k, t in enumerate(templates)}
    tiles = [((0, 0), "D"), ((1, 0), "W"), ((2, 0), "U")]
    prior = State(game="base", players=PLAYERS, tiles=tuple(TileEntry(at, tile(i), 0) for at, i in tiles))
    unary = {}
    for at, i in tiles:
        u = np.full(len(templates), -30.0)
        u[index[(i, 0)]] = -20.0
        unary[at] = u
    unary[(1, 0)][index[("U", 0)]] = -19.5  # the W's cell reads U first
    cfg = {**reader.cfg["decode"], "prior_fit_rank": 1, "prior_fit_turn": 0.0}
    assert cfg["prior_fit_covered_rank"] == 1
    assert not fits_every_prior_tile(unary, templates, prior, cfg)
    assert not fits_every_prior_tile(unary, templates, prior, cfg, covered={(0, 0), (2, 0)})
    assert fits_every_prior_tile(unary, templates, prior, cfg, covered={(1, 0)})
    assert prior_fit(unary, templates, prior, cfg, {(1, 0)}) == prior_fit(unary, templates, prior, cfg) + 1.0
    assert not fits_every_prior_tile(unary, templates, prior, {**cfg, "prior_fit_covered_rank": 0}, covered={(1, 0)})


def test_reader_prefers_the_grid_that_also_reads_the_turns_tile() -> None:
    """Game 24 of the photo benchmark: two grids fitted the prior equally, the one that missed
    the new tile (mostly city, with a figure on it) read no doubtful cell and won; a photo
    follows a turn, so the grid that reads one new cell beside the prior's is preferred."""
    from vision.reader import BoardReader, choose_attempt, prior_fit

    reader = BoardReader()
    templates = reader.templates("base", ())
    index = {(t.tile.id, t.rot): k for k, t in enumerate(templates)}

    def unary(cells: dict[tuple[int, int], tuple[str, int]]) -> dict[tuple[int, int], np.ndarray]:
        out = {}
        for c, key in cells.items():
            u = np.full(len(templates), -30.0)
            u[index[key]] = -20.0
            out[c] = u
        return out

    tiles = [((0, 0), "D"), ((1, 0), "U"), ((2, 0), "U"), ((3, 0), "U")]
    prior = State(game="base", players=PLAYERS, tiles=tuple(TileEntry(at, tile(i), 0) for at, i in tiles))
    cfg = reader.cfg["decode"]
    without = unary({at: (i, 0) for at, i in tiles})
    with_new = unary({**{at: (i, 0) for at, i in tiles}, (1, 1): ("R", 0)})
    assert prior_fit(with_new, templates, prior, cfg) == prior_fit(without, templates, prior, cfg) + 1.0
    # a grid with two cells beyond the allowed new ones gains nothing
    many = unary({**{at: (i, 0) for at, i in tiles}, **{(x, 1): ("E", 0) for x in range(4)}})
    assert prior_fit(many, templates, prior, cfg) < prior_fit(without, templates, prior, cfg)

    class G:
        pitch_px = 100.0

    # the grid without the new tile: all cells sure (4); with it: the new cell doubtful (3.5)
    attempts = [(3.5, G(), None, with_new), (4.0, G(), None, without)]
    assert choose_attempt(attempts, 0.75, None, templates, cfg)[3] is without
    assert choose_attempt(attempts, 0.75, prior, templates, cfg)[3] is with_new


def test_decode_leaves_the_callers_scores_alone() -> None:
    from vision.decode import decode
    from vision.reader import BoardReader

    reader = BoardReader()
    templates = reader.templates("base", ())
    u = {(0, 0): np.linspace(-40, -20, len(templates))}
    before = u[(0, 0)].copy()
    decode(u, templates, load_catalog().box("base", ()), reader.cfg["decode"], 5, {(0, 0): ("D", 0)})
    assert np.array_equal(u[(0, 0)], before)


def knight_on_an_n() -> tuple[Game, FollowResult, State]:
    """Red laid an N (a corner city without a coat of arms) north of the start tile, its knight
    on the city (the city joins the start tile's): the game, the first photo's follow result and
    the true photo after the turn."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("N"), (0, -1), 180, meeple="Se"))
    return game, first, photo(game)


def test_a_crest_a_knight_may_hide_is_asked_when_the_tile_is_laid() -> None:
    """The photo cannot tell an N from an M (with a crest) when the evidence for the two is the
    same (the reader's crest evidence fades under a figure): the players are asked, the answer
    being worth a point at the end (the city would score 2 + 1 for the crest, unfinished)."""
    _, first, truth = knight_on_an_n()
    even = {(0, -1): {("N", 180): BASE + 5.0, ("M", 180): BASE + 5.0 - 0.3}}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, even))
    assert res.ambiguous
    got = {a.record.turns[-1].tile.id: dict(a.final) for a in res.alternatives}
    assert got == {"N": {"red": 2, "blue": 0}, "M": {"red": 3, "blue": 0}}
    assert res.alternatives[0].record.turns[-1].tile.id == "N"  # the likelier reading first
    assert res.alternatives[0].summary == "no coat of arms under red's follower on the tile at [0, -1] (N)"
    assert res.alternatives[1].summary == "a coat of arms under red's follower on the tile at [0, -1] (M)"
    assert [dict(a.track) for a in res.alternatives] == [{"red": 0, "blue": 0}] * 2


def test_no_crest_question_when_the_photo_tells_or_no_follower_covers_the_tile() -> None:
    game, first, truth = knight_on_an_n()
    clear = {(0, -1): {("N", 180): BASE + 5.0, ("M", 180): BASE + 2.0}}  # the crest's absence seen
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, clear))
    assert not res.ambiguous and res.record.turns[-1].tile.id == "N"
    # the same tile without its knight: nothing hides a crest, the evidence alone decides
    bare = start_game()
    bare.play(Turn("red", tile("N"), (0, -1), 180))
    alone = photo(bare)
    even = {(0, -1): {("N", 180): BASE + 5.0, ("M", 180): BASE + 5.0 - 0.3}}
    res = follow_step(first.record, first.corrected_state, alone, evidence=evidence_for(alone, even))
    assert not res.ambiguous and res.record.turns[-1].tile.id == "N"


def test_a_crest_the_photo_cannot_tell_on_a_tile_without_a_follower_is_asked() -> None:
    """Fresh photo game 3709 (10% of the photos skipped): blue's farmer on the M beside the last
    turn's O hid the O's city, crest and all, in the photo; the O was laid as its twin P and blue
    ended a point short. A new tile without a follower whose evidence and its shield twin's lie
    within :data:`CREST_TIE_GAP`: the photo cannot tell the crest, and where it counts the players
    are asked. Further apart (though within :data:`CREST_ASK_GAP`, which a follower on the tile
    asks at) the photo decides, as before."""
    game, first, truth = knight_on_an_n()
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth))
    assert not res.ambiguous
    game.play(Turn("blue", tile("N"), (1, -1), 270))  # its city joins red's, no follower on it
    after = photo(game)
    for gap, asked in ((0.2, True), ((CREST_TIE_GAP + CREST_ASK_GAP) / 2, False)):
        even = {(1, -1): {("N", 270): BASE + 5.0, ("M", 270): BASE + 5.0 - gap}}
        got = follow_step(res.record, res.corrected_state, after, evidence=evidence_for(after, even))
        assert got.ambiguous is asked, gap
        assert got.record.turns[-1].tile.id == "N"  # type: ignore[union-attr]
        if asked:
            finals = {a.record.turns[-1].tile.id: dict(a.final) for a in got.alternatives}  # type: ignore[union-attr]
            assert finals == {"N": {"red": 3, "blue": 0}, "M": {"red": 4, "blue": 0}}
            assert got.alternatives[1].summary == "a coat of arms on the tile at [1, -1] (M)"


def test_a_crest_under_a_blue_knight_is_asked_whatever_the_photo_says() -> None:
    """Photo games 657, 717, 734: a crest under a blue follower is the crests' own blue, and the
    figure's foot and shadow pass for one (or hide it), so the photo's crest evidence says nothing
    either way (:data:`CREST_COLOURED_PLAYERS`). The same N, read clearly without a crest, is
    asked about under blue's knight (the last question a step asks: only when no other is), and
    not under red's (the existing test above)."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (-1, 0), 0))
    truth = photo(game)
    after_red = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, {}))
    assert not after_red.ambiguous
    game.play(Turn("blue", tile("N"), (0, -1), 180, meeple="Se"))
    truth = photo(game)
    clear = {(0, -1): {("N", 180): BASE + 5.0, ("M", 180): BASE + 2.0}}
    res = follow_step(after_red.record, after_red.corrected_state, truth, evidence=evidence_for(truth, clear))
    assert res.ambiguous
    got = {a.record.turns[-1].tile.id: a.final["blue"] for a in res.alternatives}
    assert got == {"N": 2, "M": 3}
    assert res.alternatives[0].record.turns[-1].tile.id == "N"  # as laid: the commoner twin
    assert any("blue follower" in w for w in res.warnings)


def test_a_crest_under_a_blue_knight_is_asked_with_a_rival_tile_under_it() -> None:
    """Photo game 2214: blue's knight on an N, laid as its twin M, while an E read nearly as well
    under the figure. The rivals question offered M, E (and I), leaving the twins to the crest
    question, which skipped the cell as one a question already asked of: N was never offered
    and blue ended a point over. A question that offers other tiles there has not asked of the
    crest: the twin is offered with the rivals."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (-1, 0), 0))
    truth = photo(game)
    after_red = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, {}))
    game.play(Turn("blue", tile("N"), (0, -1), 180, meeple="Se"))
    truth = photo(game)
    rival = {(0, -1): {("N", 180): BASE + 5.0, ("M", 180): BASE + 2.0, ("E", 180): BASE + 5.0 - 0.3}}
    res = follow_step(after_red.record, after_red.corrected_state, truth, evidence=evidence_for(truth, rival))
    offered = {a.record.turns[-1].tile.id for a in res.alternatives}
    assert {"E", "N", "M"} <= offered  # the rival and both twins
    got = {a.record.turns[-1].tile.id: a.final["blue"] for a in res.alternatives}
    assert got["N"] == 2 and got["M"] == 3


def test_a_crest_under_a_blue_thief_is_asked_when_the_rivals_offered_are_twins_of_their_own() -> None:
    """Found tracing fresh photo game 3587: blue's thief on a T's road, the crest blind under
    blue, so T and its twin S read alike and the S (two in the box) was laid; an R read nearly
    as well, and the rivals question offered S, R and Q. R and Q are twins, so the crest question
    of blue's figure took the cell as asked of and skipped it: where the crest counts (here red's
    knight owns the city), T was never offered. A cell's crest is asked of for each tile offered
    there without its twin."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("E"), (0, 1), 180, meeple="S"))  # a knight on the city south
    truth = photo(game)
    after_red = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, {}))
    at, rot = (0, 2), 0  # T's city north joins red's; an R fits there too
    game.play(Turn("blue", tile("T"), at, rot, meeple="S"))  # the thief on T's road south
    truth = photo(game)
    # no crest seen (T ahead of S), which under a blue figure tells nothing: the twins tie
    rival = {at: {("T", rot): BASE + 5.0, ("S", rot): BASE + 2.0, ("R", rot): BASE + 5.0 - 0.3,
                  ("Q", rot): BASE + 2.0 - 0.3}}
    res = follow_step(after_red.record, after_red.corrected_state, truth, evidence=evidence_for(truth, rival))
    assert res.record.turns[-1].tile.id == "S"  # the commoner twin, as laid
    got = sorted((a.record.turns[-1].tile.id, a.record.turns[-1].meeple, a.final["red"]) for a in res.alternatives)
    assert ("T", "S", 2) in got and ("S", "S", 3) in got  # both twins of the tile laid (red's city)
    assert {"R", "Q"} <= {tid for tid, _, _ in got}  # and the rivals
    assert len(got) == len(set(got))  # each once


def thief_on_a_w() -> tuple[FollowResult, State]:
    """Red laid a W (three roads meeting at a village) east of the start tile, its thief on the
    east road, away from the start tile's: the first photo's follow result and the true photo."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("W"), (1, 0), 0, meeple="E"))
    return first, photo(game)


def test_a_tile_a_follower_may_hide_is_asked_when_its_rival_scores_otherwise() -> None:
    """Follow photo games 353 and 367: a thief stands on a W's village, and the W reads as a
    straight road U nearly as well. On the W the thief's road is one tile long, on a U it joins
    the start tile's road (two), and a farmer on the U's field would score nothing: the players
    are asked, the likelier tile first."""
    first, truth = thief_on_a_w()
    close = {(1, 0): {("W", 0): BASE + 5.0, ("U", 0): BASE + 5.0 - 0.4}}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, close))
    assert res.ambiguous
    assert [(a.summary, a.final["red"]) for a in res.alternatives] == [
        ("the tile under red's follower at [1, 0] is W on its road (E)", 1),  # the likelier tile first
        ("the tile under red's follower at [1, 0] is U on its road", 2),  # (a U has one road)
        # the feature read under the figure was the W's: on the U it may stand elsewhere
        ("the tile under red's follower at [1, 0] is U on its field (En)", 0)]
    assert [a.record.turns[-1].tile.id for a in res.alternatives] == ["W", "U", "U"]


def test_a_question_crossed_with_the_steps_gives_each_way_the_turns_go_once() -> None:
    """A question asked with the step's own (crossed with each of its alternatives) may answer
    for one alternative what another alternative lays already (fresh photo game 3587: the crest
    question that an earlier tile's coat of arms now counts, asked of each of a step's ways,
    offers for one of them the twin that the step's question offered with another): the
    players are offered each way the turns may have gone once."""
    first, truth = thief_on_a_w()
    close = {(1, 0): {("W", 0): BASE + 5.0, ("U", 0): BASE + 5.0 - 0.4}}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, close))
    alts = list(res.alternatives)
    assert len(alts) == 3
    games = {id(a): _replayed(a.record) for a in alts}
    before = replace(res.record, turns=res.record.turns[:-1])

    def ask(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        # each way answered "as it is" and "as the step's first alternative has it"
        mine = next(a for a in alts if a.record.turns[-len(these):] == these)
        return [(mine, then), (alts[0], games[id(alts[0])])]
    warnings: list[str] = []
    crossed, _ = _crossed(before, res.record.turns[-1:], games[id(alts[0])], alts, games, ask, warnings, "asked")
    assert [a.record.turns for a in crossed] == [a.record.turns for a in alts]  # nothing new: asked as it was
    assert warnings == []


def test_a_monk_asked_about_may_be_a_farmer_in_its_own_tiles_field() -> None:
    """Follow photo game 1543: red's farmer lying in a B's field was read as its monk, and the
    B as likely an A (the figure hides where the A's road would start). The rivals question
    offered B on its monastery, A on its road and A on its field; B on its field ended as A on its
    field then and was not offered, so the farmer stayed on the wrong tile. A monk in a rivals
    question comes with its own tile's fields too, after the rivals, where the followers it
    leaves standing are new."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    at, b_rot = next((c, r) for c, r, *_ in sorted(game.board.legal_placements(tile("B"))))
    a_rot = next(r for c, r, *_ in sorted(game.board.legal_placements(tile("A"))) if c == at)
    game.play(Turn("red", tile("B"), at, b_rot, meeple="C"))
    truth = photo(game)
    close = {at: {("B", b_rot): BASE + 5.0, ("A", a_rot): BASE + 5.0 - 0.4}}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, close))
    assert res.ambiguous
    said = [a.summary for a in res.alternatives]
    assert said[0] == f"the tile under red's follower at {list(at)} is B on its monastery"
    assert f"the tile under red's follower at {list(at)} is A on its field" in said
    assert said[-1] == f"the tile under red's follower at {list(at)} is B on its field"  # after the rivals
    b_field = res.alternatives[-1]
    laid = b_field.record.turns[-1]
    assert laid.tile.id == "B"
    assert laid.tile.segments[laid.tile.segment_index_on_board(laid.meeple, laid.rot)].kind.value == "field"
    assert b_field.final["red"] == next(a.final["red"] for a in res.alternatives if a.summary.endswith("A on its field"))
    # a thief asked about (the W and U question above) gets no own-tile offer: only monks do
    first_w, truth_w = thief_on_a_w()
    close_w = {(1, 0): {("W", 0): BASE + 5.0, ("U", 0): BASE + 5.0 - 0.4}}
    res = follow_step(first_w.record, first_w.corrected_state, truth_w, evidence=evidence_for(truth_w, close_w))
    assert [a.record.turns[-1].tile.id for a in res.alternatives] == ["W", "U", "U"]


def _asks_for_the_monk_on_an_a(res: FollowResult, game: Game, as_laid: str, player: str, a_rot: int,
                               turn: int) -> None:
    """``res`` asks whether the tile at [2, 0] (the record's turn ``turn``), laid as a U without a
    follower, is an A at ``a_rot`` with ``player``'s monk: the tile as laid first (``as_laid``),
    then the A, which scores as ``game``, the table, does."""
    assert res.ambiguous
    assert [a.summary for a in res.alternatives] == [
        as_laid, f"the tile under {player}'s follower at [2, 0] is A on its monastery"]
    monk = res.alternatives[1].record.turns[turn]
    assert (monk.tile.id, monk.rot, monk.meeple) == ("A", a_rot, "C")
    assert res.alternatives[1].final == game.final_report().final


def test_a_follower_that_could_stand_nowhere_on_the_tile_taken_brings_its_rivals() -> None:
    """Fresh photo game 2228: blue's monk on an A whose road's stub joins blue's own thief's
    road. The photo read the A as a U by 0.55, the monk on the road beside it, and missed the
    thief beside the monk. The U was laid bare (the follower taken for the thief a cell off), no
    question came, and blue ended four points short. A follower of the turn's player seen on its
    new tile where the turn was laid without one brings the rivals the follower may hide, with
    it on each of their features."""
    game = start_game()
    res = follow_step(None, None, photo(game))
    for player, x, meeple in (("red", 1, "E"), ("blue", -1, None)):
        game.play(Turn(player, tile("U"), (x, 0), 0, meeple=meeple))
        truth = photo(game)
        res = follow_step(res.record, res.corrected_state, truth, evidence=evidence_for(truth, {}))
    a_rot = next(r for c, r, *_ in sorted(game.board.legal_placements(tile("A")))
                 if c == (2, 0) and PlacedTile(tile("A"), r).kind_at("W") is Kind.ROAD)
    game.play(Turn("red", tile("A"), (2, 0), a_rot, meeple="C"))
    truth = photo(game)
    # read as a U, the monk's foot on the road, the thief at [1, 0] beside it not seen
    read = replace(truth, tiles=tuple(replace(e, tile=tile("U"), rot=0) if e.at == (2, 0) else e
                                      for e in truth.tiles),
                   meeples=tuple(replace(m, on="W") for m in truth.meeples if m.at != (1, 0)))
    close = {(2, 0): {("U", 0): BASE + 5.0, ("A", a_rot): BASE + 5.0 - 0.55}}
    res = follow_step(res.record, res.corrected_state, read, evidence=evidence_for(read, close))
    _asks_for_the_monk_on_an_a(res, game, "the tile at [2, 0] is U, with no follower of red's on it", "red",
                               a_rot, -1)


def test_a_late_follower_that_could_stand_nowhere_on_its_tile_brings_its_rivals() -> None:
    """Fresh photo game 5334 (4 players): green's monk on an A in a lamp's glare was missed by
    its turn's photo, which read the A as a U; the photos after it read the U too, the monk on
    its road, which a thief already held. The late follower could not be given to its turn, was
    ignored in every photo, and green ended five points short. A follower first seen on the tile
    its player laid a turn before, where it can stand nowhere it was read, now brings the rivals
    the follower may hide (the photo's evidence ranks the A close), with it on each of their
    features."""
    game = start_game()
    res = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("U"), (1, 0), 0, meeple="E"))  # red's thief on the road east of the start
    truth = photo(game)
    res = follow_step(res.record, res.corrected_state, truth, evidence=evidence_for(truth, {}))
    a_rot = next(r for c, r, *_ in sorted(game.board.legal_placements(tile("A")))
                 if c == (2, 0) and PlacedTile(tile("A"), r).kind_at("W") is Kind.ROAD)
    game.play(Turn("blue", tile("A"), (2, 0), a_rot, meeple="C"))

    def as_u(state: State, monk: bool) -> State:
        """The A read as a U; the monk missed, or read on the U's road through the A's middle."""
        return replace(state, tiles=tuple(replace(e, tile=tile("U"), rot=0) if e.at == (2, 0) else e
                                          for e in state.tiles),
                       meeples=tuple(replace(m, on="W") if m.at == (2, 0) else m for m in state.meeples
                                     if monk or m.at != (2, 0)))

    read = as_u(photo(game), monk=False)
    res = follow_step(res.record, res.corrected_state, read,
                      evidence=evidence_for(read, {(2, 0): {("U", 0): BASE + 5.0, ("A", a_rot): BASE + 2.0}}))
    assert not res.ambiguous and res.record.turns[-1].meeple is None  # laid a bare U
    game.play(Turn("red", tile("U"), (-1, 0), 0))
    read = as_u(photo(game), monk=True)
    close = {(2, 0): {("A", a_rot): BASE + 5.0, ("U", 0): BASE + 5.0 - 0.8}}
    asked = follow_step(res.record, res.corrected_state, read, evidence=evidence_for(read, close))
    _asks_for_the_monk_on_an_a(asked, game, "blue put no follower on the tile at [2, 0]", "blue", a_rot, -2)
    # with the figure in another player's colour, nothing is asked
    other = replace(read, meeples=tuple(replace(m, player="red") if m.at == (2, 0) else m for m in read.meeples))
    assert not follow_step(res.record, res.corrected_state, other, evidence=evidence_for(other, close)).ambiguous


def test_a_rival_with_the_follower_where_it_was_read_is_offered_though_it_ends_alike() -> None:
    """Fresh photo game 2262: blue's thief on an L's road, read on a D and moved to the D's city.
    L with the thief on that road ended as D on its city did, so the question offered L only on
    its other road and field, the players answered D (the totals they knew), and a later knight
    of red's found the city taken. Once the players are asked about a tile, each rival comes with
    the follower where the photo read it, where it leaves other followers standing, though it
    ends alike. Here red's thief on an A's road stub, read as a D's road: A on that road ends as
    D on its road (two points)."""
    game = start_game()
    first = follow_step(None, None, photo(game))
    game.play(Turn("red", tile("A"), (1, 0), 90, meeple="W"))
    truth = photo(game)
    read = replace(truth, tiles=tuple(replace(e, tile=tile("D"), rot=0) if e.at == (1, 0) else e
                                      for e in truth.tiles))
    close = {(1, 0): {("D", 0): BASE + 5.0, ("A", 90): BASE + 5.0 - 0.5}}
    res = follow_step(first.record, first.corrected_state, read, evidence=evidence_for(read, close))
    said = [a.summary for a in res.alternatives]
    assert said[0] == "the tile under red's follower at [1, 0] is D on its road"  # as laid
    assert "the tile under red's follower at [1, 0] is A on its field" in said  # ends otherwise
    a_road = next(a for a in res.alternatives if a.summary.endswith("A on its road"))
    assert a_road.final == res.alternatives[0].final == game.final_report().final  # alike
    laid = a_road.record.turns[-1]
    assert (laid.tile.id, laid.rot, laid.meeple) == ("A", 90, "W")


def test_no_rival_question_when_the_photo_tells_or_no_follower_covers_the_tile() -> None:
    first, truth = thief_on_a_w()
    far = {(1, 0): {("W", 0): BASE + 5.0, ("U", 0): BASE + 5.0 - 3.0}}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence_for(truth, far))
    assert not res.ambiguous and res.record.turns[-1].tile.id == "W"
    bare = start_game()
    bare.play(Turn("red", tile("W"), (1, 0), 0))
    alone = photo(bare)
    close = {(1, 0): {("W", 0): BASE + 5.0, ("U", 0): BASE + 5.0 - 0.4}}
    res = follow_step(first.record, first.corrected_state, alone, evidence=evidence_for(alone, close))
    assert not res.ambiguous and res.record.turns[-1].tile.id == "W"


def test_a_photo_fits_again_once_a_tile_taken_wrongly_before_is_corrected() -> None:
    """Photo game 541: blue's tile was taken as another one from its own photo, then a photo read
    two cells of the table as tiles (taken as turns). Every photo after fitted too few of the
    record's tiles to be used, so their evidence never corrected the wrong tile. A photo that
    fits once the last photo's turns are taken out and the tile its evidence clearly
    contradicts is corrected is followed from that record."""
    truth = start_game()
    truth.play(Turn("red", tile("U"), (1, 0), 0))
    truth.play(Turn("blue", tile("U"), (-1, 0), 0))
    truth.play(Turn("red", tile("U"), (2, 0), 0))
    # the record: blue's straight road taken as a curve, then two monasteries (cells of the
    # table read as tiles) that only the last photo showed
    beside_d = start_game()
    beside_d.play(Turn("red", tile("U"), (1, 0), 0))
    v_rot = next(r for c, r in beside_d.board.legal_placements(tile("V")) if c == (-1, 0))
    record = follow_step(None, None, photo(start_game())).record
    record = replace(record, turns=(Turn("red", tile("U"), (1, 0), 0), Turn("blue", tile("V"), (-1, 0), v_rot),
                                    Turn("red", tile("B"), (0, 1), 0), Turn("blue", tile("B"), (0, 2), 0)))
    seen = {(0, 0): ((), (), ()), (1, 0): ((), (), ()), (-1, 0): ((), ()), (0, 1): ((),), (0, 2): ((),)}
    s = photo(truth)
    ev = evidence_for(s, {(-1, 0): {("U", 0): BASE + 20.0}})
    res = follow_step(record, None, s, evidence=ev, figures_seen=seen)
    assert res.used
    assert [(t.player, t.tile.id, t.at) for t in res.record.turns if t.tile] == \
        [("red", "U", (1, 0)), ("blue", "U", (-1, 0)), ("red", "U", (2, 0))]
    assert any("taken as this photo clearly shows them" in w for w in res.warnings)


def _a_record_gone_wrong() -> tuple[FollowResult, Game, list[Turn]]:
    """A record whose four turns laid monasteries below the start tile while the table holds
    five turns of roads and cities beside it (what a two-tile close-up read on a wrong grid
    can leave: photo game 827), the true game and its turns."""
    truth = start_game()
    turns: list[Turn] = []
    for k, tid in enumerate(("U", "U", "E", "V", "U")):
        at, rot = sorted(truth.board.legal_placements(tile(tid)))[0][:2]
        turns.append(Turn(PLAYERS[k % 2], tile(tid), at, rot))
        truth.play(turns[-1])
    first = follow_step(None, None, photo(start_game()), evidence=evidence_for(photo(start_game())))
    wrong = start_game()
    laid: list[Turn] = []
    for k in range(4):
        at, rot = next(p[:2] for p in sorted(wrong.board.legal_placements(tile("B")), key=lambda p: (-p[0][1], p[0]))
                       if p[0] not in truth.board.tiles)
        laid.append(Turn(PLAYERS[k % 2], tile("B"), at, rot))
        wrong.play(laid[-1])
    record = replace(first.record, turns=tuple(laid))
    return replace(first, record=record, corrected_state=photo(wrong)), truth, turns


def test_a_record_two_agreeing_photos_do_not_fit_is_followed_again_from_them() -> None:
    """Photo game 827: the second photo, a close-up of two tiles, was read on a wrong grid and
    laid a tile that was not there; no photo fitted the record after it (18 of 21 left out).
    One photo that does not fit is left out (it may be the wrong one); when the next one (taken
    again) does not fit either and the two agree with each other, the record's turns are
    inferred again from it."""
    res, truth, turns = _a_record_gone_wrong()
    s = photo(truth)
    once = follow_step(res.record, res.corrected_state, s, evidence=evidence_for(s))
    assert not once.used and once.unfit is not None and once.record == res.record
    again = follow_step(res.record, res.corrected_state, s, evidence=evidence_for(s), unfit=once.unfit)
    assert again.used and again.unfit is None
    assert [(t.player, t.tile.id, t.at, t.rot) for t in again.record.turns] == \
        [(t.player, t.tile.id, t.at, t.rot) for t in turns]
    assert any("inferred again from this photo" in w for w in again.warnings)


def test_two_photos_that_disagree_do_not_restart_a_record() -> None:
    """The restart needs two photos that agree: a wrong-grid photo (every cell read as another
    tile) before a good one leaves the record as it is, unused."""
    res, truth, _ = _a_record_gone_wrong()
    s = photo(truth)
    garbage = replace(s, tiles=tuple(replace(e, tile=tile("W"), rot=0) for e in s.tiles))
    once = follow_step(res.record, res.corrected_state, garbage, evidence=evidence_for(garbage))
    assert not once.used and once.unfit is not None
    again = follow_step(res.record, res.corrected_state, s, evidence=evidence_for(s), unfit=once.unfit)
    assert not again.used and again.record == res.record


def _with_quads(state: State, bottom: float) -> Reading:
    """``state`` as a reading of a 2000 x 1500 photo whose tiles are 100-pixel squares, the
    bottom of the board's lowest row at ``bottom`` pixels."""
    y1 = max(e.at[1] for e in state.tiles)
    x0 = min(e.at[0] for e in state.tiles)

    def quad(at: tuple[int, int]) -> tuple[tuple[float, float], ...]:
        x, y = 500 + 100 * (at[0] - x0), bottom - 100 * (y1 - at[1] + 1)
        return (x, y), (x + 100, y), (x + 100, y + 100), (x, y + 100)
    return Reading(state=replace(state, tiles=tuple(replace(e, quad=quad(e.at)) for e in state.tiles)),
                   image=(2000, 1500))


def test_a_reading_whose_new_tiles_run_over_the_photos_edge_is_not_whole() -> None:
    """Photo game 1828: the last photo, on a green felt, read five cells of the felt along its
    top edge (partly beyond it) as field tiles, all fitting: a whole reading, with six new cells
    where one turn was played. A whole reading may show up to twice the gap's new cells (photos
    not used before), but not one whose new tiles run over the photo's edge, half seen."""
    game = start_game()  # D: its road runs west-east, fields to the south
    record, previous = None, None
    for x in range(1, 6):  # straight roads east of it, one turn a photo
        game.play(Turn(PLAYERS[(x - 1) % 2], tile("U"), (x, 0), 0))
        if x == 5:
            break
        s = photo(game)
        res = follow_step(record, previous, s, from_start=record is None, evidence=evidence_for(s))
        assert res.used
        record, previous = res.record, res.corrected_state
    s = photo(game)
    # five cells of the table south of the layout read as field tiles (all fitting) with the
    # turn's U: six new cells, more than the gap of 4, within twice it
    felt = replace(s, tiles=s.tiles + tuple(TileEntry((x, 1), tile("B"), 0, 0.9) for x in range(5)))
    assert not Board.from_tiles((e.at, e.tile, e.rot) for e in felt.tiles).conflicts()
    inside = follow_step(record, previous, _with_quads(felt, 1400.0), evidence=evidence_for(felt), max_gap=4)
    assert inside.used and len(inside.turns) == 6  # whole and in the photo: taken, as before
    cut = follow_step(record, previous, _with_quads(felt, 1540.0), evidence=evidence_for(felt), max_gap=4)
    assert not cut.used and cut.record == record
    assert any("more than 4 turns can lay" in w for w in cut.warnings)
