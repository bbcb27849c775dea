"""Stage 2b: refine a grid hypothesis on the seams it should lie on.

The grid from :mod:`vision.locate` is one homography fitted through two vanishing points and a
comb pitch: where those are a little off (a vanishing point from few edges, lens distortion, a
pitch a few percent long) the lattice drifts off the seams towards the board's far side, and a
cell read a third of a tile off is misread. Here every lattice edge that borders a tile is
looked for in the board's top view, within ``refine_reach`` tile sides across it: the column
(row) of strongest brightness change along the edge is where the seam is. Each found seam is a
line constraint on the board frame (its x, or its y, is a whole number), and a correcting
homography is fitted to all of them by least squares with a pull towards no change, dropping
the edges it cannot explain (a road or a city wall near the seam); a few rounds, each from the
last one's top view. A grid whose seams cannot be found (too few edges, a blank photo) is
returned as it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from .classify import warp_board
from .locate import Grid, grid_pitch


def _seams(grad: np.ndarray, edge: np.ndarray | None, occupied: np.ndarray, patch: int, reach: int,
           axis: int, inside: bool = False) -> list[tuple[float, float, float, float]]:
    """Seams across ``axis`` (0: vertical lines, found in x; 1: horizontal, found in y) between
    cells of which at least one is occupied: (line position, position along it, offset found, in
    cells, strength). ``grad`` is the top view's brightness change across the lines, ``edge``
    the tile mask's, used on the board's outline (one cell empty) where given: a plank or a
    cloth's fold beside the board can be a stronger edge than the board's own. With ``inside``,
    a segment whose strongest change lies at either end of its search is left out: the seam is
    not within reach, and what was found is a road, a wall or a figure's side that only grows
    towards the end (photo game 1129's last photo: on a table read as tile colour, such ends
    outvoted the true seams and sheared the grid by up to 0.44 of a tile at the board's far
    end)."""
    if axis == 1:  # rows become columns: one code path
        return _seams(grad.T, None if edge is None else edge.T, occupied.T, patch, reach, 0, inside)
    nr, nc = occupied.shape
    lo, hi = int(0.15 * patch), int(0.85 * patch)
    found = []  # (i, j, the image searched) of each seam segment: the line between columns i-1 and i, row j
    for i in range(1, nc):
        x = i * patch
        if x - reach < 1 or x + reach >= grad.shape[1] - 1:
            continue
        for j in range(nr):
            if not (occupied[j, i - 1] or occupied[j, i]):
                continue
            found.append((i, j, grad if edge is None or (occupied[j, i - 1] and occupied[j, i]) else edge))
    if not found:
        return []
    # every segment's profile across its line at once (the same sums as one segment at a time)
    profs = np.stack([g[j * patch + lo: j * patch + hi, i * patch - reach: i * patch + reach + 1]
                      for i, j, g in found]).mean(1)
    peaks = profs.argmax(1)
    bases = np.median(profs, axis=1)
    out = []
    for (i, j, _), prof, k, base in zip(found, profs, peaks, bases):
        k = int(k)
        strength = float(prof[k]) - float(base)
        interior = 0 < k < len(prof) - 1
        if strength <= 0 or (inside and not interior):
            continue
        off = float(k - reach)
        if interior:  # sub-pixel: the parabola through the peak and its neighbours
            a, b, c = prof[k - 1], prof[k], prof[k + 1]
            den = a - 2 * b + c
            if den < 0:
                off += 0.5 * (a - c) / den
        out.append((float(i), j + 0.5, off / patch, strength))
    return out


def _fit_correction(cons: list[tuple[int, float, float, float, float]], centre: np.ndarray, scale: float,
                    pull: float) -> np.ndarray:
    """The homography C (board frame now -> corrected board frame) that best sends each
    constraint's point onto its line: (axis, target, u, v, weight) means C(u, v)[axis] = target.
    Solved linearly (the DLT form with C[2, 2] = 1) in coordinates centred on ``centre`` and
    divided by ``scale``, with rows pulling C towards the identity by ``pull``."""
    rows, rhs, w = [], [], []
    for axis, t, u, v, wt in cons:
        u, v, t = (u - centre[0]) / scale, (v - centre[1]) / scale, (t - centre[axis]) / scale
        if axis == 0:
            rows.append([u, v, 1, 0, 0, 0, -t * u, -t * v])
        else:
            rows.append([0, 0, 0, u, v, 1, -t * u, -t * v])
        rhs.append(t)
        w.append(wt)
    A = np.array(rows) * np.sqrt(w)[:, None]
    b = np.array(rhs) * np.sqrt(w)
    ident = np.array([1, 0, 0, 0, 1, 0, 0, 0], float)
    lam = np.sqrt(pull * max(1e-9, float(np.sum(w))))
    A = np.vstack([A, lam * np.eye(8)])
    b = np.r_[b, lam * ident]
    c = np.linalg.lstsq(A, b, rcond=None)[0]
    Cn = np.append(c, 1.0).reshape(3, 3)
    N = np.array([[1 / scale, 0, -centre[0] / scale], [0, 1 / scale, -centre[1] / scale], [0, 0, 1]])
    return np.linalg.inv(N) @ Cn @ N


def _residuals(C: np.ndarray, cons: list[tuple[int, float, float, float, float]]) -> np.ndarray:
    p = np.array([[u, v, 1.0] for _, _, u, v, _ in cons]) @ C.T
    q = p[:, :2] / p[:, 2:3]
    return np.array([q[k, a] - t for k, (a, t, _, _, _) in enumerate(cons)])


def refine_grid(gray: np.ndarray, grid: Grid, tilecol: np.ndarray, cfg: dict[str, Any]) -> Grid:
    """``grid`` with its homography corrected onto the seams found near its lines (see the
    module docstring); ``gray`` and ``tilecol`` are the work image and its tile-colour mask."""
    rounds = int(cfg.get("refine_rounds", 0))
    if rounds <= 0:
        return grid
    patch = int(cfg["refine_patch"])
    reach = max(1, int(round(float(cfg["refine_reach"]) * patch)))
    pull = float(cfg["refine_pull"])
    drop = float(cfg["refine_drop"])
    least = int(cfg["refine_min_seams"])
    inside = bool(cfg.get("refine_peaks_inside", False))
    cols = range(grid.cols.start - 1, grid.cols.stop + 1)
    rows = range(grid.rows.start - 1, grid.rows.stop + 1)
    g32 = gray.astype(np.float32)
    tc8 = tilecol.astype(np.uint8) * 255
    H = grid.H
    for _ in range(rounds):
        view = replace(grid, H=H, cols=cols, rows=rows)
        top = warp_board(g32, view, patch, cv2.INTER_LINEAR)
        tc = warp_board(tc8, view, patch, cv2.INTER_NEAREST) > 0
        occ = tc.reshape(len(rows), patch, len(cols), patch).mean((1, 3)) >= 0.5
        gx = np.abs(cv2.Sobel(top, cv2.CV_32F, 1, 0, ksize=3))
        gy = np.abs(cv2.Sobel(top, cv2.CV_32F, 0, 1, ksize=3))
        ex = ey = None
        if cfg.get("refine_outline_mask", False):
            # the mask's step, scaled like the brightness steps inside the board
            soft = cv2.GaussianBlur(tc.astype(np.float32), (0, 0), 1.0) * float(np.percentile(gx[occ.repeat(
                patch, 0).repeat(patch, 1)], 90) if occ.any() else 1.0)
            ex = np.abs(cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3))
            ey = np.abs(cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3))
        cons: list[tuple[int, float, float, float, float]] = []
        for axis, grad, edge in ((0, gx, ex), (1, gy, ey)):
            for line, along, off, s in _seams(grad, edge, occ, patch, reach, axis, inside):
                # board frame: the line is at cols.start + line (x) or rows.start + line (y)
                t = (cols.start if axis == 0 else rows.start) + line
                a = (rows.start if axis == 0 else cols.start) + along
                u, v = (t + off, a) if axis == 0 else (a, t + off)
                cons.append((axis, t, u, v, s))
        if sum(c[0] == 0 for c in cons) < least or sum(c[0] == 1 for c in cons) < least:
            break
        pts = np.array([[c[2], c[3]] for c in cons])
        centre = pts.mean(0)
        scale = max(1.0, float(np.abs(pts - centre).max()))
        keep = cons
        C = np.eye(3)
        for _ in range(3):  # refit without the seams the fit cannot explain
            C = _fit_correction(keep, centre, scale, pull)
            res = np.abs(_residuals(C, keep))
            if (res <= drop).all():
                break
            keep = [c for c, r in zip(keep, res) if r <= drop]
            if sum(c[0] == 0 for c in keep) < least or sum(c[0] == 1 for c in keep) < least:
                C = None
                break
        if C is None:
            break
        H = C @ H
        H = H / H[2, 2]
    if H is grid.H:
        return grid
    return replace(grid, H=H, pitch_px=grid_pitch(H, grid.cols, grid.rows))
