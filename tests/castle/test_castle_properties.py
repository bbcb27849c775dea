"""Property tests: random legal castle games (seeded) on the shipped wall and on random inline
walls keep the rules' invariants."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.castle_rules import CastleGame, keep_house, parse_layout, random_castle_game
from scorer.catalog import Kind
from scorer.formats import game_to_json, parse_game, parse_state, state_to_json
from scorer.geometry import EDGES, neighbour
from scorer.position import Position

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_layout(seed: int) -> dict:
    """A random polyomino wall with 1-4 start fields and some corner towers."""
    rng = random.Random(seed)
    cells = {(0, 0)}
    size = rng.randint(3, 30)
    while len(cells) < size:
        c = rng.choice(sorted(cells))
        cells.add(neighbour(c, rng.choice(EDGES)))
    edges = sorted((c, e) for c in cells for e in EDGES if neighbour(c, e) not in cells)
    kinds = ["path", "tower", "house", "court"]
    starts = []
    for c, e in rng.sample(edges, k=min(len(edges), rng.randint(1, 4))):
        mid = rng.choice(kinds)
        side = [rng.choice(kinds[1:]), mid, rng.choice(kinds[1:])]
        sf = {"at": list(c), "side": e, "slots": side}
        if "court" in side and rng.random() < 0.5:
            sf["markets"] = 1
        starts.append(sf)
    numbers = rng.sample(range(2, 99), k=rng.randint(0, 10))
    corners = [[0, 1]] + [[n, n + 1] for n in sorted(numbers) if all(abs(n - m) > 1 for m in numbers if m != n)]
    return {"cells": [list(c) for c in sorted(cells)], "start_fields": starts, "corners": corners}


def check_game(record) -> None:  # type: ignore[no-untyped-def]
    game = CastleGame.from_record(record)
    before = dict(game.track)
    merchants: list = []
    for t in record.turns:
        game.play(t)
        for p in game.players:
            assert game.track[p] >= before[p], "scores never go down"
            on_board = sum(1 for f in game.figures if f.player == p)
            assert game.supply[p] + on_board == 6, "followers are conserved"
            assert 0 <= game.supply[p] <= 6
        before = dict(game.track)
        for f in merchants:
            assert f in game.figures, "merchants never go home"
        merchants = [f for f in game.figures if game.board.node_at(f.at, f.on) is not None
                     and game.board.graph.kind(game.board.node_at(f.at, f.on)) is Kind.COURT]
        assert len(game.scored) == len(set(game.scored)), "a completed feature scores at most once"
        held = Counter(h.number for p in game.players for h in game.held[p] if h.number)
        used = Counter(n for p in game.players for n in game.used[p])
        assert all(k <= 2 for k in (held + used).values()), "two wall tiles of each number"
    report = game.final_report()
    assert all(e.points > 0 and e.why for e in report.events)
    # the state a photo (plus track) gives scores the same as the replayed game
    state = parse_state(state_to_json(game.state()))
    position = Position(state)
    assert position.status() == []
    inexpressible = any(keep_house(game.board, c) is None or keep_house(game.board, c).tiles != size
                        for c, size in (game.palas[p] and (game.keep_cell(p), game.palas[p][1])
                                        for p in game.palas))
    if not inexpressible:  # a keep on a small house sharing every cell with a larger one
        assert position.score().final == report.final
    # the record survives its JSON form
    assert parse_game(game_to_json(record)).turns == record.turns


@SETTINGS
@given(st.integers(0, 10_000))
def test_random_games_on_the_shipped_wall(seed: int) -> None:
    record = random_castle_game(seed)
    laid = [t for t in record.turns if not t.discarded]
    assert len(record.turns) == 60 and len(laid) <= 60
    check_game(record)


@SETTINGS
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_games_on_random_inline_walls(layout_seed: int, seed: int) -> None:
    layout = parse_layout(random_layout(layout_seed))
    record = random_castle_game(seed, layout=layout, follower_rate=0.8)
    assert sum(1 for t in record.turns if not t.discarded) <= len(layout.cells)
    check_game(record)


def test_random_game_is_seeded() -> None:
    assert random_castle_game(7) == random_castle_game(7)
    assert random_castle_game(7) != random_castle_game(8)


def test_random_game_turn_limit() -> None:
    record = random_castle_game(3, turns=10)
    assert sum(1 for t in record.turns if not t.discarded) == 10
