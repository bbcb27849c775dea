"""Appearance models of catalog tiles, rendered from their segments (no scan needed).

Each tile type becomes a small class map (field / city / road / other) sampled on an n x n grid
of points, at each of its distinct rotations. Any tile of the catalog, including expansion tiles
without art, can therefore be recognised: a city on one edge is a cap, on two opposite edges a
band, on two adjacent edges a corner triangle, on three edges everything but a cap; roads are
strips from edge centres (curved around a corner when they join adjacent edges); monasteries and
junctions have a building in the middle. The Castle's tiles map onto the same four classes:
courts are drawn as fields, houses as cities, towers as other, paths as roads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from scorer import Kind, TileType
from scorer.geometry import EDGE_SLOTS, EDGES, SLOT_EDGE

FIELD, CITY, ROAD, OTHER = 0, 1, 2, 3
CLASSES = ("field", "city", "road", "other")


@dataclass(frozen=True)
class Template:
    """One tile type at one rotation: its class map (n x n) and per-point segment index map."""

    tile: TileType
    rot: int
    classes: np.ndarray  # (n, n) int, row = south-going v, column = east-going u
    segments: np.ndarray  # (n, n) int segment index (-1 none), board orientation
    soft: np.ndarray | None = None  # (n, n, 4) class probabilities: the class map blurred, so a
    # boundary drawn a little elsewhere by another edition's art costs little
    variants: tuple[np.ndarray, ...] = ()  # (n, n, 4) class probabilities of the same tile drawn
    # as other editions draw it (see build_templates); the classifier takes the best-fitting one
    variant_segments: tuple[np.ndarray, ...] = ()  # (n, n) segment index map of the tile as
    # each alternative drawing of the shape lists draws it (see build_templates), in their order,
    # whether or not it differs from its own: drawing k names the same alternative on every tile

    def drawn_as(self, variant: int) -> Template:
        """This template with the segment map of drawing ``variant`` (0: its own drawing; k: the
        k-th alternative drawing of the shape lists; itself when there is no such drawing or it
        places every point as its own does), classes unchanged: the reader places figures on
        the drawing ``figures.place_drawing`` names (a first-edition curve turns close to the
        tile's middle, where a knight or thief stands on it)."""
        if variant <= 0 or variant > len(self.variant_segments):
            return self
        segments = self.variant_segments[variant - 1]
        return self if np.array_equal(segments, self.segments) else replace(self, segments=segments)


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    c = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(c, c)
    return u, v


def _edge_dist(edge: str, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distance from ``edge`` and position along it (0..1)."""
    if edge == "N":
        return v, u
    if edge == "S":
        return 1 - v, u
    if edge == "W":
        return u, v
    return 1 - u, v


def _cap(edge: str, depth: float, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    d, t = _edge_dist(edge, u, v)
    return (d / depth) ** 2 + (2 * t - 1) ** 2 < 1.0


_CORNER = {frozenset("NW"): (0.0, 0.0), frozenset("NE"): (1.0, 0.0), frozenset("SE"): (1.0, 1.0),
           frozenset("SW"): (0.0, 1.0)}
_MID = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}


def _city_region(edges: set[str], cfg: dict[str, Any], u: np.ndarray, v: np.ndarray) -> np.ndarray:
    if len(edges) >= 4:
        return np.ones_like(u, dtype=bool)
    if len(edges) == 1:
        return _cap(next(iter(edges)), cfg["city_cap_depth"], u, v)
    missing = [e for e in EDGES if e not in edges]
    if len(edges) == 2 and frozenset(edges) in _CORNER:
        cx, cy = _CORNER[frozenset(edges)]
        if cfg.get("city_corner_bow") is not None:
            return _corner_city(np.abs(u - cx), np.abs(v - cy), float(cfg["city_corner_bow"]))
        return np.abs(u - cx) + np.abs(v - cy) < cfg["city_corner_extent"]
    # a band between two opposite edges leaves shallower field caps than a three-edge city does
    depth = cfg.get("city_band_cap_depth", cfg["city_missing_cap_depth"]) if len(edges) == 2 \
        else cfg["city_missing_cap_depth"]
    region = np.ones_like(u, dtype=bool)
    for e in missing:
        region &= ~_cap(e, depth, u, v)
    return region


def _corner_city(x: np.ndarray, y: np.ndarray, bow: float) -> np.ndarray:
    """Points of a corner city, ``x`` and ``y`` their distances from the shared corner along the
    two city edges: inside a wall that runs from one far corner of the city edges to the other,
    bowing towards the shared corner (a quadratic curve with its control point ``bow`` tile sides
    from the corner on both axes; 0.5 is the straight diagonal). Editions draw the corner city
    as such a hollow: its walls reach the far corners (each city edge is city all along) but
    stay well short of the tile's middle."""
    t = np.linspace(0.0, 1.0, 33)
    wall = np.c_[(1 - t) ** 2 + 2 * t * (1 - t) * bow, t ** 2 + 2 * t * (1 - t) * bow]
    poly = np.vstack([[0.0, 0.0], wall]).astype(np.float32) * 1000.0
    pts = np.c_[x.ravel(), y.ravel()] * 1000.0
    inside = [cv2.pointPolygonTest(poly, (float(a), float(b)), False) > 0 for a, b in pts]
    return np.array(inside, dtype=bool).reshape(x.shape)


def _segment_distance(u: np.ndarray, v: np.ndarray, a: tuple[float, float], b: tuple[float, float]) -> np.ndarray:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = np.clip(((u - ax) * dx + (v - ay) * dy) / max(dx * dx + dy * dy, 1e-12), 0, 1)
    return np.hypot(u - (ax + t * dx), v - (ay + t * dy))


def _curve_distance(u: np.ndarray, v: np.ndarray, a: str, b: str, radius: float) -> np.ndarray:
    """Distance to a road curving from the middle of edge ``a`` to that of adjacent edge ``b``:
    straight in from each edge, turning on an arc of ``radius`` tile sides around the point
    ``radius`` from the middle lines towards the tiles' shared corner. Radius 0.5 is a quarter
    circle around that corner; editions differ (the first edition turns close to the tile's
    middle, about 0.2), so the template takes a radius between."""
    ax, ay = _MID[a]
    bx, by = _MID[b]
    cx, cy = _CORNER[frozenset((a, b))]
    # arc centre: towards the corner from the tile middle by ``radius`` on both axes
    ox = 0.5 + np.sign(cx - 0.5) * radius
    oy = 0.5 + np.sign(cy - 0.5) * radius
    # tangent points: where each straight leg (from the edge middle along the middle line) meets the arc
    ta = np.array([ax, oy]) if ax == 0.5 else np.array([ox, ay])
    tb = np.array([bx, oy]) if bx == 0.5 else np.array([ox, by])
    a0, a1 = np.arctan2(ta[1] - oy, ta[0] - ox), np.arctan2(tb[1] - oy, tb[0] - ox)
    if a1 - a0 > np.pi:
        a1 -= 2 * np.pi
    elif a0 - a1 > np.pi:
        a0 -= 2 * np.pi
    t = np.linspace(a0, a1, 24)
    pts = np.c_[ox + radius * np.cos(t), oy + radius * np.sin(t)]
    d = np.min(np.hypot(u[..., None] - pts[:, 0], v[..., None] - pts[:, 1]), axis=-1)
    d = np.minimum(d, _segment_distance(u, v, (ax, ay), (float(ta[0]), float(ta[1]))))
    return np.minimum(d, _segment_distance(u, v, (bx, by), (float(tb[0]), float(tb[1]))))


def _road_region(slots: tuple[str, ...], cfg: dict[str, Any], u: np.ndarray, v: np.ndarray,
                 centre: tuple[float, float] = (0.5, 0.5)) -> np.ndarray:
    """Where a road (or path) over ``slots`` runs: a curve between adjacent edges, a straight
    between opposite ones, and from each edge's middle to ``centre`` where three or more roads
    meet (a village, see :func:`junction_centre`)."""
    hw = cfg["road_half_width"]
    edges = [SLOT_EDGE[s] for s in slots]
    if len(edges) == 2 and frozenset(edges) in _CORNER:
        return _curve_distance(u, v, edges[0], edges[1], float(cfg.get("road_curve_radius", 0.5))) < hw
    if len(edges) == 2:
        return _segment_distance(u, v, _MID[edges[0]], _MID[edges[1]]) < hw
    region = np.zeros_like(u, dtype=bool)
    for e in edges:
        region |= _segment_distance(u, v, _MID[e], centre) < hw
    return region


def junction_centre(tile: TileType, cfg: dict[str, Any]) -> tuple[float, float]:
    """Where the roads of ``tile`` (rotation 0) meet when three or more end on it: the tile's
    middle, moved ``junction_shift`` tile sides away from each edge a city lies on. A city takes
    room from the village: the first edition's L draws its junction well below the middle, its
    arms bending down to it from the edges' middles."""
    shift = float(cfg.get("junction_shift", 0.0))
    x, y = 0.5, 0.5
    for s in tile.segments:
        if s.kind is Kind.CITY:
            for e in {SLOT_EDGE[z] for z in s.slots if z in SLOT_EDGE}:
                mx, my = _MID[e]
                x += shift * np.sign(0.5 - mx)
                y += shift * np.sign(0.5 - my)
    return float(x), float(y)


#: The pixel class each kind of area is drawn in: The Castle's courts are its open ground (the
#: field's class), its houses its built-up parts (the city's), its towers stone (other).
AREA_CLASS = {Kind.FIELD: FIELD, Kind.COURT: FIELD, Kind.HOUSE: CITY, Kind.TOWER: OTHER}


def render(tile: TileType, n: int, cfg: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Class map and segment-index map of ``tile`` at rotation 0 on an n x n grid (a shape
    parameter listing several editions' values is drawn at its first).

    A base-game tile: fields, roads, cities, monastery. A Castle tile the same way: its courts,
    houses and towers are areas (each point to the one owning its nearest half-edge slot, a
    building owning whole edges drawn as a city is), its paths are roads."""
    cfg = {k: (v[0] if k in VARIANT_KEYS and isinstance(v, list) else v) for k, v in cfg.items()}
    u, v = _grid(n)
    classes = np.full((n, n), FIELD, dtype=np.int8)
    segs = np.full((n, n), -1, dtype=np.int16)
    areas = [i for i, s in enumerate(tile.segments) if s.kind in AREA_CLASS]
    # areas: each point goes to the area owning its nearest half-edge slot
    if areas:
        segs[:] = _nearest_area(tile, u, v)
        for i in areas:
            classes[segs == i] = AREA_CLASS[tile.segments[i].kind]
        for i in areas:
            s = tile.segments[i]
            # a building drawn as a city: on the edges where it owns two of the three slots
            edges = {e for e, ss in EDGE_SLOTS.items() if sum(x in s.slots for x in ss) >= 2}
            if s.kind in (Kind.HOUSE, Kind.TOWER) and edges:
                r = _city_region(edges, cfg, u, v)
                classes[r] = AREA_CLASS[s.kind]
                segs[r] = i
    roads = [(i, s) for i, s in enumerate(tile.segments) if s.kind in (Kind.ROAD, Kind.PATH)]
    ends = sum(1 for _, s in roads if len(s.slots) == 1)
    centre = junction_centre(tile, cfg) if ends >= 3 else (0.5, 0.5)
    for i, s in roads:
        r = _road_region(s.slots, cfg if s.kind is Kind.ROAD else {**cfg, "road_half_width": cfg["path_half_width"]},
                         u, v, centre)
        classes[r] = ROAD
        segs[r] = i
    for i, s in enumerate(tile.segments):
        if s.kind is Kind.CITY:
            edges = {SLOT_EDGE[x] for x in s.slots if x in SLOT_EDGE}
            r = _city_region(edges, cfg, u, v)
            classes[r] = CITY
            segs[r] = i
    mon = [i for i, s in enumerate(tile.segments) if s.kind is Kind.MONASTERY]
    if mon:
        hx, hy = cfg["monastery_half"]
        r = (np.abs(u - 0.5) < hx) & (np.abs(v - 0.5) < hy)
        classes[r] = OTHER
        segs[r] = mon[0]
    elif ends >= 3:
        # a village where roads end; a plaza (paved like the paths) where castle paths do
        r = np.hypot(u - centre[0], v - centre[1]) < cfg["junction_radius"]
        classes[r] = ROAD if any(s.kind is Kind.PATH for _, s in roads) else OTHER
    return classes, segs


_HALF_POS = {"Nw": (0.25, 0.0), "N": (0.5, 0.0), "Ne": (0.75, 0.0), "En": (1.0, 0.25), "E": (1.0, 0.5),
             "Es": (1.0, 0.75), "Se": (0.75, 1.0), "S": (0.5, 1.0), "Sw": (0.25, 1.0), "Ws": (0.0, 0.75),
             "W": (0.0, 0.5), "Wn": (0.0, 0.25), "I": (0.5, 0.5)}


def _nearest_area(tile: TileType, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    best = np.full(u.shape, np.inf)
    out = np.full(u.shape, -1, dtype=np.int16)
    for i, s in enumerate(tile.segments):
        if s.kind not in AREA_CLASS:
            continue
        for slot in s.slots:
            x, y = _HALF_POS[slot]
            d = np.hypot(u - x, v - y)
            take = d < best
            best[take] = d[take]
            out[take] = i
    return out


def rotate_map(m: np.ndarray, rot: int) -> np.ndarray:
    """A map drawn at rotation 0, turned ``rot`` degrees clockwise."""
    return np.rot90(m, k=-(rot // 90))


def soften(classes: np.ndarray, sigma_frac: float) -> np.ndarray:
    """(n, n, 4) class probabilities: each class's indicator map blurred by a Gaussian of
    ``sigma_frac`` tile sides (edges replicated), so boundaries become ramps."""
    import cv2
    n = classes.shape[0]
    onehot = np.stack([(classes == k).astype(np.float32) for k in range(len(CLASSES))], -1)
    if sigma_frac <= 0:
        return onehot
    sig = sigma_frac * n
    k = int(2 * np.ceil(3 * sig) + 1)
    soft = np.stack([cv2.GaussianBlur(onehot[..., c], (k, k), sig, borderType=cv2.BORDER_REPLICATE)
                     for c in range(onehot.shape[-1])], -1)
    return soft / soft.sum(-1, keepdims=True)


#: Shape parameters that may list several values, one per way editions draw the shape.
VARIANT_KEYS = ("road_curve_radius", "city_corner_extent", "city_corner_bow", "city_band_cap_depth",
                "city_missing_cap_depth", "junction_shift")


def build_templates(tiles: list[TileType], n: int, cfg: dict[str, Any]) -> list[Template]:
    """Every tile at each of its distinct rotations.

    Editions draw some shapes differently: a curved road turns close to the tile's middle on
    the first edition and on a wide arc on others. A shape parameter of :data:`VARIANT_KEYS`
    (``road_curve_radius`` ...) may therefore list several values: the first draws the
    template's class map (and the segment map that places figures), each other one an
    alternative drawing. A tile's variants (what the classifier also tries) are the
    alternatives that draw it differently; its ``variant_segments`` keep every alternative's
    segment map, so that a drawing's number means the same alternative on every tile."""
    out = []
    sigma = float(cfg.get("template_blur", 0.0))
    # every shape parameter given as a list: its first value draws the template (render takes
    # the first of each list), the others alternatives, numbered in the order of VARIANT_KEYS
    # whatever the configuration's order (figures.place_drawing names one by its number)
    alternatives = [{**cfg, k: x} for k in VARIANT_KEYS if isinstance(cfg.get(k), list) for x in cfg[k][1:]]
    for t in tiles:
        classes, segs = render(t, n, cfg)
        others: list[np.ndarray] = []
        alt_segs: list[np.ndarray] = []
        for alt in alternatives:
            o, o_segs = render(t, n, alt)
            alt_segs.append(o_segs)
            if not any(np.array_equal(o, c) for c in [classes, *others]):
                others.append(o)
        for rot in t.rotations():
            c = rotate_map(classes, rot).copy()
            variants = tuple(soften(rotate_map(o, rot).copy(), sigma) for o in others)
            out.append(Template(t, rot, c, rotate_map(segs, rot).copy(), soften(c, sigma), variants,
                                tuple(rotate_map(o, rot).copy() for o in alt_segs)))
    return out
