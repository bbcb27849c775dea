"""Tests of the per-cell stages (occupancy, templates, shields, classification on a true grid).

They use synthetic photos only (procedural art), so they run without the shared folder.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_classify import Tally, run_one, true_grid
from vision.classify import shield_share
from vision.config import load_config
from vision.reader import BoardReader
from vision.synth import generate, preset
from vision.templates import CITY, FIELD, soften


def test_soften_keeps_the_hard_map_and_sums_to_one() -> None:
    classes = np.full((12, 12), FIELD, dtype=np.int8)
    classes[:4] = CITY
    soft = soften(classes, 0.06)
    assert soft.shape == (12, 12, 4)
    assert np.allclose(soft.sum(-1), 1.0)
    assert (soft.argmax(-1) == classes).all()
    assert 0.0 < soft[3, 5, CITY] < 1.0  # a ramp at the boundary, not a step


def test_shield_share_sees_interior_blue_and_ignores_the_border() -> None:
    cfg = load_config()["classify"]
    patch = 48
    lab = np.zeros((patch, 2 * patch, 3), np.float32)
    lab[...] = (150, 100, 170)  # field green
    lab[20:28, 10:20] = (90, 150, 60)  # a blue crest in cell 0
    lab[:, patch:patch + 3] = (90, 150, 60)  # blue table showing through the gap of cell 1
    protos = np.array([[150, 100, 170], [160, 134, 168], [205, 128, 138], [90, 150, 150]], np.float32)
    share = shield_share(lab, np.zeros(lab.shape[:2], bool), 1, 2, protos, cfg)
    assert share[0, 0] >= float(cfg["shield_min_frac"])
    assert share[0, 1] == 0.0


@pytest.mark.parametrize("seed", [11])
def test_true_grid_reading_finds_every_tile(seed: int) -> None:
    """On the true grid of a small synthetic photo every tile cell is found, no empty cell is taken
    for a tile, and most tiles are read right."""
    params = preset("easy").with_size(1200, 900)
    photo = generate(seed, params, seed=seed, game="base", tiles=12)
    grid = true_grid(photo.reading, 1.0)
    assert abs(grid.pitch_px) > 10
    tally = Tally()
    run_one(BoardReader(), photo.jpeg, photo.reading, tally, "t")
    assert tally.extra == 0
    assert not [e for e in tally.errors if "missed" in e]
    assert tally.post_type / tally.tiles >= 0.75
