"""Property tests: random legal games from the real 72-tile deck keep the rules' invariants."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorer import Game, Position, load_catalog, random_game, replay
from scorer.base_rules import FOLLOWERS_PER_PLAYER
from scorer.catalog import Kind
from scorer.formats import GameRecord, TileEntry
from scorer.geometry import rotate_cell, rotate_slot

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = st.sampled_from([("red", "blue"), ("red", "blue", "green"), ("red", "blue", "green", "yellow", "black")])


@SETTINGS
@given(seed=st.integers(0, 10**6), players=PLAYERS, festival=st.booleans())
def test_random_games_keep_every_invariant(seed: int, players: tuple[str, ...], festival: bool) -> None:
    record = random_game(seed, players=players, expansions=("festival",) if festival else ())
    game = Game.from_record(record)
    scored: dict[tuple[str, frozenset], int] = {}
    before = dict(game.track)
    for turn in record.turns:
        result = game.play(turn)
        # scores never go down, and the turn's points are its events
        for p in players:
            assert game.track[p] >= before[p]
            assert game.track[p] - before[p] == sum(e.points for e in result.events if e.player == p)
        before = dict(game.track)
        # followers are conserved: supply + on the board = 7
        for p in players:
            on_board = sum(1 for f in game.figures if f.player == p)
            assert game.supply[p] + on_board == FOLLOWERS_PER_PLAYER
        # every completed feature is scored once: none still holds a follower after its turn
        for f in game.figures:
            node = game.board.node_at(f.at, f.on)
            assert node is not None
            kind = game.board.graph.kind(node)
            if kind is not Kind.FIELD:
                assert not game.board.graph.is_complete(node)
                # an open feature reaches empty cells, where the tiles that may complete it go
                reach = game.board.graph.open_cells(node)
                assert reach and not reach & game.board.tiles.keys()
        for e in result.events:  # a feature is scored in one turn only (tied owners share that turn)
            key = (e.what, frozenset(e.cells))
            assert scored.setdefault(key, result.number) == result.number
            assert e.turn == result.number
    # the photo of the final table, scored with the track, gives the replay's totals
    _, report = replay(record)
    assert Position(game.state()).score().final == report.final


def transform(record: GameRecord, rot: int, dx: int, dy: int) -> GameRecord:
    """The same game with the whole table turned ``rot`` degrees and shifted."""
    def cell(c):
        x, y = rotate_cell(c, rot)
        return (x + dx, y + dy)

    turns = []
    for t in record.turns:
        turns.append(replace(
            t, at=cell(t.at) if t.at else None, rot=(t.rot + rot) % 360,
            meeple=rotate_slot(t.meeple, rot) if t.meeple else None,
            take_back=(cell(t.take_back[0]), rotate_slot(t.take_back[1], rot)) if t.take_back else None))
    start = record.start
    assert start is not None
    return replace(record, start=TileEntry(at=cell(start.at), tile=start.tile, rot=(start.rot + rot) % 360),
                   turns=tuple(turns))


@SETTINGS
@given(seed=st.integers(0, 10**6), rot=st.sampled_from([90, 180, 270]), dx=st.integers(-50, 50),
       dy=st.integers(-50, 50))
def test_turned_or_shifted_game_scores_the_same(seed: int, rot: int, dx: int, dy: int) -> None:
    record = random_game(seed, players=("red", "blue", "green"), expansions=("festival",))
    results, report = replay(record)
    results2, report2 = replay(transform(record, rot, dx, dy))
    assert report2.final == report.final
    assert [r.totals for r in results2] == [r.totals for r in results]
    assert sorted((o.kind, o.tiles, o.owners, o.points_now) for o in report2.open) == \
        sorted((o.kind, o.tiles, o.owners, o.points_now) for o in report.open)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 40))
def test_games_stopped_at_any_point_are_legal_positions(seed: int, turns: int) -> None:
    record = random_game(seed, players=("red", "blue"), turns=turns)
    game = Game.from_record(record)
    for t in record.turns:
        game.play(t)
    position = Position(game.state())
    assert position.status() == []
    report = position.score()
    for p in ("red", "blue"):
        assert report.final[p] >= game.track[p]


@SETTINGS
@given(seed=st.integers(0, 10**6), players=PLAYERS)
@example(seed=78380, players=("red", "blue", "green"))  # a curve's outer field joined the field its inner one touches
def test_follower_options_are_exactly_the_slots_the_rules_allow(seed: int, players: tuple[str, ...]) -> None:
    """For every legal spot of the next tile, the offered follower slots are those where the
    game itself accepts a follower once the tile lies there, however the tile joins features."""
    record = random_game(seed, players=players)
    game = Game.from_record(record)
    catalog = load_catalog()
    for turn in record.turns[:30]:
        game.play(turn)
    player = max(players, key=lambda p: game.supply[p])
    if game.supply[player] <= 0:
        return
    for tid in ("V", "U", "K", "L", "W", "E", "I"):
        tile = catalog.get(tid)
        assert tile is not None
        for at, rot in game.board.legal_placements(tile)[:12]:
            offered = set(game.follower_options(tile, at, rot))
            board = game.board
            board.place(at, tile, rot, check=False)
            try:
                allowed = {rotate_slot(seg.slots[0], rot) for seg in tile.segments
                           if game.follower_problem(player, at, rotate_slot(seg.slots[0], rot)) is None}
            finally:
                game.board = board.without(at)
            assert offered == allowed, (tid, at, rot)


def test_open_cells_are_the_empty_cells_a_feature_reaches() -> None:
    """The start tile D: its city reaches the cell north of it, its road the cells east and
    west; a monastery laid south of it reaches the seven empty cells around it."""
    game = Game(players=("red", "blue"))
    game.start(load_catalog().get("D"))
    graph = game.board.graph
    cells = {slot: graph.open_cells(game.board.node_at((0, 0), slot)) for slot in ("N", "E")}  # type: ignore[arg-type]
    assert cells == {"N": {(0, -1)}, "E": {(-1, 0), (1, 0)}}
    game.board.place((0, 1), load_catalog().get("B"), 0)
    monastery = game.board.node_at((0, 1), "C")
    assert monastery is not None and graph.kind(monastery) is Kind.MONASTERY
    assert graph.open_cells(monastery) == {(-1, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (0, 2), (1, 2)}
