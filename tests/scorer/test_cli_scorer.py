"""``carcam score`` and ``carcam replay``: output in words, JSON formats, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from scorer import game_to_json, random_game


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, doc, name: str = "doc.json") -> str:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(p)


STATE = {"format": "carcam/state@1", "game": "base", "players": ["red", "blue"],
         "tiles": [{"at": [0, 0], "tile": "E", "rot": 0}, {"at": [0, -1], "tile": "E", "rot": 180}],
         "meeples": [{"player": "red", "at": [0, 0], "on": "N"}], "scores": {"red": 5}}


def test_score_prints_totals_and_reasons(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "score", write(tmp_path, STATE))
    assert code == 0
    assert "red" in out and "9" in out  # 5 on the track + 4 for the completed 2-tile city
    assert "completed city: 2 tiles x 2; red alone (1 follower)" in out


def test_score_json_is_carcam_score_v1(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "score", "--json", write(tmp_path, STATE))
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "carcam/score@1"
    assert doc["final"] == {"red": 9, "blue": 0}
    assert set(doc) == {"format", "final", "events", "open"}
    assert all(set(e) == {"player", "points", "what", "tiles", "why"} for e in doc["events"])
    assert all(set(o) == {"kind", "tiles", "owners", "points_now", "cells"} for o in doc["open"])


def test_replay_prints_every_turn_and_final_totals(capsys, tmp_path) -> None:
    record = random_game(3, players=("red", "blue"), turns=20)
    code, out, _ = run(capsys, "replay", write(tmp_path, game_to_json(record)))
    assert code == 0
    assert out.count("\nturn ") + out.startswith("turn ") == 20
    assert "Final scores" in out
    code, out, _ = run(capsys, "replay", "--json", write(tmp_path, game_to_json(record)))
    doc = json.loads(out)
    assert len(doc["turns"]) == 20 and doc["score"]["format"] == "carcam/score@1"


def test_replay_rejects_an_illegal_turn_with_its_number(capsys, tmp_path) -> None:
    doc = {"format": "carcam/game@1", "players": ["red", "blue"], "start": {"tile": "D", "at": [0, 0], "rot": 0},
           "turns": [{"player": "red", "tile": "U", "at": [1, 0], "rot": 0},
                     {"player": "blue", "tile": "E", "at": [5, 5], "rot": 0}]}
    code, _, err = run(capsys, "replay", write(tmp_path, doc))
    assert code == 2 and "turn 2:" in err and "does not share an edge" in err


def _bad(**changes):
    doc = json.loads(json.dumps(STATE))
    for path, value in changes.items():
        target = doc
        keys = path.split(".")
        for k in keys[:-1]:
            target = target[int(k)] if k.isdigit() else target[k]
        target[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return doc


@pytest.mark.parametrize("doc, expected", [
    ('{"format": "carcam/state@1", "tiles": [', "malformed JSON at line 1"),
    ({"format": "carcam/state@2"}, "unsupported version \"carcam/state@2\""),
    ({"format": "chess/fen@1"}, "unknown format"),
    (_bad(colour="red"), "colour: unknown key"),
    (_bad(**{"tiles.0.tile": "Z"}), "tiles[0].tile: unknown tile id \"Z\""),
    (_bad(**{"tiles.0.rot": 45}), "tiles[0].rot: rotation 45 is not 0/90/180/270"),
    (_bad(**{"tiles.1.at": [0, 0]}), "tiles[1].at: two tiles on cell [0, 0]"),
    (_bad(**{"meeples.0.on": "C"}), "meeples[0].on: tile E at [0, 0] (rot 0) has no segment at slot C"),
    (_bad(**{"meeples.0.player": "green"}), "meeples[0].player: player \"green\" is not in players"),
    (_bad(**{"tiles.0.rot": 180}), "illegal board: [0, -1] / [0, 0]: E (rot 180) shows city on its S edge but E (rot 180) shows field"),
    ([1, 2], "document: expected a JSON object"),
])
def test_bad_input_gets_one_line_and_exit_2(capsys, tmp_path, doc, expected) -> None:
    code, out, err = run(capsys, "score", write(tmp_path, doc))
    assert code == 2, (out, err)
    assert expected in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_is_a_clear_error(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "score", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err


def test_lenient_scores_a_board_with_conflicts(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "score", "--lenient", write(tmp_path, _bad(**{"tiles.0.rot": 180})))
    assert code == 0 and "Scores" in out
