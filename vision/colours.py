"""Pixel classes by colour: field green, city tan/brown, road pale, other.

The prototypes (Lab) come from the configuration or a calibration profile and are then adapted to
each photo by a few k-means steps over the board's own pixels, so a colour cast, a warm lamp or a
different print run moves the clusters with it instead of breaking fixed thresholds.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .templates import CLASSES


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit Lab as float32."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def initial_prototypes(cfg: dict[str, Any], profile: dict[str, Any] | None = None) -> np.ndarray:
    """(4, 3) Lab prototypes in class order, from a calibration profile if given."""
    src = (profile or {}).get("prototypes") or cfg["prototypes"]
    return np.array([src[c] for c in CLASSES], dtype=np.float32)


def adapt_prototypes(lab_pixels: np.ndarray, protos: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Refine the prototypes on this photo's board pixels (k-means seeded at the prototypes,
    each step pulled back towards the seed so a missing class cannot wander off)."""
    if len(lab_pixels) < 50:
        return protos
    rng = np.random.default_rng(0)
    pix = lab_pixels if len(lab_pixels) <= 40000 else lab_pixels[rng.choice(len(lab_pixels), 40000, replace=False)]
    pull = float(cfg["prototype_pull"])
    wts = np.array(cfg["lab_weights"], dtype=np.float32)
    cur = protos.copy()
    for _ in range(int(cfg["kmeans_iterations"])):
        d = (((pix[:, None, :] - cur[None, :, :]) * wts) ** 2).sum(-1)
        lab = d.argmin(1)
        new = cur.copy()
        for k in range(len(cur)):
            sel = pix[lab == k]
            if len(sel) >= 20:
                new[k] = np.median(sel, axis=0)
        cur = pull * protos + (1 - pull) * new if pull else new
    return cur


def posteriors(lab: np.ndarray, protos: np.ndarray, softness: float,
               weights: tuple[float, float, float] = (0.3, 1.0, 1.0)) -> np.ndarray:
    """Soft class posteriors (..., 4) of Lab pixels given the prototypes; lightness counts less
    than colour (shadows and uneven light change L far more than a and b)."""
    w = np.asarray(weights, dtype=np.float32)
    d = (((lab[..., None, :] - protos) * w) ** 2).sum(-1)
    d = d - d.min(-1, keepdims=True)
    p = np.exp(-d / (2 * softness ** 2))
    return p / p.sum(-1, keepdims=True)
