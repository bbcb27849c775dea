"""Tests of the grid refinement on the seams (vision/refine.py). Synthetic images only."""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import load_config
from vision.locate import Grid
from vision.refine import refine_grid

TILE = 50  # pixels per tile in the test image
ORIGIN = (100, 150)  # image position of the board's cell (0, 0)


def _board(cols: int = 8, rows: int = 6, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A grey image of a cols x rows board of textured tiles with dark seams on a plain table,
    and its tile mask."""
    rng = np.random.default_rng(seed)
    h, w = 600, 700
    gray = np.full((h, w), 90, np.uint8)
    mask = np.zeros((h, w), bool)
    x0, y0 = ORIGIN
    for i in range(cols):
        for j in range(rows):
            ys, xs = slice(y0 + j * TILE, y0 + (j + 1) * TILE), slice(x0 + i * TILE, x0 + (i + 1) * TILE)
            gray[ys, xs] = rng.integers(150, 190)
            mask[ys, xs] = True
            # a road across the tile's middle: a strong straight edge that is not a seam
            if (i + j) % 2:
                gray[y0 + j * TILE + 22: y0 + j * TILE + 28, xs] = 235
    gray[mask] = np.clip(gray[mask] + rng.normal(0, 6, mask.sum()), 0, 255).astype(np.uint8)
    for i in range(cols + 1):
        gray[y0: y0 + rows * TILE, x0 + i * TILE - 1: x0 + i * TILE + 1] = 60
    for j in range(rows + 1):
        gray[y0 + j * TILE - 1: y0 + j * TILE + 1, x0: x0 + cols * TILE] = 60
    return gray, mask


def _grid(pitch: float, dx: float, dy: float) -> Grid:
    H = np.array([[1 / pitch, 0, -(ORIGIN[0] + dx) / pitch], [0, 1 / pitch, -(ORIGIN[1] + dy) / pitch], [0, 0, 1]])
    return Grid(H=H, cols=range(0, 8), rows=range(0, 6), pitch_px=pitch)


def _corner_error(grid: Grid, cols: int = 8, rows: int = 6) -> float:
    """The largest distance, in tile sides, between the grid's lattice points over a board of
    ``cols`` x ``rows`` tiles and the true ones."""
    xs, ys = np.meshgrid(np.arange(cols + 1), np.arange(rows + 1))
    pts = np.c_[xs.ravel(), ys.ravel()].astype(float)
    truth = np.array(ORIGIN, float) + TILE * pts
    return float(np.linalg.norm(grid.to_image(pts) - truth, axis=1).max() / TILE)


def test_a_grid_a_little_off_is_moved_onto_the_seams() -> None:
    """A pitch 4 percent long and a lattice 6 px off (a quarter tile off at the far side) come
    back onto the seams, not onto the roads through the tiles' middles."""
    gray, mask = _board()
    cfg = load_config(None)["refine"]
    off = _grid(52.0, 6.0, -5.0)
    assert _corner_error(off) > 0.25
    fixed = refine_grid(gray, off, mask, cfg)
    assert _corner_error(fixed) < 0.06  # 3 px at the worst corner, from 13
    assert abs(fixed.pitch_px - TILE) < 1.0
    # a grid already on the seams stays there
    assert _corner_error(refine_grid(gray, _grid(50.0, 0.0, 0.0), mask, cfg)) < 0.04  # 2 px


def test_a_grid_without_seams_to_find_is_returned_as_it_was() -> None:
    """On a blank photo (no tile, no seam) and with refinement off the grid is unchanged."""
    cfg = load_config(None)["refine"]
    grid = _grid(52.0, 6.0, -5.0)
    blank = np.full((600, 700), 120, np.uint8)
    assert refine_grid(blank, grid, np.zeros(blank.shape, bool), cfg) is grid
    gray, mask = _board()
    assert refine_grid(gray, grid, mask, {**cfg, "refine_rounds": 0}) is grid


def test_a_change_at_the_end_of_a_seams_search_is_not_taken_for_the_seam() -> None:
    """Where every lattice edge is searched (a table read as tile colour, so the whole view
    counts as board) and a strong edge lies just beyond the reach of the seams of the upper
    rows (a plank, a road beside the seam), the brightness change grows towards the end of
    those searches. Taken for seams, those ends pull the grid off the board's true seams (photo
    game 1129's last photo: a shear of up to 0.44 of a tile); left out, the grid on the seams
    stays within a tenth of a tile of them (not pulled half a tile off)."""
    gray, _ = _board()
    x0, y0 = ORIGIN
    for i in range(9):
        # a black band 17 px right of each vertical seam in the upper three rows (the search
        # reaches 0.3 tile, 15 px)
        gray[y0: y0 + 3 * TILE, x0 + i * TILE + 17: x0 + i * TILE + 29] = 0
    gray = cv2.GaussianBlur(gray, (0, 0), 2.0)
    everywhere = np.ones(gray.shape, bool)
    cfg = load_config(None)["refine"]
    assert cfg["refine_peaks_inside"]
    on_seams = _grid(50.0, 0.0, 0.0)
    assert _corner_error(refine_grid(gray, on_seams, everywhere, cfg)) < 0.1  # 0.06
    pulled = refine_grid(gray, on_seams, everywhere, {**cfg, "refine_peaks_inside": False})
    assert _corner_error(pulled) > 0.3  # 0.59


def test_a_small_board_with_few_seams_is_refined_too() -> None:
    """A board of six tiles (3 x 2) has 8 vertical and 9 horizontal seam segments: with at least
    12 asked per axis its grid was never refined, and a grid a quarter tile off at the far side
    stayed there (fresh photo game 3655: a figure on the far corner of an 8-tile board fell off
    the tiles). With ``refine_min_seams`` 6 it comes back onto the seams."""
    gray, mask = _board(cols=3, rows=2)
    cfg = load_config(None)["refine"]
    off = _grid(52.0, 6.0, -5.0)
    assert _corner_error(off, 3, 2) > 0.15
    assert _corner_error(refine_grid(gray, off, mask, cfg), 3, 2) < 0.06
    assert refine_grid(gray, off, mask, {**cfg, "refine_min_seams": 12}) is off


def test_a_figure_on_the_far_corner_of_a_small_steep_board_stays_on_its_tile() -> None:
    """Fresh photo game 3655, the photo after the sixth turn (8 tiles, a steep view): blue's thief
    stands on the far corner of the turn's L. The grid, left unrefined with the old 12 seams per
    axis, lay a quarter tile off there and the thief's foot half a tile off the tiles: it was
    never read, and the next turn completed its road (blue 2 short). Refined, it is read on the
    L."""
    from bench.bench_follow import photo_of, true_states
    from scorer import random_game
    from scorer.follow import align
    from vision.reader import BoardReader
    record = random_game(3655, ("red", "blue"), turns=20)
    states, _, _ = true_states(record)
    state = states[6]
    turn = record.turns[5]
    assert turn.player == "blue" and turn.meeple is not None
    assert any(m.player == "blue" and m.at == turn.at for m in state.meeples)
    photo = photo_of(state, 3655)

    def blue_cells(config: dict | None) -> list[tuple[int, int]]:
        d = BoardReader(config).read_detail(photo.jpeg, players=("red", "blue"), prior=states[5])
        to_truth, _ = align({e.at: (e.tile, e.rot) for e in state.tiles}, d.reading.state)
        return [to_truth.cell(m.at) for m in d.reading.state.meeples if m.player == "blue"]

    assert blue_cells(None) == [turn.at]
    assert blue_cells({"refine": {"refine_min_seams": 12}}) == []
