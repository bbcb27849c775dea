"""A tiny board's grid from its outline polygon (vision.outline), on masks drawn through known
camera homographies: the right lattice is found, square tiles pass and stretched ones do not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import load_config
from vision.locate import _apply
from vision.outline import _square_error, inner_seams, lattice_corners, outline_grids, outline_polygons

W, H = 1200, 900


def _camera(tilt_deg: float, focal: float = 0.9, yaw_deg: float = 20.0, side: float = 0.25,
            centred: bool = True) -> np.ndarray:
    """Board units -> image pixels of a pinhole camera (focal length ``focal`` of the longer side,
    principal point at the centre) looking at the table tilted by ``tilt_deg`` from straight
    down, the board turned by ``yaw_deg``, one tile ``side`` of the camera's distance; with
    ``centred`` the photo is shifted so the board's middle is at its centre (a crop: the principal
    point moves off the centre by as much)."""
    f = focal * W
    K = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1]])
    t, y = np.radians(tilt_deg), np.radians(yaw_deg)
    Rz = np.array([[np.cos(y), -np.sin(y), 0], [np.sin(y), np.cos(y), 0], [0, 0, 1]])
    Rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    R = Rx @ Rz
    # board point (u, v) -> camera coordinates R (side*u, side*v, 0) + (0, 0, 1)
    M = K @ np.column_stack([R[:, 0] * side, R[:, 1] * side, [0, 0, 1.0]])
    if not centred:
        return M
    # the board's middle (about (1, 1) for these shapes) at the photo's centre
    centre = _apply(M, np.array([[1.0, 1.0]]))[0]
    shift = np.array([[1, 0, W / 2 - centre[0]], [0, 1, H / 2 - centre[1]], [0, 0, 1]])
    return shift @ M


def _mask(cells: list[tuple[int, int]], M: np.ndarray) -> np.ndarray:
    """The board region of tiles on ``cells`` seen through board -> image homography ``M``."""
    mask = np.zeros((H, W), np.uint8)
    for c in cells:
        quad = _apply(M, np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float) + np.array(c, float))
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return mask > 0


@pytest.fixture(scope="module")
def cfg() -> dict:
    return load_config(None)["locate"]


def _lattice_error(grid, M: np.ndarray, cells: list[tuple[int, int]]) -> float:
    """How far the true tile corners fall from the grid's lattice points (in tiles)."""
    corners = np.array([[c[0] + dx, c[1] + dy] for c in cells for dx in (0, 1) for dy in (0, 1)], float)
    q = grid.to_board(_apply(M, corners))
    return float(np.abs(q - np.round(q)).max())


@pytest.mark.parametrize("tilt", [0.0, 35.0, 55.0])
def test_an_l_of_three_tiles_gets_its_own_lattice(cfg: dict, tilt: float) -> None:
    cells = [(0, 0), (1, 0), (0, 1)]
    M = _camera(tilt)
    grids = outline_grids(_mask(cells, M), cfg)
    assert grids, "no grid found for a clean L of three tiles"
    best = grids[0][1]
    assert _lattice_error(best, M, cells) < 0.1
    assert len(best.cols) * len(best.rows) == 4  # its 2 x 2 bounding box


def test_two_tiles_in_a_row_are_among_the_grids_and_a_stretched_cell_is_not(cfg: dict) -> None:
    cells = [(0, 0), (1, 0)]
    M = _camera(45.0)
    grids = [g for _, g in outline_grids(_mask(cells, M), cfg)]
    assert any(_lattice_error(g, M, cells) < 0.1 and len(g.cols) * len(g.rows) == 2 for g in grids)
    # one cell over both tiles is a 2:1 rectangle on the table, never square; the lattice twice
    # as fine (4 x 2 quarter tiles) fits the outline as well and is left to the comb search
    assert not any(len(g.cols) * len(g.rows) in (1, 8) for g in grids)


def test_square_error_tells_square_tiles_from_stretched_ones() -> None:
    M = _camera(50.0, focal=1.1, centred=False)
    H_square = np.linalg.inv(M)
    stretch = np.diag([2.0, 1.0, 1.0])  # board units twice as long along x: 2:1 cells
    assert _square_error(H_square, (H, W), (0.6, 3.0)) < 0.02
    assert _square_error(stretch @ H_square, (H, W), (0.6, 3.0)) > 0.2


def test_lattice_corners_keep_the_orientation_and_close_up() -> None:
    M = _camera(30.0)
    poly = _apply(M, np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], float))
    found = lattice_corners(poly, 8, 4)
    assert any(np.array_equal(c, [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]) for c in found)
    for c in found:  # every candidate closes and keeps the image polygon's orientation (no mirror)
        area = 0.5 * np.sum(c[:, 0] * np.roll(c[:, 1], -1) - np.roll(c[:, 0], -1) * c[:, 1])
        assert area > 0


def test_a_region_reaching_the_photo_edge_is_no_tiny_board(cfg: dict) -> None:
    mask = np.zeros((H, W), bool)
    mask[0:400, 0:500] = True  # a tile-coloured table corner running off the photo
    assert outline_polygons(mask, cfg) == []
    assert outline_grids(mask, cfg) == []


def test_a_blob_of_table_light_at_a_corner_does_not_move_the_lattice(cfg: dict) -> None:
    """Photo game 1482's second photo: tile-coloured light on the table joined the board at one
    corner, and a figure at the edge dented the side beside it. The simplified outline took its
    corner from the blob, a quarter tile off, and fitted three tiles to a board of two; the
    sides refitted to the contour put the corner back where the two sides meet."""
    cells = [(0, 0), (1, 0)]
    M = _camera(35.0)
    mask = _mask(cells, M).astype(np.uint8)
    side = float(np.linalg.norm(_apply(M, np.array([[1.0, 0.0]]))[0] - _apply(M, np.array([[0.0, 0.0]]))[0]))
    # light on the table carrying one long side on for 0.3 of a tile past the corner
    strip = _apply(M, np.array([[2, 0], [2.3, 0], [2.3, 0.15], [2, 0.15]], float))
    cv2.fillConvexPoly(mask, np.round(strip).astype(np.int32), 1)
    dent = _apply(M, np.array([[1.5, 1.0]]))[0]
    cv2.circle(mask, tuple(np.round(dent).astype(int)), int(0.15 * side), 0, -1)
    grids = [g for _, g in outline_grids(mask > 0, cfg)]
    assert any(_lattice_error(g, M, cells) < 0.1 and len(g.cols) * len(g.rows) == 2 for g in grids)
    without = dict(cfg, polygon_refit_tol=0.0)  # the counterfactual: the raw simplified corners
    raw = [g for _, g in outline_grids(mask > 0, without)]
    assert not any(_lattice_error(g, M, cells) < 0.1 and len(g.cols) * len(g.rows) == 2 for g in raw)


@pytest.mark.parametrize("tilt", [0.0, 35.0, 55.0])
def test_table_of_the_tiles_colour_in_an_ls_bay_leaves_its_inner_corner_out_of_the_fit(cfg: dict, tilt: float) -> None:
    """Photo game 2806's third photo: brown wood of the tiles' tan in an L's bay joined the
    board region there, and the simplified outline took the bay's inner corner 0.18 of a tile
    off along one side, where the other five corners lay within 0.03 of the lattice's. Fitted
    without that reflex corner, the L keeps its own lattice."""
    cells = [(0, 0), (1, 0), (0, 1)]
    M = _camera(tilt)
    mask = _mask(cells, M).astype(np.uint8)
    # table light in the bay, half a tile along one inner side and a fifth along the other
    bay = _apply(M, np.array([[1, 1], [1.5, 1], [1, 1.2]], float))
    cv2.fillConvexPoly(mask, np.round(bay).astype(np.int32), 1)

    def found(c: dict) -> bool:
        return any(_lattice_error(g, M, cells) < 0.1 and len(g.cols) * len(g.rows) == 4
                   for _, g in outline_grids(mask > 0, c))
    assert found(cfg)
    assert not found(dict(cfg, polygon_reflex_tol=0.0))  # every corner in the fit: no lattice


def _photo(tiles: int, M: np.ndarray, seams: bool = True) -> np.ndarray:
    """A grey photo of ``tiles`` tiles in a row seen through ``M``: fields with grain, a road
    along the row, a few trees, and (with ``seams``) dark seams between the tiles."""
    P = 200
    rng = np.random.default_rng(0)
    top = cv2.GaussianBlur(np.full((P, tiles * P), 110, np.float32)
                           + rng.normal(0, 6, (P, tiles * P)).astype(np.float32), (0, 0), 2)
    top[int(0.45 * P):int(0.55 * P), :] = 200  # a road along the row, across every seam
    for x, y in rng.uniform(0.1, 0.9, (4 * tiles, 2)) * [tiles * P, P]:
        cv2.circle(top, (int(x), int(y)), int(0.04 * P), 60, -1)
    for k in range(1, tiles if seams else 1):
        top[:, k * P - 1:k * P + 1] = 50
    return cv2.warpPerspective(top, M @ np.diag([1 / P, 1 / P, 1.0]), (W, H), borderValue=180)


@pytest.mark.parametrize("tilt", [35.0, 70.0])
def test_a_lattice_with_lines_through_the_art_is_dropped_for_the_seams(cfg: dict, tilt: float) -> None:
    """Photo game 1490's second photo, two tiles seen steeply: a lattice of the same outline with
    more, stretched cells passed for square and read four tiles. Its lines cross the tiles'
    art, not their seams; given the photo, only the lattice on the seams is kept."""
    cells = [(0, 0), (1, 0)]
    M = _camera(tilt)
    mask = _mask(cells, M)
    photo = _photo(2, M)
    outline_only = [g for _, g in outline_grids(mask, cfg)]
    assert any(_lattice_error(g, M, cells) > 0.3 for g in outline_only)  # the wrong lattice fits the outline
    kept = [g for _, g in outline_grids(mask, cfg, photo)]
    assert any(_lattice_error(g, M, cells) < 0.1 and len(g.cols) * len(g.rows) == 2 for g in kept)
    assert all(_lattice_error(g, M, cells) < 0.1 for g in kept)


def test_inner_seams_sees_the_seam_and_not_plain_art(cfg: dict) -> None:
    """The true lattice of two tiles: its line between them is a seam where the photo shows one
    (even with the road crossing it), and not where the fields run on unbroken."""
    cells = [(0, 0), (1, 0)]
    M = _camera(50.0)
    mask = _mask(cells, M)
    grid = next(g for _, g in outline_grids(mask, cfg) if _lattice_error(g, M, cells) < 0.1)
    assert inner_seams(_photo(2, M), grid, mask, cfg) >= float(cfg["small_seam_min"])
    assert inner_seams(_photo(2, M, seams=False), grid, mask, cfg) < float(cfg["small_seam_min"])
