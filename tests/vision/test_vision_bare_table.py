"""Bare cells of a tile-coloured (tan, wooden) table are not read as tiles."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import beside_tiles, classify_cells, fieldless_cells, table_samples, warp_board
from vision.config import load_config
from vision.locate import Grid, tile_mask
from vision.reader import BoardReader
from vision.synth import render_tile

PITCH = 64
# a 4 x 3 board with holes: tiles where 1, bare tan table where 0
LAYOUT = np.array([[1, 1, 0, 1],
                   [0, 1, 1, 0],
                   [1, 0, 1, 1]])
TILES = ["U", "E", "V", "B", "D", "K", "W", "L"]


def _tan_table_photo(bgr_table: tuple[int, int, int], ring: int,
                     tiles: list[str] = TILES) -> tuple[np.ndarray, Grid]:
    """A top view of procedural tiles on a tan table, ``ring`` cells of table all around the board."""
    rng = np.random.default_rng(3)
    rows, cols = LAYOUT.shape
    h, w = (rows + 2 * ring) * PITCH, (cols + 2 * ring) * PITCH
    img = np.clip(np.array(bgr_table, np.float32) + rng.normal(0, 4, (h, w, 3)), 0, 255).astype(np.uint8)
    cat = BoardReader().catalog
    ids = iter(tiles)
    for r, c in zip(*np.nonzero(LAYOUT)):
        tile = render_tile(cat.tiles[next(ids)], 0, PITCH - 2)
        y, x = (r + ring) * PITCH + 1, (c + ring) * PITCH + 1
        img[y: y + PITCH - 2, x: x + PITCH - 2] = tile
    H = np.array([[1 / PITCH, 0, -float(ring)], [0, 1 / PITCH, -float(ring)], [0, 0, 1]])
    return img, Grid(H=H, cols=range(0, cols), rows=range(0, rows), pitch_px=float(PITCH))


def _occupied(img: np.ndarray, grid: Grid, cfg: dict) -> set[tuple[int, int]]:
    reader = BoardReader(config=cfg)
    ccfg, lcfg = reader.cfg["classify"], reader.cfg["locate"]
    patch = int(ccfg["patch"])
    green, tilecol = tile_mask(img, lcfg)
    top = warp_board(img, grid, patch)
    tc = warp_board(tilecol.astype(np.uint8), grid, patch) > 0
    g = warp_board(green.astype(np.uint8), grid, patch) > 0
    ig = np.zeros(top.shape[:2], bool)
    bg = table_samples(img, grid, patch, ccfg)
    if len(bg) < int(ccfg["occupancy_min_samples"]):
        bg = None  # the board fills the photo: no table to learn from (as the reader does)
    ev, _ = classify_cells(top, tc, ig, grid, reader.templates("base", ()), ccfg, reader.cfg["colours"],
                           lcfg, None, g, bg)
    return {e.cell for e in ev}


@pytest.mark.parametrize("table", [(120, 175, 215), (95, 150, 200)])  # beige, light wood (BGR)
def test_tan_table_cells_are_not_tiles(table: tuple[int, int, int]) -> None:
    """The bare cells inside the board's bounding box of a tan table hold no tile, although the
    table passes the tile-colour test."""
    img, grid = _tan_table_photo(table, 1)
    _, tilecol = tile_mask(img, load_config()["locate"])
    assert tilecol[:PITCH, 2 * PITCH:3 * PITCH].mean() > 0.5  # the table passes for tile colour
    truth = {(int(c), int(r)) for r, c in zip(*np.nonzero(LAYOUT))}
    assert _occupied(img, grid, {}) == truth


def test_fieldless_cells_is_relative_and_spares_all_city_tiles() -> None:
    cfg = load_config()["classify"]
    green = np.array([0.6, 0.5, 0.7, 0.02, 0.01, 0.55])
    field = np.array([0.7, 0.5, 0.8, 0.6, 0.0, 0.4])  # cell 4 reads as an all-city tile
    assert fieldless_cells(green, field, cfg).tolist() == [False, False, False, True, False, False]
    # a colour cast (a red filter) dims every green alike: the same cells, no more
    assert fieldless_cells(green * 0.3, field, cfg).tolist() == [False, False, False, True, False, False]
    # no trustworthy green anywhere: nothing is dropped
    assert not fieldless_cells(green * 0.05, field, cfg).any()


def test_cells_clearly_unlike_the_table_are_never_bare() -> None:
    """The bare-table tests are for tables that pass for tiles; on a blue sheet a cell whose
    colours are clearly tile, not table, stays a tile even when those tests would call it bare
    (a dim city tile shows little yellow and little green). Here the tests are forced to call
    every cell bare."""
    img, grid = _tan_table_photo((150, 70, 40), 1)  # a blue sheet (BGR)
    tiles = {(int(c), int(r)) for r, c in zip(*np.nonzero(LAYOUT))}
    forced = {"bare_rel_share": 10.0, "bare_ll_drop": -100.0, "fieldless_rel_green": 0.0}
    assert _occupied(img, grid, {"classify": {**forced, "bare_keep_score": 1e9}}) == set()
    assert _occupied(img, grid, {"classify": forced}) == tiles


def _lamp_lit(img: np.ndarray, gain: float) -> np.ndarray:
    """The photo under a lamp over the board's middle: brighter towards it, the ring of table
    around the board (where the table's colours are learnt) stays as it was."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.hypot((yy - h / 2) / h, (xx - w / 2) / w)
    g = 1 + gain * np.exp(-(d / 0.25) ** 2)
    return np.clip(img * g[..., None], 0, 255).astype(np.uint8)


def test_green_table_cells_under_a_lamp_are_not_tiles() -> None:
    """On a green felt table every bare cell shows field green, so the first tile colours are
    partly the table's; where a lamp lights the table brighter than the ring it was sampled on,
    bare cells passed for tiles. The tile colours learnt again from the cells that are surely
    tiles leave them out (without the refit two bare cells are read)."""
    img, grid = _tan_table_photo((40, 95, 35), 1)
    img = _lamp_lit(img, 0.9)
    truth = {(int(c), int(r)) for r, c in zip(*np.nonzero(LAYOUT))}
    assert _occupied(img, grid, {"classify": {"occupancy_refits": 0}}) != truth  # the case exists
    assert _occupied(img, grid, {}) == truth


@pytest.mark.parametrize("table", [(120, 175, 215), (60, 60, 60)])  # beige wood, grey: no refit
def test_the_refit_leaves_other_tables_alone(table: tuple[int, int, int]) -> None:
    """Off a green table hardly any green cell scores like the table, so the tile colours are
    learnt once, as before."""
    img, grid = _tan_table_photo(table, 1)
    assert _occupied(img, grid, {}) == _occupied(img, grid, {"classify": {"occupancy_refits": 0}})


def test_a_patch_of_table_without_a_tile_edge_is_dropped_from_the_outline() -> None:
    """A green cloth under a highlight passes for a field; read as cells beside the board, it
    has no tile edge towards the table beyond, while every real tile on the outline has one."""
    from vision.classify import edgeless_cells
    img, grid = _tan_table_photo((70, 140, 60), 2)  # a green cloth (BGR)
    tiles = {(int(c), int(r)) for r, c in zip(*np.nonzero(LAYOUT))}
    table = {(4, 2), (5, 2), (4, 1)}  # right of the board: cloth only (the grid reaches it)
    cfg = load_config()["classify"]
    assert edgeless_cells(img, grid, tiles | table, cfg) == table
    assert edgeless_cells(img, grid, tiles, cfg) == set()
    assert edgeless_cells(img, grid, tiles | table, {**cfg, "edge_min_ratio": 0.0}) == set()  # off


def test_a_city_tile_on_a_table_of_the_citys_colour_is_read_beside_the_board() -> None:
    """Cities the colour of a light wood table score just under the occupancy bar (the tile
    colours are learnt from the green cells): the all-city C and the city S went missing. Each
    borders a tile, and bare table scores well under, so cells that nearly pass beside a tile
    hold one; the bare cells inside the board's outline stay empty."""
    img, grid = _tan_table_photo((95, 150, 200), 1, ["U", "C", "R", "B", "S", "K", "W", "L"])
    truth = {(int(c), int(r)) for r, c in zip(*np.nonzero(LAYOUT))}
    alone = _occupied(img, grid, {"classify": {"occupancy_near_rounds": 0}})
    assert truth - alone == {(1, 0), (2, 1)} and not alone - truth  # C and S missed on their own
    assert _occupied(img, grid, {}) == truth


@pytest.mark.parametrize(("seed", "cell"), [(10098, (-2, 3)), (10114, (0, 3))])
def test_a_tile_whose_edge_is_a_step_in_colour_only_stays_on_the_outline(seed: int, cell: tuple[int, int]) -> None:
    """Scans tuning photos: a field tile on the layout's outline beside a table as bright as its
    green (grey cloth, tan wood) shows hardly a brightness step towards the table, and the outline
    test dropped it as table (these two cells, on the true grid). Its edge is a step in hue; counted
    (classify.edge_colour_weight), no tile of the true layout is dropped."""
    import cv2

    from bench.bench_classify import true_grid
    from vision.classify import edgeless_cells
    from vision.synth import generate, load_scans, preset
    if load_scans() is None:
        pytest.skip("classic scans (../shared/art/classic) absent")
    photo = generate(seed, preset("default").with_art("scans"), seed=seed, game="base", tiles=40)
    img = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    grid = true_grid(photo.reading, 1.0)
    cells = {t.at for t in photo.reading.state.tiles}
    cfg = load_config()["classify"]
    assert edgeless_cells(img, grid, cells, {**cfg, "edge_colour_weight": 0.0}) == {cell}
    assert edgeless_cells(img, grid, cells, cfg) == set()


def test_table_near_box_is_the_layout_grown_by_the_gap_when_the_grid_spans_far_more() -> None:
    """The layout (the largest group of cells, cells one empty cell apart in one group) grown by
    classify.table_near_gap, in the grid's cell numbers; None where the grid fits it closely."""
    from vision.classify import table_near_box

    cfg = {"table_near_slack": 2, "table_near_gap": 1}
    grid = Grid(H=np.eye(3), cols=range(-15, 0), rows=range(0, 12), pitch_px=50.0)
    occ = np.zeros((12, 15), bool)
    occ[5:11, 6:10] = True
    occ[6:9, 11:14] = True  # one empty column apart: the same layout
    occ[0:3, 1:6] = True  # a lit patch of table three rows away: not
    assert table_near_box(occ, grid, cfg) == (range(-15 + 5, -15 + 15), range(4, 12))
    tight = np.zeros((12, 15), bool)
    tight[1:11, 1:14] = True
    assert table_near_box(tight, grid, cfg) is None
    assert table_near_box(occ, grid, {**cfg, "table_near_slack": 0}) is None


def test_a_wing_joined_by_a_nearly_passing_cell_is_the_layout_too() -> None:
    """Scans tuning 5041: a city tile nearly passing (``near``) between the layout and a wing of
    tiles joins them, and a city tile nearly passing beside the wing is then beside the layout
    as well (it was left out: the wing was not the layout's largest group)."""
    occupied = np.array([[0, 1, 0, 0, 0],
                         [0, 1, 0, 1, 1],
                         [0, 1, 0, 1, 1],
                         [0, 0, 0, 1, 1]], dtype=bool)
    near = np.zeros_like(occupied)
    near[2, 2] = near[0, 0] = True  # the joint, and a city tile beside the wing only
    grown = beside_tiles(occupied, near, rounds=3)
    assert grown[2, 2] and grown[0, 0]
    assert beside_tiles(occupied, near, rounds=1)[2, 2] and not beside_tiles(occupied, near, rounds=1)[0, 0]
    far = np.zeros_like(occupied)
    far[3, 0] = True  # touches no tile by a side
    assert not beside_tiles(occupied, far, rounds=3)[3, 0]


def test_field_green_share_leaves_out_a_citys_parchment_in_the_green_masks_range() -> None:
    """Photo game 1025: under warm light the last turn's C on tan wood (parchment hue 31, the
    field's 51) fell in the green mask's hue range, counted 91% green and was kept from the test
    for city tiles beside the layout, so the turn was never seen. The field green of a cell is
    the green mask's pixels within ``tol`` below the median hue of the green on the cells that
    surely hold tiles: the field tile keeps its share, the city tile has none."""
    import cv2

    from vision.classify import field_green_share

    patch = 8
    hsv = np.zeros((patch, 3 * patch, 3), np.uint8)
    hsv[..., 1:] = 150
    hsv[:, :patch, 0] = 51  # a field tile, surely a tile
    hsv[:, patch:2 * patch, 0] = 31  # the C's parchment
    hsv[:, 2 * patch:, 0] = 48  # another field tile, a little yellower
    top = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    green = np.ones((patch, 3 * patch), bool)  # the green mask takes all three (hue 25-95)
    ignore = np.zeros_like(green)
    sure = np.array([[True, False, False]])
    share = field_green_share(top, green, ignore, sure, patch, 10.0)
    assert share.shape == (1, 3)
    assert share[0, 0] == 1.0 and share[0, 2] == 1.0 and share[0, 1] == 0.0
    assert (field_green_share(top, green, ignore, np.zeros_like(sure), patch, 10.0) == 1.0).all()  # no sure cell
