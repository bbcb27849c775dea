"""Grids of a tiny board fitted to its outline polygon, without the seams' vanishing points.

A board of two to a few tiles (the start of every followed game) gives the comb search too few
seams, and its few straight edges can put the vanishing points off, so the rectified frame is
skewed and no split of it is square (photo games 552-563: 15 of their 48 photos of 2 to 5 tiles
read wrongly; of the six looked at, none had the right grid among those tried). The board's outline, though, is a polyomino seen
in perspective: a polygon whose corners lie on the tile lattice. Each way of giving its edges
whole numbers of tiles (turning left at a convex corner, right at a reflex one, closing up)
fixes a homography from the photo to the lattice; the right one maps the polygon's corners onto
the lattice corners (a residual of a few pixels) and, for some plausible focal length of a phone
camera, makes the lattice's axes and its cells' diagonals meet at right angles on the table (a
square tile). Those that pass are extra grid hypotheses; the reader's classification and prior
choose among them as among the comb's grids.
"""

from __future__ import annotations

import itertools
from typing import Any

import cv2
import numpy as np

from .classify import top_view
from .locate import Grid, _apply, _north_up, grid_pitch, same_grid

# unit steps along the lattice's +x, +y, -x, -y (board frame: y down, as the image)
_STEPS = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]])


def outline_polygons(region: np.ndarray, cfg: dict[str, Any]) -> list[np.ndarray]:
    """The corners (N x 2, work pixels, the contour's own order) of the largest component of
    ``region``, opened over ``polygon_open_frac`` of the square root of its area (a shadow's
    spur) and closed over ``polygon_close_frac`` of it, its dents less than ``polygon_notch_frac`` of
    it deep cut off (:func:`_notches_filled`), simplified to within each of ``polygon_eps`` of its
    perimeter: the distinct polygons with an even number of corners, 4 to
    ``polygon_max_corners``; and each again with its sides refitted to the
    contour within ``polygon_refit_tol`` of that square root (:func:`_sides_refitted`; 0: off)
    where that keeps its area within a tenth of the region's. Empty when the region touches the
    photo's border (a table passing for tiles: its outline says nothing)."""
    h, w = region.shape
    mask = region.astype(np.uint8)
    area = float(mask.sum())
    if area < 100:
        return []

    def disc(frac: float) -> np.ndarray:
        k = max(3, int(round(frac * np.sqrt(area))) | 1)
        return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc(float(cfg["polygon_open_frac"]))),
                            cv2.MORPH_CLOSE, disc(float(cfg["polygon_close_frac"])))
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return []
    raw = max(cnts, key=cv2.contourArea)
    c = _notches_filled(raw, float(cfg["polygon_notch_frac"]) * np.sqrt(area))
    x, y, bw, bh = cv2.boundingRect(c)
    m = float(cfg["small_border_margin"]) * max(h, w)
    if x < m or y < m or x + bw > w - 1 - m or y + bh > h - 1 - m:
        return []
    out: list[np.ndarray] = []
    tol = float(cfg.get("polygon_refit_tol", 0.0)) * np.sqrt(area)
    points = raw.reshape(-1, 2).astype(np.float64)
    own = float(cv2.contourArea(raw))
    simplified: list[np.ndarray] = []
    for eps in cfg["polygon_eps"]:
        poly = cv2.approxPolyDP(c, float(eps) * cv2.arcLength(c, True), True).reshape(-1, 2).astype(np.float64)
        n = len(poly)
        if not (4 <= n <= int(cfg["polygon_max_corners"]) and n % 2 == 0) \
                or any(np.array_equal(p, poly) for p in simplified):
            continue  # (several eps often simplify alike: the same refit, not fitted again)
        simplified.append(poly)
        refit = _sides_refitted(poly, points, tol) if tol > 0 else None
        if refit is not None and abs(cv2.contourArea(refit.astype(np.float32)) - own) > 0.1 * own:
            # not about the region's area: a quad simplified from a three-tile L, refitted over
            # its bay, came out squarer than the L's own lattice
            refit = None
        for q in (poly, refit):
            if q is not None and not any(len(o) == n and np.allclose(o, q) for o in out):
                out.append(q)
    return out


def _sides_refitted(poly: np.ndarray, contour: np.ndarray, tol: float) -> np.ndarray | None:
    """``poly`` with each corner moved to where the straight lines through its two sides meet,
    each side's line the one through most of the contour points along that side (within ``tol``
    pixels, then fitted by least squares to them): a corner that the simplification took from a
    blob of table light beside the board, or from a figure standing on its edge, lies off both of
    its sides' lines, which the rest of each side's points still fix (photo game 1482's second
    photo: a corner a quarter tile off fitted three tiles to a board of two). None when a side has
    too few points or a corner would move more than half its shorter side."""
    n = len(poly)
    sides = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(sides, axis=1)
    if np.any(length < 1):
        return None
    # each contour point's side: the nearest, if it lies along that side's middle part
    dist = np.full((len(contour), n), np.inf)
    for i in range(n):
        u = sides[i] / length[i]
        rel = contour - poly[i]
        t = rel @ u
        d = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        inside = (t > 0.1 * length[i]) & (t < 0.9 * length[i])
        dist[inside, i] = d[inside]
    owner = np.argmin(dist, axis=1)
    near = np.isfinite(dist[np.arange(len(contour)), owner])
    lines = []
    for i in range(n):
        pts = contour[near & (owner == i)]
        if len(pts) < 8:
            return None
        line = _consensus_line(pts, tol)
        if line is None:
            return None
        lines.append(line)
    out = np.empty_like(poly)
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        a = np.array([d1, -d2]).T
        if abs(np.linalg.det(a)) < 1e-6:
            return None
        s, _ = np.linalg.solve(a, p2 - p1)
        out[i] = p1 + s * d1
        if np.linalg.norm(out[i] - poly[i]) > min(length[i - 1], length[i]) / 2:
            return None
    return out


def _consensus_line(pts: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray] | None:
    """(point, unit direction) of the line through most of ``pts`` within ``tol`` (every pair of
    up to 40 evenly spaced points tried: deterministic), refitted by least squares to its
    inliers."""
    sample = pts[np.linspace(0, len(pts) - 1, min(40, len(pts))).round().astype(int)]
    i, j = np.triu_indices(len(sample), 1)  # every pair, in itertools.combinations' order
    d = sample[j] - sample[i]
    norm = np.linalg.norm(d, axis=1)
    ok = norm >= 1e-6
    if not ok.any():
        return None
    i, d, norm = i[ok], d[ok], norm[ok]
    nrm = np.stack([-d[:, 1], d[:, 0]], axis=1) / norm[:, None]
    # distance of every point from every pair's line: (pairs, points)
    dist = np.abs(nrm @ pts.T - np.sum(nrm * sample[i], axis=1)[:, None])
    counts = (dist <= tol).sum(axis=1)
    best = int(np.argmax(counts))  # the first pair with the most inliers
    if counts[best] < 2:
        return None
    fit = cv2.fitLine(pts[dist[best] <= tol].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array(fit[2:], float), np.array(fit[:2], float)


def _notches_filled(contour: np.ndarray, depth: float) -> np.ndarray:
    """The outer contour with every dent less than ``depth`` deep (from its convex hull) cut off
    along the hull: a figure standing on a tile's edge, a shadow across it, a rounded city
    corner. A board's own bays (an L's inner corner) are a tile deep and stay."""
    if len(contour) < 5:
        return contour
    hull = cv2.convexHull(contour, returnPoints=False)
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-touching contour: left as it is
        return contour
    if defects is None:
        return contour
    pts = contour.reshape(-1, 2)
    keep = np.ones(len(pts), bool)
    for start, end, _, d in defects.reshape(-1, 4):
        if d / 256.0 < depth:
            if start < end:
                keep[start + 1:end] = False
            else:  # the dent wraps past the contour's first point
                keep[start + 1:] = False
                keep[:end] = False
    return pts[keep].reshape(-1, 1, 2)


def _turns(poly: np.ndarray) -> np.ndarray:
    """+1 where the polygon turns with its own orientation (a convex corner), -1 against it."""
    d = np.roll(poly, -1, axis=0) - poly
    cross = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    s = np.sign(cross)
    return s * (1 if s.sum() > 0 else -1)


def lattice_corners(poly: np.ndarray, max_tiles: int, max_len: int) -> list[np.ndarray]:
    """Every lattice polygon (N x 2 board units) the image polygon ``poly`` can be: edge ``i``
    runs ``len_i`` (1..``max_len``) tiles, turning by a quarter at each corner, left or right as
    the image polygon turns there, closing up, with at most ``max_tiles`` tiles inside. The
    image's orientation is kept (a board seen from above is never mirrored)."""
    n = len(poly)
    turns = _turns(poly)
    area = 0.5 * float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    # image y is down like the board's: the same sign of area keeps the orientation
    turn_sign = 1 if area > 0 else -1
    dirs = [0]
    for i in range(n - 1):
        dirs.append((dirs[-1] + turn_sign * int(turns[i])) % 4)
    steps = _STEPS[dirs]
    if (dirs[-1] + turn_sign * int(turns[n - 1])) % 4 != 0:
        return []  # the turns do not close a rectilinear polygon
    lens = np.array(list(itertools.product(range(1, max_len + 1), repeat=n)), dtype=np.int64)
    disp = lens[:, :, None] * steps[None, :, :]  # (combos, edges, 2)
    lens = lens[~disp.sum(axis=1).any(axis=1)]  # closing up
    out = []
    for row in lens:
        corners = np.vstack([[0, 0], np.cumsum(steps * row[:, None], axis=0)[:-1]])
        a = 0.5 * abs(float(np.sum(corners[:, 0] * np.roll(corners[:, 1], -1) - np.roll(corners[:, 0], -1) * corners[:, 1])))
        if a <= max_tiles:
            out.append(corners.astype(np.float64))
    return out


def _square_error(H: np.ndarray, size: tuple[int, int], focal_range: tuple[float, float]) -> float:
    """How far the lattice of homography ``H`` (work image -> board units) is from square tiles on
    the table, seen by a pinhole camera (principal point at the photo's centre, focal length
    ``f`` in ``focal_range`` of the longer side): the least, over ``f``, of the larger |cosine| of
    the angle between the lattice's axes and between a cell's diagonals on the table.

    With ``M = K [Dx Dy X0]`` (board units -> image, up to scale), ``K^-1 M e_x`` and
    ``K^-1 M e_y`` are the table's steps along the lattice's axes with their true relative
    lengths: a square tile has them at right angles (cosine 0) and of equal length (the
    diagonals at right angles). Seen from straight above the focal length drops out and this is
    the cells' squareness in the photo."""
    h, w = size
    s = float(max(h, w))
    T = np.array([[1 / s, 0, -w / (2 * s)], [0, 1 / s, -h / (2 * s)], [0, 0, 1]])
    M = T @ np.linalg.inv(H)  # board units -> normalised image

    def cos(a: np.ndarray, b: np.ndarray) -> float:
        return abs(float(a @ b)) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)
    best = np.inf
    for f in np.geomspace(focal_range[0], focal_range[1], 32):
        k_inv = np.array([1 / f, 1 / f, 1.0])
        dx, dy = k_inv * M[:, 0], k_inv * M[:, 1]
        best = min(best, max(cos(dx, dy), cos(dx + dy, dx - dy)))
    return best


def inner_seams(gray: np.ndarray, grid: Grid, region: np.ndarray, cfg: dict[str, Any]) -> float:
    """How much the grid's lines between two of its board cells are seams in the photo ``gray``:
    the lower over the two axes of the median, over those lines, of the share of a line's middle
    (``seam_trim`` of a tile off each end) that is an edge along it. ``region`` is the board
    region (a cell is board when it fills ``small_fill_on`` of it). 1 with no such line.

    The board is seen as a top view, ``seam_patch`` pixels a tile. A pixel is on an edge along x
    (a horizontal line) when |d/dy|, averaged over half a tile along x, is above the
    ``check_edge_pct`` percentile of the board's and over ``seam_dominance`` times |d/dx| averaged
    alike (a road or a city wall slanting across the view is not a seam; a road crossing the seam
    at right angles must not hide it); widened by ``seam_band`` of a tile
    across the line, a lattice a few pixels off still finds its seams. A steeper lattice of the
    same outline (four tiles for two) puts lines through the tiles' art, which are not seams."""
    patch = int(cfg["seam_patch"])
    nc, nr = len(grid.cols), len(grid.rows)
    size = (nc * patch, nr * patch)
    to_top = top_view(grid, patch)
    top = cv2.warpPerspective(gray.astype(np.float32, copy=False), to_top, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    on = cv2.warpPerspective(region.astype(np.uint8), to_top, size, flags=cv2.INTER_NEAREST) \
        .reshape(nr, patch, nc, patch).mean(axis=(1, 3)) >= float(cfg["small_fill_on"])
    pair_v, pair_h = on[:, :-1] & on[:, 1:], on[:-1, :] & on[1:, :]
    if not pair_v.any() and not pair_h.any():
        return 1.0
    run = max(3, patch // 2)
    dx = np.abs(cv2.Sobel(top, cv2.CV_32F, 1, 0, ksize=3))
    dy = np.abs(cv2.Sobel(top, cv2.CV_32F, 0, 1, ksize=3))
    board = np.kron(on, np.ones((patch, patch), bool))
    band = np.ones((2 * max(1, int(round(float(cfg["seam_band"]) * patch))) + 1, 1), np.uint8)
    trim = int(round(float(cfg["seam_trim"]) * patch))
    pct, dominance = float(cfg["check_edge_pct"]), float(cfg["seam_dominance"])
    shares = []
    # horizontal lines (|d/dy| along x), then the vertical ones as the horizontal lines of the
    # transposed view
    for along, across, lines, inside in ((dy, dx, pair_h, board), (dx.T, dy.T, pair_v.T, board.T)):
        a, c = cv2.blur(along, (run, 1)), cv2.blur(across, (run, 1))
        e = cv2.dilate(((a > np.percentile(a[inside], pct)) & (a > dominance * c)).astype(np.uint8), band)
        shares.append([float(e[(r + 1) * patch, c * patch + trim:(c + 1) * patch - trim].mean())
                       for r, c in zip(*np.nonzero(lines))])
    return min((float(np.median(s)) for s in shares if s), default=1.0)


def lattice_homography(poly: np.ndarray, corners: np.ndarray, fit_tol: float, reflex_tol: float
                       ) -> np.ndarray | None:
    """The homography (work image -> board units) taking the image polygon ``poly`` onto the
    lattice polygon ``corners``, when its corners land within ``fit_tol`` of a tile side of
    theirs; else, fitted without one reflex corner, when the others land within ``fit_tol`` and
    that one within ``reflex_tol`` (0: never). A bay's inner corner is where the region goes
    wrong most: the closing fills it, and table of the tiles' colour gathers there (photo game
    2806's third photo: brown wood in an L's bay read as tile colour put the inner corner 0.18
    of a tile off along one side, where the other five corners fitted within 0.03). None when
    neither fits."""
    side = float(np.median(np.linalg.norm(np.roll(poly, -1, axis=0) - poly, axis=1)
                           / np.maximum(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1), 1)))

    def fitted(keep: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        H, _ = cv2.findHomography(poly[keep], corners[keep], 0)
        if H is None:
            return None, np.full(len(poly), np.inf)
        return H, np.linalg.norm(_apply(np.linalg.inv(H), corners) - poly, axis=1) / side
    everyone = np.ones(len(poly), bool)
    H, off = fitted(everyone)
    if H is not None and off.max() <= fit_tol:
        return H
    if reflex_tol <= 0 or len(poly) < 6:
        return None
    best: tuple[float, np.ndarray] | None = None
    for i in np.flatnonzero(np.roll(_turns(poly), 1) < 0):  # (_turns()[i] is the turn at corner i + 1)
        keep = everyone.copy()
        keep[i] = False
        H, off = fitted(keep)
        if H is not None and off[keep].max() <= fit_tol and off[i] <= reflex_tol \
                and (best is None or off.max() < best[0]):
            best = (float(off.max()), H)
    return None if best is None else best[1]


def outline_grids(region: np.ndarray, cfg: dict[str, Any],
                  gray: np.ndarray | None = None) -> list[tuple[float, Grid]]:
    """Grid hypotheses of a tiny board from its outline polygon (module docstring), best first:
    (-square error, grid) for every lattice polygon whose corners the homography fits within
    ``polygon_fit_tol`` of a tile side, but for a reflex corner within ``polygon_reflex_tol``
    (:func:`lattice_homography`), and whose tiles are square within ``polygon_square_cos``,
    and, given the photo ``gray``, whose lines between two tiles are seams (:func:`inner_seams`
    at least ``small_seam_min``); at most ``polygon_keep``. Empty when the region is not a tiny
    board's outline."""
    h, w = region.shape
    gray = None if gray is None else gray.astype(np.float32, copy=False)  # once, not a grid each
    found: list[tuple[float, Grid]] = []
    for poly, corners in ((p, c) for p in outline_polygons(region, cfg) for c in _multiples_dropped(
            lattice_corners(p, int(cfg["small_max_tiles"]), int(cfg["polygon_max_len"])))):
        H = lattice_homography(poly, corners, float(cfg["polygon_fit_tol"]), float(cfg.get("polygon_reflex_tol", 0.0)))
        if H is None:
            continue
        err = _square_error(H, (h, w), tuple(cfg["vp_focal_range"]))
        if err > float(cfg["polygon_square_cos"]):
            continue
        Hn = _north_up(H, w, h)
        b = _apply(Hn, poly)
        c0, r0 = np.floor(b.min(axis=0) + 0.25).astype(int)
        c1, r1 = np.ceil(b.max(axis=0) - 0.25).astype(int)
        cols, rows = range(int(c0), int(c1)), range(int(r0), int(r1))
        if not len(cols) or not len(rows):
            continue
        g = Grid(H=Hn, cols=cols, rows=rows, pitch_px=grid_pitch(Hn, cols, rows), outline=True, polygon=True)
        if any(same_grid(g, f) for _, f in found):
            continue
        if gray is not None and inner_seams(gray, g, region, cfg) < float(cfg["small_seam_min"]):
            continue
        found.append((-err, g))
    found.sort(key=lambda t: -t[0])
    return found[: int(cfg["polygon_keep"])]


def _multiples_dropped(lattices: list[np.ndarray]) -> list[np.ndarray]:
    """``lattices`` less those that are another one scaled by a whole number: a quad fits 2 x 1
    tiles and 4 x 2 alike, and the finer lattice's cells, a quarter of a tile each, read as
    consistently (a bigger board's own seams give its grid to the comb search)."""
    def multiple(a: np.ndarray, b: np.ndarray) -> bool:
        return len(a) == len(b) and any(np.array_equal(a, k * b) for k in range(2, 5))
    return [a for a in lattices if not any(multiple(a, b) for b in lattices if b is not a)]
