"""Stage 5: figures (meeples): colour, position, standing or lying, and the segment under them.

Meeples are strongly saturated (or black / grey) blobs of a size set by the tile pitch. Each blob
of a player colour becomes a figure; its foot is the bottom of the blob in the image (the camera
looks from the south, so the base is the lowest part), moved up a little to the base's centre,
which corrects for the figure's height under perspective. The foot is mapped to the board and
the segment of the decoded tile under it gives the slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .locate import Grid


@dataclass
class Blob:
    """A figure seen in the image (work pixels)."""

    colour: str
    bbox: tuple[int, int, int, int]  # x, y, w, h
    foot: tuple[float, float]
    area: float
    lying: bool
    confidence: float


def colour_mask(hsv: np.ndarray, spec: dict[str, Any]) -> np.ndarray:
    """Pixels of one figure colour by its HSV rule from the configuration."""
    h, s, v = hsv[..., 0].astype(int), hsv[..., 1].astype(int), hsv[..., 2].astype(int)
    m = np.ones(h.shape, dtype=bool)
    if "hue" in spec:
        hm = np.zeros(h.shape, dtype=bool)
        for lo, hi in spec["hue"]:
            hm |= (h >= lo) & (h <= hi)
        m &= hm
    if "sat" in spec:
        m &= s >= spec["sat"]
    if "max_sat" in spec:
        m &= s <= spec["max_sat"]
    if "val" in spec:
        m &= v >= spec["val"]
    if "max_val" in spec:
        m &= v <= spec["max_val"]
    if "val_range" in spec:
        m &= (v >= spec["val_range"][0]) & (v <= spec["val_range"][1])
    return m


def find_figures(bgr: np.ndarray, grid: Grid, board_mask: np.ndarray, cfg: dict[str, Any],
                 colours: tuple[str, ...] | None = None) -> list[Blob]:
    """Figure blobs on or next to the tiles."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(bgr, (5, 5), 0), cv2.COLOR_BGR2HSV)
    area_tile = grid.pitch_px ** 2
    lo, hi = cfg["min_area_tiles"] * area_tile, cfg["max_area_tiles"] * area_tile
    k = max(3, int(grid.pitch_px * 0.06)) | 1
    near = cv2.dilate(board_mask.astype(np.uint8), np.ones((k * 3, k * 3), np.uint8)) > 0
    out: list[Blob] = []
    for name, spec in cfg["colours"].items():
        if colours is not None and name not in colours:
            continue
        m = (colour_mask(hsv, spec) & near).astype(np.uint8)
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(m)
        for i in range(1, n):
            x, y, w, h, a = stats[i]
            if not lo <= a <= hi:
                continue
            fill = a / float(w * h)
            if fill < 0.3:
                continue
            ys, xs = np.nonzero(lab[y:y + h, x:x + w] == i)
            bottom = y + np.percentile(ys, 97)
            cx = x + float(np.median(xs[ys >= np.percentile(ys, 70)]))
            foot = (cx, float(bottom - 0.15 * min(w, h)))
            # lying figures are wide and flat in the image
            lying = (w / max(h, 1)) >= float(cfg["lying_aspect"])
            conf = float(np.clip(0.5 + 0.5 * min(1.0, a / (0.06 * area_tile)) * fill, 0, 1))
            out.append(Blob(name, (int(x), int(y), int(w), int(h)), foot, float(a), lying, conf))
    return out


def figures_mask(shape: tuple[int, int], blobs: list[Blob]) -> np.ndarray:
    """Pixels covered by figures (to be ignored by tile classification)."""
    m = np.zeros(shape, dtype=np.uint8)
    for b in blobs:
        x, y, w, h = b.bbox
        pad = int(0.15 * max(w, h))
        cv2.rectangle(m, (x - pad, y - pad), (x + w + pad, y + h + pad), 1, -1)
    return m > 0
