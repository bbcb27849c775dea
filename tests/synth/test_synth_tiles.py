"""Every catalog tile renders in all four rotations; rotating equals rendering rotated; a
figure's point lies inside its segment's region; scans when present."""

from __future__ import annotations

import numpy as np
import pytest

from scorer import load_catalog
from scorer.catalog import Kind, parse_tile
from vision.synth import load_scans, render_tile, segment_point
from vision.synth.tileart import LABEL_RES, layout_tile, rotate_unit_point

TILES = sorted(load_catalog().tiles.values(), key=lambda t: t.id or "")


@pytest.mark.parametrize("tile", TILES, ids=[t.id for t in TILES])
def test_renders_in_all_rotations(tile) -> None:
    r0 = render_tile(tile, 0, 64)
    assert r0.shape == (64, 64, 3) and r0.dtype == np.uint8
    for k, rot in enumerate((90, 180, 270), start=1):
        r = render_tile(tile, rot, 64)
        assert np.array_equal(r, np.rot90(r0, k=-k)), rot


def test_every_segment_has_a_region() -> None:
    rng = np.random.default_rng(0)
    for tile in TILES:
        lay = layout_tile(tile, LABEL_RES)
        for i, seg in enumerate(tile.segments):
            if seg.kind is Kind.MONASTERY:
                continue
            assert (lay.labels == i + 1).any(), (tile.id, i, seg)
            x, y = segment_point(tile, i, rng)
            px = int(round(x * (LABEL_RES - 1))), int(round(y * (LABEL_RES - 1)))
            assert lay.labels[px[1], px[0]] == i + 1, (tile.id, i)


def test_inline_tile_renders() -> None:
    tile = parse_tile({"segments": [
        {"kind": "city", "slots": ["Nw", "N", "Ne"], "shield": True},
        {"kind": "road", "slots": ["W", "E"]},
        {"kind": "field", "slots": ["En", "Wn"], "cities": ["N"]},
        {"kind": "field", "slots": ["Es", "Se", "S", "Sw", "Ws"]}]}, "inline")
    img = render_tile(tile, 270, 90)
    assert img.shape == (90, 90, 3)


def test_rotate_unit_point() -> None:
    assert rotate_unit_point((0.5, 0.0), 90) == (1.0, 0.5)  # north edge faces east
    assert rotate_unit_point((0.0, 0.0), 180) == (1.0, 1.0)


@pytest.mark.skipif(load_scans() is None, reason="classic scans folder absent")
def test_scans_rotate_like_the_truth() -> None:
    scans = load_scans()
    assert scans is not None
    tile = load_catalog().get("D")
    r0 = scans.render(tile, 0, 100)
    assert np.array_equal(scans.render(tile, 90, 100), np.rot90(r0, k=-1))
