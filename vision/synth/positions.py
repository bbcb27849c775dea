"""Positions to photograph: random legal games played by the rules engine, or given ones.

The base game (with or without expansions) is played by ``scorer.random_game`` and replayed
turn by turn with :class:`scorer.Game`, so every position is one a real game can reach. The
Castle is played by the castle engine (``scorer.castle_rules.random_castle_game`` and its game
class) when it is there; until then a small stand-in lays random legal tiles inside the wall
with :class:`scorer.Board` and puts followers on unoccupied features.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from scorer import Game, GameRecord, State, load_catalog, random_game
from scorer.catalog import Kind
from scorer.formats import MeepleEntry, TileEntry
from scorer.position import board_for

from .errors import SynthError

BASE_COLOURS = ("red", "blue", "green", "yellow", "black", "grey")
CASTLE_COLOURS = ("black", "white")


def random_state(seed: int, game: str = "base", tiles: int = 40, expansions: tuple[str, ...] = (),
                 players: int | None = None) -> State:
    """A random legal position with ``tiles`` tiles on the board (including the start tile)."""
    rng = random.Random(seed)
    if game == "castle":
        return random_castle_state(seed, tiles)
    if game != "base":
        raise SynthError(f"unknown game {game!r} (base or castle)")
    n = players if players is not None else rng.randint(2, 5)
    if not 1 <= n <= 6:
        raise SynthError(f"players: {n} is not 1..6")
    colours = tuple(BASE_COLOURS[:n])
    rec = random_game(seed, players=colours, expansions=expansions, turns=max(0, tiles - 1))
    states = list(record_states(rec))
    return states[-1] if states else _start_state(rec)


def _start_state(rec: GameRecord) -> State:
    g = Game.from_record(rec)
    return g.state()


def record_states(rec: GameRecord) -> Iterator[State]:
    """The position after every turn of a game record (base game or The Castle)."""
    if rec.game == "castle":
        yield from _castle_record_states(rec)
        return
    game = Game.from_record(rec)
    for turn in rec.turns:
        game.play(turn)
        yield game.state()


# ---------------------------------------------------------------------------------------------
# The Castle
def _castle_engine() -> tuple[Any, Any] | None:
    """``(random_castle_game, game class)`` from the castle engine, or None while it is missing."""
    from scorer import castle_rules

    make = getattr(castle_rules, "random_castle_game", None)
    cls = next((getattr(castle_rules, n) for n in ("CastleGame", "Castle", "CastleState")
                if hasattr(castle_rules, n)), None)
    if make is None or cls is None or not hasattr(cls, "from_record"):
        return None
    return make, cls


def _castle_record_states(rec: GameRecord) -> Iterator[State]:
    engine = _castle_engine()
    if engine is None:
        raise SynthError("The Castle engine (scorer.castle_rules.CastleGame) is not available yet")
    game = engine[1].from_record(rec)
    for turn in rec.turns:
        game.play(turn)
        yield game.state()


def random_castle_state(seed: int, tiles: int = 30) -> State:
    """A random position of The Castle with ``tiles`` tiles inside the wall."""
    engine = _castle_engine()
    if engine is not None:
        make, cls = engine
        try:
            rec = make(seed, turns=tiles)
        except TypeError:
            rec = make(seed)
        game = cls.from_record(rec)
        state = game.state()
        for turn in rec.turns:
            game.play(turn)
            state = game.state()
        return state
    return _standin_castle_state(seed, tiles)


def _standin_castle_state(seed: int, tiles: int, follower_rate: float = 0.5, followers: int = 5) -> State:
    """Random legal castle tiles inside the wall, followers on unoccupied features (stand-in)."""
    from scorer.castle_rules import load_layout

    rng = random.Random(seed)
    catalog = load_catalog()
    layout = load_layout("standard")
    deck = catalog.deck("castle")
    rng.shuffle(deck)
    board = board_for("castle", layout)
    players = CASTLE_COLOURS
    meeples: list[MeepleEntry] = []
    occupied: set[int] = set()
    supply = dict.fromkeys(players, followers)
    i = 0
    while deck and len(board.tiles) < tiles:
        tile = catalog.get(deck.pop())
        assert tile is not None
        spots = board.legal_placements(tile)
        if not spots:
            continue
        at, rot = spots[rng.randrange(len(spots))]
        board.place(at, tile, rot)
        player = players[i % 2]
        i += 1
        if supply[player] and rng.random() < follower_rate:
            options = []
            for seg in tile.segments:
                from scorer.geometry import rotate_slot
                slot = rotate_slot(seg.slots[0], rot)
                node = board.node_at(at, slot)
                if node is None:
                    continue
                if board.graph.find(node) in {board.graph.find(n) for n in occupied}:
                    continue
                options.append((slot, node))
            if options:
                slot, node = options[rng.randrange(len(options))]
                occupied.add(node)
                supply[player] -= 1
                meeples.append(MeepleEntry(player=player, at=at, on=slot))
    tiles_out = tuple(TileEntry(at=c, tile=p.tile, rot=p.rot) for c, p in board.tiles.items())
    return State(game="castle", players=players, tiles=tiles_out, meeples=tuple(meeples),
                 scores=dict.fromkeys(players, 0), layout=layout)


def follower_role(kind: Kind) -> str:
    """How a figure lies or stands on a segment: ``lying`` for farmers and merchants."""
    return "lying" if kind in (Kind.FIELD, Kind.COURT) else "standing"
