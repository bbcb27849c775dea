"""``carcam follow``: state and reading files in place of photos."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cli.main import main
from scorer import Game, parse_game, random_game, replay, state_to_json
from scorer.formats import Reading, reading_to_json


def _write_states(tmp_path: Path, seed: int = 7, turns: int = 8) -> tuple[list[str], dict[str, int]]:
    rec = random_game(seed, ("red", "blue"), turns=turns)
    game = Game.from_record(rec)
    paths = []

    def save(i: int) -> None:
        state = replace(game.state(), scores={})
        path = tmp_path / f"s{i}.json"
        if i % 2:  # every other one as a reading, as the photo reader writes it
            doc = reading_to_json(Reading(state=state, image=(4000, 3000), warnings=("synthetic",)))
        else:
            doc = state_to_json(state)
        path.write_text(json.dumps(doc))
        paths.append(str(path))

    save(0)
    for i, t in enumerate(rec.turns, 1):
        game.play(t)
        save(i)
    return paths, game.final_report().final


def test_follow_writes_a_game_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths, final = _write_states(tmp_path)
    out = tmp_path / "game.json"
    # skip one photo: the gap of two turns must be inferred too
    rc = main(["follow", *paths[:3], *paths[4:], "-o", str(out)])
    text = capsys.readouterr().out
    assert rc == 0
    assert "Scores (if the game ended now)" in text
    record = parse_game(json.loads(out.read_text()))
    assert len(record.turns) == len(paths) - 1
    assert "AMBIGUOUS" not in text  # seed 7: no hidden follower in these turns
    assert replay(record)[1].final == final


def test_follow_json_and_continue_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths, _ = _write_states(tmp_path, seed=9, turns=5)
    out = tmp_path / "game.json"
    assert main(["follow", *paths[:3], "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["follow", "--record", str(out), "--json", *paths[2:]]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["record"]["turns"]) == len(paths) - 1
    assert doc["score"]["format"] == "carcam/score@1"
    assert doc["steps"][0]["turns"] == 0  # the same photo again adds nothing


def test_follow_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "carcam/score@1"}')
    assert main(["follow", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("carcam follow:") and len(err.strip().splitlines()) == 1
    assert main(["follow", str(tmp_path / "missing.jpg")]) == 2


def test_follow_a_castle_game_from_state_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``carcam follow --game castle``: the first file shows the empty castle (no start tile);
    each later one a turn more."""
    from scorer.castle_rules import CastleGame, random_castle_game

    rec = random_castle_game(11, turns=6, follower_rate=0.0)
    game = CastleGame.from_record(rec)
    paths = []
    for i in range(len(rec.turns) + 1):
        if i:
            game.play(rec.turns[i - 1])
        path = tmp_path / f"c{i}.json"
        path.write_text(json.dumps(state_to_json(replace(game.state(), scores={}, wall_tiles={}))))
        paths.append(str(path))
    out = tmp_path / "castle.json"
    assert main(["follow", "--game", "castle", *paths, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    record = parse_game(json.loads(out.read_text()))
    assert record.game == "castle" and record.start is None
    assert [(t.player, t.tile.id if t.tile else None, t.at, t.rot) for t in record.turns] == \
        [(t.player, t.tile.id if t.tile else None, t.at, t.rot) for t in rec.turns if not t.discarded]
    assert replay(record)[1].final == game.final_report().final
    assert "black laid" in text


def test_an_answer_given_with_choose_is_kept_against_the_next_photo(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``--choose STEP:N`` is the players' answer: red's thief on a U's road, read on the road by
    the photo of its turn and on the field beside it by the next (the photos tie, so the step
    asks), keeps the road the answer gave against the photo after, which reads the field again;
    without an answer the photos alone, 2 to 1, put it on the field (photo game 1343)."""
    from scorer import Turn, load_catalog

    cat = load_catalog()
    game = Game(players=("red", "blue"))
    game.start(cat.tiles["D"])
    start = state_to_json(replace(game.state(), scores={}))
    game.play(Turn("red", cat.tiles["U"], (1, 0), 0, meeple="E"))  # the road runs E-W
    on_road = state_to_json(replace(game.state(), scores={}))
    on_field = json.loads(json.dumps(on_road))
    for m in on_field["meeples"]:
        m["on"] = "N"
    paths = []
    for i, doc in enumerate((start, on_road, on_field, on_field)):
        paths.append(str(tmp_path / f"s{i}.json"))
        Path(paths[-1]).write_text(json.dumps(doc))

    def follower(*choose: str) -> str:
        out = tmp_path / "game.json"
        assert main(["follow", *paths, *choose, "-o", str(out)]) == 0
        text = capsys.readouterr().out
        assert "[3]" in text and "AMBIGUOUS" in text  # the third photo asks
        (turn,) = parse_game(json.loads(out.read_text())).turns
        assert turn.meeple is not None
        u = cat.tiles["U"]
        return u.segments[u.segment_index_on_board(turn.meeple, 0)].kind.value  # type: ignore[index]

    assert follower() == "field"
    assert follower("--choose", "3:1") == "road"  # the record as it stood: the road
