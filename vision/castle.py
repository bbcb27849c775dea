"""The Castle: find the wall, and with it the interior spaces; then what each space holds.

A photo of *Carcassonne: The Castle* shows the castle wall, a band of wall pieces around the
interior, on the table. Unlike the base game, the layout is known in advance (the scorer's
:class:`scorer.board.Layout`: its interior cells and start fields), so the board is not found
by combing tile seams: the wall's outer outline (the interior grown by the wall's depth: 10
corners on the standard layout) is matched with the castle's outline in the photo, which gives
the table plane's homography, hence every interior space and start field, at once, however few
tiles lie inside yet.

The wall (:func:`locate_wall`): candidate silhouettes of wall, tiles and figures (by colour
edges, and by novelty against the table); each outer contour simplified to the layout outline's
corners or a few more; every cyclic pairing of corners fitted at once (a photo is never
mirrored, so one cyclic shift is right); the pairings that already put most of the layout's
outline on the photo's refined on the whole outline; the best fit kept. The wall's depth, in
tile sides, is a setting (``castle.wall_depth``): editions may differ, and the layout itself is
provisional.

The interior (:func:`interior_evidence`): a space is empty where it shows the table's colours
(learnt around the castle) or, on a smooth table, no printed edges; the tiles' pixel classes
(court, house, path, tower) come from The Castle's own colour seeds registered to the photo's
light; every template is scored as for the base game, plus market stalls and wells
(:func:`mark_evidence`), which tell twin tiles apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import cv2
import numpy as np

from scorer.board import Layout

from .classify import (
    cell_logliks,
    confusion,
    edge_road_evidence,
    edge_roads,
    expected_observations,
    point_weights,
    refine_posteriors,
    top_view,
    warp_board,
)
from .colours import _bin_index, adapt_prototypes, posteriors
from .errors import BoardNotFoundError
from .locate import Grid, _apply, grid_pitch, table_novelty

#: The Castle's pixel classes, in the order of the base game's (field, city, road, other) slots
#: they are drawn in: courts, houses, paths, towers (the colour prototypes' order)
CASTLE_CLASSES = ("court", "house", "path", "tower")


@dataclass(frozen=True)
class WallFit:
    """The wall found in a photo: the grid of the layout's cells, and how well the outline fits."""

    grid: Grid  # work pixels -> layout cell units (cell (i, j) spans [i, i+1] x [j, j+1])
    inliers: float  # share of the layout's outline lying on the photo's
    corners: np.ndarray  # (K, 2) the layout outline's corners in the photo (work pixels)
    region: np.ndarray  # the castle's silhouette (wall, tiles, figures) the wall was fitted to


def wall_outline(layout: Layout, depth: float, res: int = 40) -> np.ndarray:
    """The wall's outer outline in cell units: the interior grown by ``depth`` tile sides on every
    side (a mitred offset; a notch narrower than two depths fills), as a polygon of its corners
    (counter-clockwise on screen, as :func:`cv2.findContours` gives outer contours)."""
    cells = np.array(sorted(layout.cells))
    c0, r0 = cells.min(0) - 2 - int(np.ceil(depth))
    c1, r1 = cells.max(0) + 3 + int(np.ceil(depth))
    mask = np.zeros(((r1 - r0) * res, (c1 - c0) * res), np.uint8)
    d = int(round(depth * res))
    for c, r in cells:
        x, y = (c - c0) * res, (r - r0) * res
        cv2.rectangle(mask, (x - d, y - d), (x + res + d - 1, y + res + d - 1), 255, -1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # (the simplification drops the one-pixel steps the chain code puts at inner corners)
    poly = cv2.approxPolyDP(max(contours, key=cv2.contourArea), 1.0, True).reshape(-1, 2).astype(np.float64)
    # (pixel centres: corners off by half a pixel, a 2 * res-th of a tile side)
    return (poly + 0.5) / res + np.array([c0, r0], np.float64)


def _largest_filled(mask: np.ndarray) -> np.ndarray | None:
    """The largest 8-connected region of ``mask``, holes filled (None when there is none)."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return None
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours((lab == big).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros(mask.shape[:2], np.uint8)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled > 0


def novelty_silhouette(bgr: np.ndarray, cfg: dict[str, Any], locate_cfg: dict[str, Any]) -> np.ndarray | None:
    """The largest region unlike the table (:func:`vision.locate.table_novelty`: colours rare on
    the photo's border), closed and opened over ``close_frac`` of the photo's longer side."""
    novel = table_novelty(bgr, locate_cfg).astype(np.uint8)
    k = max(3, int(round(float(cfg["close_frac"]) * max(bgr.shape[:2]))) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return _largest_filled(cv2.morphologyEx(cv2.morphologyEx(novel, cv2.MORPH_CLOSE, disc), cv2.MORPH_OPEN, disc))


def edge_silhouette(bgr: np.ndarray, cfg: dict[str, Any], blur: int = 5, factor: float | None = None
                    ) -> np.ndarray | None:
    """The region the table's border cannot reach without crossing a colour edge.

    A light gradient or a hot spot changes the table's colour slowly, so where the novelty test
    takes part of a wall for table (or a lit patch of table for castle), the wall's outer edge is
    still a sharp, closed line. Edges (Canny on each Lab channel after a ``blur`` px blur,
    thresholds ``factor`` (default ``edge_factor``) times the ``edge_quantile`` of the gradient
    magnitude, dilated over ``edge_close_px``) bound the table reached from the
    photo's border; what it does not reach, opened over ``edge_open_frac`` of the longer side
    (a wood grain's lines touching the wall are thin), is the castle."""
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (blur, blur), 0), cv2.COLOR_BGR2LAB)
    factor = float(cfg["edge_factor"]) if factor is None else factor
    edges = np.zeros(bgr.shape[:2], np.uint8)
    for k in range(3):
        ch = lab[..., k]
        mag = np.hypot(cv2.Sobel(ch, cv2.CV_32F, 1, 0), cv2.Sobel(ch, cv2.CV_32F, 0, 1))
        hi = max(float(np.quantile(mag, float(cfg["edge_quantile"]))) * factor, 8.0)
        edges |= (cv2.Canny(ch, hi * 0.5, hi) > 0).astype(np.uint8)
    c = int(cfg["edge_close_px"])
    edges = cv2.dilate(edges, np.ones((c, c), np.uint8))
    _, lab_free = cv2.connectedComponents((edges == 0).astype(np.uint8), connectivity=4)
    border = np.unique(np.r_[lab_free[0], lab_free[-1], lab_free[:, 0], lab_free[:, -1]])
    outside = np.isin(lab_free, border[border > 0])
    k = max(3, int(round(float(cfg["edge_open_frac"]) * max(bgr.shape[:2]))) | 1)
    inside = cv2.morphologyEx((~outside).astype(np.uint8), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return _largest_filled(inside)


def silhouettes(bgr: np.ndarray, cfg: dict[str, Any], locate_cfg: dict[str, Any]) -> Iterator[np.ndarray]:
    """Candidate masks of the castle (wall, tiles and figures, holes filled), lazily: by colour
    edges, by novelty against the table, then by colour edges at coarser scales and lower
    thresholds (``edge_more``: [blur px, factor] each; a wall nearly the table's colour, on a
    mottled cloth or a shaded wood, shows its long outer edge only there). :func:`locate_wall`
    keeps the one the wall fits best, and stops asking once one fits well.

    Each is opened over ``spur_frac`` of its own size (the square root of its area): a line of a
    wood's grain or a figure's shadow touching the wall leaves a thin spur, whose tip would
    take a corner of the simplified outline; the wall band is far wider."""
    makers: list[Callable[[], np.ndarray | None]] = [
        lambda: edge_silhouette(bgr, cfg), lambda: novelty_silhouette(bgr, cfg, locate_cfg),
        *[(lambda b=int(b), f=float(f): edge_silhouette(bgr, cfg, b, f)) for b, f in cfg.get("edge_more", [])]]
    for make in makers:
        m = make()
        if m is None or m.sum() < float(cfg["min_area_frac"]) * m.size:
            continue
        k = max(3, int(round(float(cfg["spur_frac"]) * float(np.sqrt(m.sum()))))) | 1
        opened = _largest_filled(cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN,
                                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))))
        if opened is not None:
            yield opened


def _simplify(contour: np.ndarray, k: int) -> np.ndarray | None:
    """The contour simplified to exactly ``k`` corners (Douglas-Peucker, tolerance searched), or
    None when no tolerance gives ``k``."""
    peri = cv2.arcLength(contour, True)
    lo, hi = 0.001 * peri, 0.08 * peri
    for _ in range(40):
        eps = (lo + hi) / 2
        poly = cv2.approxPolyDP(contour, eps, True).reshape(-1, 2)
        if len(poly) == k:
            return poly.astype(np.float64)
        if len(poly) > k:
            lo = eps
        else:
            hi = eps
    return None


def _homographies(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """(B, 3, 3) least-squares homographies mapping each ``src[b]`` (K, 2) onto ``dst[b]``: the
    normalised direct linear transform of every pairing at once (thousands of pairings per photo
    are tried; one :func:`cv2.findHomography` call each cost most of a second)."""
    def normalise(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = p.mean(1, keepdims=True)
        d = np.sqrt(((p - m) ** 2).sum(-1)).mean(1)
        sc = np.sqrt(2.0) / np.maximum(d, 1e-9)
        T = np.zeros((len(p), 3, 3))
        T[:, 0, 0] = T[:, 1, 1] = sc
        T[:, 0, 2] = -sc * m[:, 0, 0]
        T[:, 1, 2] = -sc * m[:, 0, 1]
        T[:, 2, 2] = 1.0
        return (p - m) * sc[:, None, None], T
    a, Ta = normalise(src)
    b, Tb = normalise(dst)
    x, y, u, v = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    A = np.zeros((len(a), 2 * a.shape[1], 9))
    A[:, 0::2, 0], A[:, 0::2, 1], A[:, 0::2, 2] = x, y, 1.0
    A[:, 0::2, 6], A[:, 0::2, 7], A[:, 0::2, 8] = -u * x, -u * y, -u
    A[:, 1::2, 3], A[:, 1::2, 4], A[:, 1::2, 5] = x, y, 1.0
    A[:, 1::2, 6], A[:, 1::2, 7], A[:, 1::2, 8] = -v * x, -v * y, -v
    Hn = np.linalg.svd(A)[2][:, -1].reshape(-1, 3, 3)
    H = np.linalg.inv(Tb) @ Hn @ Ta
    return H / np.where(np.abs(H[:, 2:3, 2:3]) > 1e-12, H[:, 2:3, 2:3], 1e-12)


def _project_many(H: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points projected by each of a batch of homographies ``H`` (B, 3, 3): ``pts`` is (K, 2),
    the same points for all, or (B, K, 2). Returns the (B, K, 2) projections and the (B, K)
    homogeneous scales (their sign tells which side of the camera a point falls)."""
    ph = np.concatenate([pts, np.ones((*pts.shape[:-1], 1))], -1) @ H.transpose(0, 2, 1)
    w = ph[..., 2:3]
    return ph[..., :2] / np.where(np.abs(w) > 1e-12, w, 1e-12), w[..., 0]


def _pairing_fits(model: np.ndarray, polys: list[np.ndarray]) -> list[tuple[float, np.ndarray]]:
    """(mean corner error in px, homography model -> photo) of every cyclic pairing of the
    model's corners with each corner list of ``polys`` (each as long as the model's)."""
    k = len(model)
    src = np.stack([np.roll(model, -s, axis=0) for s in range(k)])  # (k, K, 2)
    dst = np.stack(polys)  # (P, K, 2)
    S = np.broadcast_to(src[None], (len(dst), k, k, 2)).reshape(-1, k, 2)
    D = np.broadcast_to(dst[:, None], (len(dst), k, k, 2)).reshape(-1, k, 2)
    H = _homographies(S, D)
    proj, w = _project_many(H, S)
    # a pairing that folds the outline puts some corners behind the camera: sign of w differs
    folded = (np.sign(w) != np.sign(w[:, :1])).any(1)
    err = np.linalg.norm(proj - D, axis=-1).mean(1)
    err[folded | ~np.isfinite(err)] = np.inf
    return [(float(e), h) for e, h in zip(err, H) if np.isfinite(e)]


def _densify(poly: np.ndarray, step: float) -> np.ndarray:
    pts = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        t = np.arange(n)[:, None] / n
        pts.append(a + t * (b - a))
    return np.vstack(pts)


class _Outline:
    """The photo's outline as a distance map: each pixel's distance to, and nearest point of, it."""

    def __init__(self, contour: np.ndarray, shape: tuple[int, ...]) -> None:
        line = np.full(shape[:2], 255, np.uint8)
        cv2.drawContours(line, [contour], -1, 0, 1)
        self.dist, labels = cv2.distanceTransformWithLabels(line, cv2.DIST_L2, 5,
                                                            labelType=cv2.DIST_LABEL_PIXEL)
        ys, xs = np.nonzero(line == 0)
        # labels number the zero pixels in row-major order
        self.points = np.zeros((labels.max() + 1, 2), np.float64)
        self.points[labels[ys, xs]] = np.c_[xs, ys]
        self.labels = labels
        self.shape = shape[:2]

    def lookup(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distance, nearest outline point) of each point; points off the photo get inf."""
        h, w = self.shape
        xi = np.round(pts[:, 0]).astype(np.int64)
        yi = np.round(pts[:, 1]).astype(np.int64)
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        dist = np.full(len(pts), np.inf)
        near = np.zeros_like(pts)
        dist[ok] = self.dist[yi[ok], xi[ok]]
        near[ok] = self.points[self.labels[yi[ok], xi[ok]]]
        return dist, near


def _refine(H: np.ndarray, dense: np.ndarray, outline: _Outline, rounds: int, trim: float) -> np.ndarray:
    """Iterate: project points all along the model outline, pair each with its nearest outline
    point, refit (the worst ``trim`` of pairs left out: a figure or a light patch bulges it)."""
    for _ in range(rounds):
        dist, near = outline.lookup(_apply(H, dense))
        fin = np.isfinite(dist)
        if fin.sum() < 8:
            break
        keep = fin & (dist <= np.quantile(dist[fin], 1.0 - trim))
        H2, _ = cv2.findHomography(dense[keep], near[keep], 0)
        if H2 is None:
            break
        H = H2
    return H


def _inliers(H: np.ndarray, dense: np.ndarray, outline: _Outline, tol_px: float) -> float:
    dist, _ = outline.lookup(_apply(H, dense))
    return float(np.mean(dist <= tol_px))


def locate_wall(bgr: np.ndarray, layout: Layout, cfg: dict[str, Any], locate_cfg: dict[str, Any]) -> WallFit:
    """The layout's cells in the photo, from the castle wall's outer outline.

    For each candidate silhouette (:func:`silhouettes`), its outline is simplified to as many
    corners as the layout's, or a few more (``extra_corners``: a light patch or a figure beside
    the wall bulges it); every choice of that many corners, paired cyclically with the layout's,
    gives a homography, and the one that puts most of the layout's outline on the photo's
    (within ``inlier_tol`` tile sides), once refined, is taken. Raises
    :class:`BoardNotFoundError` (with what to change) when no outline of the wall's shape is
    found."""
    model = wall_outline(layout, float(cfg["wall_depth"]))
    cells = np.array(sorted(layout.cells))
    cols = range(int(cells[:, 0].min()), int(cells[:, 0].max()) + 1)
    rows = range(int(cells[:, 1].min()), int(cells[:, 1].max()) + 1)
    best: tuple[float, np.ndarray, float, np.ndarray] | None = None
    tried = 0
    for region in silhouettes(bgr, cfg, locate_cfg):
        tried += 1
        fit = _fit_outline(region, model, cols, rows, cfg)
        if fit is not None and (best is None or fit[0] > best[0]):
            best = (*fit, region)
        # the first two candidates are always compared; the coarser ones only while none fits
        if tried >= 2 and best is not None and best[0] >= float(cfg["min_inliers"]):
            break
    if not tried:
        raise BoardNotFoundError("no castle wall found: nothing on the photo stands out from the table; "
                                 "photograph the whole castle from closer, in even light")
    if best is None or best[0] < float(cfg["min_inliers"]):
        raise BoardNotFoundError("found a shape on the table but it does not fit the castle wall; photograph the "
                                 "whole castle, every side of its wall in the picture, nothing else on the table")
    share, H, pitch, region = best
    Hinv = np.linalg.inv(H)
    Hinv /= Hinv[2, 2]
    grid = Grid(H=Hinv, cols=cols, rows=rows, pitch_px=pitch, outline=True, board_cells=len(cells))
    return WallFit(grid=grid, inliers=share, corners=_apply(H, model), region=region)


def _fit_outline(region: np.ndarray, model: np.ndarray, cols: range, rows: range, cfg: dict[str, Any]
                 ) -> tuple[float, np.ndarray, float] | None:
    """(inlier share, homography layout -> photo, tile side in px) of the layout's outline fitted
    to ``region``'s outer contour, or None."""
    k = len(model)
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    outline = _Outline(contour, region.shape)
    dense = _densify(model, 0.1)
    polys: list[np.ndarray] = []
    for extra in range(int(cfg["extra_corners"]) + 1):
        poly = _simplify(contour, k + extra)
        if poly is None:
            continue
        polys += [np.delete(poly, list(drop), axis=0) for drop in combinations(range(k + extra), extra)]
    if not polys:
        return None
    fits = _pairing_fits(model, polys)
    if not fits:
        return None
    # rank the pairings by the share of the layout's outline they already put on the photo's
    # (a rough pairing refines well where the corner error misleads: a drop shadow or a
    # rounded notch moves a corner, not the sides), at a tolerance from the region's size
    side = float(np.sqrt(region.sum() / max(cv2.contourArea(model.astype(np.float32)), 1e-9)))
    Hs = np.stack([h for _, h in fits])
    dist, _ = outline.lookup(_project_many(Hs, dense)[0].reshape(-1, 2))
    rough = (dist.reshape(len(Hs), -1) <= 2.0 * float(cfg["inlier_tol"]) * side).mean(1)
    order = np.argsort(-rough)
    fits = [fits[i] for i in order]
    best: tuple[float, np.ndarray, float] | None = None
    for _, H in fits[:int(cfg["fits_refined"])]:
        H = _refine(H, dense, outline, int(cfg["refine_rounds"]), float(cfg["refine_trim"]))
        try:
            inv = np.linalg.inv(H)
        except np.linalg.LinAlgError:
            continue
        pitch = grid_pitch(inv / inv[2, 2], cols, rows)
        if not np.isfinite(pitch) or pitch <= 1:
            continue
        share = _inliers(H, dense, outline, float(cfg["inlier_tol"]) * pitch)
        if best is None or share > best[0]:
            best = (share, H, pitch)
    return best


# ---------------------------------------------------------------------------------------------
# the interior: which spaces hold a tile, and what each looks like
def _table_density(lab: np.ndarray, table_px: np.ndarray, cfg: dict[str, Any],
                   bins_key: str = "table_bins") -> np.ndarray:
    """How common each Lab pixel's colour is on the bare table (a smoothed coarse histogram of
    ``table_px``, bins ``cfg[bins_key]``), normalised so that the table's own pixels'
    ``table_quantile`` is 1."""
    from scipy.ndimage import gaussian_filter

    bins = tuple(int(x) for x in cfg[bins_key])
    # (the pixels as float: uint8 times a bin count would wrap)
    table_idx = _bin_index(table_px.astype(np.float32), bins)  # type: ignore[arg-type]
    hist = np.bincount(table_idx.ravel(), minlength=int(np.prod(bins))).astype(np.float64).reshape(bins)
    hist = gaussian_filter(hist, float(cfg["table_smooth"])).ravel()
    hist /= max(hist.sum(), 1e-9)
    ref = float(np.quantile(hist[table_idx], float(cfg["table_quantile"])))
    return hist[_bin_index(lab.astype(np.float32), bins)] / max(ref, 1e-12)  # type: ignore[arg-type]


def table_ring(region: np.ndarray, grid: Grid, cfg: dict[str, Any]) -> np.ndarray:
    """The bare table around the castle: outside its silhouette (by ``table_gap`` tile sides),
    within ``table_ring`` tile sides of it (the whole photo off the castle where that is too
    little)."""
    side = grid.side_px()
    gap = max(3, int(round(float(cfg["table_gap"]) * side)))
    ring = max(gap + 3, int(round(float(cfg["table_ring"]) * side)))
    r8 = region.astype(np.uint8)
    near = cv2.dilate(r8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring + 1, 2 * ring + 1))) > 0
    off = cv2.dilate(r8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))) > 0
    mask = near & ~off
    return mask if mask.sum() >= 200 else ~off


def edge_map(bgr: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Edges of the lightness (Canny at ``edge_canny`` after a 3 x 3 blur): printed tiles are full
    of them (path borders, roofs, towers' rings, the print's grain), a bare cloth has almost none."""
    lo, hi = (float(x) for x in cfg["edge_canny"])
    L = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[..., 0]
    return cv2.Canny(cv2.GaussianBlur(L, (3, 3), 0), lo, hi) > 0


def even_light(lab: np.ndarray, ignore: np.ndarray, occupied: np.ndarray, patch: int, reach: int) -> np.ndarray:
    """The top view's Lab with the light evened out over the castle: each occupied space's median
    lightness and colour (a, b), taken over the occupied spaces within ``reach`` (a 5 x 5 block
    at 2), is brought to the castle's median, lightness by ratio and colour by shift, bilinear
    between space centres (0: the photo's own colours).

    A lamp lights one side of the castle warmer and darker than the other; a castle tile is
    about half court whatever its kind, so over a few spaces the local median is the court
    lit locally, and one colour model then fits both sides."""
    if reach <= 0:
        return lab
    rows, cols = occupied.shape
    level = np.full((rows, cols, 3), np.nan, np.float32)
    for i, j in zip(*np.nonzero(occupied)):
        sl = (slice(i * patch, (i + 1) * patch), slice(j * patch, (j + 1) * patch))
        px = lab[sl][~ignore[sl]]
        if len(px) >= patch:
            level[i, j] = np.median(px, axis=0)
    if np.isnan(level[..., 0]).all():
        return lab
    local = np.full_like(level, np.nan)
    for i in range(rows):
        for j in range(cols):
            win = level[max(0, i - reach): i + reach + 1, max(0, j - reach): j + reach + 1].reshape(-1, 3)
            win = win[~np.isnan(win[:, 0])]
            if len(win):
                local[i, j] = np.median(win, axis=0)
    ref = np.nanmedian(level.reshape(-1, 3), axis=0)
    missing = np.isnan(local[..., 0])
    local[missing] = ref
    up = cv2.resize(local, (cols * patch, rows * patch), interpolation=cv2.INTER_LINEAR)
    out = lab.copy()
    h, w = up.shape[:2]
    out[:h, :w, 0] *= ref[0] / np.maximum(up[..., 0], 1.0)
    out[:h, :w, 1:] += ref[1:] - up[..., 1:]
    return out


def _occupied_pixels(lab: np.ndarray, occupied: np.ndarray, ignore: np.ndarray, patch: int) -> np.ndarray:
    """(N, 3) Lab pixels of the occupied spaces, figures left out."""
    rows, cols = occupied.shape
    on = np.repeat(np.repeat(occupied, patch, axis=0), patch, axis=1)
    return lab[: rows * patch, : cols * patch][on & ~ignore[: rows * patch, : cols * patch]]


def register_to_photo(px: np.ndarray, protos: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """The seed prototypes moved into this photo's light: the seeds' mix (each class weighed by
    its ``class_share`` of a castle tile) is matched to the tiles' pixels, lightness by ratio of
    medians, colour (a, b) by shift of medians with the seeds' spread about it scaled by the
    pixels' spread over the mix's (within ``register_scale``): a dim warm lamp leaves the tiles
    darker, yellower and greyer than the seeds, and a k-means pulled back to the raw seeds
    gives every pixel to the darkest class."""
    w = np.array([float(cfg["class_share"][k]) for k in CASTLE_CLASSES], np.float64)
    w /= w.sum()
    p = protos.astype(np.float64)
    mix = w @ p
    spread_seeds = float(np.sqrt(w @ ((p[:, 1:] - mix[1:]) ** 2).sum(1)))
    med = np.median(px.astype(np.float64), axis=0)
    spread_px = float(np.sqrt(np.median(((px[:, 1:].astype(np.float64) - med[1:]) ** 2).sum(1))))
    lo, hi = cfg["register_scale"]
    scale = float(np.clip(spread_px / max(spread_seeds, 1e-6), lo, hi))
    out = p.copy()
    out[:, 0] = p[:, 0] * med[0] / max(mix[0], 1e-6)
    out[:, 1:] = med[1:] + scale * (p[:, 1:] - mix[1:])
    return np.clip(out, 0, 255).astype(np.float32)


@dataclass(frozen=True)
class InteriorEvidence:
    """What the interior spaces look like: per space its share of table-coloured pixels (for a
    space found cloth-coloured after all, its share of cloth colours), and per occupied space
    every template's mean log-likelihood."""

    table_share: dict[tuple[int, int], float]
    loglik: dict[tuple[int, int], np.ndarray]
    prototypes: np.ndarray
    # per template, the evidence of the market stalls and wells seen (or not) where it has courts
    # and paths (:func:`mark_evidence`), on the scale of ``classify.scale`` times a log-likelihood
    marks: dict[tuple[int, int], np.ndarray] | None = None
    # the top view (``classify.patch`` pixels a space) in Lab with the light evened out, and
    # which spaces hold a tile: what the white figures are looked for on (:func:`white_figures`)
    top_lab: np.ndarray | None = None
    occupied: np.ndarray | None = None


def interior_evidence(work: np.ndarray, grid: Grid, layout: Layout, region: np.ndarray, ignore: np.ndarray,
                      templates: list[Any], cfg: dict[str, Any], classify_cfg: dict[str, Any],
                      colour_cfg: dict[str, Any]) -> InteriorEvidence:
    """Occupancy and template log-likelihoods of every interior space.

    Occupancy: a space shows the table where it holds no tile. Its pixels (those not under a
    figure, ``ignore``) are compared with the table's colours learnt in a ring around the castle
    (:func:`table_ring`); more than ``max_table_share`` table-coloured, it is empty. On a smooth
    table the print's lightness edges overrule that (:func:`edge_map`: ``edge_tile_sure``,
    ``edge_empty_max``), and a space left occupied whose colour (a, b) is mostly the table's and
    none of the tiles' is empty after all (a lamp's hot spot on the cloth inside the wall).

    Classification: the light evened out over the castle (:func:`even_light`); the tiles' pixel
    classes (court, house, path, tower, in the field / city / road / other slots) from The
    Castle's own colour seeds (``castle.prototypes``) registered to the photo
    (:func:`register_to_photo`) and refined by k-means on the occupied spaces; every template
    scored on each space as for the base game (:func:`vision.classify.cell_logliks`, the paths
    seen crossing the edges, the class colours learnt back from the tiles read), and the twins'
    marks (:func:`mark_evidence`) alongside. ``castle.classify`` and ``castle.colours`` override
    the base game's settings."""
    classify_cfg = {**classify_cfg, **cfg.get("classify", {})}
    patch, n = int(classify_cfg["patch"]), int(classify_cfg["points"])
    top = warp_board(work, grid, patch)
    ig_top = warp_board(ignore.astype(np.uint8), grid, patch) > 0
    lab8 = cv2.cvtColor(top, cv2.COLOR_BGR2LAB)
    ring = table_ring(region, grid, cfg)
    table_px = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)[ring].reshape(-1, 3)
    dens = _table_density(lab8, table_px, cfg)
    # a smooth table: few edges in the ring around the castle (a grainy or noisy photo has
    # edges everywhere, and the print's edges tell nothing)
    smooth = float(edge_map(work, cfg)[ring].mean()) <= float(cfg["edge_table_max"])
    edges_top = edge_map(top, cfg)
    tablish = dens >= float(cfg["table_density_min"])
    rows, cols = len(grid.rows), len(grid.cols)
    m = int(round(patch * float(cfg["cell_margin"])))
    share: dict[tuple[int, int], float] = {}
    occupied = np.zeros((rows, cols), bool)

    def middle(i: int, j: int) -> tuple[tuple[slice, slice], np.ndarray]:
        """Space (row i, column j)'s middle (``cell_margin`` off each side), and which of its
        pixels no figure hides."""
        sl = (slice(i * patch + m, (i + 1) * patch - m), slice(j * patch + m, (j + 1) * patch - m))
        return sl, ~ig_top[sl]

    edge_share: dict[tuple[int, int], float] = {}  # the spaces seen enough: share of edge pixels
    for c, r in sorted(layout.cells):
        i, j = r - grid.rows.start, c - grid.cols.start
        sl, seen = middle(i, j)
        if seen.sum() < 0.2 * seen.size:
            share[(c, r)] = 0.5  # under figures: no telling
        else:
            share[(c, r)] = float(tablish[sl][seen].mean())
            edge_share[(i, j)] = float(edges_top[sl][seen].mean())
        occupied[i, j] = share[(c, r)] <= float(cfg["max_table_share"])
        if smooth and (i, j) in edge_share:
            # on a smooth table the print's edges overrule the colours where they are clear: a
            # house or a tower as grey as the table shows them (edge_tile_sure), a lamp-lit
            # patch of a smooth cloth has none (edge_empty_max)
            if edge_share[(i, j)] >= float(cfg["edge_tile_sure"]):
                occupied[i, j] = True
            elif edge_share[(i, j)] <= float(cfg["edge_empty_max"]):
                occupied[i, j] = False
    lab = even_light(lab8.astype(np.float32), ig_top, occupied, patch, int(cfg["even_cells"]))
    ccfg = {**colour_cfg, **cfg["colours"]}
    protos0 = np.array([cfg["prototypes"][k] for k in CASTLE_CLASSES], np.float32)
    first = _occupied_pixels(lab, occupied, ig_top, patch)
    seeds = register_to_photo(first, protos0, cfg) if len(first) >= 50 else protos0
    # a lamp's hot spot on the cloth inside the wall is lighter than any cloth around the castle
    # and passes the table test for tiles; its colour (a, b) is still the cloth's, and none of
    # the tiles': such a space is empty after all
    ab_table = _table_density(lab8, table_px, cfg, "table_ab_bins") >= float(cfg["table_density_min"])
    far = np.min(np.stack([np.linalg.norm(lab[..., 1:] - p[1:], axis=-1) for p in seeds]), axis=0) \
        > float(cfg["tile_ab_dist"])
    cloth = ab_table & far
    for i, j in zip(*np.nonzero(occupied)):
        if (i, j) not in edge_share or (smooth and edge_share[(i, j)] >= float(cfg["edge_tile_sure"])):
            continue
        sl, seen = middle(i, j)
        cloth_share = float(cloth[sl][seen].mean())
        if cloth_share > float(cfg["max_table_share"]):
            occupied[i, j] = False
            share[(j + grid.cols.start, i + grid.rows.start)] = cloth_share
    px = _occupied_pixels(lab, occupied, ig_top, patch)
    protos = adapt_prototypes(px, register_to_photo(px, protos0, cfg), ccfg) if len(px) >= 50 else protos0
    post = posteriors(lab, protos, float(ccfg["softness"]), tuple(ccfg["lab_weights"]))
    post[ig_top] = 0.25  # under a figure: nothing seen
    loglik: dict[tuple[int, int], np.ndarray] = {}
    if occupied.any():
        ME = expected_observations(templates, confusion(classify_cfg))[0]
        w_pts = point_weights(n, classify_cfg)
        roads = edge_roads(templates)

        def score(post: np.ndarray) -> np.ndarray:
            """Every template's log-likelihood on every occupied space, with the paths seen
            crossing the spaces' edges (as the base game's roads: classify.edge_road_evidence)."""
            return cell_logliks(post, occupied, n, ME, w_pts, classify_cfg) \
                + edge_road_evidence(post, occupied, roads, classify_cfg)

        ll = score(post)
        # the class colours learnt back from the tiles read (as for the base game:
        # classify.refine_posteriors), then every space scored again
        maps = np.stack([t.soft if t.soft is not None else np.eye(4)[t.classes] for t in templates])
        for _ in range(int(classify_cfg.get("em_iterations", 0))):
            post_em = refine_posteriors(lab, post, ig_top, occupied, ll, maps, classify_cfg, protos, ccfg)
            if post_em is None:
                break
            mix = float(classify_cfg["em_prototype_mix"])
            post = (1 - mix) * post_em + mix * posteriors(lab, protos, float(ccfg["softness"]),
                                                          tuple(ccfg["lab_weights"]))
            post[ig_top] = 0.25
            ll = score(post)
        marks = mark_evidence(lab, ig_top, occupied, protos, templates, n, cfg)
        for k, (i, j) in enumerate(zip(*np.nonzero(occupied))):
            loglik[(int(j) + grid.cols.start, int(i) + grid.rows.start)] = ll[k]
        by_cell = {(int(j) + grid.cols.start, int(i) + grid.rows.start): marks[k]
                   for k, (i, j) in enumerate(zip(*np.nonzero(occupied)))}
        return InteriorEvidence(share, loglik, protos, by_cell, lab, occupied)
    return InteriorEvidence(share, loglik, protos, {}, lab, occupied)


def _pooled(mask: np.ndarray, occupied: np.ndarray, n: int, how: str = "mean") -> np.ndarray:
    """(cells, n * n) mean (or max) of ``mask`` in each of the n x n blocks of every occupied cell."""
    rows, cols = occupied.shape
    patch = mask.shape[0] // rows
    b = patch // n
    m = mask[: rows * patch, : cols * patch].astype(np.float32).reshape(rows, n, b, cols, n, b)
    blocks = m.max((2, 5)) if how == "max" else m.mean((2, 5))  # (rows, n, cols, n)
    return blocks.transpose(0, 2, 1, 3)[occupied].reshape(-1, n * n)


def mark_evidence(lab: np.ndarray, ignore: np.ndarray, occupied: np.ndarray, protos: np.ndarray,
                  templates: list[Any], n: int, cfg: dict[str, Any]) -> np.ndarray:
    """(cells, T) evidence from the market stalls and wells that tell twin tiles apart (a court
    with a market scores more): stalls are vivid, their colour (Lab a, b) more than
    ``vivid_dist`` from every class prototype of the photo. The share of such pixels inside a template's own
    courts, over ``market_share``, counts ``market_weight`` for it if it has a market and as
    much against it if its courts have none (a linear ramp to minus the weight at none). Roofs
    are vivid too, but lie on houses, outside the courts of the template that has them.

    A well (a path with a well scores more too) is a dark dot: the strongest dark-dot response
    (``well_dog_sigmas``) on the template's paths at least ``well_inner`` tile sides inside the
    tile, against ``well_dot`` [reference, span], counts ``well_weight`` the same way (12 MP dev
    photos: well paths' median response 28, the others' 10, their 90th percentile 17; over the
    whole path, borders included, the two overlapped)."""
    from scorer import Kind

    ab = lab[..., 1:]
    dmin = np.min(np.stack([np.linalg.norm(ab - p[1:], axis=-1) for p in protos]), axis=0)
    vivid = (dmin > float(cfg["vivid_dist"])) & ~ignore
    vp = _pooled(vivid, occupied, n)
    # a well: a dark dot on the path (a difference of Gaussians, sigmas in tile sides, scaled to
    # a path of lightness 190: a dim photo has less contrast), in the path's inner part (the
    # path's borders are dark lines where it meets the tile's edge); figures and their near
    # shadows are left out
    patch = lab.shape[0] // occupied.shape[0]
    L = lab[..., 0].astype(np.float32)
    s_dot, s_ring = (float(x) * patch for x in cfg["well_dog_sigmas"])
    dot = (cv2.GaussianBlur(L, (0, 0), s_ring) - cv2.GaussianBlur(L, (0, 0), s_dot)) \
        * (190.0 / max(float(protos[2, 0]), 1.0))
    dot[cv2.dilate(ignore.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0] = 0.0
    dp = _pooled(dot, occupied, n, "max")
    c = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(c, c)
    inner = (np.minimum(np.minimum(u, 1 - u), np.minimum(v, 1 - v)) >= float(cfg["well_inner"])).ravel()
    out = np.zeros((len(vp), len(templates)))
    for k, t in enumerate(templates):
        segs = t.tile.segments
        court = np.isin(t.segments, [i for i, sg in enumerate(segs) if sg.kind is Kind.COURT]).ravel()
        if court.any():
            market = any(sg.kind is Kind.COURT and sg.markets for sg in segs)
            ref = float(cfg["market_share"])
            g = np.clip((vp[:, court].mean(1) - ref) / ref, -1.0, 1.0)
            out[:, k] += float(cfg["market_weight"]) * (g if market else -g)
        path = np.isin(t.segments, [i for i, sg in enumerate(segs) if sg.kind is Kind.PATH]).ravel() & inner
        if path.any():
            well = any(sg.kind is Kind.PATH and sg.well for sg in segs)
            ref, span = (float(x) for x in cfg["well_dot"])
            g = np.clip((dp[:, path].max(1) - ref) / span, -1.0, 1.0)
            out[:, k] += float(cfg["well_weight"]) * (g if well else -g)
    return out


def novelty_map(ev: InteriorEvidence, grid: Grid, chosen: dict[tuple[int, int], Any], patch: int,
                cfg: dict[str, Any]) -> np.ndarray:
    """How far each top-view pixel of a read space is from the colours its tile should show
    there (0 off the tiles): the Lab distance (``novelty_lab_weights``) to the nearest colour
    prototype of the classes the chosen template draws within ``novelty_slack`` of the pixel
    (tile sides: a boundary drawn a little elsewhere costs nothing). A figure, its shaded side
    and its shadow are new on any tile; the print's details are specks."""
    assert ev.top_lab is not None
    lab, protos = ev.top_lab, ev.prototypes
    h, w = lab.shape[:2]
    expected = np.full((h, w), -1, np.int16)
    for (c, r), t in chosen.items():
        i, j = r - grid.rows.start, c - grid.cols.start
        if 0 <= i < h // patch and 0 <= j < w // patch:
            expected[i * patch:(i + 1) * patch, j * patch:(j + 1) * patch] = cv2.resize(
                t.classes.astype(np.int16), (patch, patch), interpolation=cv2.INTER_NEAREST)
    weights = np.array(cfg["novelty_lab_weights"], np.float32)
    k = max(1, int(round(float(cfg["novelty_slack"]) * patch))) * 2 + 1
    out = np.full((h, w), np.inf, np.float32)
    for c, p in enumerate(protos):
        near = cv2.dilate((expected == c).astype(np.uint8), np.ones((k, k), np.uint8)) > 0
        d = np.sqrt((((lab - p) * weights) ** 2).sum(axis=-1))
        out = np.where(near, np.minimum(out, d), out)
    out[expected < 0] = 0.0
    out[~np.isfinite(out)] = 0.0
    return out


def white_figures(work: np.ndarray, grid: Grid, ev: InteriorEvidence, chosen: dict[tuple[int, int], Any],
                  others: list[Any], patch: int, cfg: dict[str, Any], fcfg: dict[str, Any]) -> list[Any]:
    """The white figures on the tiles read: blobs of colours new to their tile (:func:`novelty_map`,
    capped at ``novelty_cap``, smoothed over ``novelty_window`` tile sides, at least
    ``novelty_threshold``) of ``white_min_novel`` to ``white_max_area`` tile areas in the top
    view, with at least ``white_min_pale`` tile areas of pale pixels (the figure's lit faces: at
    least ``white_min_dl`` lighter than the lightest paint's prototype and within
    ``white_max_chroma`` in a, b of the paths' grey, in the evened top view), away from the
    figures of other colours (``others``, their boxes grown by ``white_clear`` tile sides: a black
    figure's shadow is new too). White figures are as pale and grey as the paths and towers, so
    no colour rule tells them from the print; what they add to their tile does. Each blob's pale
    part (grown by ``white_body_pad``) is measured in the photo as any figure is
    (:func:`vision.figures.find_figures`), its foot taken at its end nearest the camera
    (``white_foot_pct``, ``white_foot_inset``), and of two feet within ``white_merge`` tile
    sides the one with more pale pixels is kept."""
    from .figures import _blob, camera_from_grid

    if ev.top_lab is None or not chosen:
        return []
    nov = novelty_map(ev, grid, chosen, patch, cfg)
    win = max(1, int(round(float(cfg["novelty_window"]) * patch))) | 1
    smooth = cv2.blur(np.minimum(nov, float(cfg["novelty_cap"])), (win, win))
    lab = ev.top_lab
    # a white figure's lit faces: lighter than any paint of the tiles (the brightest class
    # prototype) and grey under this light (the paths' colour, pale grey paint, is)
    path = ev.prototypes[CASTLE_CLASSES.index("path")]
    greyish = np.hypot(lab[..., 1] - path[1], lab[..., 2] - path[2]) <= float(cfg["white_max_chroma"])
    pale = greyish & (lab[..., 0] >= float(ev.prototypes[:, 0].max()) + float(cfg["white_min_dl"])) & (nov > 0)
    new = ((smooth >= float(cfg["novelty_threshold"]))
           | (cv2.dilate(pale.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)).astype(np.uint8)
    c0, r0 = grid.cols.start, grid.rows.start
    to_top = top_view(grid, patch)
    clear = np.zeros_like(new)
    grow = float(cfg["white_clear"]) * grid.side_px()
    for b in others:
        x, y, bw, bh = b.bbox
        box = np.array([[x - grow, y - grow], [x + bw + grow, y - grow], [x + bw + grow, y + bh + grow],
                        [x - grow, y + bh + grow]], np.float64)
        q = _apply(to_top, box)
        cv2.fillConvexPoly(clear, np.round(q).astype(np.int32), 1)
    new[clear > 0] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(new)
    cam = camera_from_grid(grid, work.shape[:2], fcfg)
    tile = float(fcfg["tile_mm"])
    fig_h, fig_t = float(fcfg["height_mm"]) / tile, float(fcfg["thickness_mm"]) / tile
    a_lo, a_hi = float(cfg["white_min_area"]), float(cfg["white_max_area"])
    back = np.linalg.inv(to_top)
    pad = max(1, int(round(float(cfg["white_body_pad"]) * patch))) * 2 + 1
    # the point of the table under the camera (board units): the camera's centre, P's null space
    centre_h = np.linalg.svd(cam.P)[2][-1]
    nadir = centre_h[:2] / centre_h[3] if abs(centre_h[3]) > 1e-12 else np.array([1e6, 1e6])
    out = []
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        if not max(a_lo, float(cfg["white_min_novel"])) <= a / patch ** 2 <= a_hi:
            continue
        part = labels[y:y + h, x:x + w] == i
        lit = pale[y:y + h, x:x + w] & part
        if int(lit.sum()) < float(cfg["white_min_pale"]) * patch ** 2:
            continue
        # the figure's own pixels (its pale faces and what joins them, not its shadow) in the
        # photo, where its size and foot are measured
        body = part & (cv2.dilate(lit.astype(np.uint8), np.ones((pad, pad), np.uint8)) > 0) if lit.any() else part
        mask = np.zeros(new.shape, np.uint8)
        mask[y:y + h, x:x + w][body] = 1
        img = cv2.warpPerspective(mask, back, (work.shape[1], work.shape[0]), flags=cv2.INTER_NEAREST)
        ys, xs = np.nonzero(img)
        if len(xs) < 10:
            continue
        pts = np.c_[xs, ys].astype(np.float64)
        bbox = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
        b = _blob("white", pts, bbox, grid, cam, fig_h, fig_t, fcfg)
        if b is None:
            continue
        # the foot: a standing figure seen in the top view is drawn out away from the point of
        # the table under the camera, from its foot; the foot is the blob's end nearest that point
        by, bx = np.nonzero(body)
        board = np.c_[(bx + x + 0.5) / patch + c0, (by + y + 0.5) / patch + r0]
        centre = board.mean(axis=0)
        toward = nadir - centre
        norm = float(np.hypot(*toward))
        if norm > 1e-6:
            toward /= norm
            along = (board - centre) @ toward
            side = (board - centre) @ np.array([-toward[1], toward[0]])
            reach = float(np.percentile(along, float(cfg["white_foot_pct"]))) - float(cfg["white_foot_inset"])
            foot = centre + toward * reach + np.array([-toward[1], toward[0]]) * float(np.median(side))
            b.foot = tuple(float(v) for v in grid.to_image(foot[None])[0])
        b.lying = False  # The Castle's figures all stand
        b.features["lit"] = float(lit.sum()) / patch ** 2
        b.features["novel"] = a / patch ** 2
        out.append(b)
    # one figure, one blob: of two feet closer than white_merge tile sides the one with more lit
    # pixels stays (a figure and its shadow, or its two lit faces, seen apart)
    out.sort(key=lambda b: -b.features["lit"])
    kept: list[Any] = []
    for b in out:
        u = grid.to_board(np.array([b.foot]))[0]
        if all(np.hypot(*(u - grid.to_board(np.array([k.foot]))[0])) >= float(cfg["white_merge"]) for k in kept):
            kept.append(b)
    return kept
