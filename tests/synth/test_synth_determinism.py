"""Same seed, same bytes; the command line; the bundled sample images."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from scorer import Position, game_to_json, parse_reading, random_game, state_to_json
from vision.synth import generate, load_scans, preset, random_state

ROOT = Path(__file__).resolve().parents[2]


def test_same_seed_same_bytes() -> None:
    p = preset("hard").with_size(480, 360)
    a = generate(5, p, seed=3, tiles=12)
    b = generate(5, p, seed=3, tiles=12)
    c = generate(5, p, seed=4, tiles=12)
    assert a.jpeg == b.jpeg
    assert a.reading == b.reading
    assert a.jpeg != c.jpeg


def test_cli_writes_identical_files(tmp_path: Path) -> None:
    for d in ("a", "b"):
        assert main(["synth", "--game", "base", "--tiles", "12", "--seed", "7", "--size", "400x300",
                     "-o", str(tmp_path / d)]) == 0
    for f in ("photo.jpg", "truth.json"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    reading = parse_reading(json.loads((tmp_path / "a" / "truth.json").read_text()))
    assert Position(reading.state).status() == []


def test_cli_state_and_game_record(tmp_path: Path) -> None:
    state = random_state(2, tiles=6, players=2)
    (tmp_path / "s.json").write_text(json.dumps(state_to_json(state)))
    assert main(["synth", "--state", str(tmp_path / "s.json"), "--size", "320x240", "-o", str(tmp_path / "s")]) == 0
    assert (tmp_path / "s" / "photo.jpg").is_file()
    rec = random_game(3, players=("red", "blue"), turns=3)
    (tmp_path / "g.json").write_text(json.dumps(game_to_json(rec)))
    assert main(["synth", "--game-record", str(tmp_path / "g.json"), "--size", "320x240",
                 "-o", str(tmp_path / "g")]) == 0
    for n in range(1, len(rec.turns) + 1):
        reading = parse_reading(json.loads((tmp_path / "g" / f"turn-{n:03d}" / "truth.json").read_text()))
        assert len(reading.state.tiles) == n + 1 - sum(t.discarded for t in rec.turns[:n])


def test_cli_bad_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "--preset", "nope", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown preset" in err


@pytest.mark.skipif(load_scans() is None, reason="classic scans folder absent")
def test_scans_photo(tmp_path: Path) -> None:
    assert main(["synth", "--tiles", "10", "--seed", "1", "--size", "400x300", "--art", "scans",
                 "-o", str(tmp_path)]) == 0


@pytest.mark.parametrize("name", ["base-midgame", "base-final", "castle-midgame"])
def test_sample_images(name: str) -> None:
    folder = ROOT / "sample_images" / name
    if not folder.is_dir():
        pytest.skip(f"{name} not generated")
    photo = folder / "photo.jpg"
    assert photo.stat().st_size < 600_000
    reading = parse_reading(json.loads((folder / "truth.json").read_text()))
    assert reading.image == (1600, 1200)
    if name == "base-final":
        assert len(reading.state.tiles) == 72
    if reading.state.game == "base":
        assert Position(reading.state).status() == []
    assert sum(f.stat().st_size for f in (ROOT / "sample_images").rglob("*") if f.is_file()) < 5_000_000
