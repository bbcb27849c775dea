"""Turn keys of The Tower and Bridges, Castles & Bazaars in a game record."""

from __future__ import annotations

import pytest

from scorer import CarcamError, Game, IllegalMoveError, parse_game


def record(turns, expansions=("tower",)):
    return parse_game({"format": "carcam/game@1", "expansions": list(expansions), "players": ["red", "blue"],
                       "start": {"tile": "D", "at": [0, 0], "rot": 0}, "turns": turns})


def play_all(rec):
    game = Game.from_record(rec)
    return game, [game.play(t) for t in rec.turns]


def test_tower_capture_takes_a_prisoner_and_ransom_pays_3() -> None:
    rec = record([
        {"player": "red", "tile": "U", "at": [1, 0], "rot": 0, "meeple": {"on": "E"}},
        {"player": "blue", "tile": "TO/RR", "at": [2, 0], "rot": 90,
         "tower": {"at": [2, 0], "action": "build", "capture": {"at": [1, 0], "on": "E"}}},
        {"player": "red", "tile": "U", "at": [-1, 0], "rot": 0, "ransom": "blue"},
    ])
    game, results = play_all(rec)
    assert game.prisoners == {"red": [], "blue": []}
    assert game.supply["red"] == 7
    assert results[2].points == {"red": -3, "blue": 3}
    assert "ransom paid to blue" in results[2].events[0].why


def test_tower_capture_out_of_reach_is_refused_and_rolls_back() -> None:
    rec = record([
        {"player": "red", "tile": "U", "at": [1, 0], "rot": 0, "meeple": {"on": "E"}},
        {"player": "blue", "tile": "U", "at": [2, 0], "rot": 0},
        {"player": "red", "tile": "TO/RR", "at": [3, 0], "rot": 90,
         "tower": {"at": [3, 0], "action": "build", "capture": {"at": [1, 0], "on": "E"}}},
    ])
    game = Game.from_record(rec)
    game.play(rec.turns[0])
    game.play(rec.turns[1])
    with pytest.raises(IllegalMoveError, match="turn 3: tower.capture: \\[1, 0\\] is out of reach"):
        game.play(rec.turns[2])
    assert (3, 0) not in game.board.tiles and len(game.figures) == 1 and game.towers == {}


def test_bazaar_payment_moves_points() -> None:
    rec = record([{"player": "red", "tile": "BB/F.b", "at": [0, 1], "rot": 0,
                   "bazaar": [{"tile": "E", "buyer": "blue", "points": 4, "paid_to": "red"}]}],
                 expansions=("bcb",))
    _, results = play_all(rec)
    assert results[0].points == {"red": 4, "blue": -4}


def test_bridges_are_refused_until_supported() -> None:
    rec = record([{"player": "red", "tile": "U", "at": [1, 0], "rot": 0,
                   "bridge": {"at": [1, 0], "axis": "NS"}}], expansions=("bcb",))
    with pytest.raises(CarcamError, match="'bridge' .* is not supported"):
        play_all(rec)
