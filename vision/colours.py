"""Pixel classes by colour: field green, city tan/brown, road pale, other.

The prototypes (Lab) come from the configuration or a calibration profile and are then adapted to
each photo by a few k-means steps over the board's own pixels, so a colour cast, a warm lamp or a
different print run moves the clusters with it instead of breaking fixed thresholds.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .lastaxis import argmin_last, max_last, min_last, sum_last
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
    each step pulled back towards the seed so a missing class cannot wander off).

    Road is the palest paint on a tile. When its cluster ends no lighter than the city's by
    ``road_lighter_than_city`` (it wandered onto figure shadows, or a warm lamp turned the road
    as yellow as the city's tan and the city took it), the clusters are fitted again with
    lightness weighed as much as colour (``kmeans_lab_weights_lost_road``): under any light the
    road stays far lighter than the city.

    With ``register_seeds`` the seeds first move towards this photo's own field and city
    (:func:`register_seeds`), so the pull keeps the clusters near the photo's colours, not the
    seeds' light."""
    if len(lab_pixels) < 50:
        return protos
    rng = np.random.default_rng(0)
    n = int(cfg.get("kmeans_max_pixels", 40000))  # a random sample (12000 cost accuracy on fresh seeds)
    pix = lab_pixels if len(lab_pixels) <= n else lab_pixels[rng.choice(len(lab_pixels), n, replace=False)]
    if cfg.get("register_seeds"):
        protos = register_seeds(pix, protos, cfg)
    cur = _kmeans(pix, protos, cfg, cfg["lab_weights"])
    margin = cfg.get("road_lighter_than_city")
    if margin is not None and cur[2, 0] < cur[1, 0] + float(margin):
        cur = _kmeans(pix, protos, cfg, cfg["kmeans_lab_weights_lost_road"])
    return cur


def register_seeds(pix: np.ndarray, protos: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """The seed prototypes moved towards this photo's light and saturation.

    A warm dim lamp leaves the field about half as saturated as the seeds and shifted towards
    red, so a k-means pulled back to the raw seeds let the city's cluster take the field and the
    'other' cluster the city (scans tuning photo 10054: 34 of 40 tiles wrong on the true grid).

    The board's two main colours, field and city, are found by a 2-means on the pixels' colour
    (Lab a, b), started from the pixels at the low and high ``register_init_quantiles`` along
    the seeds' field-to-city direction. The colour of the seeds of ``register_classes`` is then
    scaled about the seeds' field-city midpoint by the ratio of the found pair's separation to
    the seeds' (within ``register_scale``) and moved onto the pair's midpoint, and taken
    ``register_mix`` of the way there (the whole way cost the labelled real white-table photo
    four tiles, decided by margins under a point); their lightness moves by the pair's mean
    lightness less the seeds'. The road seed stays as it is: its b is the crest test's reference
    (:func:`vision.classify.shield_share`; moving it lost crests), and road is the palest paint
    whatever the light (moved darker with the field, on a bright white procedural road, its
    cluster took city pixels: tuning photo 10008 lost 6 tiles)."""
    f, c = protos[0].astype(np.float64), protos[1].astype(np.float64)
    pix = pix[:: max(1, len(pix) // int(cfg["register_max_pixels"]))]  # every k-th: spread over the cells
    ab = pix[:, 1:].astype(np.float64)
    d = (c - f)[1:]
    proj = ab @ (d / max(1e-9, float(np.linalg.norm(d))))
    lo_q, hi_q = cfg["register_init_quantiles"]
    m = np.array([np.median(ab[proj <= np.percentile(proj, lo_q)], 0),
                  np.median(ab[proj >= np.percentile(proj, hi_q)], 0)])
    side = np.zeros(len(ab), dtype=int)
    for _ in range(int(cfg["register_iterations"])):
        side = ((ab[:, None, :] - m[None]) ** 2).sum(-1).argmin(1)
        if min(int((side == 0).sum()), int((side == 1).sum())) < 20:
            return protos
        m = np.array([np.median(ab[side == k], 0) for k in (0, 1)])
    smin, smax = cfg["register_scale"]
    scale = float(np.clip((m[1] - m[0]) @ d / max(1e-9, float(d @ d)), smin, smax))
    light = float(np.median(pix[side == 0, 0]) + np.median(pix[side == 1, 0]) - f[0] - c[0]) / 2.0
    out = protos.astype(np.float64).copy()
    moved = np.array([k in cfg["register_classes"] for k in CLASSES])
    target = m.mean(0) + scale * (out[:, 1:] - 0.5 * (f + c)[1:])
    mix = float(cfg["register_mix"])
    out[moved, 1:] = mix * target[moved] + (1.0 - mix) * out[moved, 1:]
    out[moved, 0] = np.clip(out[moved, 0] + light, 0, 255)
    return out.astype(np.float32)


def _kmeans(pix: np.ndarray, protos: np.ndarray, cfg: dict[str, Any], weights: list[float]) -> np.ndarray:
    """k-means of ``pix`` from ``protos`` under Lab ``weights``, pulled towards the seeds."""
    pull = float(cfg["prototype_pull"])
    wts = np.array(weights, dtype=np.float32)
    cur = protos.copy()
    cols = np.ascontiguousarray(pix.T)  # each channel's values in a row: medians on contiguous rows
    for _ in range(int(cfg["kmeans_iterations"])):
        # (the same distances per class as over an (N, K, 3) array, without building it)
        d = np.stack([sum_last(((pix - cur[k]) * wts) ** 2) for k in range(len(cur))], axis=1)
        lab = argmin_last(d)
        new = cur.copy()
        for k in range(len(cur)):
            sel = lab == k
            if np.count_nonzero(sel) >= 20:
                new[k] = np.median(cols[:, sel], axis=1)
        cur = pull * protos + (1 - pull) * new if pull else new
    return cur


def posteriors(lab: np.ndarray, protos: np.ndarray, softness: float,
               weights: tuple[float, float, float] = (0.3, 1.0, 1.0)) -> np.ndarray:
    """Soft class posteriors (..., 4) of Lab pixels given the prototypes; lightness counts less
    than colour (shadows and uneven light change L far more than a and b)."""
    w = np.asarray(weights, dtype=np.float32)
    x = lab.reshape(-1, 3).astype(np.float32) * w
    c = np.asarray(protos, dtype=np.float32) * w
    # squared distances by expansion: one (N, 3) x (3, K) product instead of an (N, K, 3) array
    d = sum_last(x * x)[:, None] - 2.0 * (x @ c.T) + (c * c).sum(1)[None, :]
    d -= min_last(d)[:, None]
    d *= np.float32(-1.0 / (2 * softness ** 2))
    # OpenCV's exp: four times numpy's on float32 here, within an ulp or two of it
    p = cv2.exp(d) if d.size else np.exp(d)
    p /= sum_last(p)[:, None]
    return p.reshape(*lab.shape[:-1], len(c))


def _bin_index(lab: np.ndarray, bins: tuple[int, int, int]) -> np.ndarray:
    """Flat index of each Lab pixel's cell on a coarse (L, a, b) histogram."""
    idx = [np.clip((lab[..., k] * bins[k] / 256.0).astype(np.int32), 0, bins[k] - 1) for k in range(3)]
    return (idx[0] * bins[1] + idx[1]) * bins[2] + idx[2]


def fit_class_histograms(lab_pixels: np.ndarray, weights: np.ndarray, cfg: dict[str, Any]) -> np.ndarray | None:
    """Per-class colour densities of this photo (the M-step of the per-photo colour model).

    ``weights`` (N, 4) says how much each pixel belongs to each class (from the templates the
    cells were read as). Each class gets a smoothed Lab histogram, so a class may have several
    colours (an edition's city: tan ground, brown walls, red roofs) and any edition, lamp or
    colour cast is learnt from the board itself. Returns (4, bins) log-densities, or None when
    a class the model needs (field, city) has too little weight to be learnt."""
    from scipy.ndimage import gaussian_filter
    bins = tuple(int(b) for b in cfg["em_bins"])
    flat = _bin_index(lab_pixels, bins)  # type: ignore[arg-type]
    size = bins[0] * bins[1] * bins[2]
    floor = float(cfg["em_density_floor"])
    out = np.zeros((weights.shape[1], size), dtype=np.float64)
    mass = weights.sum(0)
    if mass[0] < float(cfg["em_min_weight"]) or mass[1] < float(cfg["em_min_weight"]):
        return None
    overall = np.bincount(flat, minlength=size).astype(np.float64)
    overall = gaussian_filter(overall.reshape(bins), float(cfg["em_smooth"])).ravel()
    overall /= max(overall.sum(), 1e-9)
    for k in range(weights.shape[1]):
        h = np.bincount(flat, weights=weights[:, k], minlength=size)
        h = gaussian_filter(h.reshape(bins), float(cfg["em_smooth"])).ravel()
        h = h / max(h.sum(), 1e-9)
        # a class with little weight borrows shape from the board's overall colours
        share = min(1.0, mass[k] / float(cfg["em_full_weight"]))
        out[k] = np.log(share * h + (1 - share) * overall + floor)
    return out


def histogram_posteriors(lab: np.ndarray, model: np.ndarray, log_priors: np.ndarray,
                         bins: tuple[int, int, int]) -> np.ndarray:
    """Soft class posteriors (..., 4) of Lab pixels under per-class log-densities ``model``
    (from :func:`fit_class_histograms`) and class log-priors."""
    ll = model[:, _bin_index(lab, bins)]  # (4, ...)
    ll = np.moveaxis(ll, 0, -1) + log_priors
    ll -= max_last(ll)[..., None]
    p = np.exp(ll)
    return (p / sum_last(p)[..., None]).astype(np.float32)
