"""Stage 3: classify each cell: which tile, at which rotation, how likely.

The board is warped to a top view at a fixed number of pixels per tile. Every pixel gets soft
class posteriors (field / city / road / other) from colour prototypes adapted to this photo; the
posteriors are pooled on an n x n grid per cell and compared with every catalog tile's rendered
class map at each rotation through a confusion matrix (a log-likelihood). Shields (the blue
coat of arms) add evidence for the shield variants. Pixels under figures are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

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


def warp_board(img: np.ndarray, grid: Grid, patch: int) -> np.ndarray:
    """The board as a top view, ``patch`` pixels per tile, covering the grid's cells."""
    c0, r0 = grid.cols.start, grid.rows.start
    S = np.array([[patch, 0, -c0 * patch], [0, patch, -r0 * patch], [0, 0, 1]], dtype=np.float64)
    size = (len(grid.cols) * patch, len(grid.rows) * patch)
    return cv2.warpPerspective(img, S @ grid.H, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def confusion(cfg: dict[str, Any]) -> np.ndarray:
    M = np.array([cfg["confusion"][c] for c in CLASSES], dtype=np.float64)
    return M / M.sum(1, keepdims=True)


def classify_cells(top: np.ndarray, tilecol_top: np.ndarray, ignore_top: np.ndarray, grid: Grid,
                   templates: list[Template], cfg: dict[str, Any], ccfg: dict[str, Any], lcfg: dict[str, Any],
                   profile: dict[str, Any] | None = None, green_top: np.ndarray | None = None,
                   background_lab: np.ndarray | None = None) -> tuple[list[CellEvidence], np.ndarray]:
    """Evidence for every occupied cell of the top view, and the adapted colour prototypes.

    A cell holds a tile when it is mostly tile-coloured and either shows some field green or
    differs clearly from the table's own colour (a brown table must not pass for a city)."""
    patch, n = int(cfg["patch"]), int(cfg["points"])
    cols, rows = len(grid.cols), len(grid.rows)
    occ = tilecol_top.reshape(rows, patch, cols, patch).mean((1, 3))
    occupied = occ >= float(lcfg["occupancy_min"])
    lab = to_lab(top)
    if green_top is not None and background_lab is not None:
        green = green_top.reshape(rows, patch, cols, patch).mean((1, 3))
        cell_lab = np.median(lab.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4).reshape(
            rows, cols, -1, 3), axis=2)
        dist = np.linalg.norm((cell_lab - background_lab) * np.array([0.5, 1.0, 1.0]), axis=-1)
        occupied &= (green >= float(lcfg["green_min"])) | (dist >= float(lcfg["background_distance"]))
    protos = initial_prototypes(ccfg, profile)
    board_px = lab.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4)[occupied]
    keep = ~ignore_top.reshape(rows, patch, cols, patch).transpose(0, 2, 1, 3)[occupied]
    protos = adapt_prototypes(board_px[keep].reshape(-1, 3), protos, ccfg)
    post = posteriors(lab, protos, float(ccfg["softness"]), tuple(ccfg["lab_weights"]))
    post[ignore_top] = 0.25
    b = patch // n
    pooled = post[: rows * patch, : cols * patch].reshape(rows, n, b, cols, n, b, 4).mean((2, 5))
    M = confusion(cfg)
    ME = np.stack([M[t.classes.ravel()] for t in templates])  # (T, P, 4)
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    blue = (hsv[..., 0] >= 95) & (hsv[..., 0] <= 130) & (hsv[..., 1] >= 90) & (hsv[..., 2] >= 60) & ~ignore_top
    blue_share = blue.reshape(rows, patch, cols, patch).mean((1, 3))
    out = []
    for j in range(rows):
        for i in range(cols):
            if not occupied[j, i]:
                continue
            obs = pooled[j, :, i, :, :].reshape(-1, 4)  # (P, 4)
            ll = np.log(np.einsum("tpc,pc->tp", ME, obs) + 1e-6).mean(1)
            out.append(CellEvidence((grid.cols[i], grid.rows[j]), ll, float(blue_share[j, i]), float(occ[j, i])))
    return out, protos
