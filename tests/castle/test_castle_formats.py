"""The Castle through the formats and the command line: the shipped wall and tiles, records,
and one-line errors (exit code 2) for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from scorer.castle_rules import load_layout, random_castle_game
from scorer.catalog import load_catalog
from scorer.formats import game_to_json

LAYOUT = {"cells": [[0, 0], [1, 0], [2, 0]], "corners": [[0, 1], [12, 13]],
          "start_fields": [{"at": [0, 0], "side": "W", "slots": ["court", "path", "court"]}]}
PATH_WE = {"segments": [{"kind": "path", "slots": ["W", "E"]},
                        {"kind": "court", "slots": ["Wn", "Nw", "N", "Ne", "En"]},
                        {"kind": "court", "slots": ["Es", "Se", "S", "Sw", "Ws"]}]}
PLAZA_W = {"segments": [{"kind": "path", "slots": ["W"]},
                        {"kind": "court", "slots": ["Nw", "N", "Ne", "En", "E", "Es", "Se", "S", "Sw", "Ws", "Wn"]}]}


def test_shipped_wall_keeps_every_published_fact() -> None:
    layout = load_layout("standard")
    assert layout.provisional and len(layout.cells) == 76 and len(layout.start_fields) == 7
    assert len(layout.corners) == 14 and layout.corners[:2] == ((0, 1), (12, 13))
    numbers = [n for c in layout.corners for n in c]
    assert len(set(numbers)) == 28 and all(0 <= n <= 99 and c[1] == c[0] + 1 for c in layout.corners for n in c)
    xs = {x for x, _ in layout.cells}
    ys = {y for _, y in layout.cells}
    assert len(layout.cells) < len(xs) * len(ys)          # irregular, not a rectangle


def test_sixty_castle_tiles() -> None:
    deck = load_catalog().deck("castle")
    assert len(deck) == 60 and all(t.startswith("CA/") for t in deck)


def record(turns: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"format": "carcam/game@1", "game": "castle", "players": ["black", "white"], "layout": LAYOUT,
            "turns": turns, **extra}


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], cmd: str, doc: dict[str, Any]) -> tuple[int, str, str]:
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(doc))
    code = main([cmd, str(f), "--json"] if cmd == "score" else [cmd, str(f)])
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_points_with_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = record([{"player": "black", "tile": PATH_WE, "at": [0, 0], "rot": 0, "meeple": {"on": "E"}},
                  {"player": "white", "tile": PLAZA_W, "at": [1, 0], "rot": 0}])
    code, out, err = run(tmp_path, capsys, "replay", doc)
    assert code == 0 and err == ""
    assert "black +3 path: completed path: 3 tiles (2 castle tiles + 1 start field) x 1; black alone (1 herald)" in out


def test_score_json_of_a_random_game_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.castle_rules import CastleGame
    from scorer.formats import state_to_json
    rec = random_castle_game(11)
    game = CastleGame.from_record(rec)
    for t in rec.turns:
        game.play(t)
    code, out, _ = run(tmp_path, capsys, "score", state_to_json(game.state()))
    assert code == 0
    assert json.loads(out)["final"] == game.final_report().final
    assert json.loads(json.dumps(game_to_json(rec)))["layout"] == "standard"


BAD = [
    ("a tile outside the wall", "replay",
     record([{"player": "black", "tile": PATH_WE, "at": [5, 5], "rot": 0}]),
     "turn 1: inline tile at [5, 5] rot 0: cell lies outside the castle wall"),
    ("a path that does not continue", "replay",
     record([{"player": "black", "tile": PATH_WE, "at": [0, 0], "rot": 90}]),
     "turn 1: inline tile at [0, 0] rot 90: inline tile (rot 90) shows court at its W edge (W) but the start field shows path"),
    ("a third player", "replay",
     {**record([]), "players": ["black", "white", "red"]}, "players[2]: The Castle is for two players, got 3"),
    ("a wall tile outside 1-9", "replay",
     record([{"player": "black", "tile": PATH_WE, "at": [0, 0], "rot": 0, "wall_tiles_used": [12]}]),
     "turns[0].wall_tiles_used[0]: 12 is outside 1..9"),
    ("a held wall tile outside 1-9", "score",
     {"format": "carcam/state@1", "game": "castle", "players": ["black", "white"], "layout": LAYOUT,
      "wall_tiles": {"white": {"held": [0]}}}, "wall_tiles.white.held[0]: wall tile 0 is not 1..9"),
    ("a keep not on a completed house", "score",
     {"format": "carcam/state@1", "game": "castle", "players": ["black", "white"], "layout": LAYOUT,
      "tiles": [{"at": [0, 0], "tile": PATH_WE, "rot": 0}], "palas": {"black": [0, 0]}},
     "palas.black: the keep must stand on a completed house, and [0, 0] has none"),
    ("a tile outside the wall in a state", "score",
     {"format": "carcam/state@1", "game": "castle", "players": ["black", "white"], "layout": LAYOUT,
      "tiles": [{"at": [0, 0], "tile": PATH_WE, "rot": 0}, {"at": [0, 3], "tile": PLAZA_W, "rot": 0}]},
     "tile inline tile lies outside the castle wall"),
    ("a corner tile on a missing corner", "replay",
     record([], corner_tiles={"14": 3}), "corner_tiles.14: no corner tower of the layout starts at track number 14"),
]


@pytest.mark.parametrize(("name", "cmd", "doc", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_naming_the_item(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                               cmd: str, doc: dict[str, Any], message: str) -> None:
    code, out, err = run(tmp_path, capsys, cmd, doc)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
