"""Stage 3: classify each cell: which tile, at which rotation, how likely.

The board is warped to a top view at a fixed number of pixels per tile. Every pixel gets soft
class posteriors (field / city / road / other) from colour prototypes adapted to this photo; the
posteriors are pooled on an n x n grid per cell and compared with every catalog tile's rendered
class map at each rotation through a confusion matrix (a log-likelihood). Shields (the blue
coat of arms) add evidence for the shield variants. Pixels under figures are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scorer.geometry import EDGES, neighbour

from .colours import adapt_prototypes, initial_prototypes, posteriors, to_lab
from .locate import Grid
from .templates import CLASSES, Template


@dataclass
class CellEvidence:
    """What one cell looks like: log-likelihood of every template, and its blue (shield) share."""

    cell: tuple[int, int]
    loglik: np.ndarray  # (T,)
    shield: float
    occupancy: float
    hidden: float = 0.0  # fraction of the cell behind figures (the shield search's mask)
    hidden_city: np.ndarray | None = None  # (T,) share of each template's city interior behind figures
    #: (T,) the cell's shield share counting only the crest blobs inside each template's city
    #: (``shield_city_margin``); None: not measured
    shield_city: np.ndarray | None = None


def top_view(grid: Grid, patch: int, margin: int = 0) -> np.ndarray:
    """The homography from work pixels to the top view of the grid's cells (and ``margin``
    cells around them), ``patch`` pixels per tile, its origin at the first cell's corner."""
    c0, r0 = grid.cols.start - margin, grid.rows.start - margin
    S = np.array([[patch, 0, -c0 * patch], [0, patch, -r0 * patch], [0, 0, 1]], dtype=np.float64)
    return S @ grid.H


def warp_board(img: np.ndarray, grid: Grid, patch: int, interp: int = cv2.INTER_AREA) -> np.ndarray:
    """The board as a top view, ``patch`` pixels per tile, covering the grid's cells."""
    size = (len(grid.cols) * patch, len(grid.rows) * patch)
    return cv2.warpPerspective(img, top_view(grid, patch), size, flags=interp, borderMode=cv2.BORDER_REPLICATE)


def confusion(cfg: dict[str, Any]) -> np.ndarray:
    M = np.array([cfg["confusion"][c] for c in CLASSES], dtype=np.float64)
    return M / M.sum(1, keepdims=True)


def table_samples(work: np.ndarray, grid: Grid, patch: int, cfg: dict[str, Any]) -> np.ndarray:
    """Lab pixels of the bare table: the ring of cells just outside the grid's bounding box.

    The grid spans the tiles' bounding box, so the cells around it hold no tile; unlike pixels
    "outside the tile colour mask", this works on a wooden table whose colour passes for a tile.
    Returns an (N, 3) array (possibly empty when the board fills the photo)."""
    m = int(cfg["table_ring_cells"])
    cols, rows = len(grid.cols) + 2 * m, len(grid.rows) + 2 * m
    to_top = top_view(grid, patch, m)
    size = (cols * patch, rows * patch)
    ring = cv2.warpPerspective(work, to_top, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    valid = cv2.warpPerspective(np.full(work.shape[:2], 255, np.uint8), to_top, size,
                                flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT) > 0
    # keep away from the tiles' own border (a tile twisted or laid sloppily reaches a little out)
    inner = np.zeros(valid.shape, dtype=bool)
    pad = int(round(patch * float(cfg["table_ring_pad"])))
    inner[m * patch - pad: (rows - m) * patch + pad, m * patch - pad: (cols - m) * patch + pad] = True
    valid &= ~inner
    valid = cv2.erode(valid.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    px = to_lab(ring)[valid]
    if len(px) > 20000:
        px = px[np.random.default_rng(0).choice(len(px), 20000, replace=False)]
    return px


def _lab_hist(px: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Smoothed, normalised log-density of Lab pixels on a coarse (L, a, b) histogram."""
    from scipy.ndimage import gaussian_filter
    bins = tuple(int(b) for b in cfg["occupancy_bins"])
    h, _ = np.histogramdd(px, bins=bins, range=((0, 256), (0, 256), (0, 256)))
    h = gaussian_filter(h, float(cfg["occupancy_smooth"]))
    h = h / max(h.sum(), 1e-9) + 1e-6
    return np.log(h / h.sum())


def _lab_bins(lab: np.ndarray, cfg: dict[str, Any]) -> tuple[np.ndarray, ...]:
    bins = [int(b) for b in cfg["occupancy_bins"]]
    return tuple(np.clip((lab[..., k] * bins[k] / 256).astype(int), 0, bins[k] - 1) for k in range(3))


def beside_tiles(occupied: np.ndarray, near: np.ndarray, rounds: int) -> np.ndarray:
    """``occupied`` (rows x cols, bool) with the ``near`` cells that share a side with the
    layout (its largest group of cells, corners touching) added, ``rounds`` times over.

    A tile of mostly city on a table of the city's own colour (tan wood under parchment-coloured
    cities) scores just under the occupancy bar, the tile colours being learnt from the green
    cells, while bare table beside the board scores well under it: every tile touches another,
    so a cell that nearly passes, borders a tile and shows little field green is one (the
    caller's ``near``). Only the layout grows (the largest group of occupied cells, corners
    touching): the score board's track beside it, read as a cell or two that are dropped as
    apart from the layout (:func:`vision.reader.detached_cells`), would grow into a group too
    big to drop. Table let in beside the layout has no tile's edge towards the table beyond,
    and :func:`edgeless_cells` takes it out again."""
    if rounds <= 0 or not occupied.any():
        return occupied
    _, labels, stats, _ = cv2.connectedComponentsWithStats(occupied.astype(np.uint8), connectivity=8)
    layout = labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    sides = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    for _ in range(rounds):
        touch = cv2.dilate(layout.astype(np.uint8), sides) > 0
        add = near & touch & ~layout & ~occupied
        if not add.any():
            break
        layout |= add
        # a group of tiles the added cells join to the layout is the layout too: a city tile
        # missed between two groups cut a wing off, whose own city tile beside it then did not
        # count as beside the layout (scans tuning 5041, 5011)
        _, labels = cv2.connectedComponents((occupied | layout).astype(np.uint8), connectivity=8)
        layout = np.isin(labels, np.unique(labels[layout]))
    return occupied | layout


def field_green_share(top: np.ndarray, green_top: np.ndarray, ignore_top: np.ndarray, sure: np.ndarray,
                      patch: int, tol: float) -> np.ndarray:
    """(rows x cols) share of each cell's pixels that are the green of this photo's printed
    field: in the green mask (``green_top``) and at most ``tol`` (OpenCV hue) below the median hue
    of the green pixels on the ``sure`` cells (mostly field). The green mask's hue range reaches
    down to the parchment of cities under warm light (photo game 1025: the last turn's C on tan
    wood, hue 31 against the field's 51, was "91% green"), so a city tile would not count as one
    that shows little field. Where no sure cell shows green, the green mask's share."""
    rows, cols = sure.shape
    g = green_top[: rows * patch, : cols * patch]
    hue = cv2.cvtColor(top[: rows * patch, : cols * patch], cv2.COLOR_BGR2HSV)[..., 0].astype(np.float32)
    on_sure = np.kron(sure.astype(np.uint8), np.ones((patch, patch), np.uint8)).astype(bool)
    sample = hue[g & on_sure & ~ignore_top[: rows * patch, : cols * patch]]
    lush = g if not len(sample) else g & (hue >= float(np.median(sample)) - tol)
    return lush.reshape(rows, patch, cols, patch).mean((1, 3))  # type: ignore[no-any-return]


def table_near_box(occupied: np.ndarray, grid: Grid, cfg: dict[str, Any]) -> tuple[range, range] | None:
    """(cols, rows) of the box around the layout, grown by ``table_near_gap`` cells, when the
    grid reaches at least ``table_near_slack`` cells beyond it on some side; else None.

    The layout is the largest group of ``occupied`` cells (rows x cols, bool; the grid's own
    cell order), cells a single empty cell apart counting as one group (a tile the first scores
    missed must not cut the board in two). The table's colours are learnt from the ring of
    cells just outside the grid's box (:func:`table_samples`). A grid found on a tile mask that
    let in a patch of table (a lamp's bright spot on a green cloth passing for tile colour)
    spans far more than the board, and that ring then lies on table lit unlike the table beside
    the tiles: the cells beside the board scored as tiles, the tile colours were learnt from
    them and every field read as city (scans tuning 10141: 1 of 40 tiles right on the right
    grid, 35 with the ring beside the tiles). The box keeps ``table_near_gap`` cells of room, so
    that a tile the first scores missed at the board's edge is not sampled as table."""
    slack, gap = int(cfg.get("table_near_slack", 0)), int(cfg.get("table_near_gap", 1))
    if slack <= 0 or not occupied.any():
        return None
    n, labels = cv2.connectedComponents(occupied.astype(np.uint8), connectivity=8)
    group = np.arange(n)  # groups within two cells of each other merged (union-find by hand)
    reach = np.ones((5, 5), np.uint8)
    for k in range(1, n):
        for m in np.unique(labels[(cv2.dilate((labels == k).astype(np.uint8), reach) > 0) & occupied]):
            a, b = group[k], group[m]
            group[group == max(a, b)] = min(a, b)
    cell_group = group[labels]
    sizes = np.bincount(cell_group[occupied], minlength=n)
    ys, xs = np.nonzero(occupied & (cell_group == int(np.argmax(sizes))))
    rows, cols = occupied.shape
    lo_c, hi_c = max(0, int(xs.min()) - gap), min(cols, int(xs.max()) + 1 + gap)
    lo_r, hi_r = max(0, int(ys.min()) - gap), min(rows, int(ys.max()) + 1 + gap)
    if max(lo_c, cols - hi_c, lo_r, rows - hi_r) < slack:
        return None
    c0, r0 = grid.cols.start, grid.rows.start
    return range(c0 + lo_c, c0 + hi_c), range(r0 + lo_r, r0 + hi_r)


def occupancy_scores(lab: np.ndarray, occ: np.ndarray, green: np.ndarray, ignore_top: np.ndarray,
                     table_lab: np.ndarray, cfg: dict[str, Any]) -> np.ndarray | None:
    """Per cell (rows x cols), the mean log-likelihood ratio of its pixels under the photo's tile
    colours against its table colours: a cell holds a tile when it is at least
    ``occupancy_min_ratio``.

    Tile colours are learnt first from the cells that surely hold a tile (enough field green),
    table colours from ``table_lab``. On a green table (a felt or neoprene mat) the bare cells
    show field green too, so these tile colours are partly the table's, and where the table is
    lit unlike the ring of table it was sampled on, its cells pass. So when at least
    ``occupancy_refit_trigger`` of the green cells score below ``occupancy_min_ratio`` (on other
    tables nearly none do), the tile colours are learnt again ``occupancy_refits`` times from the
    green cells that scored at least ``occupancy_refit_min``: tiles by their own colours, so the
    table's cells fall well below. (A faint tile scoring under that bar in the first pass can
    fall below too: measured on a synthetic mid-green table.) None when either sample is too
    small to trust."""
    rows, cols = occ.shape
    patch = lab.shape[0] // rows
    sure = (green >= float(cfg["occupancy_sure_green"]))
    if len(table_lab) < int(cfg["occupancy_min_samples"]) or sure.sum() < 2:
        return None
    cells = lab.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4)
    keep = ~ignore_top.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3)
    table_hist = _lab_hist(table_lab, cfg)
    bins = _lab_bins(lab, cfg)
    w = keep.astype(np.float64)
    clip, least = float(cfg["occupancy_clip"]), float(cfg["occupancy_min_ratio"])
    tile_px = cells[sure][keep[sure]]
    px_cell = np.broadcast_to(np.arange(int(sure.sum()))[:, None, None], keep[sure].shape)[keep[sure]]
    if len(tile_px) > 40000:
        pick = np.random.default_rng(0).choice(len(tile_px), 40000, replace=False)
        tile_px, px_cell = tile_px[pick], px_cell[pick]
    learn = np.ones(len(tile_px), dtype=bool)
    for rnd in range(1 + int(cfg.get("occupancy_refits", 0))):
        ratio = _lab_hist(tile_px[learn], cfg) - table_hist
        lr = np.clip(ratio[bins], -clip, clip)
        lr_c = lr.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3)
        score = (lr_c * w).sum((2, 3)) / np.maximum(w.sum((2, 3)), 1.0)
        if rnd == 0 and (score[sure] < least).mean() < float(cfg["occupancy_refit_trigger"]):
            break
        tiles = score[sure] >= float(cfg["occupancy_refit_min"])
        if tiles.sum() < 2:
            break
        learn = tiles[px_cell]
    return score  # type: ignore[no-any-return]


def shield_share(lab: np.ndarray, ignore_top: np.ndarray, rows: int, cols: int, protos: np.ndarray,
                 cfg: dict[str, Any], attached_top: np.ndarray | None = None,
                 found: list[tuple[int, int, float, float, float]] | None = None) -> np.ndarray:
    """Shield evidence of each cell (rows, cols): the blue of its largest small, compact blob.

    A pixel is shield blue when its Lab b lies ``shield_b_drop`` below the photo's road colour
    (the least yellow printed class; a cast moves the threshold with it). Blue pixels are
    grouped into connected blobs over the whole top view: a coat of arms is a compact blob of
    at most ``shield_max_area`` of a tile whose sides are at most ``shield_max_side`` tile
    sides, so the table (a blue cloth showing through the gaps between tiles, a strip running
    along many cells) and figures are not taken for one, while a crest printed in a tile's very
    corner still counts (a fixed margin along the border alone would cut it off). Such a corner
    crest often touches the table seen in the gaps, and the joined blob is too large: a second
    search with a thin band along every cell border cut out (``shield_border_cut``) finds it,
    keeping only blobs darker than ``shield_cut_max_l`` times the road (the cut leaves pieces of
    light roads); the larger share of the two searches counts. In both searches a blob counts
    only when darker than ``shield_max_l`` times the road: a crest is printed mid-blue, while
    near-white art a little bluer than the road passes the drop too. A blob counts for
    the cell holding its centre, with its blueness beyond the threshold summed over its pixels,
    per tile area; the reader compares the result with ``shield_min_frac``. A blob touching
    ``attached_top`` (the boxes of the blue figures) and darker than ``shield_attached_max_l``
    times the road's lightness is the part of such a figure its box left out (a tall meeple's
    shaded foot below it), not a crest. Every blob counted is appended to ``found`` as (row,
    column, x and y of its centre in the cell's pixels, its share)."""
    patch = lab.shape[0] // rows
    drop = float(cfg["shield_b_drop"])
    db = float(protos[2, 2]) - lab[..., 2]
    mask = ((db > drop) & ~ignore_top).astype(np.uint8)
    max_l = float(cfg.get("shield_max_l", np.inf))
    out = _crest_blobs(mask, db, lab, patch, rows, cols, protos, cfg, attached_top, max_l, found)
    cut = int(round(float(cfg.get("shield_border_cut", 0.0)) * patch))
    if cut >= 1:
        # a crest printed in a tile's corner touches the table seen in the gaps along the tile's
        # border (a purple or blue cloth is as blue): its blob is then too large for a crest.
        # Cut the cells' borders out and look again; the larger share of either look counts
        pos_y = np.arange(mask.shape[0]) % patch
        pos_x = np.arange(mask.shape[1]) % patch
        inner_y = (pos_y >= cut) & (pos_y < patch - cut)
        inner_x = (pos_x >= cut) & (pos_x < patch - cut)
        inner = (inner_y[:, None] & inner_x[None, :]).astype(np.uint8)
        # the cut also leaves pieces of light roads (near white, a little bluer than the road
        # colour) as small blobs: a crest is printed mid-blue, darker than the road
        out = np.maximum(out, _crest_blobs(mask & inner, db, lab, patch, rows, cols, protos, cfg, attached_top,
                                           min(float(cfg.get("shield_cut_max_l", np.inf)), max_l), found))
    return out


def _crest_blobs(mask: np.ndarray, db: np.ndarray, lab: np.ndarray, patch: int, rows: int, cols: int,
                 protos: np.ndarray, cfg: dict[str, Any], attached_top: np.ndarray | None,
                 max_l: float = np.inf,
                 found: list[tuple[int, int, float, float, float]] | None = None) -> np.ndarray:
    """Per cell, the summed blueness per tile area of the largest crest-like blob of ``mask``
    (see :func:`shield_share`); only blobs whose mean lightness is below ``max_l`` times the
    road colour's count (and are appended to ``found``)."""
    drop = float(cfg["shield_b_drop"])
    out = np.zeros((rows, cols))
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return out
    strength = np.bincount(labels.ravel(), weights=np.clip(db - drop, 0, None).ravel(), minlength=n)
    area = float(patch * patch)
    max_area = float(cfg["shield_max_area"]) * area
    max_side = float(cfg["shield_max_side"]) * patch
    long_side = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    short_side = np.minimum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    small = (stats[:, cv2.CC_STAT_AREA] <= max_area) & (long_side <= max_side)
    # a crest is compact; a sliver (the table seen in the gap along a tile's border, cut off from
    # the rest of the table by a figure's box) is not
    small &= short_side >= float(cfg.get("shield_min_aspect", 0.0)) * long_side
    small[0] = False  # the background
    if np.isfinite(max_l):
        mean_l = np.bincount(labels.ravel(), weights=lab[..., 0].ravel(), minlength=n) / \
            np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
        small &= mean_l < max_l * float(protos[2, 0])
    if attached_top is not None and attached_top.any():
        near = cv2.dilate(attached_top.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        # dark ones only: a figure's shaded side is far darker than the road, a crest printed
        # mid-blue is not (and may be printed right beside a blue figure)
        dark = np.bincount(labels.ravel(), weights=lab[..., 0].ravel(), minlength=n) < \
            float(cfg["shield_attached_max_l"]) * float(protos[2, 0]) * np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
        # and small ones: a lit arm or head of a blue figure the box left out is a few pixels of
        # saturated blue, a crest beside the figure a tenth of a tile wide (photo game 3750)
        tiny = stats[:, cv2.CC_STAT_AREA] < float(cfg.get("shield_attached_min_area", 0.0)) * area
        touching = np.unique(labels[near])
        small[touching[dark[touching] | tiny[touching]]] = False
    i = (centres[:, 0] // patch).astype(int)
    j = (centres[:, 1] // patch).astype(int)
    small &= (i >= 0) & (i < cols) & (j >= 0) & (j < rows)
    margin = float(cfg.get("shield_centre_margin", 0.0)) * patch
    if margin > 0:
        # a crest printed in a tile's corner belongs to that tile; where tiles lie loosely its
        # centre can fall just across the fitted grid line, in the neighbour's cell
        fx, fy = centres[:, 0] - i * patch, centres[:, 1] - j * patch
        small &= (np.minimum(fx, patch - fx) >= margin) & (np.minimum(fy, patch - fy) >= margin)
    np.maximum.at(out, (j[small], i[small]), strength[small] / area)
    if found is not None:
        for b in np.nonzero(small)[0]:
            found.append((int(j[b]), int(i[b]), float(centres[b, 0] - i[b] * patch),
                          float(centres[b, 1] - j[b] * patch), float(strength[b] / area)))
    return out


def shield_sign(share: float | np.ndarray, cfg: dict[str, Any],
                hidden: float | np.ndarray = 0.0) -> float | np.ndarray:
    """How strongly a cell's shield evidence (:func:`shield_share`) says "a shield": -1 .. 1.

    The share's log-ratio to ``shield_min_frac`` (both plus ``shield_floor``, so a cell without
    any blue blob stays finite), over ``shield_grade`` and clipped: a share just above the
    threshold is weak evidence, one far above it or none at all is full. With ``shield_grade``
    0 the sign alone counts (±1). A blue figure's lit edge or a speck of blue sky on the table
    passes the threshold by little; a printed coat of arms, seen from close enough, by far. Two
    cells that the box cannot both hold as shield tiles are then told apart by how clear each
    shield is.

    ``hidden`` (a share, or one per template) scales "no shield seen" down, to nothing at
    ``shield_hidden_full``: a figure may stand on the crest. ``share`` may also be one per
    template (:attr:`CellEvidence.shield_city`); the result is then one per template."""
    thr = float(cfg["shield_min_frac"])
    grade = float(cfg.get("shield_grade", 0.0))
    shares = np.asarray(share, dtype=np.float64)
    if grade <= 0:
        sign = np.where(shares >= thr, 1.0, -1.0)
    else:
        floor = float(cfg["shield_floor"])
        sign = np.clip(np.log((shares + floor) / (thr + floor)) / grade, -1.0, 1.0)
        full = float(cfg.get("shield_hidden_full", 0.0))
        if full > 0 and (sign < 0).any():
            # no shield seen where a figure stands says little: the figure may stand on it
            scale = np.clip(1.0 - np.asarray(hidden, dtype=np.float64) / full, 0.0, 1.0)
            sign = np.where(sign < 0, sign * scale, sign)
    return sign if np.ndim(sign) else float(sign)


def classify_cells(top: np.ndarray, tilecol_top: np.ndarray, ignore_top: np.ndarray, grid: Grid,
                   templates: list[Template], cfg: dict[str, Any], ccfg: dict[str, Any], lcfg: dict[str, Any],
                   profile: dict[str, Any] | None = None, green_top: np.ndarray | None = None,
                   background_lab: np.ndarray | None = None,
                   hidden_top: np.ndarray | None = None,
                   shield_ignore_top: np.ndarray | None = None,
                   shield_attached_top: np.ndarray | None = None,
                   table_near: Callable[[range, range], np.ndarray] | None = None,
                   figure_cells: np.ndarray | None = None,
                   ) -> tuple[list[CellEvidence], np.ndarray]:
    """Evidence for every occupied cell of the top view, and the adapted colour prototypes.

    ``ignore_top`` marks the pixels near figures, left out of every colour statistic of the
    photo (prototypes, occupancy, light, bare table); ``hidden_top`` (default ``ignore_top``)
    the pixels whose colour says nothing about the tile under them, given no class (the
    figures' own outline, so the tile around a standing figure still counts).

    ``background_lab`` is either table pixels (N, 3) (see :func:`table_samples`) or one Lab
    colour of the table. With enough table pixels, a cell holds a tile when its colours are
    more likely tile than table (:func:`occupancy_scores`); otherwise when it is mostly
    tile-coloured and either shows some field green or differs clearly from the table's colour.

    ``table_near(cols, rows)`` samples the table's ring around a smaller box of cells (see
    :func:`table_near_box`): where the grid spans far more table than the tiles, the table is
    learnt again beside the tiles.

    ``figure_cells`` (rows x cols, bool) marks the cells under a figure's foot: a figure stands
    on a tile, so such a cell that nearly passes (``occupancy_figure_near_ratio``, lower than
    ``occupancy_near_ratio``: a city tile of the table's tan under a knight) and shares a side
    with the layout holds one whatever its field green (``occupancy_figure_near``; see
    :func:`beside_tiles`)."""
    patch, n = int(cfg["patch"]), int(cfg["points"])
    cols, rows = len(grid.cols), len(grid.rows)
    occ = tilecol_top.reshape(rows, patch, cols, patch).mean((1, 3))
    occupied = occ >= float(lcfg["occupancy_min"])
    occ_score: np.ndarray | None = None
    lab = to_lab(top)
    if green_top is not None and background_lab is not None:
        green = green_top.reshape(rows, patch, cols, patch).mean((1, 3))
        bg = np.asarray(background_lab, dtype=np.float32).reshape(-1, 3)
        occ_score = occupancy_scores(lab, occ, green, ignore_top, bg, cfg) if len(bg) > 1 else None
        near_box = table_near_box(occ_score >= float(cfg["occupancy_min_ratio"]), grid, cfg) \
            if occ_score is not None and table_near is not None else None
        if near_box is not None:
            bg_near = table_near(*near_box)
            if len(bg_near) >= int(cfg["occupancy_min_samples"]):
                rescored = occupancy_scores(lab, occ, green, ignore_top, bg_near, cfg)
                occ_score = rescored if rescored is not None else occ_score
        if occ_score is not None:
            sure = occ_score >= float(cfg["occupancy_min_ratio"])
            nearly = occ_score >= float(cfg.get("occupancy_near_ratio", cfg["occupancy_min_ratio"]))
            tol = float(cfg.get("occupancy_near_field_hue", 0.0))
            lush = field_green_share(top, green_top, ignore_top, sure, patch, tol) if tol > 0 else green
            near = nearly & (lush < float(cfg.get("occupancy_near_max_green", 1.0)))
            if figure_cells is not None and cfg.get("occupancy_figure_near", False):
                # photo game 1177: a thief on a road curve, the curve's field as green as the
                # felt, scored -0.05; its green kept it from the tests for city tiles
                figure_bar = float(cfg.get("occupancy_figure_near_ratio", cfg.get("occupancy_near_ratio",
                                                                                  cfg["occupancy_min_ratio"])))
                near |= (occ_score >= figure_bar) & figure_cells
            occupied = beside_tiles(sure, near, int(cfg.get("occupancy_near_rounds", 0)))
        else:
            cell_lab = np.median(lab.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4).reshape(
                rows, cols, -1, 3), axis=2)
            dist = np.linalg.norm((cell_lab - np.median(bg, axis=0)) * np.array([0.5, 1.0, 1.0]), axis=-1)
            occupied &= (green >= float(lcfg["green_min"])) | (dist >= float(lcfg["background_distance"]))
    table_lab = lab  # the photo's own colours (bare-table tests compare with the table)
    if int(cfg.get("veil_cells", 0)):
        clear = unveiled(top, occupied, ignore_top, patch, cfg)
        if clear is not None:
            top, lab = clear, to_lab(clear)
    lab = flat_field(top, lab, occupied, ignore_top, patch, cfg) if int(cfg.get("flat_field_cells", 0)) else lab
    protos = initial_prototypes(ccfg, profile)
    board_px = lab.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4)[occupied]
    keep = ~ignore_top.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3)[occupied]
    protos = adapt_prototypes(board_px[keep].reshape(-1, 3), protos, ccfg)
    # class posteriors only where a cell's sample windows can reach (the board's cells and a
    # margin for the alignment search): most of a sprawling board's bounding box is table
    reach = int(np.ceil(patch * float(cfg.get("align_shift", 0.0)))) + 1
    need = cv2.dilate(np.kron(occupied.astype(np.uint8), np.ones((patch, patch), np.uint8)),
                      np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
    hidden = ignore_top if hidden_top is None else hidden_top
    post = posteriors_where(lab, protos, ccfg, need)
    post[hidden] = 0.25
    M = confusion(cfg)
    MEs = expected_observations(templates, M)
    w_pts = point_weights(n, cfg)
    roads = edge_roads(templates)
    ll = _best_variant(post, occupied, n, MEs, w_pts, cfg) + edge_road_evidence(post, occupied, roads, cfg)
    bare = bare_table_cells(table_lab, ignore_top, occupied, ll.max(1) if len(ll) else np.zeros(0), cfg)
    if green_top is not None and len(ll):
        field = np.array([float((t.classes == 0).mean()) for t in templates])
        bare |= fieldless_cells(green_cells(green_top, ignore_top, rows, cols)[occupied], field[ll.argmax(1)], cfg)
    if bare.any() and occ_score is not None:
        # the bare-table tests are for tables whose colour passes for tiles; a cell whose colours
        # are clearly unlike the table's (bare_keep_score: mean log-likelihood ratio) is a tile
        # (a dim city tile on a blue sheet has little yellow and little green)
        bare &= occ_score[occupied] < float(cfg["bare_keep_score"])
    if bare.any():
        ys, xs = np.nonzero(occupied)
        occupied = occupied.copy()
        occupied[ys[bare], xs[bare]] = False
        ll = ll[~bare]
    if int(cfg.get("em_iterations", 0)) > 0 and occupied.any():
        maps = np.stack([t.soft if t.soft is not None else np.eye(4)[t.classes] for t in templates])
        for _ in range(int(cfg["em_iterations"])):
            post_em = refine_posteriors(lab, post, ignore_top, occupied, ll, maps, cfg, protos, ccfg, need)
            if post_em is None:
                break
            mix = float(cfg["em_prototype_mix"])
            post = (1 - mix) * post_em + mix * posteriors_where(lab, protos, ccfg, need)
            post[hidden] = 0.25
            ll = _best_variant(post, occupied, n, MEs, w_pts, cfg) + edge_road_evidence(post, occupied, roads, cfg)
    ll = ll + unknown_offset(ll, cfg)
    # the crest search leaves out ``shield_ignore_top`` (default ``ignore_top``; not hidden_top:
    # see figures.mask); how much of a cell is hidden, for shield_sign, is still the wider box's
    # share: a figure may stand on the crest
    search_ignore = ignore_top if shield_ignore_top is None else shield_ignore_top
    crests: list[tuple[int, int, float, float, float]] = []
    blue_share = shield_share(lab, search_ignore, rows, cols, protos, cfg, shield_attached_top, crests)
    shield_mask_share = ignore_top[: rows * patch, : cols * patch].reshape(rows, patch, cols, patch).mean((1, 3))
    # the twins' city shares only where the reader weighs "no crest seen" by them
    city_hidden = hidden_city_shares(ignore_top, occupied, templates, patch, n, float(cfg.get("shield_city_inner", 0.0))) \
        if cfg.get("shield_hidden_of") == "city" else None
    city_margin = cfg.get("shield_city_margin")
    in_city = city_crest_shares(crests, occupied, templates, patch, n, float(city_margin)) \
        if city_hidden is not None and city_margin is not None else None
    out = []
    for k, (j, i) in enumerate(zip(*np.nonzero(occupied))):
        out.append(CellEvidence((grid.cols[i], grid.rows[j]), ll[k], float(blue_share[j, i]), float(occ[j, i]),
                                float(shield_mask_share[j, i]), None if city_hidden is None else city_hidden[k],
                                None if in_city is None else in_city[k]))
    return out, protos


def shield_twinned(templates: list[Template]) -> np.ndarray:
    """(T,) bool: the templates whose tile has a shield twin among ``templates`` at the same
    rotation (the same segments, a coat of arms on one and not on the other: F and G, M and N,
    O and P, Q and R, S and T). Only a crest tells such twins apart."""
    def shape(t: Template) -> tuple[Any, ...]:
        return (t.rot, tuple((s.kind, s.slots) for s in t.tile.segments))
    crest: dict[tuple[Any, ...], set[bool]] = {}
    for t in templates:
        crest.setdefault(shape(t), set()).add(any(s.shield for s in t.tile.segments))
    return np.array([len(crest[shape(t)]) == 2 for t in templates], dtype=bool)


def hidden_city_shares(ignore_top: np.ndarray, occupied: np.ndarray, templates: list[Template], patch: int,
                       n: int, inner: float = 0.0) -> np.ndarray:
    """(occupied cells, T): the share of each template's city interior that ``ignore_top`` hides
    in each occupied cell, on the templates' n x n sample points: the city's points at least
    ``inner`` of the way from its border to its most interior point (0: all of it; a template
    without a city: 0). A crest is printed inside its city: a figure's box over a fifth of a
    cell may cover most of a corner city's middle, and then "no crest seen" says little about
    that template (photo game 3709: a blue farmer's box over the last turn's O hid 17% of the
    cell and 76% of its city's inner half)."""
    rows, cols = occupied.shape
    # each cell's hidden share at its n x n sample points (an area average of the top view)
    pts = cv2.resize(ignore_top[: rows * patch, : cols * patch].astype(np.float32), (cols * n, rows * n),
                     interpolation=cv2.INTER_AREA).reshape(rows, n, cols, n)
    per_cell = pts.transpose(0, 2, 1, 3)[occupied].reshape(-1, n * n)  # (cells, n*n)
    city = CLASSES.index("city")
    weights = np.zeros((len(templates), n * n))
    for k, t in enumerate(templates):
        mask = (t.classes == city).astype(np.uint8)
        if mask.any():
            depth = cv2.distanceTransform(np.pad(mask, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
            weights[k] = (mask > 0).ravel() & (depth >= inner * depth.max()).ravel()
    return per_cell @ weights.T / np.maximum(weights.sum(1), 1.0)


def city_crest_shares(crests: list[tuple[int, int, float, float, float]], occupied: np.ndarray,
                      templates: list[Template], patch: int, n: int, margin: float) -> np.ndarray:
    """(occupied cells, T): each cell's shield share (:func:`shield_share`) counting only the
    crest blobs ``crests`` (row, column, centre x and y in the cell's pixels, share) whose
    centre lies in the template's city, grown by ``margin`` of a tile (the templates' cities are
    drawn from the segments, not from any one edition's art). A coat of arms is printed inside
    its city: a blue blob on a road or in a field is something else (photo game 4492 on the
    scans: the shadow of red's thief on the road of a T, dark and a little blue, read as the
    crest of its twin S)."""
    rows, cols = occupied.shape
    index = -np.ones((rows, cols), dtype=int)
    index[occupied] = np.arange(int(occupied.sum()))
    out = np.zeros((int(occupied.sum()), len(templates)))
    if not crests:
        return out
    grow = int(round(margin * n))
    kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
    city = CLASSES.index("city")
    masks = np.stack([cv2.dilate((t.classes == city).astype(np.uint8), kernel) > 0 for t in templates])  # (T, n, n)
    for j, i, fx, fy, share in crests:
        k = index[j, i]
        if k < 0:
            continue
        sx = min(max(int(fx / patch * n), 0), n - 1)
        sy = min(max(int(fy / patch * n), 0), n - 1)
        out[k] = np.maximum(out[k], np.where(masks[:, sy, sx], share, 0.0))
    return out


def _local_levels(values: np.ndarray, occupied: np.ndarray, ignore_top: np.ndarray, patch: int, pct: float,
                  r: int) -> tuple[np.ndarray, float] | None:
    """Each occupied cell's ``pct`` percentile of ``values`` (its pixels not ignored), taken as
    the median over the cells within ``r`` of it (cells without one: the board's), and the
    board's median of them; None where no cell has enough pixels (:func:`unveiled`,
    :func:`flat_field`)."""
    rows, cols = occupied.shape
    cells = values.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    ign = ignore_top.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    level = np.full((rows, cols), np.nan, np.float32)
    for j, i in zip(*np.nonzero(occupied)):
        v = cells[j, i][~ign[j, i]]
        if len(v) >= patch:
            level[j, i] = np.percentile(v, pct)
    if np.isnan(level).all():
        return None
    local = np.full_like(level, np.nan)
    for j in range(rows):
        for i in range(cols):
            win = level[max(0, j - r): j + r + 1, max(0, i - r): i + r + 1]
            if (~np.isnan(win)).any():
                local[j, i] = np.nanmedian(win)
    ref = float(np.nanmedian(level))
    local[np.isnan(local)] = ref
    return local, ref


def unveiled(top: np.ndarray, occupied: np.ndarray, ignore_top: np.ndarray, patch: int,
             cfg: dict[str, Any]) -> np.ndarray | None:
    """The top view with a lamp's glare taken off, or None where the board shows none.

    Glare lays a veil of white over the print: each pixel is ``(1 - w) * paint + w * white``,
    so the darkest channel of even the deepest green rises with ``w``. Each occupied cell's
    dark level (the ``veil_dark_pct`` percentile of its pixels' darkest channel) against the
    board's (the median of the cells') gives ``w`` over the veil-free dark level; a cell's ``w``
    is the median over the cells within ``veil_cells`` (a city tile's paler print among fields
    is not itself taken for glare), bilinear between cell centres, up to ``veil_max``; only
    where some cell's is at least ``veil_min``."""
    rows, cols = occupied.shape
    levels = _local_levels(top.min(axis=-1).astype(np.float32), occupied, ignore_top, patch,
                           float(cfg["veil_dark_pct"]), int(cfg["veil_cells"]))
    if levels is None:
        return None
    local, ref = levels
    w = np.clip((local - ref) / max(255.0 - ref, 1.0), 0.0, float(cfg["veil_max"]))
    if float(w[occupied].max(initial=0.0)) < float(cfg["veil_min"]):
        return None
    w_px = cv2.resize(w, (cols * patch, rows * patch), interpolation=cv2.INTER_LINEAR)[..., None]
    clear = (top.astype(np.float32) - 255.0 * w_px) / (1.0 - w_px)
    return np.clip(clear, 0, 255).astype(np.uint8)  # type: ignore[no-any-return]


def flat_field(top: np.ndarray, lab: np.ndarray, occupied: np.ndarray, ignore_top: np.ndarray, patch: int,
               cfg: dict[str, Any]) -> np.ndarray:
    """The top view's Lab (``lab``: :func:`~vision.colours.to_lab` of ``top``; float, unclipped)
    with the light evened out over the board: every pixel's channels scaled by
    the board's median brightness over the local one (the median over the occupied cells within
    ``flat_field_cells`` of its cell, each cell its own median brightness; bilinear between cell
    centres; gain within 1 / ``flat_field_max_gain`` .. ``flat_field_max_gain``), when the local
    brightness's 90th percentile over the board is at least ``flat_field_min_spread`` times its
    10th (else the photo's own colours: evening out content, not light, only adds noise).

    A lamp, a window or the flash lights one side of a board far more than the other; one colour
    model per photo then puts the dark side's fields with the bright side's cities. Scaling the
    channels alike keeps each surface's chromaticity, so the shaded field looks like the lit one.
    The neighbourhood is wide enough (a few tiles) that a city tile among fields is not itself
    evened away."""
    rows, cols = occupied.shape
    levels = _local_levels(top.astype(np.float32).mean(-1), occupied, ignore_top, patch, 50.0,
                           int(cfg["flat_field_cells"]))
    if levels is None:
        return lab
    local, ref = levels
    v = local[occupied]
    if np.percentile(v, 90) < float(cfg["flat_field_min_spread"]) * np.percentile(v, 10):
        return lab  # light even enough: the photo's own colours
    local_px = cv2.resize(local, (cols * patch, rows * patch), interpolation=cv2.INTER_LINEAR)
    g = float(cfg["flat_field_max_gain"])
    gain = np.clip(ref / np.maximum(local_px, 1.0), 1.0 / g, g)
    scaled = top.astype(np.float32) * (gain[..., None] / 255.0)
    even = cv2.cvtColor(scaled, cv2.COLOR_BGR2LAB)  # float: L 0..100+, a and b signed; no clipping
    even[..., 0] *= 255.0 / 100.0
    even[..., 1:] += 128.0
    return even


def bare_table_cells(lab: np.ndarray, ignore_top: np.ndarray, occupied: np.ndarray, best_ll: np.ndarray,
                     cfg: dict[str, Any]) -> np.ndarray:
    """Which occupied cells (row-major order, as ``best_ll``) are bare table after all (bool).

    The colour tests of occupancy fail on a table whose colour passes for a tile (frosted grey
    glass, a grey slatted table: tile-coloured mask and "green" both fire on its cast). Every
    printed tile is mostly field green or city tan, both well on the yellow side of Lab (b above
    neutral by ``bare_yellow_b``); grey, white, black or blue tables are not. So a cell is bare
    table when its share of yellowish pixels is below ``bare_rel_share`` of the photo's
    tile-rich cells' (the ``bare_ref_quantile`` of all cells: relative, so a dim or cold photo
    moves the reference with it) and its best log-likelihood also lies ``bare_ll_drop`` below
    that quantile of the cells' best log-likelihoods. Pixels under figures do not count. A tile
    of another game is still printed, so it stays (the reader marks it unknown)."""
    if not len(best_ll) or float(cfg.get("bare_rel_share", 0.0)) <= 0:
        return np.zeros(len(best_ll), dtype=bool)
    rows, cols = occupied.shape
    patch = lab.shape[0] // rows
    yellow = (lab[..., 2] - 128.0 > float(cfg["bare_yellow_b"])) & ~ignore_top
    keep = ~ignore_top
    cells = (slice(0, rows * patch), slice(0, cols * patch))
    ys = yellow[cells].reshape(rows, patch, cols, patch).sum((1, 3))
    ks = keep[cells].reshape(rows, patch, cols, patch).sum((1, 3))
    share = (ys / np.maximum(ks, 1))[occupied]
    q = float(cfg["bare_ref_quantile"])
    low_share = share < float(cfg["bare_rel_share"]) * float(np.quantile(share, q))
    low_fit = best_ll < float(np.quantile(best_ll, q)) - float(cfg["bare_ll_drop"])
    return low_share & low_fit


def edgeless_cells(image: np.ndarray, grid: Grid, cells: set[tuple[int, int]], cfg: dict[str, Any],
                   keep: set[tuple[int, int]] | None = None) -> set[tuple[int, int]]:
    """Cells on the board's outline without a tile's edge there: table read as tiles.

    A tile is a piece of cardboard: where it borders no other tile, its side is a step in
    brightness (its edge, its shadow, the table beyond). A patch of table that passes for a
    field (a green cloth under a highlight) has no such step between it and the table beyond.
    Each side of a cell that borders no read cell is measured as the strongest brightness
    change across it within ``edge_reach`` tile sides, and compared with the median of the
    sides between two read cells (the seams). A cell whose outer sides are all below
    ``edge_min_ratio`` of that is dropped, and the outline is measured again where it moved
    (a patch of table several cells wide is peeled cell by cell). ``image`` is the BGR work
    image: a change of hue counts too (the Lab a and b steps, times ``edge_colour_weight``),
    since a green field beside a grey or tan table can be as bright as the table and its edge a
    step in colour only. Cells are grid cells. Nothing is dropped
    with too few seams to compare with, nor all cells, nor the cells in ``keep`` (a followed
    game's tiles seen before: only new cells are judged)."""
    ratio = float(cfg.get("edge_min_ratio", 0.0))
    if ratio <= 0 or len(cells) < 3:
        return set()
    patch = int(cfg.get("edge_patch", 32))
    reach = max(1, int(round(float(cfg.get("edge_reach", 0.1)) * patch)))
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    cols, rows = range(min(xs) - 1, max(xs) + 2), range(min(ys) - 1, max(ys) + 2)
    top_bgr = warp_board(image, Grid(H=grid.H, cols=cols, rows=rows, pitch_px=grid.pitch_px), patch,
                         cv2.INTER_LINEAR)
    planes = [cv2.cvtColor(top_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)]
    colour = float(cfg.get("edge_colour_weight", 0.0))
    if colour > 0:
        lab = cv2.cvtColor(top_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
        planes += [lab[..., 1], lab[..., 2]]
    weights = [1.0] + [colour] * (len(planes) - 1)
    gx = sum(w * np.abs(cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=3)) for w, p in zip(weights, planes))
    gy = sum(w * np.abs(cv2.Sobel(p, cv2.CV_32F, 0, 1, ksize=3)) for w, p in zip(weights, planes))
    lo, hi = int(0.15 * patch), int(0.85 * patch)

    def side(c: tuple[int, int], edge: str) -> float:
        i, j = c[0] - cols.start, c[1] - rows.start
        if edge in ("W", "E"):
            x = (i + (edge == "E")) * patch
            return float(gx[j * patch + lo: j * patch + hi, x - reach: x + reach + 1].mean(0).max())
        y = (j + (edge == "S")) * patch
        return float(gy[y - reach: y + reach + 1, i * patch + lo: i * patch + hi].mean(1).max())

    strength = {(c, e): side(c, e) for c in cells for e in EDGES}
    seams = [v for (c, e), v in strength.items() if neighbour(c, e) in cells]
    if len(seams) < 4:
        return set()
    level = float(np.median(seams))
    if level <= 0:
        return set()
    left = set(cells)
    dropped: set[tuple[int, int]] = set()
    for _ in range(int(cfg.get("edge_rounds", 3))):
        weak = {c for c in left if c not in (keep or ())
                and any(neighbour(c, e) not in left for e in EDGES)
                and max(strength[(c, e)] for e in EDGES if neighbour(c, e) not in left) < ratio * level}
        if not weak or len(weak) >= len(left):
            break
        left -= weak
        dropped |= weak
    return dropped


def green_cells(green_top: np.ndarray, ignore_top: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """(rows, cols) share of each cell's pixels (not under a figure) that are field green."""
    patch = green_top.shape[0] // rows
    cells = (slice(0, rows * patch), slice(0, cols * patch))
    keep = ~ignore_top[cells]
    g = (green_top[cells] & keep).reshape(rows, patch, cols, patch).sum((1, 3))
    return g / np.maximum(keep.reshape(rows, patch, cols, patch).sum((1, 3)), 1)


def fieldless_cells(green: np.ndarray, field: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Which occupied cells (row-major order) are bare table read as a tile that shows field (bool).

    A table of tile colour (tan wood, beige cloth) passes the occupancy and yellowness tests and
    its plain cells fit some template well enough (a city, a road through a field of cast
    colour). But every tile except the all-city ones is partly field green, and bare table shows
    none: a cell is bare when its best template expects at least ``fieldless_min_field`` of field
    while its green share is below ``fieldless_rel_green`` of the photo's green-rich cells'
    (the ``fieldless_ref_quantile`` of the occupied cells' green shares; relative, so a colour
    cast that dims every green, a red filter, moves the reference with it). Off when that
    reference is below ``fieldless_min_ref`` (no trustworthy green in the photo at all)."""
    if not len(green) or float(cfg.get("fieldless_rel_green", 0.0)) <= 0:
        return np.zeros(len(green), dtype=bool)
    ref = float(np.quantile(green, float(cfg["fieldless_ref_quantile"])))
    if ref < float(cfg["fieldless_min_ref"]):
        return np.zeros(len(green), dtype=bool)
    return (green < float(cfg["fieldless_rel_green"]) * ref) & (field >= float(cfg["fieldless_min_field"]))


def unknown_offset(ll: np.ndarray, cfg: dict[str, Any]) -> float:
    """Shift that calibrates the log-likelihoods (C, T) to this photo before the reader's
    "not a tile of this game" test (best log-likelihood below ``unknown_min_loglik``).

    How well the best template fits depends on the edition's art and the light as much as on
    the tile: on an edition whose cities are brownish orange every city cell fits worse than
    on the edition the colours were set for. So a cell is unknown only when it also fits
    ``unknown_rel_drop`` worse than the photo's median cell, but always below
    ``unknown_floor_loglik``, and always ``unknown_top_drop`` below the ``unknown_top_quantile``
    cell (0: off). Adding the same constant to every log-likelihood changes no
    ranking, decoding or confidence; only the unknown test moves."""
    if not len(ll):
        return 0.0
    limit = float(cfg["unknown_min_loglik"])
    best = ll.max(1)
    relative = float(np.median(best)) - float(cfg["unknown_rel_drop"])
    bar = max(float(cfg["unknown_floor_loglik"]), min(limit, relative))
    drop = float(cfg.get("unknown_top_drop", 0.0))
    if drop > 0:
        # a cell fitting far worse than the photo's best-fitting cells is not a tile either,
        # whatever the median: a wrong grid spreading over the table can read as many table
        # cells as tiles, dragging the median down with them
        top = float(np.quantile(best, float(cfg.get("unknown_top_quantile", 0.9))))
        bar = max(bar, min(limit, top - drop))
    return limit - bar


def point_weights(n: int, cfg: dict[str, Any]) -> np.ndarray:
    """(n*n,) weight of each sample point in a cell's log-likelihood, normalised to mean 1.

    Points within ``edge_band`` (tile sides) of the border weigh ``1 + edge_weight``: the edges
    are what neighbouring tiles and the rules check, and every edition draws them alike (field,
    city or road meeting the border), while the interior carries edition-specific decoration."""
    c = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(c, c)
    d = np.minimum(np.minimum(u, 1 - u), np.minimum(v, 1 - v))
    w = 1.0 + float(cfg.get("edge_weight", 0.0)) * (d < float(cfg.get("edge_band", 0.0)))
    return (w / w.mean()).ravel()


def expected_observations(templates: list[Template], M: np.ndarray) -> list[np.ndarray]:
    """Per drawing variant, every template's expected observation at each sample point
    (T, P, 4): its class map through the confusion matrix ``M``. A template without that many
    variants repeats its own map, so the variants' log-likelihoods compare cell by cell."""
    def expect(t: Template, k: int) -> np.ndarray:
        if 0 < k <= len(t.variants):
            return t.variants[k - 1].reshape(-1, 4) @ M
        return (t.soft.reshape(-1, 4) @ M) if t.soft is not None else M[t.classes.ravel()]
    kinds = 1 + max((len(t.variants) for t in templates), default=0)
    return [np.stack([expect(t, k) for t in templates]) for k in range(kinds)]


def _best_variant(post: np.ndarray, occupied: np.ndarray, n: int, MEs: list[np.ndarray], w_pts: np.ndarray,
                  cfg: dict[str, Any]) -> np.ndarray:
    """:func:`cell_logliks` of every template at its best-fitting drawing variant."""
    each = cell_logliks_each(post, occupied, n, MEs, w_pts, cfg)
    ll = each[0]
    for other in each[1:]:
        ll = np.maximum(ll, other - float(cfg.get("variant_penalty", 0.0)))
    return ll


#: The edges in the order of :func:`edge_roads`' columns and :func:`edge_road_evidence`'s features.
_EDGE_ORDER = ("N", "E", "S", "W")


def edge_roads(templates: list[Template]) -> np.ndarray:
    """(T, 4) whether each template has a road (or a castle path) crossing the middle of its N, E,
    S, W edge."""
    from scorer import Kind
    out = np.zeros((len(templates), len(_EDGE_ORDER)))
    for k, t in enumerate(templates):
        for e, edge in enumerate(_EDGE_ORDER):
            i = t.tile.segment_index_on_board(edge, t.rot)
            out[k, e] = i is not None and t.tile.segments[i].kind in (Kind.ROAD, Kind.PATH)
    return out


def edge_road_features(post: np.ndarray, occupied: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """(cells, 4) how clearly a road crosses the middle of each cell's N, E, S, W edge (0..1).

    For each edge: the road posterior averaged over a band ``edge_road_band`` (tile sides from
    the edge, inwards) deep, then along the edge the best run ``edge_road_width`` long within
    ``edge_road_span`` of the edge. The band starts a little inside the border (the gap between
    tiles is often pale as a road) and the span lets a road sit a little off the middle (a tile
    laid loosely, another edition's drawing)."""
    rows, cols = occupied.shape
    patch = post.shape[0] // rows
    cells = post[: rows * patch, : cols * patch, 2].reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3)[occupied]
    cells = cells.astype(np.float32)  # (C, y, x)
    d0, d1 = (int(round(patch * float(x))) for x in cfg["edge_road_band"])
    a0, a1 = (int(round(patch * float(x))) for x in cfg["edge_road_span"])
    wid = max(1, int(round(patch * float(cfg["edge_road_width"]))))
    views = {"N": cells, "S": cells[:, ::-1], "W": cells.transpose(0, 2, 1), "E": cells.transpose(0, 2, 1)[:, ::-1]}
    out = np.zeros((len(cells), len(_EDGE_ORDER)))
    for e, edge in enumerate(_EDGE_ORDER):
        along = views[edge][:, d0:d1, a0:a1].mean(1)  # (C, span)
        run = np.cumsum(np.pad(along, ((0, 0), (1, 0))), axis=1)
        out[:, e] = ((run[:, wid:] - run[:, :-wid]) / wid).max(1) if along.shape[1] >= wid else along.mean(1)
    return out


def edge_road_evidence(post: np.ndarray, occupied: np.ndarray, roads: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """(cells, T) extra log-likelihood of each template from the roads seen crossing the cells' edges.

    Every edition draws a road meeting the tile's border at the middle of the edge, whereas a
    road's course inside the tile (how tight a curve turns, where a junction sits, the houses
    around it) is the edition's own. The pooled class maps weigh a road arm the template
    expects but the photo lacks lightly (a template road is drawn wider than the art), so a
    junction often fits a curve's cell nearly as well as the curve does. Each edge whose
    :func:`edge_road_features` value exceeds ``edge_road_zero`` therefore counts for the
    templates with a road there, by ``edge_road_weight`` times the excess (a lower value
    counts against them); a figure covering the edge gives a value near the uniform 0.25,
    about neutral."""
    w = float(cfg.get("edge_road_weight", 0.0))
    if w <= 0 or not occupied.any():
        return np.zeros((int(occupied.sum()), len(roads)))
    s = edge_road_features(post, occupied, cfg)
    return w * (s - float(cfg["edge_road_zero"])) @ roads.T


def cell_logliks(post: np.ndarray, occupied: np.ndarray, n: int, ME: np.ndarray, w_pts: np.ndarray,
                 cfg: dict[str, Any] | None = None) -> np.ndarray:
    """(cells, T) mean log-likelihood of every template for every occupied cell (row-major order).

    Pixel posteriors are pooled on an n x n grid per cell; each point's observation is compared
    with each template's expected observation (its class map through the confusion matrix).
    Tiles on a real table lie a little off the fitted grid (laid loosely, or the grid fit is off
    by a fraction of a tile in part of the photo), so each template may also be compared with
    the cell's window moved by ``align_shift`` tile sides in x and/or y, at a cost of
    ``align_penalty`` per moved axis; its best fit counts."""
    return cell_logliks_each(post, occupied, n, [ME], w_pts, cfg)[0]


def cell_logliks_each(post: np.ndarray, occupied: np.ndarray, n: int, MEs: list[np.ndarray], w_pts: np.ndarray,
                      cfg: dict[str, Any] | None = None) -> list[np.ndarray]:
    """:func:`cell_logliks` for each expected observation of ``MEs`` (the templates' drawing
    variants), the cells' pooled observations made once for all."""
    rows, cols = occupied.shape
    patch = post.shape[0] // rows
    b = patch // n
    d = int(round(patch * float((cfg or {}).get("align_shift", 0.0))))
    shifts = [(0, 0)] if d <= 0 else [(dy, dx) for dy in (-d, 0, d) for dx in (-d, 0, d)]
    pen = float((cfg or {}).get("align_penalty", 0.0))
    padded = np.pad(post[: rows * patch, : cols * patch].astype(np.float32), ((d, d), (d, d), (0, 0)), mode="edge")
    # mean of the b x b block starting at (y, x) sits at (y, x) + anchor of the box filter
    box = cv2.blur(padded, (b, b))
    a = b // 2
    MEts = [np.ascontiguousarray(ME.transpose(1, 2, 0), dtype=np.float32) for ME in MEs]  # (P, 4, T)
    w = (w_pts / len(w_pts)).astype(np.float32)
    best: list[np.ndarray | None] = [None] * len(MEs)
    for dy, dx in shifts:
        y0, x0 = d + dy + a, d + dx + a
        pooled = box[y0: y0 + rows * patch: b, x0: x0 + cols * patch: b]  # (rows*n, cols*n, 4)
        obs = pooled.reshape(rows, n, cols, n, 4).transpose(0, 2, 1, 3, 4)[occupied].reshape(-1, n * n, 4)
        obs_p = obs.transpose(1, 0, 2)  # (P, C, 4)
        for e, MEt in enumerate(MEts):
            lik = np.matmul(obs_p, MEt)  # (P, C, T)
            # OpenCV's log: four times numpy's on float32 here (the read's costliest step), within
            # an ulp or two of it
            lik += 1e-6
            logs = cv2.log(lik.reshape(len(lik), -1)).reshape(lik.shape)
            ll = np.einsum("p,pct->ct", w, logs) - pen * ((dy != 0) + (dx != 0))
            best[e] = ll if best[e] is None else np.maximum(best[e], ll)
    return [x.astype(np.float64) for x in best]  # type: ignore[union-attr]


def _prototype_posteriors(lab: np.ndarray, px: np.ndarray, w: np.ndarray, protos: np.ndarray,
                          cfg: dict[str, Any], colour_cfg: dict[str, Any],
                          where: np.ndarray | None = None) -> np.ndarray:
    """Posteriors from class prototypes re-estimated as weighted means of this photo's pixels
    (classes with too little weight keep their prototype); uniform outside ``where``."""
    new = protos.copy()
    for k in range(w.shape[1]):
        if w[:, k].sum() >= float(cfg["em_min_weight"]):
            new[k] = (px * w[:, k:k + 1]).sum(0) / w[:, k].sum()
    return posteriors_where(lab, new, colour_cfg, where)


def posteriors_where(lab: np.ndarray, protos: np.ndarray, colour_cfg: dict[str, Any],
                     where: np.ndarray | None = None) -> np.ndarray:
    """:func:`~vision.colours.posteriors` of the top view's pixels (the "colours" settings),
    computed only ``where`` given and uniform elsewhere (table the cells never sample)."""
    args = (float(colour_cfg["softness"]), tuple(colour_cfg["lab_weights"]))
    if where is None:
        return posteriors(lab, protos, *args)
    out = np.full(lab.shape[:2] + (len(protos),), 1.0 / len(protos), np.float32)
    out[where] = posteriors(lab[where], protos, *args)
    return out


def refine_posteriors(lab: np.ndarray, post: np.ndarray, ignore_top: np.ndarray, occupied: np.ndarray,
                      ll: np.ndarray, maps: np.ndarray, cfg: dict[str, Any], protos: np.ndarray,
                      colour_cfg: dict[str, Any], where: np.ndarray | None = None) -> np.ndarray | None:
    """One EM step of the per-photo colour model: pixel class posteriors re-learnt from the board.

    E-step: each cell's posterior over templates (softmax of its log-likelihoods) gives every
    sample point an expected class; M-step: per-class Lab histograms of the pixels whose expected
    class is clear (not under a figure, not in the gap along the cell border), each weighted by
    the template's class times the pixel's current posterior raised to ``em_agreement`` (so the
    field green inside a template's road band, drawn wider than the art, does not teach the
    road class green). The new posteriors
    follow this photo's own field, city and road colours whatever the edition or light."""
    from .colours import fit_class_histograms, histogram_posteriors
    rows, cols = occupied.shape
    patch = lab.shape[0] // rows
    n = maps.shape[1]
    b = patch // n
    z = ll * float(cfg["scale"]) / float(cfg["em_temperature"])
    pt = np.exp(z - z.max(1, keepdims=True))
    pt /= pt.sum(1, keepdims=True)
    expected = np.einsum("ct,tijk->cijk", pt, maps)  # (C, n, n, 4)
    # pixels of each occupied cell, cut into n x n blocks of b x b
    cells_lab = lab[: rows * patch, : cols * patch].reshape(rows, n, b, cols, n, b, 3).transpose(
        0, 3, 1, 4, 2, 5, 6)[occupied]  # (C, n, n, b, b, 3)
    ign = ignore_top[: rows * patch, : cols * patch].reshape(rows, n, b, cols, n, b).transpose(
        0, 3, 1, 4, 2, 5)[occupied]  # (C, n, n, b, b)
    m = int(round(patch * float(cfg["shield_margin"])))
    border = np.ones((n * b, n * b), dtype=bool)
    border[m: n * b - m, m: n * b - m] = False
    border_blocks = border.reshape(n, b, n, b).transpose(0, 2, 1, 3)  # (n, n, b, b)
    sure = expected.max(-1) >= float(cfg["em_min_point_prob"])  # (C, n, n)
    use = sure[..., None, None] & ~ign & ~border_blocks[None]
    if use.sum() < float(cfg["em_min_weight"]):
        return None
    w = np.broadcast_to(expected[:, :, :, None, None, :], use.shape + (expected.shape[-1],))[use]
    cur = post[: rows * patch, : cols * patch].reshape(rows, n, b, cols, n, b, 4).transpose(
        0, 3, 1, 4, 2, 5, 6)[occupied][use]
    w = w * cur ** float(cfg["em_agreement"])
    px = cells_lab[use]
    if len(px) > int(cfg["em_max_pixels"]):
        sel = np.random.default_rng(0).choice(len(px), int(cfg["em_max_pixels"]), replace=False)
        px, w = px[sel], w[sel]
    if cfg["em_model"] == "prototypes":
        return _prototype_posteriors(lab, px, w, protos, cfg, colour_cfg, where)
    model = fit_class_histograms(px, w, cfg)
    if model is None:
        return None
    prior = np.log(np.maximum(w.sum(0) / w.sum(), float(cfg["em_min_prior"])))
    bins = tuple(int(x) for x in cfg["em_bins"])
    return histogram_posteriors(lab, model, prior, bins)  # type: ignore[arg-type]
