"""Stage 2: find the tiles, the table plane and the grid.

1. A tile mask from colour (field green and city tan are what tiles are made of), cut down to
   the pixels unlike the table where the table is tile-coloured too; on a table of the fields'
   own green, the busy-region variant takes the board's area from where the photo is busier than
   its border instead (:func:`busy_region`).
2. Straight edges near the tiles (tile outlines and seams, straight roads) cluster into two
   families; each family meets at a vanishing point (RANSAC, then least squares). Edges on the
   board's outline (tile on one side, table on the other) weigh ``outline_segment_weight`` more:
   they are tile edges, where a road or a city wall inside the tiles need not be. Both points
   must be ones a phone camera can see a table's two square directions at (far enough from the
   photo's centre, at right angles for some focal length: :func:`vp_far_enough`,
   :func:`vp_perpendicular`), and the second family is the strongest direction that passes,
   so that a score board's or a box's edges cannot pass for the tiles' second family; unless
   the point that clearly more of the other edges meet passes too (``vp_wide_ratio``: seen low
   and close, the receding edges spread over tens of degrees and make no direction of their
   own, and a score board's one long edge can be the strongest one left), where those edges do
   spread (``vp_wide_spread_deg``: a city's hatching in the scans art runs one way). A locate
   variant (``vp_second_choice`` "strongest") takes, of the directions that pass, the one whose
   point most edge length meets: the hatching makes a sharper direction than the seams. The line
   through both vanishing points is the table plane's horizon: sending it to infinity removes
   the perspective, an affine map makes the two families the x and y axes.
3. Along each axis, the seams between tiles repeat with the tile pitch: a comb search (seam
   positions strong, tile centres weak) proposes pitches and phases per axis (its best peaks,
   their halves, thirds and doubles, the best of a "soft" comb that counts every seam alike, the
   other axis's pitches; in the mask-profile variant the tile mask's own steps, a sparse board's
   outlines, mixed in and their comb's best pitches too). Every square-ish pair is checked
   cheaply on the rectified board (cell borders are seams, cell middles are not); the comb's own
   best and the best-checked pairs are returned, and the reader classifies a few of them.
4. The grid is turned by a multiple of 90 degrees so that north is the image top, and every cell
   whose rectified patch is mostly tile-coloured holds a tile.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from .errors import BoardNotFoundError, TooBlurredError


@dataclass
class Grid:
    """Map from work-image pixels to board units (cell (i, j) spans [i, i+1] x [j, j+1])."""

    H: np.ndarray  # 3x3, work image -> board units
    cols: range
    rows: range
    pitch_px: float  # median tile side in work pixels
    blocks: float = 1.0  # see split_share: near 0 when the board cells form aligned 2x2 or 3x3 blocks
    outline: bool = False  # fitted to a tiny board's outline (see _blob_grid), not found by the comb
    polygon: bool = False  # fitted to a tiny board's outline polygon (vision.outline): the photo is of a tiny board
    board_cells: int = 0  # cells the grid check judged board (0: not judged)

    def to_board(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.H, pts)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return _apply(np.linalg.inv(self.H), pts)

    def side_px(self) -> float:
        """The tile side in work pixels at the board's middle, however the photo is turned: the
        longer of one cell step along x and along y (``pitch_px`` is the step along x, which a
        photo turned a quarter foreshortens: its receding direction is then x, north being the
        photo's top)."""
        return tile_side(self.H, self.cols, self.rows)


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.c_[p, np.ones(len(p))] @ H.T
    return q[:, :2] / q[:, 2:3]


def tile_mask(bgr: np.ndarray, cfg: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(green mask, tile-colour mask) of a BGR image."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sat = (s >= cfg["min_saturation"]) & (v >= cfg["min_value"])
    green = sat & (h >= cfg["green_hue"][0]) & (h <= cfg["green_hue"][1])
    tan = sat & (h >= cfg["tan_hue"][0]) & (h <= cfg["tan_hue"][1])
    return green, green | tan


def table_novelty(bgr: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Pixels whose colour is unlike the table's, the table being learnt from the photo's border.

    Tables vary (a green cloth or a yellow wood passes the tile-colour test everywhere), but the
    border strip of a photo of a board shows mostly table. A coarse Lab histogram is built per
    side of the border; a pixel's table density is the median over the four sides (one side
    crowded with tiles cannot teach that tiles are table), and pixels rarer than the rarest
    ``novelty_quantile`` of border pixels are novel. Works at half resolution for speed."""
    from scipy.ndimage import gaussian_filter

    f = float(cfg["novelty_scale"])
    small = cv2.resize(bgr, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)
    h, w = lab.shape[:2]
    b = max(2, int(float(cfg["novelty_border_frac"]) * min(h, w)))
    bins = [int(x) for x in cfg["novelty_bins"]]
    idx = tuple(np.clip(lab[..., k].astype(np.int32) * bins[k] // 256, 0, bins[k] - 1) for k in range(3))
    flat = (idx[0] * bins[1] + idx[1]) * bins[2] + idx[2]  # each pixel's histogram cell
    sides = [(slice(0, b), slice(None)), (slice(h - b, h), slice(None)),
             (slice(None), slice(0, b)), (slice(None), slice(w - b, w))]
    dens = []
    for sl in sides:
        hist = np.bincount(flat[sl].ravel(), minlength=bins[0] * bins[1] * bins[2]).astype(np.float64).reshape(bins)
        hist = gaussian_filter(hist, float(cfg["novelty_smooth"]))
        dens.append((hist / max(hist.sum(), 1e-9)).ravel()[flat])
    # the median of the four sides: the mean of the middle two (as np.median, without its sort)
    lo = np.maximum(np.minimum(dens[0], dens[1]), np.minimum(dens[2], dens[3]))
    hi = np.minimum(np.maximum(dens[0], dens[1]), np.maximum(dens[2], dens[3]))
    p = (lo + hi) / 2
    border = np.zeros((h, w), dtype=bool)
    border[:b] = border[-b:] = True
    border[:, :b] = border[:, -b:] = True
    thr = np.quantile(p[border], float(cfg["novelty_quantile"]))
    nov = (p < thr).astype(np.uint8)
    return cv2.resize(nov, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_NEAREST) > 0


def trust_novelty(tilecol: np.ndarray, novel: np.ndarray, cfg: dict[str, Any]) -> bool:
    """Whether the tile-colour mask is cut down to the pixels unlike the table
    (:func:`table_novelty`): when that keeps at least ``novelty_min_keep`` of the tile colour,
    when tile colour covers more than ``novelty_max_cover`` of the photo (a tile-coloured table),
    or when the tile colour it drops is speckle, at most ``novelty_max_table_density`` of the
    table (a glossy beige table passing the colour test here and there, not solid tiles that a
    border crowded with tiles taught as table)."""
    table = ~novel
    kept = float((tilecol & novel).sum()) >= float(cfg["novelty_min_keep"]) * max(1, int(tilecol.sum()))
    covers = float(tilecol.sum()) > float(cfg["novelty_max_cover"]) * tilecol.size
    speckle = float((tilecol & table).sum()) <= float(cfg.get("novelty_max_table_density", 0.0)) * max(1, int(table.sum()))
    return kept or covers or speckle


def busy_region(bgr: np.ndarray, cfg: dict[str, Any]) -> np.ndarray | None:
    """The board's area on a table of the tiles' own colour, from where the photo is busy.

    A green felt mat is as green as the fields: the tile-colour mask covers the whole photo and
    the pixels unlike the table (:func:`table_novelty`) are only the cities, roads and figures,
    islands from which no outline or seam can be found. But a cloth is smooth where the board is
    not: seams, tile outlines and the art's edges. A pixel is an edge where its colour gradient
    (Lab, lightly blurred) is above the ``busy_quantile`` of the border strip's (mostly table);
    edges in connected runs shorter than ``busy_min_run`` of the longer side are the cloth's
    speckle; the rest are closed over ``busy_close_frac`` of the longer side, holes filled (a
    plain field inside its seams), opened over the same, and the parts at least 0.15 of the
    largest kept. None when that area is below 0.3% or above ``busy_max_cover`` of the photo."""
    h, w = bgr.shape[:2]
    s = max(h, w)
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (5, 5), 1.2), cv2.COLOR_BGR2LAB).astype(np.float32)
    grad = np.zeros((h, w), np.float32)
    for c in range(3):
        grad += cv2.magnitude(cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0), cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1))
    b = max(2, int(float(cfg["novelty_border_frac"]) * min(h, w)))
    border = np.concatenate([grad[:b].ravel(), grad[-b:].ravel(), grad[b:-b, :b].ravel(), grad[b:-b, -b:].ravel()])
    edges = (grad > np.quantile(border, float(cfg["busy_quantile"]))).astype(np.uint8)
    n, lab_cc, stats, _ = cv2.connectedComponentsWithStats(edges, connectivity=8)
    run = np.zeros(n, dtype=bool)
    run[1:] = stats[1:, cv2.CC_STAT_AREA] >= float(cfg["busy_min_run"]) * s
    k = int(float(cfg["busy_close_frac"]) * s) | 1
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(run[lab_cc].astype(np.uint8) * 255, cv2.MORPH_CLOSE, disk)
    # holes filled before the opening: a plain field inside its four seams is board
    cnts, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, cnts, -1, 255, -1)
    area = cv2.morphologyEx(filled, cv2.MORPH_OPEN, disk)
    n, lab_cc, stats, _ = cv2.connectedComponentsWithStats(area)
    if n <= 1:
        return None
    sizes = stats[1:, cv2.CC_STAT_AREA]
    keep = np.zeros(n, dtype=bool)
    keep[1:] = sizes >= 0.15 * sizes.max()
    region = keep[lab_cc]
    cover = float(region.mean())
    if cover < 0.003 or cover > float(cfg["busy_max_cover"]):
        return None
    return region


def board_region(green: np.ndarray) -> np.ndarray:
    """The area the tiles cover: green, closed over cities and seams, holes filled."""
    h, w = green.shape
    k = max(3, int(round(max(h, w) * 0.012)) | 1)
    g = cv2.morphologyEx(green.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    g = cv2.morphologyEx(g, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 * k, 3 * k)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(g)
    if n <= 1:
        return np.zeros_like(green)
    areas = stats[1:, cv2.CC_STAT_AREA]
    big = areas.max()
    keep = np.zeros(n, dtype=bool)
    keep[1:] = areas >= 0.15 * big
    region = keep[lab].astype(np.uint8) * 255
    cnts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, cnts, -1, 255, -1)
    return filled > 0


def _segments(gray: np.ndarray, region: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    return _lines_near(cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120), region, cfg)


def _lines_near(edges: np.ndarray, region: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """(N, 4) straight segments (probabilistic Hough) of an edge map, near ``region`` only."""
    side = max(edges.shape)
    k = max(3, int(side * 0.02))
    edges = edges.copy()
    edges[cv2.dilate(region.astype(np.uint8), np.ones((k, k), np.uint8)) == 0] = 0
    segs = cv2.HoughLinesP(edges, 1, np.pi / 360, int(cfg["hough_threshold"]),
                           minLineLength=max(10, int(side * cfg["hough_min_length_frac"])),
                           maxLineGap=max(2, int(side * cfg["hough_max_gap_frac"])))
    return np.zeros((0, 4)) if segs is None else segs.reshape(-1, 4).astype(np.float64)


def _mask_segments(tilecol: np.ndarray, region: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Straight edges of the tile-colour mask near the board (its outline against the table):
    the mask closed over thin gaps (roads, seams) of ``outline_close_frac`` of the photo's longer
    side, then the same line search as :func:`_segments` on its edges."""
    h, w = tilecol.shape
    side = max(h, w)
    k = max(3, int(round(side * float(cfg.get("outline_close_frac", 0.008)))) | 1)
    m = cv2.morphologyEx(tilecol.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return _lines_near(cv2.Canny(m, 50, 150), region, cfg)


def _angle_err(segs: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Angle (radians) between each segment and the line from its midpoint to point v (homog.)."""
    return _angle_errs(segs, np.asarray(v)[None])[0]


def _lines(segs: np.ndarray) -> np.ndarray:
    p = np.c_[segs[:, :2], np.ones(len(segs))]
    q = np.c_[segs[:, 2:], np.ones(len(segs))]
    L = np.cross(p, q)
    return L / np.linalg.norm(L[:, :2], axis=1, keepdims=True)


def _fit_vp(segs: np.ndarray, w: np.ndarray) -> np.ndarray:
    L = _lines(segs)
    M = (L * w[:, None]).T @ L
    _, vecs = np.linalg.eigh(M)
    v = vecs[:, 0]
    return v / np.linalg.norm(v)


def _angle_errs(segs: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """Angle (radians) between each segment and the line from its midpoint to each point of
    ``vs`` (K, 3, homogeneous; a point at infinity is a direction): (K, N), in one pass."""
    m = (segs[:, :2] + segs[:, 2:]) / 2
    d = segs[:, 2:] - segs[:, :2]
    at_inf = np.abs(vs[:, 2]) < 1e-12
    den = np.where(at_inf, 1.0, vs[:, 2])
    t = np.where(at_inf[:, None, None], vs[:, None, :2], vs[:, None, :2] / den[:, None, None] - m[None])
    cross = np.abs(d[None, :, 0] * t[..., 1] - d[None, :, 1] * t[..., 0])
    dot = np.abs((d[None] * t).sum(-1))
    return np.arctan2(cross, dot)


def weighted_pairs(rng: np.random.Generator, p: np.ndarray, iters: int) -> np.ndarray:
    """``[rng.choice(len(p), 2, replace=False, p=p) for _ in range(iters)]`` as an (iters, 2)
    array: the same pairs from the same random numbers, leaving ``rng`` in the same state, but
    drawn in a few array operations (numpy's choice costs a hundred microseconds a call, and
    RANSAC makes hundreds). As numpy does: each pair's two indices come from two uniforms on the
    weights' cumulative sum; where both fall on one index, a third uniform draws the second from
    the weights without it."""
    p = np.asarray(p, dtype=np.float64)
    if np.count_nonzero(p > 0) < 2:
        raise ValueError("fewer than two non-zero weights to draw a pair from")
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    u = rng.random(2 * iters)
    idx = cdf.searchsorted(u, side="right")

    def draw(upto: int) -> None:  # the stream's uniforms (and their indices) up to ``upto``
        nonlocal u, idx
        if len(u) < upto:
            more = rng.random(upto - len(u))
            u, idx = np.r_[u, more], np.r_[idx, cdf.searchsorted(more, side="right")]
    out = np.empty((iters, 2), dtype=np.int64)
    at = done = 0  # uniforms used, pairs drawn
    while done < iters:
        draw(at + 2 * (iters - done))
        two = idx[at: at + 2 * (iters - done)].reshape(-1, 2)
        same = np.flatnonzero(two[:, 0] == two[:, 1])
        k = int(same[0]) if len(same) else len(two)  # the pairs up to the first that repeats
        out[done: done + k] = two[:k]
        done, at = done + k, at + 2 * k
        if done < iters:
            draw(at + 3)
            first = idx[at]
            rest = p.copy()
            rest[first] = 0
            cdf_rest = np.cumsum(rest)
            cdf_rest /= cdf_rest[-1]
            out[done] = (first, cdf_rest.searchsorted(u[at + 2], side="right"))
            done, at = done + 1, at + 3
    return out


def _ransac_vp(segs: np.ndarray, w: np.ndarray, tol: float, iters: int, rng: np.random.Generator,
               ok: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple[np.ndarray, float]:
    """The vanishing point that most segment length agrees with (within ``tol`` radians), and
    that length: of ``iters`` points where two random segments' lines (drawn by length ``w``)
    meet, the best (the first of equals) of those ``ok`` allows (a mask over (K, 3) points;
    default all), refitted on its inliers while the refit stays allowed. The candidates are
    scored all at once, so that the grid hypotheses' threads do not queue for the interpreter.
    With no allowed candidate, the least-squares point of all segments and length 0."""
    L = _lines(segs)
    p = w / w.sum()
    pairs = weighted_pairs(rng, p, iters)
    vs = np.cross(L[pairs[:, 0]], L[pairs[:, 1]])
    nv = np.linalg.norm(vs, axis=1)
    vs = vs[nv >= 1e-12] / nv[nv >= 1e-12, None]
    if ok is not None and len(vs):
        vs = vs[ok(vs)]
    if not len(vs):
        return _fit_vp(segs, w), 0.0
    inliers = _angle_errs(segs, vs) < tol
    scores = np.array([w[row].sum() for row in inliers])
    best = vs[int(np.argmax(scores))]
    for _ in range(3):
        inl = _angle_err(segs, best) < tol
        if inl.sum() < 2:
            break
        refit = _fit_vp(segs[inl], w[inl])
        if ok is not None and not ok(refit[None])[0]:
            break
        best = refit
    return best, float(w[_angle_err(segs, best) < tol].sum())


def vp_far_enough(vs: np.ndarray, focal_min: float, max_tilt_deg: float) -> np.ndarray:
    """Whether each vanishing point (K, 3; normalised coordinates, the principal point at the
    origin) lies far enough from the photo's centre to belong to a table seen at most
    ``max_tilt_deg`` from straight above: a direction in the table plane makes at least 90
    degrees less the tilt with the optical axis, so its vanishing point lies at least
    focal * cot(tilt) from the centre. A point closer than that is where unrelated lines
    (roads, a score board, a box) happen to meet."""
    far = np.hypot(vs[:, 0], vs[:, 1])
    return far >= focal_min / np.tan(np.radians(max_tilt_deg)) * np.abs(vs[:, 2])


def vp_perpendicular(v1: np.ndarray, vs: np.ndarray, focal_range: tuple[float, float], max_cos: float) -> np.ndarray:
    """Whether each of ``vs`` (K, 3) and ``v1`` can be the vanishing points of two perpendicular
    directions (the tile grid's two axes) for a pinhole camera with its principal point at the
    centre and some focal length in ``focal_range``: the rays K^-1 v = (x, y, f w) of the two
    points must be at most ``max_cos`` from perpendicular for some f there. A wrong second
    family (a score board's edges, roads) gives a pair that no camera can see at right angles."""
    fs = np.geomspace(focal_range[0], focal_range[1], 24)
    a = vs[:, 0] * v1[0] + vs[:, 1] * v1[1]
    b = vs[:, 2] * v1[2]
    n1 = np.sqrt(v1[0] ** 2 + v1[1] ** 2 + (fs * v1[2]) ** 2)  # (F,)
    n2 = np.sqrt(vs[:, :1] ** 2 + vs[:, 1:2] ** 2 + (fs[None] * vs[:, 2:3]) ** 2)  # (K, F)
    cos = np.abs(a[:, None] + fs[None] ** 2 * b[:, None]) / np.maximum(n1[None] * n2, 1e-12)
    cross = (-a / np.where(np.abs(b) > 1e-12, b, np.nan))  # f^2 where the rays are exactly perpendicular
    inside = (cross >= focal_range[0] ** 2) & (cross <= focal_range[1] ** 2)
    return inside | (cos.min(1) <= max_cos)


def _angle_gap(a: Any, b: Any) -> Any:
    """Degrees between directions ``a`` and ``b`` (in [0, 180): lines, not arrows), elementwise."""
    d = np.abs(a - b)
    return np.minimum(d, 180 - d)


def _spread_deg(ang: np.ndarray) -> float:
    """How many degrees the middle 80% of the line directions ``ang`` (degrees, in [0, 180))
    spread over, measured around their first (lines: 0 and 179 are a degree apart)."""
    if len(ang) < 2:
        return 0.0
    rel = (ang - ang[0] + 90.0) % 180.0 - 90.0
    lo, hi = np.percentile(rel, [10, 90])
    return float(hi - lo)


def _angle_histogram(ang: np.ndarray, weight: np.ndarray, width: int) -> np.ndarray:
    """Weight per whole degree of line direction (``ang`` in [0, 180)), smoothed by a ``width``
    degrees wide moving mean that wraps around at 180."""
    hist = np.zeros(180)
    np.add.at(hist, ang.astype(int) % 180, weight)
    return np.convolve(np.r_[hist[-width:], hist, hist[:width]], np.ones(width) / width, mode="same")[width:-width]


def vanishing_points(segs: np.ndarray, cfg: dict[str, Any],
                     weight: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two vanishing points (homogeneous, normalised coordinates) and each segment's family.
    Segments count by their length times ``weight`` (default 1 each), except in the search for
    a second point over all the edges outside the first family (``vp_wide_ratio``), where an
    outline's weight would let a score board's long outline win again."""
    if len(segs) < 6:
        raise BoardNotFoundError("found no straight tile edges; photograph the tiles from closer, "
                                 "in even light, with the whole board in view")
    d = segs[:, 2:] - segs[:, :2]
    raw = np.hypot(d[:, 0], d[:, 1])
    length = raw * (1.0 if weight is None else weight)
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180
    hist = _angle_histogram(ang, length, 7)
    a1 = int(hist.argmax())
    masked = np.where(_angle_gap(np.arange(180), a1) >= 35, hist, -1)
    # the second family's direction: the strongest few peaks of the rest are tried in turn, up to
    # the first whose vanishing point the camera allows
    peaks: list[int] = []
    for i in np.argsort(-masked):
        if masked[i] > 0 and masked[i] >= masked[(i - 1) % 180] and masked[i] >= masked[(i + 1) % 180] \
                and all(_angle_gap(int(i), j) > 5 for j in peaks):
            peaks.append(int(i))
    tol_f = cfg["angle_family_tolerance_deg"]

    def near(a: int) -> np.ndarray:
        return _angle_gap(ang, a) < tol_f

    rng = np.random.default_rng(0)
    tol = np.radians(cfg["vp_inlier_deg"])
    iters = int(cfg["ransac_iterations"])
    focal = tuple(float(f) for f in cfg.get("vp_focal_range", (0.0, 0.0)))
    max_tilt = float(cfg.get("vp_max_tilt_deg", 0.0))
    max_cos = float(cfg.get("vp_max_cos", 1.0))
    far = (lambda vs: vp_far_enough(vs, focal[0], max_tilt)) if max_tilt > 0 else None
    sel1 = near(a1)
    if sel1.sum() < 3:
        raise BoardNotFoundError("found too few tile edges in one direction; make sure whole tiles "
                                 "are in view and the photo is sharp")
    v1, _ = _ransac_vp(segs[sel1], length[sel1], tol, iters, rng, far)

    def ok2(vs: np.ndarray) -> np.ndarray:
        m = vp_perpendicular(v1, vs, focal, max_cos) if focal[1] > 0 else np.ones(len(vs), dtype=bool)
        return m & far(vs) if far is not None else m

    ok_second = ok2 if focal[1] > 0 or far else None
    second: np.ndarray | None = None
    best = 0.0
    strongest = cfg.get("vp_second_choice", "first") == "strongest"
    for a2 in peaks[: max(1, int(cfg.get("vp_second_peaks", 1)))]:
        sel = near(a2) & ~sel1
        if sel.sum() < 3:
            continue
        v2, support = _ransac_vp(segs[sel], length[sel], tol, iters, rng, ok_second)
        if second is None or support > best:
            second, best = v2, max(best, support)
        if support > 0 and not strongest:
            # the strongest direction a camera can see at right angles to the first; with
            # ``vp_second_choice`` "strongest", of those the one whose point most edge length
            # meets: a city's hatching (scans art), short parallel strokes, makes a sharp peak
            # of its own, and the seams receding under perspective spread over several (scans
            # photo game 4573, photo 19)
            break
    if second is None:
        raise BoardNotFoundError("found too few tile edges in one direction; make sure whole tiles "
                                 "are in view and the photo is sharp")
    wide = float(cfg.get("vp_wide_ratio", 0.0))
    if wide > 0 and (~sel1).sum() >= 3:
        # under strong perspective the receding edges spread over tens of degrees and make no
        # peak, so a score board's one long edge can be the strongest direction left: the point
        # that most of the other edges' length (not weighed as outline) meets is taken instead
        # when it gathers ``vp_wide_ratio`` times the peak's
        rest = ~sel1
        vw, support_w = _ransac_vp(segs[rest], raw[rest], tol, iters, rng, ok_second)
        support_peak = float(raw[rest][_angle_err(segs[rest], second) < tol].sum())
        met = rest & (_angle_err(segs, vw) < tol)
        if support_w > wide * support_peak and _spread_deg(ang[met]) >= float(cfg.get("vp_wide_spread_deg", 0.0)):
            second = vw
    vps = [v1, second]
    # reassign every segment to the vanishing point it agrees with best, then refit (a refit the
    # camera cannot see at right angles is not taken)
    errs = _angle_errs(segs, np.array(vps))
    fam = np.where(errs.min(0) < tol * 2, errs.argmin(0), -1)
    refit = list(vps)
    for k in (0, 1):
        sel = fam == k
        if sel.sum() >= 3:
            refit[k] = _fit_vp(segs[sel], length[sel])
    if (far is None or far(np.array(refit)).all()) and (
            focal[1] <= 0 or vp_perpendicular(refit[0], refit[1][None], focal, max_cos)[0]):
        vps = refit
    return vps[0], vps[1], fam


def dominant_direction(dd: np.ndarray, weight: np.ndarray, tol_deg: float) -> np.ndarray:
    """The direction most segment length (``dd``: (N, 2) segment vectors, counted by length
    times ``weight``) runs along: the peak of their angle histogram, refined to the weighted mean
    angle of the segments within ``tol_deg`` of it. Without perspective the tile edges of one
    family are parallel; a mean over the family would be pulled off by roads or a score board's
    edges that a wrong vanishing point gathered into it."""
    w = np.hypot(dd[:, 0], dd[:, 1]) * weight
    ang = np.degrees(np.arctan2(dd[:, 1], dd[:, 0])) % 180
    peak = float(_angle_histogram(ang, w, 3).argmax()) + 0.5
    off = (ang - peak + 90) % 180 - 90  # signed difference, wrapped
    near = np.abs(off) <= tol_deg
    mean = peak + float(np.average(off[near], weights=w[near])) if w[near].sum() > 0 else peak
    return np.array([np.cos(np.radians(mean)), np.sin(np.radians(mean))])


def _lerp(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``np.interp(pos, arange(len(values)), values)`` for a profile sampled at whole pixels:
    the same clamped linear interpolation, without a search per point (the comb calls it
    thousands of times per photo)."""
    last = len(values) - 1
    if last < 1:
        return np.full(np.shape(pos), float(values[0]))
    f = np.clip(pos, 0.0, float(last))
    i = f.astype(np.intp)
    np.minimum(i, last - 1, out=i)
    f -= i  # (in place: the same arithmetic, fewer large temporaries)
    out = values[i]
    out *= 1.0 - f
    i += 1
    nxt = values[i]
    nxt *= f
    out += nxt
    return out


def _comb(profile: np.ndarray, pmin: float, pmax: float, min_teeth: float = 3.0, teeth_power: float = 0.5,
          step: float = 1.0, rel_step: float = 0.0,
          soft: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_combs` with one ``soft``."""
    return _combs(profile, pmin, pmax, min_teeth, teeth_power, step, rel_step, (soft,))[0]


def _combs(profile: np.ndarray, pmin: float, pmax: float, min_teeth: float = 3.0, teeth_power: float = 0.5,
           step: float = 1.0, rel_step: float = 0.0,
           softs: tuple[float, ...] = (0.0,)) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Seam-comb scores over a 1-D profile for every candidate pitch: (pitches, best phase, score,
    mean contrast at that phase).

    The score is the mean seam strength minus the strength half a pitch away (times the number of
    teeth on the board to the power ``teeth_power``). A multiple of the pitch puts its "half a
    pitch away" on seams too and scores about zero; half the pitch counts tile centres as seams
    and loses to the true pitch. Pitches that fit fewer than ``min_teeth`` teeth on the board are
    not considered (the board's two outer edges alone are no evidence of a pitch). Pitches are
    ``step`` pixels apart, or ``rel_step`` of the pitch where that is more (a coarse search:
    its peaks are refined finely later). With ``soft`` > 0 each tooth's contrast counts through
    tanh(contrast / (soft * the profile's median on the board)): a few very strong lines (the
    board's outline, long straight roads) then cannot outvote the many ordinary seams, which
    otherwise makes a multiple of the pitch win on sparse boards. One comb per value of ``softs``
    (the profile is sampled at the teeth once for all)."""
    n = len(profile)
    nz = np.nonzero(profile > 0.05 * profile.max())[0] if profile.max() > 0 else np.array([0, n - 1])
    lo_b, hi_b = float(nz[0]), float(nz[-1])
    prof = profile - np.median(profile[int(lo_b):int(hi_b) + 1])
    if rel_step > 0:
        grid_p = [pmin]
        while grid_p[-1] + max(step, rel_step * grid_p[-1]) < pmax:
            grid_p.append(grid_p[-1] + max(step, rel_step * grid_p[-1]))
        pitches = np.array(grid_p)
    else:
        pitches = np.arange(pmin, max(pmin + step, pmax), step)
    # every (pitch, phase) row and its teeth in a few large numpy operations instead of a Python
    # loop over the pitches (this runs dozens of times per photo, and large operations let the
    # grid hypotheses' threads run side by side): the pitches with as many teeth k = -1 ..
    # int(n / p) + 1 share one (rows, teeth) array
    n_ph = np.ceil(pitches / 0.5).astype(np.intp)  # phases 0, 0.5, .. below the pitch
    n_k = (n / pitches).astype(np.intp) + 3
    if any(soft > 0 for soft in softs):
        on = profile[int(lo_b):int(hi_b) + 1]
        on_median = float(np.median(on[on > 0.05 * profile.max()]))
    scales = [max(soft * on_median, 1e-9) if soft > 0 else 0.0 for soft in softs]
    best = [tuple(np.empty(len(pitches)) for _ in range(3)) for _ in softs]  # phase, score, mean
    # a pitch that cannot fit min_teeth teeth on the board at any phase scores -inf at its first
    # phase (with a little to spare against rounding: no pitch that could fit them is left out)
    fits = np.floor((hi_b - lo_b + 4) / pitches + 1e-6) + 1 >= min_teeth
    for best_ph, best_sc, best_mean in best:
        best_ph[~fits], best_sc[~fits], best_mean[~fits] = 0.0, -np.inf, -np.inf
    for nk in np.unique(n_k[fits]):
        sel = np.flatnonzero((n_k == nk) & fits)
        row_pitch = np.repeat(np.arange(len(sel)), n_ph[sel])
        first_row = np.r_[0, np.cumsum(n_ph[sel])[:-1]]
        row_phase = (np.arange(len(row_pitch)) - first_row[row_pitch]) * 0.5
        p_r = pitches[sel][row_pitch][:, None]
        pos = (np.arange(nk) - 1)[None, :] * p_r
        pos += row_phase[:, None]
        ok = (pos >= lo_b - 2) & (pos <= hi_b + 2)
        cnt = np.count_nonzero(ok, axis=1)
        live = cnt >= min_teeth
        # the profile at each tooth on the board and half a pitch after it (0 off the board), in
        # the rows with enough teeth on the board to count (the others score -inf whatever it is)
        ok &= live[:, None]
        at = pos[ok]  # (row-major: each row's teeth together)
        d = _lerp(prof, at)
        at += np.repeat(p_r[:, 0] / 2, np.where(live, cnt, 0))
        d -= _lerp(prof, at)
        for (best_ph, best_sc, best_mean), scale in zip(best, scales):
            diff = np.zeros(pos.shape)
            diff[ok] = np.tanh(d / scale) if scale > 0 else d
            # (np.add.reduceat sums each row as a flat array's stretch: the same sums as for one array of all rows)
            total = np.add.reduceat(diff.ravel(), np.arange(0, diff.size, nk))
            mean = np.where(live, total / np.maximum(cnt, 1), -np.inf)
            sc = mean * np.maximum(cnt, 1) ** teeth_power
            # per pitch, its first phase of the best score
            top = np.maximum.reduceat(sc, first_row)
            hit = np.flatnonzero(sc == top[row_pitch])
            _, first_hit = np.unique(row_pitch[hit], return_index=True)
            at_best = hit[first_hit]
            best_ph[sel], best_sc[sel], best_mean[sel] = row_phase[at_best], sc[at_best], mean[at_best]
    return [(pitches, *b) for b in best]


def _axis_candidates(profile: np.ndarray, pmin: float, pmax: float, cfg: dict[str, Any],
                     other: tuple[float, ...] = (),
                     comb: tuple[np.ndarray, ...] | None = None,
                     stretched: tuple[float, ...] = ()) -> list[tuple[float, float, float]]:
    """(pitch, phase, comb score) hypotheses for one rectified axis, best comb score first.

    The comb's best pitch is often a multiple of the true one (wood grain, the board's outline and
    long straight roads line up every few tiles) and sometimes half of it (roads through tile
    centres), so one answer is not enough: the comb's ``pitch_peaks`` strongest local maxima and
    the ``pitch_factors`` multiples of its best pitch are all kept, each refined in steps of
    ``pitch_fine_step`` within 3 percent. Tiles are square, so the other axis's pitches
    (``other``) are tried too, each at the comb's best within ``cross_window`` of it (the affine
    frame stretches one axis against the other), and so are ``stretched`` ones (the other axis's
    pitches stretched by the camera's aspect, see locate_candidates), each at the comb's
    ``cross_peaks`` best local maxima there. The grid check (:func:`_grid_check`) chooses.
    ``comb``: the coarse comb of this profile when already computed."""
    mt, tp = float(cfg["min_teeth"]), float(cfg["teeth_power"])
    ps, _, scs, _ = comb if comb is not None else _comb(profile, pmin, pmax, mt, tp,
                                                        rel_step=float(cfg.get("pitch_coarse_rel_step", 0.0)))
    if not np.isfinite(scs).any():
        return []
    fin = np.where(np.isfinite(scs), scs, -np.inf)
    loc = np.nonzero((fin >= np.r_[-np.inf, fin[:-1]]) & (fin >= np.r_[fin[1:], -np.inf]) & np.isfinite(fin))[0]
    loc = loc[np.argsort(-fin[loc])]  # every local maximum, best first
    best = float(ps[int(np.argmax(fin))])
    cw = float(cfg["cross_window"])

    def fits(t: float) -> bool:  # at least the comb's smallest pitch and min_teeth teeth on the profile
        return pmin * 0.97 <= t <= len(profile) / mt

    targets = [t for t in [float(ps[i]) for i in loc[: int(cfg["pitch_peaks"])]]
               + [best * float(f) for f in cfg["pitch_factors"]] if fits(t)]
    fs = float(cfg["pitch_fine_step"])
    n_stretched = int(cfg.get("cross_peaks", 1))
    # the comb's best near each pitch of the other axis (its n_stretched best local maxima near a stretched one)
    for o, n_cross in [(o, 1) for o in other] + [(o, n_stretched) for o in stretched]:
        if not fits(o):
            continue
        sel = np.abs(ps / o - 1) <= cw
        if not np.isfinite(fin[sel]).any():
            continue
        near = [int(np.argmax(np.where(sel, fin, -np.inf)))]
        if n_cross > 1:
            near += [int(i) for i in loc if sel[i] and i != near[0]][: n_cross - 1]
        # (locate.cross_fit: the maxima too must fit min_teeth teeth; a longer pitch's check is
        # no evidence of seams)
        targets += [float(ps[i]) for i in near if fits(float(ps[i])) or not cfg.get("cross_fit", False)]
    out: list[tuple[float, float, float]] = []
    for t in targets:
        if any(abs(t - p) < 0.03 * t for p, _, _ in out):
            continue
        ps2, phs2, scs2, _ = _comb(profile, t * 0.97, t * 1.03, mt, tp, fs)
        i = int(np.argmax(scs2))
        if np.isfinite(scs2[i]):
            out.append((float(ps2[i]), float(phs2[i]), float(scs2[i])))
    return out


def _distinct_pitches(cands: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """``cands`` (pitch, phase, score) without those within 3 percent of the pitch of one before."""
    return [c for i, c in enumerate(cands) if not any(abs(c[0] - d[0]) < 0.03 * c[0] for d in cands[:i])]


def _tile_sides(segs: np.ndarray, tilecol: np.ndarray, offset: float) -> np.ndarray:
    """(N, 2): the share of tile colour along each side of each segment, ``offset`` pixels out."""
    if not len(segs):
        return np.zeros((0, 2))
    h, w = tilecol.shape
    d = segs[:, 2:] - segs[:, :2]
    nrm = np.c_[-d[:, 1], d[:, 0]] / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    ts = np.linspace(0.1, 0.9, 9)
    pts = segs[:, None, :2] + ts[None, :, None] * d[:, None, :]
    sides = []
    for sgn in (-1, 1):
        q = pts + sgn * offset * nrm[:, None, :]
        xi = np.clip(q[..., 0].round().astype(int), 0, w - 1)
        yi = np.clip(q[..., 1].round().astype(int), 0, h - 1)
        sides.append(tilecol[yi, xi].mean(1))
    return np.stack(sides, axis=1)


def _on_tiles(sides: np.ndarray) -> np.ndarray:
    """Segments with tile colour along at least one side (tile outlines and seams, not the
    planks of a table); ``sides`` from :func:`_tile_sides`."""
    return sides.max(1) >= 0.6 if len(sides) else np.zeros(0, dtype=bool)


def _on_outline(sides: np.ndarray) -> np.ndarray:
    """Segments with tile on one side and table on the other: the board's outline, which is
    made of tile edges only (inside the board a road or a city wall is straight too)."""
    return (sides.max(1) >= 0.6) & (sides.min(1) <= 0.2) if len(sides) else np.zeros(0, dtype=bool)


@dataclass
class _Rectified:
    """The board plane after rectification, with what the pitch search and its check need."""

    R: np.ndarray  # work pixels -> rectified pixels
    size: tuple[int, int]  # rectified (width, height)
    rmask: np.ndarray  # board region, rectified
    tile: np.ndarray  # tile-colour mask, rectified
    gx: np.ndarray  # |d/dx| of the rectified grey image on and near the board
    gy: np.ndarray  # |d/dy|
    prof_x: np.ndarray  # seam profiles along x and y (smoothed)
    prof_y: np.ndarray
    region_pts: np.ndarray  # sample of board-region pixels (work image)
    tilecol: np.ndarray  # tile-colour mask of the work image
    shape: tuple[int, int]  # work image (h, w)
    aspect: float | None = None  # a square tile's x-pitch / y-pitch here (see metric_aspect); None: unknown
    mask_x: np.ndarray | None = None  # the tile mask's step profiles along x and y (smoothed)
    mask_y: np.ndarray | None = None


def _colour_masks(bgr: np.ndarray, cfg: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(green, tile colour, unlike the table) masks of a BGR image (see tile_mask, table_novelty;
    without ``novelty`` the third is the tile colour)."""
    green, tilecol = tile_mask(bgr, cfg)
    return green, tilecol, table_novelty(bgr, cfg) if cfg.get("novelty", True) else tilecol


@dataclass
class _Edges:
    """A photo's board edges and vanishing points (:func:`_board_edges`), before rectification."""

    tilecol: np.ndarray  # tile-colour mask (the busy region's or the novelty's where used)
    region: np.ndarray  # the board's area
    gray: np.ndarray  # the grey image
    segs: np.ndarray  # straight segments on the tiles (work pixels; x0, y0, x1, y1)
    segs_n: np.ndarray  # the same in normalised coordinates (``T``)
    from_mask: np.ndarray  # segments found on the tile-colour mask's outline
    weight: np.ndarray  # each segment's weight in the vanishing points
    T: np.ndarray  # work pixels -> normalised coordinates (centre 0, longer side 1)
    v1: np.ndarray  # the two vanishing points (homogeneous, normalised)
    v2: np.ndarray
    fam: np.ndarray  # each segment's family (0: v1, 1: v2, else neither)


def _board_edges(bgr: np.ndarray, cfg: dict[str, Any], memo: dict[str, Any] | None) -> _Edges | None:
    """Steps 1-2 of the module docstring: the tile masks, the board's area, its straight edges
    and their vanishing points; None for a variant that reads the busy region only
    (``busy_only``) where that region is not used. ``memo``: see :func:`_shared_rectify` (the
    colour masks are shared with variants that differ only in the busy region)."""
    h, w = bgr.shape[:2]
    if memo is None:
        green, tilecol, novel = _colour_masks(bgr, cfg)
    else:
        green, tilecol, novel = _once(memo, "masks " + _settings_key(cfg, _PROFILE_MIX + _BUSY_ONLY + _FAR_VP),
                                      lambda: _colour_masks(bgr, cfg))
    busy = None
    if cfg.get("novelty", True) and cfg.get("busy_region", False) \
            and float(tilecol.sum()) > float(cfg["novelty_max_cover"]) * tilecol.size:
        # a table of the tiles' own colour (a yellow wood, a green felt): the board is where the
        # photo is busy (busy_region), unless the colours unlike the table's are at least
        # busy_novel_max of that area (the default 1.0: all of it, when the variants that take
        # the board's region from those colours read the same)
        busy = busy_region(bgr, cfg)
        if busy is not None:
            seen = tilecol & novel
            in_busy = float((seen & busy).sum())
            # not where it is the board: most of what is unlike the table is not inside it (a
            # photo of a grey glass table whose busy part is a corner of the board)
            if in_busy >= float(cfg["busy_novel_max"]) * float(busy.sum()) \
                    or in_busy < float(cfg["busy_inside_min"]) * float(seen.sum()):
                busy = None
    if busy is not None:
        tilecol = tilecol & busy
        green = green & busy
    elif cfg.get("busy_only", False):
        return None
    elif trust_novelty(tilecol, novel, cfg):
        tilecol = tilecol & novel
        green = green & novel
    # the board's area from field green (default; a tan table cannot pass for board) or all tile colours
    region = board_region(tilecol if cfg.get("region_from_tile_colours", False) else green)
    if region.sum() < 0.003 * h * w:
        raise BoardNotFoundError("found no tiles in the photo; make sure the board fills a good part "
                                 "of the picture and is lit evenly")
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    sharp = cv2.Laplacian(gray, cv2.CV_64F)[region].var()
    if sharp < 4.0:
        raise TooBlurredError("the photo is too blurred to read the tiles; hold the phone still and let "
                              "it focus on the board")
    segs = _segments(gray, region, cfg)
    offset = max(3.0, max(h, w) * 0.006)
    n_mask = 0  # segments from the tile-colour mask, at the end of ``segs``
    if cfg.get("outline_from_mask", False):
        # a field's green and a beige table can be equally bright: the outline is then a colour
        # edge only, which the grey-level edges miss; the tile-colour mask's own edges find it
        msegs = _mask_segments(tilecol, region, cfg)
        # the board's own outline: tile colour on one side, on the other neither the board's
        # (filled) area nor a colour unlike the table's (a wide printed road across a big tile
        # is a mask edge too)
        msegs = msegs[_on_outline(_tile_sides(msegs, tilecol, offset))
                      & _on_outline(_tile_sides(msegs, region, offset))
                      & _on_outline(_tile_sides(msegs, tilecol | novel, offset))]
        segs, n_mask = np.concatenate([segs, msegs]), len(msegs)
    from_mask = np.arange(len(segs)) >= len(segs) - n_mask
    sides = _tile_sides(segs, tilecol, offset)
    keep = _on_tiles(sides)
    segs = segs[keep]
    from_mask = from_mask[keep]
    weight = 1.0 + float(cfg.get("outline_segment_weight", 0.0)) * _on_outline(sides[keep])
    # normalised coordinates
    s = float(max(h, w))
    T = np.array([[1 / s, 0, -w / (2 * s)], [0, 1 / s, -h / (2 * s)], [0, 0, 1]])
    segs_n = np.c_[_apply(T, segs[:, :2]), _apply(T, segs[:, 2:])] if len(segs) else segs
    v1, v2, fam = vanishing_points(segs_n, cfg, weight)
    return _Edges(tilecol, region, gray, segs, segs_n, from_mask, weight, T, v1, v2, fam)


def _rectify(bgr: np.ndarray, cfg: dict[str, Any], memo: dict[str, Any] | None = None) -> _Rectified | None:
    """Tile masks, straight edges, vanishing points and the affine-rectified board with its seam
    profiles (steps 1-3 of the module docstring, up to the pitch search); None for a variant that
    reads the busy region only (``busy_only``) where that region is not used, one that moves
    the far vanishing point (``far_vp_metric``) where it stays, or one that takes the strongest
    second vanishing point (``vp_second_choice``) where that is the first choice's. ``memo``: see
    :func:`_shared_rectify` (the edges and vanishing points, :func:`_board_edges`, are shared with
    a variant that differs only in the far vanishing point: it moves the first variant's)."""
    h, w = bgr.shape[:2]
    if cfg.get("vp_second_choice", "first") == "first":
        edges = _shared_edges(bgr, cfg, memo)
    else:
        # the first choice's edges (the same segments) with the other second vanishing point;
        # a variant whose point is the first choice's adds no grids of its own
        edges = _shared_edges(bgr, {**cfg, "vp_second_choice": "first"}, memo)
        if edges is not None:
            v1, v2, fam = vanishing_points(edges.segs_n, cfg, edges.weight)
            if np.allclose(v1, edges.v1) and np.allclose(v2, edges.v2):
                return None
            edges = replace(edges, v1=v1, v2=v2, fam=fam)
    if edges is None:
        return None
    tilecol, region, gray, segs, segs_n, from_mask, weight, T = (
        edges.tilecol, edges.region, edges.gray, edges.segs, edges.segs_n, edges.from_mask, edges.weight, edges.T)
    v1, v2, fam = edges.v1, edges.v2, edges.fam
    ys, xs = np.nonzero(region)
    step = max(1, len(xs) // 20000)
    board_n = _apply(T, np.c_[xs[::step], ys[::step]])  # board pixels, normalised
    if cfg.get("far_vp_metric", False) and cfg.get("focal_frac"):
        moved = metric_far_vp(v1, v2, board_n.mean(axis=0), float(cfg["focal_frac"]),
                              float(cfg["far_vp_near_max"]), float(cfg["far_vp_ratio"]))
        if moved[0] is v1 and moved[1] is v2:
            return None  # the variant's grids would be the first variant's (see the config)
        v1, v2 = moved
    horizon = np.cross(v1, v2)
    perspective = _horizon_ok(horizon, board_n, float(cfg["horizon_min_ratio"]))
    if not perspective:
        # the horizon crosses the board or runs close by: perspective too strong to trust (or
        # the vanishing points wrong); fall back to affine
        horizon = np.array([0.0, 0.0, 1.0])
    Hp = np.array([[1, 0, 0], [0, 1, 0], horizon / horizon[2]])
    d = []
    for v in (v1, v2):
        q = Hp @ v
        dv = q[:2] if abs(q[2]) < 1e-6 * np.linalg.norm(q[:2]) else None
        if dv is None:
            # numerically not at infinity (no perspective kept): the family's dominant direction
            fsel = fam == len(d)
            dv = dominant_direction(_apply(Hp, segs_n[fsel, 2:]) - _apply(Hp, segs_n[fsel, :2]),
                                    weight[fsel], float(cfg["vp_inlier_deg"]))
        d.append(dv / np.linalg.norm(dv))
    D = np.column_stack(d)
    if np.linalg.det(D) < 0:
        D[:, 1] *= -1
    A = np.eye(3)
    A[:2, :2] = np.linalg.inv(D)
    G = A @ Hp @ T  # work pixels -> affine-rectified plane
    pts = _apply(G, np.c_[xs[::step], ys[::step]])
    lo, hi = np.percentile(pts, 0.5, axis=0), np.percentile(pts, 99.5, axis=0)
    side = float(cfg["rectified_side"])
    sc = side / max(hi - lo)
    S = np.array([[sc, 0, -lo[0] * sc + 20], [0, sc, -lo[1] * sc + 20], [0, 0, 1]])
    R = S @ G
    size = (int((hi[0] - lo[0]) * sc) + 40, int((hi[1] - lo[1]) * sc) + 40)
    if size[0] * size[1] > 4 * side * side or min(size) < 20:
        raise BoardNotFoundError("could not make out the table plane; take the photo more from above")
    rect = cv2.warpPerspective(gray, R, size, flags=cv2.INTER_AREA)
    rmask = cv2.warpPerspective(region.astype(np.uint8), R, size, flags=cv2.INTER_NEAREST) > 0
    gx = np.abs(cv2.Sobel(rect.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(rect.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3))
    near = cv2.dilate(rmask.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    gx[~near] = 0
    gy[~near] = 0
    # every edge pixel counts alike: the tiles' outline against the table must not outweigh seams
    for g in (gx, gy):
        vals = g[near]
        if len(vals):
            np.minimum(g, max(float(np.percentile(vals, float(cfg["gradient_clip_pct"]))), 1e-6), out=g)
    # add the straight segments themselves (strong, straight evidence of seams)
    lines_img_x = np.zeros(size[::-1], np.float32)
    lines_img_y = np.zeros(size[::-1], np.float32)
    for k, img_l in ((1, lines_img_x), (0, lines_img_y)):
        # (locate.outline_mask_profile false: the mask's outline segments set the directions only)
        sel = (fam == k) & (~from_mask | bool(cfg.get("outline_mask_profile", True)))
        a = _apply(R, segs[sel, :2])
        b = _apply(R, segs[sel, 2:])
        for (x0, y0), (x1, y1) in zip(a, b):
            cv2.line(img_l, (int(x0), int(y0)), (int(x1), int(y1)), 255.0, 2)
    # per row/column, the share of the board's pixels on an edge (wide and narrow parts of the
    # board count alike; columns with little board are not trusted more than a third of the widest)
    sup_x = near.sum(0).astype(np.float64)
    sup_y = near.sum(1).astype(np.float64)
    sup_x = np.maximum(sup_x, float(cfg["support_floor"]) * max(1.0, sup_x.max()))
    sup_y = np.maximum(sup_y, float(cfg["support_floor"]) * max(1.0, sup_y.max()))
    lw = float(cfg["segment_weight"])
    prof_x = (gx.sum(0) + lw * lines_img_x.sum(0)) / sup_x
    prof_y = (gy.sum(1) + lw * lines_img_y.sum(1)) / sup_y
    tile = cv2.warpPerspective(tilecol.astype(np.uint8), R, size, flags=cv2.INTER_NEAREST) > 0
    # the tile mask's own steps (tile against table): on a sparse board the tiles' outlines are
    # most of its lattice lines, and the art inside the tiles (scans: detailed cities, no printed
    # seams) swamps them in the grey-level edges
    tf = tile.astype(np.float32)
    mask_prof = []
    for k, sup in ((0, sup_x), (1, sup_y)):
        m = np.abs(cv2.Sobel(tf, cv2.CV_32F, 1 - k, k, ksize=3))
        m[~near] = 0
        mask_prof.append(cv2.GaussianBlur((m.sum(k) / sup).reshape(1, -1), (1, 0), 1.0).ravel())
    pfx = cv2.GaussianBlur(prof_x.reshape(1, -1), (1, 0), 1.0).ravel()
    pfy = cv2.GaussianBlur(prof_y.reshape(1, -1), (1, 0), 1.0).ravel()
    aspect = None
    if perspective and cfg.get("focal_frac"):
        centre = _apply(R, np.c_[xs[::step], ys[::step]]).mean(axis=0)
        aspect = metric_aspect(T @ np.linalg.inv(R), horizon, float(cfg["focal_frac"]), centre)
    return _Rectified(R=R, size=size, rmask=rmask, tile=tile, gx=gx, gy=gy, prof_x=pfx, prof_y=pfy,
                      region_pts=np.c_[xs[::step], ys[::step]], tilecol=tilecol, shape=(h, w), aspect=aspect,
                      mask_x=mask_prof[0], mask_y=mask_prof[1])


def metric_far_vp(v1: np.ndarray, v2: np.ndarray, centre: np.ndarray, focal: float, near_max: float,
                  ratio: float) -> tuple[np.ndarray, np.ndarray]:
    """The two vanishing points (homogeneous, normalised coordinates) with the far one moved
    along its direction to where it is at right angles to the near one for a pinhole camera of
    focal length ``focal`` (principal point at the photo's centre): ``v_near . v_far = -focal**2``.

    Seen steeply, one family of tile edges recedes to a near vanishing point, fixed well by
    their spread of directions, while the other family is almost parallel in the photo: the
    direction to its point is sure, its distance is not (photo 100006 of the test split:
    estimated 5400 px from the board, truly 8500). The distance sets the horizon's tilt, and a
    horizon a few degrees off leaves the rectified board a projective stretch (the pitch grows
    5 percent across it), on which no single pitch fits the seams. Only when the near point is
    within ``near_max`` (longer image side 1) of the photo's centre, and only ever further out
    on the same side, at least ``ratio`` times as far from the board's ``centre`` as the near
    one; else the points are returned as they are."""
    def finite(v: np.ndarray) -> np.ndarray | None:
        return v[:2] / v[2] if abs(v[2]) > 1e-9 * float(np.linalg.norm(v[:2])) else None

    p1, p2 = finite(v1), finite(v2)
    d1 = np.inf if p1 is None else float(np.linalg.norm(p1 - centre))
    d2 = np.inf if p2 is None else float(np.linalg.norm(p2 - centre))
    swap = d2 < d1
    near, pn, pf, dn = (v2, p2, p1, d2) if swap else (v1, p1, p2, d1)
    if pn is None or pf is None or float(np.linalg.norm(pn)) > near_max:
        return v1, v2
    u = pf - centre
    df = float(np.linalg.norm(u))
    if df < 1e-12:
        return v1, v2
    u = u / df
    den = float(pn @ u)
    if abs(den) < 1e-12:
        return v1, v2
    t = -(focal * focal + float(pn @ centre)) / den
    if t <= df or t < ratio * dn:
        # only ever further out along the same side: edges that are nearly parallel in the
        # photo meet too near when their directions are a little off, rarely too far
        # (a far point brought nearer by the camera model put 3 tiles of the real photo
        # white-table-5players wrong, and lost half the board of evening-dark-wood-box, whose
        # focal length or centre the default does not fit)
        return v1, v2
    moved = np.r_[centre + t * u, 1.0]
    return (moved, near) if swap else (near, moved)


def metric_aspect(to_norm: np.ndarray, horizon: np.ndarray, focal: float, at: np.ndarray) -> float | None:
    """The x-pitch / y-pitch a square tile has in an affine-rectified frame, from the camera.

    Two vanishing points fix the table plane only up to a stretch along each axis: the frame's
    x and y units are not the same length on the table, so a grid of the right pitch along one
    axis and half of it along the other can pass for square cells. A pinhole camera with its
    principal point at the photo's centre and focal length ``focal`` (normalised units: the
    longer image side is 1) turns the horizon into the plane's normal (n = K^T l); the rays
    through ``at`` and a small step along each frame axis from it (``to_norm``: frame ->
    normalised image coordinates) meet that plane at points whose distances give the true
    stretch. The answer depends on the focal length only weakly (phones are 24-30 mm equivalent,
    the default); None when the geometry is degenerate."""
    n = np.array([focal * horizon[0], focal * horizon[1], horizon[2]])
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]) * max(1.0, 0.01 * float(np.abs(at).max())) + at
    q = np.c_[pts, np.ones(3)] @ to_norm.T
    rays = np.c_[q[:, 0] / (q[:, 2] * focal), q[:, 1] / (q[:, 2] * focal), np.ones(3)]
    d = rays @ n
    if np.any(np.abs(d) < 1e-12) or np.ptp(np.sign(d)) > 0:
        return None
    X = rays / d[:, None]
    ax = float(np.linalg.norm(X[1] - X[0]))
    ay = float(np.linalg.norm(X[2] - X[0]))
    if ax <= 0 or ay <= 0:
        return None
    return ay / ax


def _horizon_ok(horizon: np.ndarray, pts: np.ndarray, min_ratio: float) -> bool:
    """Whether a horizon (homogeneous line, normalised coordinates) can be sent to infinity for
    the board at ``pts`` (normalised): the whole board on one side of it, and the board's nearest
    point at least ``min_ratio`` as far from it as its farthest (the far tiles look at most
    1 / ``min_ratio`` times smaller than the near ones). A horizon at infinity (no perspective)
    is always fine. Where the image puts the horizon does not matter: a board seen at a slant
    from its side has it just beside the photo."""
    n = float(np.linalg.norm(horizon[:2]))
    if n < 1e-12 * max(1.0, abs(float(horizon[2]))):
        return True
    d = (pts @ horizon[:2] + horizon[2]) / n
    if not len(d):
        return False
    if d.max() < 0:
        d = -d
    return bool(d.min() > 0 and d.min() >= min_ratio * d.max())


@dataclass
class _Check:
    """Per-photo data of the grid check: integral images of edge and tile-colour masks."""

    cx: np.ndarray  # cumulative count down each column of "x-edge here" (rows + 1, cols)
    cy: np.ndarray  # cumulative count along each row of "y-edge here" (rows, cols + 1)
    ct: np.ndarray  # integral image of the rectified tile-colour mask (rows + 1, cols + 1)


def _check_data(rc: _Rectified, cfg: dict[str, Any]) -> _Check:
    """Edge masks for the grid check: a pixel is on an x-edge (y-edge) when its |d/dx| (|d/dy|),
    averaged over ``check_run`` pixels along the line (grass texture fades, straight seams stay),
    is above the ``check_edge_pct`` percentile of the board's; widened by ``check_band`` pixels
    across the line so that a seam off by a pixel or two still counts."""
    pct = float(cfg["check_edge_pct"])
    band = int(cfg["check_band"])
    run = int(cfg["check_run"])
    out = []
    for g, across, along in ((rc.gx, (2 * band + 1, 1), (1, run)), (rc.gy, (1, 2 * band + 1), (run, 1))):
        g = cv2.blur(g, along)  # (w, h) kernels: averaged along the line, texture fades, seams stay
        vals = g[rc.rmask]
        thr = float(np.percentile(vals, pct)) if len(vals) else 0.0
        e = ((g > thr) & rc.rmask).astype(np.uint8)
        out.append(cv2.dilate(e, np.ones(across[::-1], np.uint8)).astype(np.int32))
    ex, ey = out
    cx = np.vstack([np.zeros((1, ex.shape[1]), np.int32), np.cumsum(ex, 0)])
    cy = np.hstack([np.zeros((ey.shape[0], 1), np.int32), np.cumsum(ey, 1)])
    ct = cv2.integral(rc.tile.astype(np.uint8))
    return _Check(cx=cx, cy=cy, ct=ct)


def _grid_check(rc: _Rectified, chk: _Check, px: float, phx: float, py: float, phy: float,
                cfg: dict[str, Any], out_on: list[np.ndarray] | None = None) -> float:
    """How well a candidate grid explains the board, without classifying tiles.

    Cells mostly of tile colour (``check_tile_min``) are judged. Their borders should be seams
    (the share of a border's length on an edge across it); per axis, the even and the odd grid
    lines are averaged apart and the weaker parity counts, so that half the true pitch, which
    puts tile centres on every other line, gains nothing. The lines through the cells' middles
    and thirds should not be seams: the strongest of these six lines, its median over the cells,
    is subtracted (a multiple of the true pitch has seams there in every cell; roads and city
    edges through some tiles' middles do not move the median). The difference is shrunk by n / (n +
    ``check_prior_cells``) over the n judged cells, so that one or two lucky cells do not win."""
    h, w = rc.rmask.shape
    xs = np.arange(np.floor(-phx / px), np.ceil((w - phx) / px) + 1) * px + phx
    ys = np.arange(np.floor(-phy / py), np.ceil((h - phy) / py) + 1) * py + phy
    xs = xs[(xs >= 0) & (xs <= w - 1)]
    ys = ys[(ys >= 0) & (ys <= h - 1)]
    if len(xs) < 2 or len(ys) < 2:
        return -np.inf
    x0, x1 = xs[:-1], xs[1:]
    y0, y1 = ys[:-1], ys[1:]
    X0, Y0 = np.meshgrid(x0, y0)
    X1, Y1 = np.meshgrid(x1, y1)
    ix0, ix1, iy0, iy1 = (np.round(a).astype(int) for a in (X0, X1, Y0, Y1))
    area = np.maximum((ix1 - ix0) * (iy1 - iy0), 1)
    tiles = (chk.ct[iy1, ix1] - chk.ct[iy0, ix1] - chk.ct[iy1, ix0] + chk.ct[iy0, ix0]) / area
    on = tiles >= float(cfg["check_tile_min"])
    if not on.any():
        return -np.inf

    def vline(x: np.ndarray) -> np.ndarray:  # share of a vertical line through the cell on an x-edge
        xi = np.clip(np.round(x).astype(int), 0, w - 1)
        return (chk.cx[iy1, xi] - chk.cx[iy0, xi]) / np.maximum(iy1 - iy0, 1)

    def hline(y: np.ndarray) -> np.ndarray:
        yi = np.clip(np.round(y).astype(int), 0, h - 1)
        return (chk.cy[yi, ix1] - chk.cy[yi, ix0]) / np.maximum(ix1 - ix0, 1)

    ii, jj = np.meshgrid(np.arange(len(x0)), np.arange(len(y0)))
    if out_on is not None:
        out_on.append(on)

    def parity_min(a: np.ndarray, b: np.ndarray, k: np.ndarray) -> float:
        """The weaker of the even and the odd lines' mean coverage (a: low borders, b: high)."""
        vals = np.r_[a[on], b[on]]
        par = np.r_[k[on] % 2, (k[on] + 1) % 2]
        if (par == 0).all() or (par == 1).all():
            return float(vals.mean())
        return float(min(vals[par == 0].mean(), vals[par == 1].mean()))

    border = (parity_min(vline(X0), vline(X1), ii) + parity_min(hline(Y0), hline(Y1), jj)) / 2
    inner = max(max(np.median(vline(X0 + f * (X1 - X0))[on]), np.median(hline(Y0 + f * (Y1 - Y0))[on]))
                for f in (1 / 3, 1 / 2, 2 / 3))
    n = float(on.sum())
    return float((border - inner) * n / (n + float(cfg["check_prior_cells"])))


def _blob_grid(rc: _Rectified, chk: _Check, comb: tuple[float, float, float, float],
               cfg: dict[str, Any]) -> tuple[float, float, float, float] | None:
    """(px, phx, py, phy) of a tiny board read from its outline, or None when the board is not tiny.

    The comb needs ``min_teeth`` seams and the rectified frame scales the board to
    ``rectified_side``, so a board of one or two tiles (the start of every game) has no pitch
    the comb can find: it settles on a third or a half of a tile and every tile reads as several.
    The board region's extent, though, is a whole number of tiles per axis. Every split of the
    extent into ``nx`` x ``ny`` cells (up to ``small_max_side`` per axis, cells square within
    ``small_aspect``) is checked: each cell must be clearly board or clearly table (region share
    at least ``small_fill_on`` or at most ``small_fill_off``), and every line between two board
    cells must be a seam (their median share of length on an edge across them at least
    ``small_seam_min``; a finer split of a tile puts lines through its art, which are not, and
    one faint seam of a bigger board must not make it look coarser than it is; see
    :func:`_split_seams`). A split whose lines miss the seams by a few pixels (an outline that
    lost a city's corner or gained a shadow) is moved onto them (:func:`_snap_split`) and counts
    when no split fits unmoved. The finest valid split wins
    and is returned when it has at most ``small_max_tiles`` board cells, is not at the search's
    limit (a bigger board is the comb's job) and leaves at most ``small_max_unexplained`` of the
    region unexplained (:func:`_unexplained`), and the comb's grid ``comb`` (px, phx, py, phy)
    has no seams along its own lines inside the board; never when the region reaches within
    ``small_border_margin`` of the photo's edge."""
    kmax = int(cfg.get("small_max_side", 0))
    if kmax <= 0:
        return None
    # a tiny board lies inside the photo with table all around; a region reaching the photo's
    # edge is a table passing for tiles (a green cloth), and its outline says nothing
    hh, ww = rc.shape
    m = float(cfg["small_border_margin"]) * max(hh, ww)
    rp = rc.region_pts
    if len(rp) == 0 or rp[:, 0].min() < m or rp[:, 1].min() < m or rp[:, 0].max() > ww - 1 - m \
            or rp[:, 1].max() > hh - 1 - m:
        return None
    ys, xs = np.nonzero(rc.rmask)
    if len(xs) < 100:
        return None
    lo_q, hi_q = float(cfg["small_extent_pct"]), 100.0 - float(cfg["small_extent_pct"])
    x_lo, x_hi = np.percentile(xs, [lo_q, hi_q])
    y_lo, y_hi = np.percentile(ys, [lo_q, hi_q])
    ex, ey = float(x_hi - x_lo + 1), float(y_hi - y_lo + 1)
    h, w = rc.rmask.shape
    ci = cv2.integral(rc.rmask.astype(np.uint8))
    on_min, off_max = float(cfg["small_fill_on"]), float(cfg["small_fill_off"])
    seam_min, aspect = float(cfg["small_seam_min"]), float(cfg["small_aspect"])
    unexplained_max = float(cfg.get("small_max_unexplained", np.inf))
    # (-moved, board cells, -aspect error, nx, ny, (x_lo, px, y_lo, py) of the split's lines,
    # share of the region unexplained)
    best: tuple[int, int, float, int, int, tuple[float, float, float, float], float] | None = None
    for nx in range(1, kmax + 1):
        for ny in range(1, kmax + 1):
            px, py = ex / nx, ey / ny
            if max(px, py) / min(px, py) > aspect:
                continue
            lines = _split_lines(x_lo, px, nx, w), _split_lines(y_lo, py, ny, h)
            fill, seams = _split_seams(ci, chk, *lines, on_min)
            if ((fill > off_max) & (fill < on_min)).any():
                continue
            on = fill >= on_min
            place, snapped = (x_lo, px, y_lo, py), False
            if seams < seam_min:
                # the outline is off by a few pixels (a corner of city lost from the region, a
                # shadow gained): the seams lie near the lines, not on them
                place, seams = _snap_split(ci, chk, place, seams, nx, ny, on, cfg)
                snapped = True
            if seams < seam_min:
                continue
            # a split whose lines had to be moved onto seams counts only when none fits as it
            # is: moved lines find roads and city walls across a tile as readily as seams
            key = (-int(snapped), int(on.sum()), -abs(np.log(px / py)), nx, ny, place, _unexplained(fill, on, lines))
            if best is None or key[:3] > best[:3]:
                best = key
    if best is None:
        return None
    _, n, _, nx, ny, (x_lo, px, y_lo, py), unexplained = best
    if n > int(cfg["small_max_tiles"]) or max(nx, ny) >= kmax or unexplained > unexplained_max:
        return None
    # the comb's own grid, when its lines inside the board are seams, is a finer board's true
    # grid that the outline's splits could not reach: keep it
    cpx, cphx, cpy, cphy = comb
    # (its lines at least half a pitch inside the outline, whose own edge is no seam)
    xb = np.arange(np.ceil((x_lo - cphx) / cpx), np.floor((x_hi - cphx) / cpx) + 1) * cpx + cphx
    yb = np.arange(np.ceil((y_lo - cphy) / cpy), np.floor((y_hi - cphy) / cpy) + 1) * cpy + cphy
    xb = np.r_[x_lo, xb[(xb > x_lo + cpx / 2) & (xb < x_hi - cpx / 2)], x_hi]
    yb = np.r_[y_lo, yb[(yb > y_lo + cpy / 2) & (yb < y_hi - cpy / 2)], y_hi]
    if len(xb) >= 3 or len(yb) >= 3:
        xb = np.clip(np.round(xb).astype(int), 0, w - 1)
        yb = np.clip(np.round(yb).astype(int), 0, h - 1)
        if _split_seams(ci, chk, xb, yb, on_min)[1] >= seam_min:
            return None
    return px, float(x_lo) % px, py, float(y_lo) % py


def _unexplained(fill: np.ndarray, on: np.ndarray, lines: tuple[np.ndarray, np.ndarray]) -> float:
    """The share of a board region that a split into cells (borders ``lines``, region share
    ``fill`` of each, board cells ``on``) does not explain: region outside its board cells and
    table inside them, over the region inside the split. A tiny board's region is its tiles; a
    big sprawling board's, split in two or three halves that each pass for board, leaves its
    bays and holes unexplained (scans tuning 10167: 40 tiles read as one cell, whose seam
    along the middle of the board passed for the line between two tiles)."""
    xb, yb = lines
    area = np.outer(np.diff(yb), np.diff(xb)).astype(np.float64)
    region = float((fill * area).sum())
    wrong = float(((1 - fill) * area)[on].sum() + (fill * area)[~on].sum())
    return wrong / max(region, 1.0)


def _split_lines(lo: float, pitch: float, n: int, size: int) -> np.ndarray:
    """The ``n + 1`` cell borders from ``lo`` at ``pitch``, as pixel indices inside ``size``."""
    return np.clip(np.round(lo + np.arange(n + 1) * pitch).astype(int), 0, size - 1)


def _snap_split(ci: np.ndarray, chk: _Check, place: tuple[float, float, float, float], seams: float,
                nx: int, ny: int, on: np.ndarray,
                cfg: dict[str, Any]) -> tuple[tuple[float, float, float, float], float]:
    """The split ``nx`` x ``ny`` of a tiny board (lines at ``place``, seam share ``seams`` there,
    board cells ``on``) moved onto its seams: (x_lo, px, y_lo, py) and its seam share. The pitch is scaled by up to ``small_snap_scale`` (both axes alike, tiles are
    square) in steps of 1%, and each axis shifted by up to ``small_snap`` of a pitch in steps of
    ``check_band`` pixels (a seam counts that far from a line); the board cells must stay the
    same (a shift that moves the outline's cells is no better reading of it)."""
    h, w = chk.ct.shape[0] - 1, chk.ct.shape[1] - 1
    x_lo, px, y_lo, py = place
    snap, scale = float(cfg.get("small_snap", 0.0)), float(cfg.get("small_snap_scale", 0.0))
    on_min, step = float(cfg["small_fill_on"]), max(1.0, float(cfg["check_band"]))
    best: tuple[float, tuple[float, float, float, float]] = (seams, place)
    if snap <= 0:
        return best[1], best[0]
    for s in np.linspace(1 - scale, 1 + scale, 2 * int(round(scale * 100)) + 1):
        qx, qy = px * s, py * s
        # centre the scaled split on the outline, then shift x and y one after the other
        cx, cy = x_lo + (px - qx) * nx / 2, y_lo + (py - qy) * ny / 2
        yb = _split_lines(cy, qy, ny, h)
        fx = max(((float(_split_seams(ci, chk, _split_lines(cx + d, qx, nx, w), yb, on_min)[1]), d)
                  for d in np.arange(-snap * qx, snap * qx + 1e-9, step)), key=lambda t: t[0])[1]
        xb = _split_lines(cx + fx, qx, nx, w)
        for d in np.arange(-snap * qy, snap * qy + 1e-9, step):
            fill, seams = _split_seams(ci, chk, xb, _split_lines(cy + d, qy, ny, h), on_min)
            if seams > best[0] and np.array_equal(fill >= on_min, on):
                best = (seams, (cx + fx, qx, cy + d, qy))
    return best[1], best[0]


def _split_seams(ci: np.ndarray, chk: _Check, xb: np.ndarray, yb: np.ndarray,
                 on_min: float) -> tuple[np.ndarray, float]:
    """(region share of each cell, seam share of the lines between two board cells) of the
    rectified grid with cell borders ``xb`` x ``yb`` (pixels); ``ci`` is the board region's
    integral image. The seam share is the lower of the two axes' medians; with no line between two
    board cells it is 1 (nothing against)."""
    X0, Y0 = np.meshgrid(xb[:-1], yb[:-1])
    X1, Y1 = np.meshgrid(xb[1:], yb[1:])
    area = np.maximum((X1 - X0) * (Y1 - Y0), 1)
    fill = (ci[Y1, X1] - ci[Y0, X1] - ci[Y1, X0] + ci[Y0, X0]) / area
    on = fill >= on_min
    cov = []
    pair_v = on[:, :-1] & on[:, 1:]  # vertical lines between horizontally adjacent board cells
    if pair_v.any():
        xi, ya, yc = X1[:, :-1][pair_v], Y0[:, :-1][pair_v], Y1[:, :-1][pair_v]
        cov.append((chk.cx[yc, xi] - chk.cx[ya, xi]) / np.maximum(yc - ya, 1))
    pair_h = on[:-1, :] & on[1:, :]
    if pair_h.any():
        yi, xa, xc = Y1[:-1, :][pair_h], X0[:-1, :][pair_h], X1[:-1, :][pair_h]
        cov.append((chk.cy[yi, xc] - chk.cy[yi, xa]) / np.maximum(xc - xa, 1))
    # each axis on its own: a road along one axis of a tile split in four must not make up for
    # the line across it through the art alone
    return fill, min((float(np.median(c)) for c in cov), default=1.0)


def _make_grid(rc: _Rectified, px: float, phx: float, py: float, phy: float) -> Grid:
    """The board grid of rectified pitch and phase, turned north up, spanning the board region."""
    h, w = rc.shape
    U = np.array([[1 / px, 0, -phx / px], [0, 1 / py, -phy / py], [0, 0, 1]])
    H = _north_up(U @ rc.R, w, h)
    bpts = _apply(H, rc.region_pts)
    c0, r0 = np.floor(np.percentile(bpts, 0.2, axis=0)).astype(int)
    c1, r1 = np.ceil(np.percentile(bpts, 99.8, axis=0)).astype(int)
    if (c1 - c0) * (r1 - r0) > 900:
        raise BoardNotFoundError("could not find the tile grid; take the photo from closer and more from above")
    cols, rows = range(c0, c1), range(r0, r1)
    return Grid(H=H, cols=cols, rows=rows, pitch_px=grid_pitch(H, cols, rows))


def _cell_steps(H: np.ndarray, cols: range, rows: range) -> tuple[float, float]:
    """The image lengths (work pixels) of one cell step along x and along y at the middle of
    cells ``cols`` x ``rows`` of homography ``H`` (work image -> board units)."""
    c = np.array([[0.5 * (cols.start + cols.stop), 0.5 * (rows.start + rows.stop)]])
    a, bx, by = _apply(np.linalg.inv(H), np.r_[c, c + [1, 0], c + [0, 1]])
    return float(np.hypot(*(bx - a))), float(np.hypot(*(by - a)))


def grid_pitch(H: np.ndarray, cols: range, rows: range) -> float:
    """The tile side in work pixels at the middle of cells ``cols`` x ``rows`` of homography
    ``H`` (work image -> board units): the image length of one cell step along x there."""
    return _cell_steps(H, cols, rows)[0]


def tile_side(H: np.ndarray, cols: range, rows: range) -> float:
    """The longer of one cell step along x and along y in work pixels, at the middle of cells
    ``cols`` x ``rows`` of homography ``H`` (work image -> board units): the tile side whichever
    way the slant foreshortens (see :meth:`Grid.side_px`)."""
    return max(_cell_steps(H, cols, rows))


# locate settings that only change the seam profiles' mix, not the rectification
_PROFILE_MIX = ("mask_profile_weight", "mask_comb_peaks", "mask_teeth_power")
# and those that only decide whether the busy region replaces the colour masks' board
_BUSY_ONLY = ("busy_region", "busy_only")
#: a variant that moves the far vanishing point (locate.metric_far_vp) shares the colour masks
#: (one that takes another second vanishing point, ``vp_second_choice``, shares the first
#: choice's edges: :func:`_rectify`)
_FAR_VP = ("far_vp_metric",)
_MEMO_LOCK = threading.Lock()  # guards the shared rectifications' memo (any photo's: held briefly)


def _settings_key(cfg: dict[str, Any], leave_out: tuple[str, ...]) -> str:
    """The locate settings ``cfg`` as a memo key, those in ``leave_out`` left out."""
    return json.dumps({k: v for k, v in cfg.items() if k not in leave_out}, sort_keys=True, default=str)


def _once(memo: dict[str, Any], key: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per ``key`` of ``memo``, whichever thread asks first: the others wait
    for its result (or raise its exception)."""
    with _MEMO_LOCK:
        entry = memo.get(key)
        owner = entry is None
        if owner:
            entry = memo[key] = [threading.Event(), None, None]
    if owner:
        try:
            entry[1] = compute()
        except BaseException as exc:  # the waiting variants raise it too
            entry[2] = exc
        finally:
            entry[0].set()
    else:
        entry[0].wait()
    if entry[2] is not None:
        raise entry[2]
    return entry[1]


def _shared_edges(bgr: np.ndarray, cfg: dict[str, Any], memo: dict[str, Any] | None) -> _Edges | None:
    """:func:`_board_edges`, computed once per photo for the variants that differ only in how they
    mix the seam profiles or move the far vanishing point (``memo``: see :func:`_shared_rectify`)."""
    if memo is None:
        return _board_edges(bgr, cfg, memo)
    return _once(memo, "edges " + _settings_key(cfg, _PROFILE_MIX + _FAR_VP),  # type: ignore[no-any-return]
                 lambda: _board_edges(bgr, cfg, memo))


def _shared_rectify(bgr: np.ndarray, cfg: dict[str, Any], memo: dict[str, Any] | None) -> _Rectified | None:
    """:func:`_rectify`, computed once per photo for the variants that differ only in how they mix
    the seam profiles (``memo``: shared by one photo's variants, on any threads; None: no sharing)."""
    if memo is None:
        return _rectify(bgr, cfg)
    return _once(memo, "rectify " + _settings_key(cfg, _PROFILE_MIX),  # type: ignore[no-any-return]
                 lambda: _rectify(bgr, cfg, memo))


def locate_candidates(bgr: np.ndarray, cfg: dict[str, Any],
                      memo: dict[str, Any] | None = None) -> tuple[list[tuple[float, Grid]], np.ndarray]:
    """Grid hypotheses for a (work-resolution) BGR image, best grid check first, and the tile mask.

    Per axis the comb proposes several pitches (:func:`_axis_candidates`); every pair that can
    be square tiles (:func:`_square_enough`) is checked with :func:`_grid_check`. The comb's best
    pair comes first, then the grid it would split into k x k cells per tile (:func:`_coarser`),
    then the best-checked others, ``locate_keep`` (+1) in all, each with its phase set by the board's
    outline (:func:`_outline_phase`) and its check score."""
    rc = _shared_rectify(bgr, cfg, memo)
    if rc is None:  # a busy-region variant where that region is not used: no grids of its own
        return [], tile_mask(bgr, cfg)[1]
    mw = float(cfg.get("mask_profile_weight", 0.0))
    if mw > 0 and rc.mask_x is not None and rc.mask_y is not None:
        # the tile mask's steps mixed into the seam profiles, with mw times the grey-level
        # profile's total weight (see _Rectified.mask_x)
        rc = replace(rc, prof_x=rc.prof_x + mw * float(rc.prof_x.sum()) / max(float(rc.mask_x.sum()), 1e-9) * rc.mask_x,
                     prof_y=rc.prof_y + mw * float(rc.prof_y.sum()) / max(float(rc.mask_y.sum()), 1e-9) * rc.mask_y)
    side = float(cfg["rectified_side"])
    pmin, pmax = side * cfg["pitch_min_frac"], side * cfg["pitch_max_frac"]
    hi_x = min(pmax, rc.size[0] * 0.9)
    rel = float(cfg.get("pitch_coarse_rel_step", 0.0))
    hi_y = min(pmax, rc.size[1] * 0.9)
    soft = float(cfg.get("soft_comb", 0.0))
    # each axis's coarse comb and (soft_comb) its soft comb (see _comb) from one sampling of the profile
    softs = (0.0, soft) if soft > 0 else (0.0,)
    mt, tp = float(cfg["min_teeth"]), float(cfg["teeth_power"])
    combs_x = _combs(rc.prof_x, pmin, hi_x, mt, tp, rel_step=rel, softs=softs)
    combs_y = _combs(rc.prof_y, pmin, hi_y, mt, tp, rel_step=rel, softs=softs)
    comb_x = combs_x[0]
    cand_x = _axis_candidates(rc.prof_x, pmin, hi_x, cfg, comb=comb_x)
    # the other axis's pitches, and (where the camera tells the frame's aspect) those pitches
    # stretched by it: a steep photo's affine frame can be a quarter wider than tall
    metric = rc.aspect if (rc.aspect is not None and cfg.get("cross_metric", False)
                           and abs(np.log(rc.aspect)) >= np.log(float(cfg.get("cross_metric_min", 1.0)))) else None
    st_x = tuple(c[0] / metric for c in cand_x) if metric else ()
    cand_y = _axis_candidates(rc.prof_y, pmin, hi_y, cfg, tuple(c[0] for c in cand_x), combs_y[0], st_x)
    st_y = tuple(c[0] * metric for c in cand_y) if metric else ()
    cand_x += _axis_candidates(rc.prof_x, pmin, hi_x, {**cfg, "pitch_peaks": 0, "pitch_factors": []},
                               tuple(c[0] for c in cand_y), comb_x, st_y)
    if soft > 0:  # the soft comb's peaks too (see _comb): strong lines cannot make a multiple win there
        for prof, hi, cands, sc in ((rc.prof_x, hi_x, cand_x, combs_x[1]), (rc.prof_y, hi_y, cand_y, combs_y[1])):
            cands += _axis_candidates(prof, pmin, hi, {**cfg, "pitch_factors": [],
                                                       "pitch_peaks": int(cfg.get("soft_comb_peaks", 1))}, (), sc)
        cand_y = _distinct_pitches(cand_y)
    n_mask = int(cfg.get("mask_comb_peaks", 0))
    if n_mask > 0 and rc.mask_x is not None and rc.mask_y is not None:
        # the mask profile's own best pitches: a sparse board's outline steps, where the grey-level
        # profile's few long straight lines made a multiple of the pitch win
        for prof, hi, cands in ((rc.mask_x, hi_x, cand_x), (rc.mask_y, hi_y, cand_y)):
            if prof.max() > 0:
                cands += _axis_candidates(prof, pmin, hi, {**cfg, "pitch_factors": [], "pitch_peaks": n_mask,
                                                           "teeth_power": float(cfg.get("mask_teeth_power", 1.0))})
        cand_y = _distinct_pitches(cand_y)
    cand_x = _distinct_pitches(cand_x)
    if not cand_x or not cand_y:
        raise BoardNotFoundError("could not find the tile grid; take the photo from closer and more from above")
    chk = _check_data(rc, cfg)
    ma = float(cfg["max_aspect"])
    scored = []
    for px, phx, _ in cand_x:
        for py, phy, _ in cand_y:
            if _square_enough(px, py, rc.aspect, ma, float(cfg["metric_aspect_tol"])):
                scored.append((_grid_check(rc, chk, px, phx, py, phy, cfg), px, phx, py, phy))
    if not scored:  # no square pair: the comb's best per axis
        scored = [(-np.inf, cand_x[0][0], cand_x[0][1], cand_y[0][0], cand_y[0][1])]
    scored.sort(key=lambda t: -t[0])
    # the comb's own best pair goes first (the check is a second opinion, not a veto), unless
    # its lines miss the seams outright (check below comb_first_min_check): on a sparse board
    # the comb can settle on a multiple of the pitch
    first = [t for t in scored if t[1] == cand_x[0][0] and t[3] == cand_y[0][0]
             and t[0] >= float(cfg.get("comb_first_min_check", -np.inf))]
    scored = first[:1] + [t for t in scored if t not in first[:1]]
    blob = _blob_grid(rc, chk, scored[0][1:], cfg)
    from_outline = blob is not None and abs(blob[0] / scored[0][1] - 1) > 0.1
    if from_outline:
        # a tiny board: its outline's grid goes first, at the comb's best check score so that the
        # reader's bar for extra grids stays where it was
        scored = [(scored[0][0], *blob)] + scored
    keep = scored[: int(cfg["locate_keep"])]
    # the grid ``scored[0]`` would split in k x k cells per tile: its own lines grouped as the
    # board's cells fill whole blocks (the phase of a coarser pair the comb found is no better
    # than its check, which faint seams mislead), else the best-checked coarser pair
    coarse = _coarse_from_lines(scored[0], rc, chk, cfg) or _coarser(scored, scored[0], cfg)
    if coarse is not None:  # second: the reader classifies the first coarser grid it finds
        keep = keep[:1] + [coarse] + [t for t in keep[1:] if t != coarse]
    outline = _outline_crossings(rc.rmask)
    keep = [_outline_phase(t, outline, rc, chk, cfg) for t in keep]
    out: list[tuple[float, Grid]] = []
    err: BoardNotFoundError | None = None
    for i, (sc, px, phx, py, phy) in enumerate(keep):
        try:
            g = _make_grid(rc, px, phx, py, phy)
        except BoardNotFoundError as exc:
            err = exc
            continue
        g.outline = from_outline and i == 0
        on: list[np.ndarray] = []
        _grid_check(rc, chk, px, phx, py, phy, cfg, on)
        g.blocks = split_share(on[0], cfg["coarse_factors"]) if on else 1.0
        g.board_cells = int(on[0].sum()) if on else 0
        out.append((sc, g))
    if not out:
        raise err or BoardNotFoundError("could not find the tile grid")
    return out, rc.tilecol


def _square_enough(px: float, py: float, aspect: float | None, max_aspect: float, tol: float) -> bool:
    """Whether pitches ``px`` x ``py`` of the rectified frame can be square tiles: within ``tol``
    of the camera's ``aspect`` (see metric_aspect) when known, else within ``max_aspect`` of
    each other (the affine frame alone stretches by up to the foreshortening)."""
    if aspect is not None:
        return bool(abs(np.log(px / (py * aspect))) <= np.log(tol))
    return max(px, py) / min(px, py) <= max_aspect


def split_share(on: np.ndarray, factors: list[int] | tuple[int, ...] = (2, 3)) -> float:
    """How far the board cells ``on`` (rows x cols booleans) are from aligned k x k blocks: over
    k in ``factors`` and the k*k block offsets, the least share of non-empty blocks that are only
    partly board. A grid of half (a third of) the tile pitch splits every tile into 2 x 2 (3 x 3)
    cells, so its board cells tile the plane in aligned blocks (share near 0); a true grid's
    board has an irregular outline (share well above 0), unless it is a rectangle of whole blocks."""
    best = 1.0
    h, w = on.shape
    for k in factors:
        k = int(k)
        for oy in range(k):
            for ox in range(k):
                pad = np.zeros((h + 2 * k, w + 2 * k), dtype=np.int32)
                pad[k + oy: k + oy + h, k + ox: k + ox + w] = on
                hh, ww = (pad.shape[0] // k) * k, (pad.shape[1] // k) * k
                cnt = pad[:hh, :ww].reshape(hh // k, k, ww // k, k).sum((1, 3))
                full = int((cnt > 0).sum())
                if full < 4:
                    continue
                best = min(best, float(((cnt > 0) & (cnt < k * k)).sum()) / full)
    return best


def _coarser(scored: list[tuple[float, ...]], first: tuple[float, ...],
             cfg: dict[str, Any]) -> tuple[float, ...] | None:
    """The best-checked pair of ``scored`` whose pitches are both about k times ``first``'s (k in
    ``coarse_factors``, within ``coarse_tol``), or None: the grid that ``first`` would split into
    k x k cells per tile if ``first`` were a half or a third of the true pitch. Where seams are
    faint and roads and city walls cross the tiles' middles (printed tiles look like that), the
    comb and the check can prefer the half pitch; the reader decides by classifying both."""
    tol = float(cfg["coarse_tol"])
    for t in scored:  # best check first
        for k in cfg["coarse_factors"]:
            if abs(t[1] / (k * first[1]) - 1) <= tol and abs(t[3] / (k * first[3]) - 1) <= tol:
                return t
    return None


def _outline_crossings(region: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the rectified board region's outline crosses each row (x positions) and each column
    (y positions): the board's outer edges and holes run along seams."""
    m = region.astype(np.int8)
    _, xs = np.nonzero(np.diff(m, axis=1))
    ys, _ = np.nonzero(np.diff(m, axis=0))
    return xs + 0.5, ys + 0.5


def _near_lines(pos: np.ndarray, pitch: float, phase: float, tol: float) -> float:
    """Share of ``pos`` within ``tol`` pitches of a grid line (lines at phase + k * pitch)."""
    if not len(pos):
        return 0.0
    d = ((pos - phase) / pitch) % 1.0
    return float((np.minimum(d, 1.0 - d) < tol).mean())


def _outline_phase(t: tuple[float, ...], outline: tuple[np.ndarray, np.ndarray], rc: _Rectified,
                   chk: _Check, cfg: dict[str, Any]) -> tuple[float, ...]:
    """Grid ``t`` (check, px, phx, py, phy) with each axis's phase moved by half a pitch when the
    board's outline says so: the outline crossings lie on the lines moved by half a pitch at
    least ``outline_phase_ratio`` times as often as on the grid's own lines (and for at least
    ``outline_phase_min`` of them). Where seams are faint the comb and the check can take the
    lines through the tiles' middles (roads, city walls) for seams; the board's edge against the
    table is not fooled. The check score is recomputed for a moved grid."""
    sc, px, phx, py, phy = t
    tol, ratio, least = (float(cfg[k]) for k in ("outline_phase_tol", "outline_phase_ratio", "outline_phase_min"))
    moved = [phx, phy]
    for k, (pos, p, ph) in enumerate(((outline[0], px, phx), (outline[1], py, phy))):
        own, half = _near_lines(pos, p, ph, tol), _near_lines(pos, p, ph + p / 2, tol)
        if half >= least and half >= ratio * own:
            moved[k] = ph + p / 2
    if moved == [phx, phy]:
        return t
    return (_grid_check(rc, chk, px, moved[0], py, moved[1], cfg), px, moved[0], py, moved[1])


def block_phase(on: np.ndarray, origin: tuple[int, int], k: int) -> list[tuple[float, int, int]]:
    """For each way (a, b) to group the cells ``on`` (rows x cols booleans; column 0 is grid
    column ``origin[0]``, row 0 is row ``origin[1]``) into k x k blocks starting at columns a + k*i
    and rows b + k*j: (share of the non-empty blocks that are only partly board, a, b), fewest
    partial blocks first. A grid of 1/k of the tile pitch splits every tile into a whole block,
    so the right grouping leaves no partial block, whatever the seams look like."""
    jj, ii = np.nonzero(on)
    out = []
    for a in range(k):
        for b in range(k):
            bx = np.floor_divide(origin[0] + ii - a, k)
            by = np.floor_divide(origin[1] + jj - b, k)
            _, counts = np.unique(np.c_[bx, by], axis=0, return_counts=True)
            out.append((float((counts < k * k).sum()) / max(1, len(counts)), a, b))
    return sorted(out)


def coarser_grid(grid: Grid, cells: Iterable[tuple[int, int]], k: int) -> Grid:
    """``grid`` with every ``k``-th of its lines, grouped so that the ``cells`` read on it fill
    whole k x k blocks (:func:`block_phase`): the grid a grid of 1/k of the tile pitch splits.
    The reader builds it when a grid reads more cells than the box has tiles."""
    cs = np.array(sorted(cells))
    (c0, r0), (c1, r1) = cs.min(0), cs.max(0)
    on = np.zeros((r1 - r0 + 1, c1 - c0 + 1), dtype=bool)
    on[cs[:, 1] - r0, cs[:, 0] - c0] = True
    _, a, b = block_phase(on, (int(c0), int(r0)), k)[0]
    H = np.array([[1.0 / k, 0.0, -a / k], [0.0, 1.0 / k, -b / k], [0.0, 0.0, 1.0]]) @ grid.H
    cols = range(int(np.floor((grid.cols.start - a) / k)), int(np.ceil((grid.cols.stop - a) / k)))
    rows = range(int(np.floor((grid.rows.start - b) / k)), int(np.ceil((grid.rows.stop - b) / k)))
    return Grid(H=H, cols=cols, rows=rows, pitch_px=grid_pitch(H, cols, rows))


def _coarse_from_lines(first: tuple[float, ...], rc: _Rectified, chk: _Check,
                       cfg: dict[str, Any]) -> tuple[float, ...] | None:
    """``first``'s own lines taken every k-th (k in ``coarse_factors``), at the phase whose
    blocks the board cells fill whole (:func:`block_phase`; printed seams can be fainter than the
    roads through the tiles' middles, so the check alone may pick a phase off by a cell), with its
    check score; the comb need not have proposed the coarser pitch at all. None when ``first``
    judges no cell."""
    _, px, phx, py, phy = first
    on: list[np.ndarray] = []
    _grid_check(rc, chk, px, phx, py, phy, cfg, on)
    if not on:
        return None
    origin = (int(np.ceil(-phx / px - 1e-9)), int(np.ceil(-phy / py - 1e-9)))  # see _grid_check's lines
    best: tuple[float, float, tuple[float, ...]] | None = None
    for k in cfg["coarse_factors"]:
        k = int(k)
        for partial, a, b in block_phase(on[0], origin, k):
            t = (_grid_check(rc, chk, k * px, phx + a * px, k * py, phy + b * py, cfg),
                 k * px, phx + a * px, k * py, phy + b * py)
            if t[0] > -np.inf and (best is None or (partial, -t[0]) < best[:2]):
                best = (partial, -t[0], t)
    return None if best is None else best[2]


def locate(bgr: np.ndarray, cfg: dict[str, Any]) -> tuple[Grid, np.ndarray]:
    """Fit the board grid in a (work-resolution) BGR image; returns the best-checked grid and the
    tile mask."""
    cands, tilecol = locate_candidates(bgr, cfg)
    if not cands:
        raise BoardNotFoundError("could not find the tile grid")
    return cands[0][1], tilecol


def same_grid(a: Grid, b: Grid, tol: float = 0.1) -> bool:
    """Whether two grids put the same lattice on the image: the pitches agree within 5 percent and
    the corners of ``a``'s central cells fall within ``tol`` cells of ``b``'s lattice points."""
    if abs(a.pitch_px / b.pitch_px - 1) > 0.05:
        return False
    c = np.array([a.cols.start + len(a.cols) // 2, a.rows.start + len(a.rows) // 2], float)
    corners = c + np.array([[0, 0], [1, 0], [0, 1], [1, 1], [2, 2]], float)
    q = b.to_board(a.to_image(corners))
    return bool(np.abs(q - np.round(q)).max() < tol)


def _north_up(H: np.ndarray, w: int, h: int) -> np.ndarray:
    """Turn the board frame by a multiple of 90 degrees so that board north is image up."""
    c = np.array([[w / 2, h / 2], [w / 2, h / 2 - h * 0.05]])
    b = _apply(H, c)
    d = b[1] - b[0]
    ang = np.degrees(np.arctan2(d[1], d[0]))  # image-up direction in board frame; want -90
    k = int(np.round(((-90 - ang) % 360) / 90)) % 4
    Rot = np.eye(3)
    for _ in range(k):
        Rot = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]) @ Rot  # +90 deg (board y down: clockwise)
    return Rot @ H
