"""Tile appearance: a procedural renderer that draws any tile from its segments, and the scans.

The procedural renderer lays out a tile from its segments alone (``spec/formats.md``), so every
tile can be drawn, including inline ones nobody scanned:

* a city owning an edge's three slots is a walled cap on that edge; one city segment owning
  several edges is joined across the tile (two adjacent edges: the corner half; opposite
  edges: a band; three edges: all but a cap on the fourth; four: the whole tile);
* a road (or castle path) with two centre slots is a strip joining them, a one-slot road runs
  from its edge toward the centre and ends at a city gate, a monastery or near the centre;
* the rest is split among the area segments (fields; castle houses, towers, courts): each
  connected piece goes to the segment whose slot anchors lie in it (nearest anchor when
  several do, the inner segment ``I`` when none does);
* decoration: city walls, roofs, shields (blue/white crests), a monastery building, trees,
  village at a junction, castle towers, house roofs, market stalls, wells and plazas.

Everything is drawn at rotation 0 and turned with ``np.rot90`` (``rot`` 90 means the printed
north edge faces east, i.e. the image turns 90 degrees clockwise), so the rendering of a rotated
tile is exactly the rotated rendering. The same label map gives the region of every segment, from
which figures get a point to stand on.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scorer.catalog import Kind, TileType

from .errors import SynthError

#: where each slot's area is anchored (unit tile coordinates, x east, y south, rotation 0)
SLOT_ANCHORS: dict[str, tuple[float, float]] = {
    "Nw": (0.25, 0.04), "N": (0.5, 0.04), "Ne": (0.75, 0.04),
    "En": (0.96, 0.25), "E": (0.96, 0.5), "Es": (0.96, 0.75),
    "Se": (0.75, 0.96), "S": (0.5, 0.96), "Sw": (0.25, 0.96),
    "Ws": (0.04, 0.75), "W": (0.04, 0.5), "Wn": (0.04, 0.25),
}
EDGE_SLOT_SETS: dict[str, tuple[str, str, str]] = {
    "N": ("Nw", "N", "Ne"), "E": ("En", "E", "Es"), "S": ("Se", "S", "Sw"), "W": ("Ws", "W", "Wn"),
}
#: corners of each edge, clockwise, and the inward normal
EDGE_GEOM: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "N": ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)),
    "E": ((1.0, 0.0), (1.0, 1.0), (-1.0, 0.0)),
    "S": ((1.0, 1.0), (0.0, 1.0), (0.0, -1.0)),
    "W": ((0.0, 1.0), (0.0, 0.0), (1.0, 0.0)),
}
EDGE_MID: dict[str, tuple[float, float]] = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

LINEAR_KINDS = (Kind.ROAD, Kind.PATH)
AREA_KINDS = (Kind.FIELD, Kind.HOUSE, Kind.TOWER, Kind.COURT)


@dataclass(frozen=True)
class ArtStyle:
    """Palette (BGR) and proportions of the procedural print style."""

    field: tuple[int, int, int] = (62, 150, 96)
    city: tuple[int, int, int] = (118, 178, 214)
    road: tuple[int, int, int] = (196, 222, 232)
    road_edge: tuple[int, int, int] = (92, 112, 128)
    wall: tuple[int, int, int] = (96, 112, 126)
    roof: tuple[int, int, int] = (52, 62, 168)
    shield_blue: tuple[int, int, int] = (160, 70, 25)
    shield_white: tuple[int, int, int] = (240, 240, 240)
    monastery_wall: tuple[int, int, int] = (178, 206, 222)
    tree: tuple[int, int, int] = (40, 100, 52)
    path: tuple[int, int, int] = (170, 184, 190)
    house: tuple[int, int, int] = (150, 170, 196)
    tower: tuple[int, int, int] = (128, 134, 140)
    court: tuple[int, int, int] = (140, 196, 214)
    water: tuple[int, int, int] = (196, 140, 60)
    edge_dark: float = 0.72
    cap_depth: float = 0.28
    road_width: float = 0.095
    path_width: float = 0.12
    monastery_size: float = 0.34
    colour_jitter: float = 10.0
    variants: int = 4


STYLE = ArtStyle()
LABEL_RES = 128


def tile_key(tile: TileType) -> str:
    """A stable name for a tile type: its id, or a hash of an inline tile's segments."""
    if tile.id is not None:
        return tile.id
    blob = json.dumps([s.to_json() for s in tile.segments], sort_keys=True)
    return "inline-" + hashlib.sha1(blob.encode()).hexdigest()[:12]


# ---------------------------------------------------------------------------------------------
# geometry
def _bezier(p0: np.ndarray, c: np.ndarray, p2: np.ndarray, n: int = 24) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * c + t ** 2 * p2


def _cap(edge: str, depth: float, n: int = 24) -> np.ndarray:
    """A cap on ``edge``: the edge itself and an inward bulge ``depth`` deep (unit coords)."""
    a, b, normal = (np.array(v) for v in EDGE_GEOM[edge])
    t = np.linspace(0.0, 1.0, n)[:, None]
    bulge = depth * np.sin(np.pi * t) ** 0.8
    pts = a + t * (b - a) + bulge * normal
    return pts


def _city_edges(seg_slots: tuple[str, ...]) -> list[str]:
    return [e for e, ss in EDGE_SLOT_SETS.items() if sum(s in seg_slots for s in ss) >= 2]


def city_polygons(edges: list[str], depth: float) -> list[np.ndarray]:
    """Polygons (unit coords) covering a city that owns ``edges``."""
    es = set(edges)
    if not es:
        return [np.array([[0.5 + 0.15 * np.cos(a), 0.5 + 0.15 * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 24)])]
    if len(es) == 4:
        return [np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)]
    if len(es) == 1:
        return [_cap(edges[0], depth)]
    if len(es) == 3:
        missing = next(e for e in "NESW" if e not in es)
        # everything but a cap on the missing edge: walk the square from the missing edge's end
        cap = _cap(missing, depth + 0.05)  # from the missing edge's start corner to its end corner
        order = "NESW"
        i = order.index(missing)
        corners = [EDGE_GEOM[order[(i + k) % 4]][1] for k in range(1, 4)]
        return [np.vstack([np.array([EDGE_GEOM[missing][1]]), np.array(corners), cap[1:-1]])]
    a, b = sorted(es, key="NESW".index)
    if OPPOSITE[a] == b:
        # a band joining two opposite edges, pinched in the middle
        if a == "N":  # N and S: band runs north-south
            left = _bezier(np.array([0.0, 0.0]), np.array([0.6, 0.5]), np.array([0.0, 1.0]))
            right = _bezier(np.array([1.0, 1.0]), np.array([0.4, 0.5]), np.array([1.0, 0.0]))
        else:  # E and W
            left = _bezier(np.array([0.0, 0.0]), np.array([0.5, 0.6]), np.array([1.0, 0.0]))
            right = _bezier(np.array([1.0, 1.0]), np.array([0.5, 0.4]), np.array([0.0, 1.0]))
        return [np.vstack([left, right])]
    # two adjacent edges: the corner half, bounded by a curve between the far corners
    shared = {frozenset("NW"): (0.0, 0.0), frozenset("NE"): (1.0, 0.0), frozenset("ES"): (1.0, 1.0),
              frozenset("SW"): (0.0, 1.0)}[frozenset((a, b))]
    corner = np.array(shared)
    far = [np.array(p) for p in ([(1.0, 0.0), (0.0, 1.0)] if shared in ((0.0, 0.0), (1.0, 1.0))
                                 else [(0.0, 0.0), (1.0, 1.0)])]
    ctrl = corner + 0.52 * (np.array([0.5, 0.5]) - corner)
    curve = _bezier(far[0], ctrl, far[1])
    return [np.vstack([corner[None, :], curve])]


def road_centreline(slots: list[str]) -> np.ndarray:
    """Centreline of a two-slot road (unit coords)."""
    a, b = slots
    p0, p2 = np.array(EDGE_MID[a]), np.array(EDGE_MID[b])
    if OPPOSITE[a] == b:
        return np.vstack([p0, p2])
    return _bezier(p0, np.array([0.5, 0.5]), p2)


# ---------------------------------------------------------------------------------------------
# label map
@dataclass(frozen=True)
class TileLayout:
    """A tile laid out at ``size`` px: label map (segment index + 1, 0 = none) and drawing hints."""

    size: int
    labels: np.ndarray
    city_masks: tuple[tuple[int, np.ndarray], ...]
    linear_ends: tuple[tuple[float, float], ...]
    junction: tuple[float, float] | None


def _px(pts: np.ndarray, size: int) -> np.ndarray:
    return np.round(pts * (size - 1)).astype(np.int32)


def layout_tile(tile: TileType, size: int) -> TileLayout:
    """Lay a tile out at ``size`` x ``size`` pixels (rotation 0)."""
    return _layout_cached(tile, size)


@lru_cache(maxsize=512)
def _layout_cached(tile: TileType, size: int) -> TileLayout:
    st = STYLE
    labels = np.zeros((size, size), np.int32)
    city_masks: list[tuple[int, np.ndarray]] = []
    for i, seg in enumerate(tile.segments):
        # cities, and castle buildings that own whole edges, are drawn as caps and joins
        building = seg.kind in (Kind.HOUSE, Kind.TOWER) and bool(_city_edges(seg.slots))
        if seg.kind is Kind.CITY or building:
            mask = np.zeros((size, size), np.uint8)
            for poly in city_polygons(_city_edges(seg.slots), st.cap_depth):
                cv2.fillPoly(mask, [_px(poly, size)], 1)
            labels[mask > 0] = i + 1
            if seg.kind is Kind.CITY:
                city_masks.append((i, mask > 0))
    mon = next((i for i, s in enumerate(tile.segments) if s.kind is Kind.MONASTERY), None)
    if mon is not None:
        h = st.monastery_size / 2
        x0, x1 = _px(np.array([0.5 - h, 0.5 + h]), size)
        labels[x0:x1 + 1, x0:x1 + 1] = mon + 1
    blocked = labels > 0
    # linear features
    ends: list[tuple[float, float]] = []
    one_slot = [i for i, s in enumerate(tile.segments) if s.kind in LINEAR_KINDS and len(s.slots) == 1]
    for i, seg in enumerate(tile.segments):
        if seg.kind not in LINEAR_KINDS:
            continue
        width = max(2, int(round((st.path_width if seg.kind is Kind.PATH else st.road_width) * size)))
        edges = [s for s in seg.slots if s in EDGE_MID]
        if len(edges) >= 2:
            for a, b in zip(edges, edges[1:]):
                cv2.polylines(labels, [_px(road_centreline([a, b]), size)], False, i + 1, width)
            continue
        if not edges:
            continue
        start = np.array(EDGE_MID[edges[0]])
        centre = np.array([0.5, 0.5])
        end = centre
        for t in np.linspace(0.04, 1.0, 60):
            p = start + t * (centre - start)
            q = _px(p, size)
            if blocked[q[1], q[0]]:
                end = p
                break
        cv2.line(labels, tuple(_px(start, size)), tuple(_px(end, size)), i + 1, width)
        if len(one_slot) == 1 and end is centre:
            ends.append((float(end[0]), float(end[1])))
    c = _px(np.array([0.5, 0.5]), size)
    junction = (0.5, 0.5) if len(one_slot) >= 2 and mon is None and not blocked[c[1], c[0]] else None
    _assign_areas(tile, labels, size)
    return TileLayout(size=size, labels=labels, city_masks=tuple(city_masks), linear_ends=tuple(ends),
                      junction=junction)


def _assign_areas(tile: TileType, labels: np.ndarray, size: int) -> None:
    """Give every unlabelled pixel to an area segment (fields, houses, towers, courts)."""
    free = (labels == 0).astype(np.uint8)
    if not free.any():
        return
    anchors: list[tuple[int, float, float]] = []
    inner = None
    for i, seg in enumerate(tile.segments):
        if seg.kind not in AREA_KINDS:
            continue
        for s in seg.slots:
            if s == "I":
                inner = i
            elif s in SLOT_ANCHORS:
                anchors.append((i, *SLOT_ANCHORS[s]))
    if not anchors and inner is None:
        return
    count, comp = cv2.connectedComponents(free, connectivity=4)
    ys, xs = np.nonzero(free)
    cids = comp[ys, xs]
    apx = np.array([[a[1] * (size - 1), a[2] * (size - 1)] for a in anchors]) if anchors else np.zeros((0, 2))
    acomp = np.array([comp[min(size - 1, int(round(y))), min(size - 1, int(round(x)))] for x, y in apx],
                     dtype=np.int64) if anchors else np.zeros(0, np.int64)
    aseg = np.array([a[0] for a in anchors], dtype=np.int64)
    out = np.zeros(len(ys), np.int64)
    d2 = ((xs[:, None] - apx[None, :, 0]) ** 2 + (ys[:, None] - apx[None, :, 1]) ** 2) if anchors else None
    for c in range(1, count):
        sel = cids == c
        here = np.nonzero(acomp == c)[0]
        if len(here):
            nearest = here[np.argmin(d2[sel][:, here], axis=1)] if d2 is not None else here[:1]
            out[sel] = aseg[nearest] + 1
        elif inner is not None:
            out[sel] = inner + 1
        elif d2 is not None:
            out[sel] = aseg[np.argmin(d2[sel], axis=1)] + 1
    labels[ys, xs] = out


# ---------------------------------------------------------------------------------------------
# painting
_KIND_COLOUR = {
    Kind.FIELD: "field", Kind.CITY: "city", Kind.ROAD: "road", Kind.MONASTERY: "field",
    Kind.PATH: "path", Kind.HOUSE: "house", Kind.TOWER: "tower", Kind.COURT: "court",
}


def render_tile(tile: TileType, rot: int = 0, size: int = 180, variant: int = 0) -> np.ndarray:
    """The tile drawn procedurally at ``size`` px, turned ``rot`` degrees clockwise (BGR uint8).

    ``variant`` picks one of a few decorations and colour shades (the printed tiles vary too)."""
    if rot not in (0, 90, 180, 270):
        raise SynthError(f"rotation {rot} is not 0/90/180/270")
    img = _render_cached(tile, size, variant % STYLE.variants)
    return np.ascontiguousarray(np.rot90(img, k=-(rot // 90))) if rot else img.copy()


@lru_cache(maxsize=1024)
def _render_cached(tile: TileType, size: int, variant: int) -> np.ndarray:
    st = STYLE
    seed = int(hashlib.sha1(f"{tile_key(tile)}/{variant}".encode()).hexdigest()[:8], 16)
    rng = np.random.default_rng(seed)
    lay = layout_tile(tile, size)
    labels = lay.labels
    nseg = len(tile.segments)
    palette = np.zeros((nseg + 1, 3), np.float32)
    palette[0] = st.field
    for i, seg in enumerate(tile.segments):
        palette[i + 1] = getattr(st, _KIND_COLOUR[seg.kind])
    palette += rng.normal(0, st.colour_jitter / 2, size=(1, 3)).astype(np.float32)
    img = palette[labels]
    # print texture: soft blotches plus fine grain
    low = rng.normal(0, 1, size=(max(2, size // 16), max(2, size // 16))).astype(np.float32)
    low = cv2.resize(low, (size, size), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 1, size=(size, size)).astype(np.float32)
    img *= (1.0 + 0.05 * low + 0.025 * fine)[:, :, None]
    kinds = [None] + [s.kind for s in tile.segments]
    kind_map = np.array([k.value if k else "" for k in kinds], dtype=object)
    is_linear = np.isin(kind_map, ["road", "path"])[labels]
    # road borders
    if is_linear.any():
        k = max(1, size // 90)
        ring = cv2.dilate(is_linear.astype(np.uint8), np.ones((2 * k + 1, 2 * k + 1), np.uint8)) > 0
        ring &= ~is_linear
        img[ring] = img[ring] * 0.35 + np.array(st.road_edge, np.float32) * 0.65
    # trees in fields
    field_mask = np.isin(kind_map, ["field", ""])[labels] & ~is_linear
    _scatter(img, field_mask, rng, int(rng.integers(1, 5)), size, _draw_tree)
    # cities: roofs, walls, shields
    for i, mask in lay.city_masks:
        own = labels == i + 1
        _scatter(img, own, rng, int(rng.integers(2, 6)), size, _draw_roof)
        k = max(2, size // 45)
        ring = cv2.dilate(mask.astype(np.uint8), np.ones((2 * k + 1, 2 * k + 1), np.uint8)) > 0
        ring &= ~mask
        ring &= ~is_linear
        img[ring] = np.array(st.wall, np.float32) * (0.9 + 0.2 * rng.random())
        if tile.segments[i].shield:
            p = _inner_point(own, rng, 0.7)
            if p is not None:
                _draw_shield(img, p, size)
    # castle areas
    for i, seg in enumerate(tile.segments):
        own = labels == i + 1
        if not own.any():
            continue
        if seg.kind is Kind.HOUSE:
            _scatter(img, own, rng, int(rng.integers(2, 5)), size, _draw_roof)
        elif seg.kind is Kind.TOWER:
            p = _inner_point(own, rng, 0.8)
            if p is not None:
                _draw_tower(img, p, size)
        elif seg.kind is Kind.COURT:
            for _ in range(seg.markets):
                p = _inner_point(own, rng, 0.4)
                if p is not None:
                    _draw_stall(img, p, size, rng)
        elif seg.kind is Kind.PATH and seg.well:
            ys, xs = np.nonzero(own)
            j = len(ys) // 2
            cv2.circle(img, (int(xs[j]), int(ys[j])), max(2, size // 18), st.wall, -1)
            cv2.circle(img, (int(xs[j]), int(ys[j])), max(1, size // 28), st.water, -1)
        elif seg.kind is Kind.MONASTERY:
            _draw_monastery(img, size, rng)
    if lay.junction is not None:
        c = (int(size * lay.junction[0]), int(size * lay.junction[1]))
        if any(s.kind is Kind.PATH for s in tile.segments):
            cv2.circle(img, c, max(3, size // 9), st.path, -1)
            cv2.circle(img, c, max(3, size // 9), st.road_edge, max(1, size // 90))
        else:
            _draw_house(img, c, size)
    for x, y in lay.linear_ends:
        _draw_house(img, (int(size * x), int(size * y)), size, small=True)
    if "festival" in tile.extras:
        cv2.circle(img, (int(size * 0.86), int(size * 0.86)), max(2, size // 26), (60, 40, 200), -1)
    if "tower-foundation" in tile.extras:
        p = _inner_point(field_mask, rng, 0.6) or (size // 2, size // 2)
        cv2.rectangle(img, (p[0] - size // 14, p[1] - size // 14), (p[0] + size // 14, p[1] + size // 14),
                      (110, 118, 124), -1)
    if "bazaar" in tile.extras:
        p = _inner_point(labels > 0, rng, 0.5) or (size // 2, size // 2)
        _draw_stall(img, p, size, rng)
    # printed edge: a thin darker frame
    e = max(1, size // 120)
    img[:e] *= st.edge_dark
    img[-e:] *= st.edge_dark
    img[:, :e] *= st.edge_dark
    img[:, -e:] *= st.edge_dark
    return np.clip(img, 0, 255).astype(np.uint8)


def _inner_point(mask: np.ndarray, rng: np.random.Generator, frac: float) -> tuple[int, int] | None:
    """A random pixel of ``mask`` at least ``frac`` of the way to its most interior point."""
    if not mask.any():
        return None
    dt = cv2.distanceTransform(np.pad(mask.astype(np.uint8), 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    ys, xs = np.nonzero(dt >= frac * dt.max())
    j = int(rng.integers(len(ys)))
    return int(xs[j]), int(ys[j])


def _scatter(img: np.ndarray, mask: np.ndarray, rng: np.random.Generator, n: int, size: int,
             draw: object) -> None:
    if not mask.any():
        return
    dt = cv2.distanceTransform(np.pad(mask.astype(np.uint8), 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    ys, xs = np.nonzero(dt > size * 0.06)
    if not len(ys):
        return
    for _ in range(n):
        j = int(rng.integers(len(ys)))
        draw(img, (int(xs[j]), int(ys[j])), size, rng)  # type: ignore[operator]


def _draw_tree(img: np.ndarray, p: tuple[int, int], size: int, rng: np.random.Generator) -> None:
    r = max(2, int(size * (0.03 + 0.02 * rng.random())))
    cv2.circle(img, (p[0] + r // 3, p[1] + r // 3), r, (30, 70, 40), -1)
    cv2.circle(img, p, r, STYLE.tree, -1)
    cv2.circle(img, (p[0] - r // 3, p[1] - r // 3), max(1, r // 2), (60, 140, 80), -1)


def _draw_roof(img: np.ndarray, p: tuple[int, int], size: int, rng: np.random.Generator) -> None:
    w = max(3, int(size * (0.05 + 0.04 * rng.random())))
    h = max(2, int(w * (0.5 + 0.4 * rng.random())))
    cv2.rectangle(img, (p[0] - w // 2, p[1] - h // 2), (p[0] + w // 2, p[1] + h // 2), STYLE.roof, -1)
    cv2.line(img, (p[0] - w // 2, p[1]), (p[0] + w // 2, p[1]), (30, 40, 110), max(1, size // 120))


def _draw_house(img: np.ndarray, p: tuple[int, int], size: int, small: bool = False) -> None:
    w = max(3, int(size * (0.07 if small else 0.12)))
    cv2.rectangle(img, (p[0] - w // 2, p[1] - w // 2), (p[0] + w // 2, p[1] + w // 2), STYLE.monastery_wall, -1)
    cv2.rectangle(img, (p[0] - w // 2, p[1] - w // 2), (p[0] + w // 2, p[1]), STYLE.roof, -1)


def _draw_shield(img: np.ndarray, p: tuple[int, int], size: int) -> None:
    s = max(4, size // 11)
    x, y = p
    pts = np.array([[x - s, y - s], [x + s, y - s], [x + s, y + s // 3], [x, y + s + s // 2],
                    [x - s, y + s // 3]], np.int32)
    cv2.fillPoly(img, [pts], STYLE.shield_white)
    inner = np.array([[x - s + 2, y - s + 2], [x + s - 2, y - s + 2], [x + s - 2, y + s // 3],
                      [x, y + s + s // 2 - 3], [x - s + 2, y + s // 3]], np.int32)
    cv2.fillPoly(img, [inner], STYLE.shield_blue)
    cv2.line(img, (x - s + 2, y - s // 3), (x + s - 2, y - s // 3), STYLE.shield_white, max(1, s // 3))


def _draw_monastery(img: np.ndarray, size: int, rng: np.random.Generator) -> None:
    c = size // 2
    w = int(size * STYLE.monastery_size * 0.42)
    cv2.rectangle(img, (c - w, c - int(w * 0.8)), (c + w, c + int(w * 0.8)), STYLE.monastery_wall, -1)
    cv2.rectangle(img, (c - w, c - int(w * 0.8)), (c + w, c), STYLE.roof, -1)
    t = max(2, w // 3)
    cv2.rectangle(img, (c + w - 2 * t, c - int(w * 1.3)), (c + w, c + int(w * 0.2)), (120, 150, 170), -1)
    cv2.line(img, (c, c + 2), (c, c + int(w * 0.7)), (40, 40, 60), max(1, size // 100))
    cv2.line(img, (c - w // 3, c + w // 3), (c + w // 3, c + w // 3), (40, 40, 60), max(1, size // 100))


def _draw_tower(img: np.ndarray, p: tuple[int, int], size: int) -> None:
    r = max(3, size // 8)
    cv2.circle(img, p, r, STYLE.tower, -1)
    cv2.circle(img, p, r, (70, 74, 80), max(1, size // 60))
    cv2.circle(img, p, max(1, r // 2), (100, 104, 110), -1)


def _draw_stall(img: np.ndarray, p: tuple[int, int], size: int, rng: np.random.Generator) -> None:
    w = max(3, size // 12)
    colours = [(40, 60, 200), (200, 120, 40), (40, 160, 220), (180, 60, 160)]
    col = colours[int(rng.integers(len(colours)))]
    cv2.rectangle(img, (p[0] - w, p[1] - w // 2), (p[0] + w, p[1] + w // 2), col, -1)
    for k in range(-w, w, max(2, w // 2)):
        cv2.line(img, (p[0] + k, p[1] - w // 2), (p[0] + k, p[1] + w // 2), (240, 240, 240), 1)


# ---------------------------------------------------------------------------------------------
# segment regions (where figures stand)
def segment_point(tile: TileType, seg_index: int, rng: np.random.Generator) -> tuple[float, float]:
    """A point (unit coords, rotation 0) well inside segment ``seg_index``'s region."""
    lay = layout_tile(tile, LABEL_RES)
    mask = lay.labels == seg_index + 1
    seg = tile.segments[seg_index]
    if seg.kind is Kind.MONASTERY or not mask.any():
        return (0.5, 0.5)
    frac = 0.8 if seg.kind in LINEAR_KINDS else 0.6
    p = _inner_point(mask, rng, frac)
    assert p is not None
    return (p[0] / (LABEL_RES - 1), p[1] / (LABEL_RES - 1))


def rotate_unit_point(p: tuple[float, float], rot: int) -> tuple[float, float]:
    """Where point ``p`` of a tile at rotation 0 lies once the tile is turned ``rot`` clockwise."""
    x, y = p
    for _ in range(rot // 90 % 4):
        x, y = 1.0 - y, x
    return (x, y)


# ---------------------------------------------------------------------------------------------
# scans
class ScanArt:
    """The classic tile scans (``labels.csv``: file,id,set,rotation; 300x300 JPG at rotation 0)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.files: dict[str, tuple[Path, int]] = {}
        labels = self.folder / "labels.csv"
        if not labels.is_file():
            raise SynthError(f"{self.folder}: no labels.csv (classic scans missing)")
        with open(labels, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                self.files[row["id"]] = (self.folder / row["file"], int(row.get("rotation") or 0))
        self._cache: dict[tuple[str, int], np.ndarray] = {}
        self._raw: dict[str, np.ndarray] = {}

    def has(self, tile: TileType) -> bool:
        return tile.id is not None and tile.id in self.files

    def render(self, tile: TileType, rot: int, size: int) -> np.ndarray:
        """The scan of ``tile`` at ``size`` px, turned ``rot`` degrees clockwise."""
        assert tile.id is not None
        key = (tile.id, size)
        if key not in self._cache:
            raw = self._raw.get(tile.id)
            if raw is None:
                path, printed_rot = self.files[tile.id]
                raw = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if raw is None:
                    raise SynthError(f"{path}: cannot read scan")
                if printed_rot:
                    raw = np.ascontiguousarray(np.rot90(raw, k=printed_rot // 90))  # back to rotation 0
                self._raw[tile.id] = raw
            self._cache[key] = cv2.resize(raw, (size, size), interpolation=cv2.INTER_AREA)
        img = self._cache[key]
        return np.ascontiguousarray(np.rot90(img, k=-(rot // 90))) if rot else img.copy()


#: Where the classic scans are looked for when ``$CARCAM_ART`` does not say, first found first:
#: the shared data beside the checkout (``../shared/art/classic``, where the tests look too), the
#: workplace's shared folder. Absent on a user's machine, and then no scans are used.
SCANS_FOLDERS = (Path(__file__).resolve().parents[3] / "shared" / "art" / "classic",
                 Path("/work/shared/art/classic"))
DEFAULT_SCANS = Path(os.environ["CARCAM_ART"]) if os.environ.get("CARCAM_ART") else \
    next((p for p in SCANS_FOLDERS if (p / "labels.csv").is_file()), SCANS_FOLDERS[0])


@lru_cache(maxsize=4)
def load_scans(folder: str | None = None) -> ScanArt | None:
    """The scans in ``folder`` (default: ``$CARCAM_ART`` or the shared folder), or None if absent."""
    path = Path(folder) if folder else DEFAULT_SCANS
    if not (path / "labels.csv").is_file():
        return None
    return ScanArt(path)
