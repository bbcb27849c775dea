"""Stage 2: find the tiles, the table plane and the grid.

1. A tile mask from colour (field green and city tan are what tiles are made of).
2. Straight edges near the tiles (tile outlines and seams, straight roads) cluster into two
   families; each family meets at a vanishing point (RANSAC, then least squares). The line
   through both vanishing points is the table plane's horizon: sending it to infinity removes
   the perspective, an affine map makes the two families the x and y axes.
3. Along each axis, the seams between tiles repeat with the tile pitch: a comb search (seam
   positions strong, tile centres weak) gives pitch and phase per axis, which also fixes the
   aspect ratio. Missing tiles and holes only remove teeth from the comb.
4. The grid is turned by a multiple of 90 degrees so that north is the image top, and every cell
   whose rectified patch is mostly tile-coloured holds a tile.
"""

from __future__ import annotations

from dataclasses import dataclass
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

    def to_board(self, pts: np.ndarray) -> np.ndarray:
        return _apply(self.H, pts)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return _apply(np.linalg.inv(self.H), pts)


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
    sides = [(slice(0, b), slice(None)), (slice(h - b, h), slice(None)),
             (slice(None), slice(0, b)), (slice(None), slice(w - b, w))]
    dens = []
    for sl in sides:
        hist = np.zeros(bins)
        np.add.at(hist, (idx[0][sl].ravel(), idx[1][sl].ravel(), idx[2][sl].ravel()), 1.0)
        hist = gaussian_filter(hist, float(cfg["novelty_smooth"]))
        dens.append((hist / max(hist.sum(), 1e-9))[idx])
    p = np.median(np.stack(dens), axis=0)
    border = np.zeros((h, w), dtype=bool)
    border[:b] = border[-b:] = True
    border[:, :b] = border[:, -b:] = True
    thr = np.quantile(p[border], float(cfg["novelty_quantile"]))
    nov = (p < thr).astype(np.uint8)
    return cv2.resize(nov, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_NEAREST) > 0


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
    h, w = gray.shape
    side = max(h, w)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 40, 120)
    k = max(3, int(side * 0.02))
    near = cv2.dilate(region.astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    edges[~near] = 0
    segs = cv2.HoughLinesP(edges, 1, np.pi / 360, int(cfg["hough_threshold"]),
                           minLineLength=max(10, int(side * cfg["hough_min_length_frac"])),
                           maxLineGap=max(2, int(side * cfg["hough_max_gap_frac"])))
    if segs is None:
        return np.zeros((0, 4))
    return segs.reshape(-1, 4).astype(np.float64)


def _angle_err(segs: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Angle (radians) between each segment and the line from its midpoint to point v (homog.)."""
    m = (segs[:, :2] + segs[:, 2:]) / 2
    d = segs[:, 2:] - segs[:, :2]
    if abs(v[2]) < 1e-12:
        t = np.broadcast_to(v[:2], m.shape)
    else:
        t = v[:2] / v[2] - m
    cross = np.abs(d[:, 0] * t[:, 1] - d[:, 1] * t[:, 0])
    dot = np.abs((d * t).sum(1))
    return np.arctan2(cross, dot)


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


def _ransac_vp(segs: np.ndarray, w: np.ndarray, tol: float, iters: int, rng: np.random.Generator) -> np.ndarray:
    L = _lines(segs)
    best, best_score = None, -1.0
    n = len(segs)
    p = w / w.sum()
    for _ in range(iters):
        i, j = rng.choice(n, 2, replace=False, p=p)
        v = np.cross(L[i], L[j])
        nv = np.linalg.norm(v)
        if nv < 1e-12:
            continue
        v = v / nv
        score = w[_angle_err(segs, v) < tol].sum()
        if score > best_score:
            best, best_score = v, score
    if best is None:
        best = _fit_vp(segs, w)
    for _ in range(3):
        inl = _angle_err(segs, best) < tol
        if inl.sum() < 2:
            break
        best = _fit_vp(segs[inl], w[inl])
    return best


def vanishing_points(segs: np.ndarray, cfg: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two vanishing points (homogeneous, normalised coordinates) and each segment's family."""
    if len(segs) < 6:
        raise BoardNotFoundError("found no straight tile edges; photograph the tiles from closer, "
                                 "in even light, with the whole board in view")
    d = segs[:, 2:] - segs[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180
    hist = np.zeros(180)
    np.add.at(hist, ang.astype(int) % 180, length)
    hist = np.convolve(np.r_[hist[-10:], hist, hist[:10]], np.ones(7) / 7, mode="same")[10:-10]
    a1 = int(hist.argmax())
    dist = np.minimum(np.abs(np.arange(180) - a1), 180 - np.abs(np.arange(180) - a1))
    masked = np.where(dist >= 35, hist, -1)
    a2 = int(masked.argmax())
    tol_f = cfg["angle_family_tolerance_deg"]
    fam = np.full(len(segs), -1)
    for k, a in enumerate((a1, a2)):
        dd = np.abs(ang - a)
        dd = np.minimum(dd, 180 - dd)
        fam[(dd < tol_f) & (fam == -1)] = k
    rng = np.random.default_rng(0)
    tol = np.radians(cfg["vp_inlier_deg"])
    vps = []
    for k in (0, 1):
        sel = fam == k
        if sel.sum() < 3:
            raise BoardNotFoundError("found too few tile edges in one direction; make sure whole tiles "
                                     "are in view and the photo is sharp")
        vps.append(_ransac_vp(segs[sel], length[sel], tol, int(cfg["ransac_iterations"]), rng))
    # reassign every segment to the vanishing point it agrees with best, then refit
    errs = np.stack([_angle_err(segs, v) for v in vps])
    fam = np.where(errs.min(0) < tol * 2, errs.argmin(0), -1)
    for k in (0, 1):
        sel = fam == k
        if sel.sum() >= 3:
            vps[k] = _fit_vp(segs[sel], length[sel])
    return vps[0], vps[1], fam


def _comb(profile: np.ndarray, pmin: float, pmax: float, min_teeth: float = 3.0, teeth_power: float = 0.5,
          step: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seam-comb scores over a 1-D profile for every candidate pitch: (pitches, best phase, score,
    mean contrast at that phase).

    The score is the mean seam strength minus the strength half a pitch away (times the number of
    teeth on the board to the power ``teeth_power``). A multiple of the pitch puts its "half a
    pitch away" on seams too and scores about zero; half the pitch counts tile centres as seams
    and loses to the true pitch. Pitches that fit fewer than ``min_teeth`` teeth on the board are
    not considered (the board's two outer edges alone are no evidence of a pitch)."""
    n = len(profile)
    nz = np.nonzero(profile > 0.05 * profile.max())[0] if profile.max() > 0 else np.array([0, n - 1])
    lo_b, hi_b = float(nz[0]), float(nz[-1])
    prof = profile - np.median(profile[int(lo_b):int(hi_b) + 1])
    xs = np.arange(n)
    pitches = np.arange(pmin, max(pmin + step, pmax), step)
    best_ph = np.zeros(len(pitches))
    best_sc = np.full(len(pitches), -np.inf)
    best_mean = np.full(len(pitches), -np.inf)
    for j, p in enumerate(pitches):
        phases = np.arange(0.0, p, 0.5)
        ks = np.arange(-1, int(n / p) + 2)
        pos = phases[:, None] + ks[None, :] * p
        ok = (pos >= lo_b - 2) & (pos <= hi_b + 2)
        seam = np.interp(pos, xs, prof)
        mid = np.interp(pos + p / 2, xs, prof)
        cnt = ok.sum(1)
        mean = np.where(cnt >= min_teeth, ((seam - mid) * ok).sum(1) / np.maximum(cnt, 1), -np.inf)
        sc = mean * np.maximum(cnt, 1) ** teeth_power
        i = int(np.argmax(sc))
        best_ph[j], best_sc[j], best_mean[j] = phases[i], sc[i], mean[i]
    return pitches, best_ph, best_sc, best_mean


def _pitch_axis(profile: np.ndarray, pmin: float, pmax: float, cfg: dict[str, Any]) -> tuple[float, float, float]:
    """(pitch, phase, score) of the seams along one rectified axis.

    The comb's best pitch is often a multiple of the true one (wood grain, the board's outline and
    long straight roads line up every few tiles). So its divisors are tried, smallest first: a
    divisor whose mean seam-minus-midline contrast keeps ``divisor_ratio`` of the winner's is the
    pitch (on a true pitch's multiple, the midlines are seams and the contrast drops). Finally the
    pitch is refined in steps of ``pitch_fine_step`` around it."""
    mt, tp = float(cfg["min_teeth"]), float(cfg["teeth_power"])
    ps, phs, scs, means = _comb(profile, pmin, pmax, mt, tp)
    j = int(np.argmax(scs))
    best = float(ps[j])
    for k in range(int(cfg["max_divisor"]), 1, -1):
        q = best / k
        if q < pmin:
            continue
        i = int(np.argmin(np.abs(ps - q)))
        win = (np.abs(ps - q) <= max(1.0, 0.03 * q))
        i = int(np.argmax(np.where(win, means, -np.inf)))
        if means[i] > 0 and means[i] >= float(cfg["divisor_ratio"]) * means[j]:
            best = float(ps[i])
            break
    fs = float(cfg["pitch_fine_step"])
    ps2, phs2, scs2, _ = _comb(profile, best * 0.97, best * 1.03, mt, tp, fs)
    i = int(np.argmax(scs2))
    return float(ps2[i]), float(phs2[i]), float(scs2[i])


def _square_pitches(ax: tuple[np.ndarray, float, float], ay: tuple[np.ndarray, float, float], pmin: float,
                    cfg: dict[str, Any]) -> tuple[float, float, float, float]:
    """Make the two axes' pitches agree with square tiles.

    The affine frame only stretches one axis against the other by the foreshortening of a tilt up
    to about 50 degrees, so pitches further apart than ``max_aspect`` mean one axis found a
    multiple or a divisor of its pitch. Both repairs (divide the larger, multiply the smaller by
    the rounded ratio) are tried; the one whose comb contrast keeps more of its axis's best wins."""
    (fx, px, phx), (fy, py, phy) = ax, ay
    ma = float(cfg["max_aspect"])
    ratio = max(px, py) / min(px, py)
    if ratio <= ma or not cfg.get("square_fix", False):
        return px, phx, py, phy
    k = max(2, int(round(ratio)))
    mt, tp = float(cfg["min_teeth"]), float(cfg["teeth_power"])
    big_x = px > py
    (fb, pb), (fs, ps) = ((fx, px), (fy, py)) if big_x else ((fy, py), (fx, px))
    options = []
    for prof, target, which in ((fb, pb / k, "big"), (fs, ps * k, "small")):
        if target < pmin * 0.9 or target > len(prof) * 0.9:
            continue
        p_all, ph_all, _, m_all = _comb(prof, max(pmin * 0.9, target * 0.93), target * 1.07, mt, tp, 0.5)
        ref = _comb(prof, pmin, len(prof) * 0.9, mt, tp)[3].max()
        i = int(np.argmax(m_all))
        options.append((m_all[i] / max(ref, 1e-9), float(p_all[i]), float(ph_all[i]), which))
    if not options:
        return px, phx, py, phy
    _, p_new, ph_new, which = max(options)
    if (which == "big") == big_x:
        return p_new, ph_new, py, phy
    return px, phx, p_new, ph_new


def _joint_pitch(cx: tuple[np.ndarray, np.ndarray, np.ndarray], cy: tuple[np.ndarray, np.ndarray, np.ndarray],
                 max_ratio: float) -> tuple[float, float, float, float]:
    """Pitch and phase on both axes maximising the summed comb score, with the two pitches
    within ``max_ratio`` of each other (tiles are square; the affine frame only stretches)."""
    px, phx, sx = cx
    py, phy, sy = cy
    ratio = px[:, None] / py[None, :]
    tot = sx[:, None] + sy[None, :]
    tot = np.where((ratio <= max_ratio) & (ratio >= 1 / max_ratio), tot, -np.inf)
    i, j = np.unravel_index(int(np.argmax(tot)), tot.shape)
    return float(px[i]), float(phx[i]), float(py[j]), float(phy[j])


def _on_tiles(segs: np.ndarray, tilecol: np.ndarray, offset: float) -> np.ndarray:
    """Keep segments with tile colour along at least one side (tile outlines and seams, not the
    planks of a table)."""
    if not len(segs):
        return np.zeros(0, dtype=bool)
    h, w = tilecol.shape
    d = segs[:, 2:] - segs[:, :2]
    nrm = np.c_[-d[:, 1], d[:, 0]] / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    ts = np.linspace(0.1, 0.9, 9)
    pts = segs[:, None, :2] + ts[None, :, None] * d[:, None, :]
    keep = np.zeros(len(segs), dtype=bool)
    for sgn in (-1, 1):
        q = pts + sgn * offset * nrm[:, None, :]
        xi = np.clip(q[..., 0].round().astype(int), 0, w - 1)
        yi = np.clip(q[..., 1].round().astype(int), 0, h - 1)
        keep |= tilecol[yi, xi].mean(1) >= 0.6
    return keep


def locate(bgr: np.ndarray, cfg: dict[str, Any]) -> tuple[Grid, np.ndarray]:
    """Fit the board grid in a (work-resolution) BGR image; returns the grid and the tile mask."""
    h, w = bgr.shape[:2]
    green, tilecol = tile_mask(bgr, cfg)
    novel = table_novelty(bgr, cfg) if cfg.get("novelty", True) else tilecol
    if (tilecol & novel).sum() >= float(cfg["novelty_min_keep"]) * max(1, tilecol.sum()) or \
            tilecol.sum() > float(cfg["novelty_max_cover"]) * h * w:
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
    segs = segs[_on_tiles(segs, tilecol, max(3.0, max(h, w) * 0.006))]
    # normalised coordinates
    s = float(max(h, w))
    T = np.array([[1 / s, 0, -w / (2 * s)], [0, 1 / s, -h / (2 * s)], [0, 0, 1]])
    segs_n = np.c_[_apply(T, segs[:, :2]), _apply(T, segs[:, 2:])] if len(segs) else segs
    v1, v2, fam = vanishing_points(segs_n, cfg)
    horizon = np.cross(v1, v2)
    if abs(horizon[2]) < 1e-9 or np.linalg.norm(horizon[:2]) / abs(horizon[2]) > 1.4:
        # the horizon crosses the image: perspective too strong to trust; fall back to affine
        horizon = np.array([0.0, 0.0, 1.0])
    Hp = np.array([[1, 0, 0], [0, 1, 0], horizon / horizon[2]])
    d = []
    for v in (v1, v2):
        q = Hp @ v
        dv = q[:2] if abs(q[2]) < 1e-6 * np.linalg.norm(q[:2]) else None
        if dv is None:
            # numerically not at infinity: use the mean direction of the family after Hp
            fsel = fam == len(d)
            a = _apply(Hp, segs_n[fsel, :2])
            b = _apply(Hp, segs_n[fsel, 2:])
            dd = b - a
            dd[dd[:, 0] * dd[0, 0] + dd[:, 1] * dd[0, 1] < 0] *= -1
            dv = dd.sum(0)
        d.append(dv / np.linalg.norm(dv))
    D = np.column_stack(d)
    if np.linalg.det(D) < 0:
        D[:, 1] *= -1
    A = np.eye(3)
    A[:2, :2] = np.linalg.inv(D)
    G = A @ Hp @ T  # work pixels -> affine-rectified plane
    ys, xs = np.nonzero(region)
    step = max(1, len(xs) // 20000)
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
        sel = fam == k
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
    pmin, pmax = side * cfg["pitch_min_frac"], side * cfg["pitch_max_frac"]
    pfx = cv2.GaussianBlur(prof_x.reshape(1, -1), (1, 0), 1.0).ravel()
    pfy = cv2.GaussianBlur(prof_y.reshape(1, -1), (1, 0), 1.0).ravel()
    px, phx, _ = _pitch_axis(pfx, pmin, min(pmax, size[0] * 0.9), cfg)
    py, phy, _ = _pitch_axis(pfy, pmin, min(pmax, size[1] * 0.9), cfg)
    px, phx, py, phy = _square_pitches((pfx, px, phx), (pfy, py, phy), pmin, cfg)
    U = np.array([[1 / px, 0, -phx / px], [0, 1 / py, -phy / py], [0, 0, 1]])
    H = U @ R
    H = _north_up(H, w, h)
    bpts = _apply(H, np.c_[xs[::step], ys[::step]])
    c0, r0 = np.floor(np.percentile(bpts, 0.2, axis=0)).astype(int)
    c1, r1 = np.ceil(np.percentile(bpts, 99.8, axis=0)).astype(int)
    if (c1 - c0) * (r1 - r0) > 900:
        raise BoardNotFoundError("could not find the tile grid; take the photo from closer and more from above")
    Hinv = np.linalg.inv(H)
    c = np.array([[0.5 * (c0 + c1), 0.5 * (r0 + r1)]])
    a = _apply(Hinv, c)
    b = _apply(Hinv, c + [1, 0])
    pitch = float(np.hypot(*(b - a)[0]))
    return Grid(H=H, cols=range(c0, c1), rows=range(r0, r1), pitch_px=pitch), tilecol


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
