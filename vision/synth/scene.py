"""Compose a synthetic table photo and its truth (``carcam/reading@1``).

Pipeline (fast enough for a 72-tile 12 MP photo in well under 2 s on two cores):

1. lay the tiles on the table in millimetres (45 mm tiles, small gaps and twists);
2. choose a camera that holds the whole board (tilt, azimuth, roll, focal length, distortion);
3. draw the board top-down once, at about the resolution the photo will show it with;
4. map the table texture and the board into the photo with one remap each (pinhole + distortion);
5. draw the wooden pieces as 3-D solids through the same camera, with soft shadows;
6. light (uneven, colour temperature, glare, soft shadow), blur, noise, JPEG.

Every random choice comes from one ``numpy.random.Generator`` per stage, spawned from the seed,
so the same seed gives the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from scorer import Reading, State
from scorer.catalog import Kind
from scorer.formats import TileEntry
from scorer.geometry import EDGE_STEP, EDGES

from . import pieces
from .camera import Camera, fit_distance
from .errors import SynthError
from .params import TILE_MM, SynthParams, preset
from .positions import follower_role, random_state
from .tileart import load_scans, render_tile, rotate_unit_point, segment_point

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Shot:
    """The concrete values drawn for one photo (for debugging and per-factor benchmarks)."""

    width: int
    height: int
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float
    focal_px: float
    k1: float
    surface: str
    tile_px: int
    jpeg_quality: int
    defocus_sigma: float
    motion_len: float
    noise_sigma: float
    kelvin: float
    art: str


@dataclass(frozen=True)
class SynthPhoto:
    """A generated photo: the image before JPEG (BGR), the JPEG bytes and the truth."""

    image: np.ndarray
    jpeg: bytes
    reading: Reading
    shot: Shot
    camera: Camera = field(repr=False)

    def decoded(self) -> np.ndarray:
        """The photo as a reader sees it (the JPEG decoded)."""
        return cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)


def _u(rng: np.random.Generator, r: tuple[float, float]) -> float:
    return float(r[0]) if r[0] == r[1] else float(rng.uniform(r[0], r[1]))


@dataclass
class _Placed:
    entry: TileEntry
    centre: np.ndarray  # mm
    twist: float  # radians
    variant: int

    def to_world(self, p: tuple[float, float]) -> np.ndarray:
        """Board-orientation unit point of this cell to table mm (twist and jitter applied)."""
        c, s = math.cos(self.twist), math.sin(self.twist)
        dx, dy = (p[0] - 0.5) * TILE_MM, (p[1] - 0.5) * TILE_MM
        return self.centre + np.array([c * dx - s * dy, s * dx + c * dy])

    def corners(self) -> np.ndarray:
        """NW, NE, SE, SW corners of the cell's tile on the table (mm)."""
        return np.array([self.to_world(p) for p in ((0, 0), (1, 0), (1, 1), (0, 1))])


def generate(state_or_seed: State | int, params: SynthParams | str | None = None, seed: int = 0, *,
             game: str = "base", tiles: int = 40, expansions: tuple[str, ...] = (),
             players: int | None = None) -> SynthPhoto:
    """Photograph a position: a :class:`scorer.State`, or a random legal game from a seed.

    ``params`` is a :class:`SynthParams` or a preset name (default ``"default"``); ``seed`` seeds
    every random choice of the photo (camera, light, noise, tile jitter, figure placement)."""
    if isinstance(params, str) or params is None:
        params = preset(params or "default")
    if isinstance(state_or_seed, State):
        state = state_or_seed
    else:
        state = random_state(int(state_or_seed), game=game, tiles=tiles, expansions=expansions, players=players)
    if not state.tiles and (state.game != "castle" or state.layout is None):
        # (an empty castle still shows its wall: the photo before the first turn)
        raise SynthError("the position has no tiles to photograph")
    ss = np.random.SeedSequence(int(seed) & 0xFFFFFFFFFFFFFFFF)
    r_cam, r_layout, r_piece, r_table, r_light, r_optics = (np.random.default_rng(s) for s in ss.spawn(6))
    p = params

    # -- photo size ---------------------------------------------------------------------------
    if p.output.size is not None:
        width, height = p.output.size
    else:
        mp = _u(r_cam, p.output.megapixels) * 1e6
        width = int(round(math.sqrt(mp * p.output.aspect)))
        height = int(round(width / p.output.aspect))
        if r_cam.random() < p.output.portrait_prob:
            width, height = height, width

    # -- tiles on the table -------------------------------------------------------------------
    pitch = TILE_MM + _u(r_layout, p.layout.gap_mm)
    placed: list[_Placed] = []
    for t in state.tiles:
        jitter = r_layout.normal(0, p.layout.jitter_mm / 2, 2).clip(-p.layout.jitter_mm, p.layout.jitter_mm)
        twist = math.radians(float(np.clip(r_layout.normal(0, p.layout.twist_deg / 2),
                                           -p.layout.twist_deg, p.layout.twist_deg)))
        centre = np.array([(t.at[0] + 0.5) * pitch, (t.at[1] + 0.5) * pitch]) + jitter
        placed.append(_Placed(t, centre, twist, int(r_layout.integers(0, 1 << 16))))
    wall = _wall_geometry(state, pitch)
    extent = np.vstack([pl.corners() for pl in placed] + ([wall.corners()] if wall is not None else []))
    bx0, by0 = extent.min(axis=0)
    bx1, by1 = extent.max(axis=0)

    # -- camera -------------------------------------------------------------------------------
    tilt = _u(r_cam, p.camera.tilt_deg)
    azimuth = _u(r_cam, p.camera.azimuth_deg)
    roll = _u(r_cam, p.camera.roll_deg)
    f = max(width, height) * _u(r_cam, p.camera.focal_eq_mm) / 36.0
    k1 = _u(r_cam, p.camera.k1)
    margin = _u(r_cam, p.camera.margin)
    size = max(bx1 - bx0, by1 - by0)
    target = np.array([(bx0 + bx1) / 2, (by0 + by1) / 2, 0.0])
    target[:2] += r_cam.uniform(-1, 1, 2) * p.camera.aim_jitter * size
    hull = cv2.convexHull(extent.astype(np.float32)).reshape(-1, 2).astype(float)
    box3 = np.vstack([np.hstack([hull, np.full((len(hull), 1), z)]) for z in (0.0, -16.0)])
    cam = fit_distance(width, height, f, target, box3, margin, tilt, azimuth, roll, k1)

    # -- resolution of the top-down board -------------------------------------------------------
    squares = [pl.corners() for pl in placed] or [
        np.array([[(x + u) * pitch, (y + v) * pitch] for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))])
        for x, y in state.layout.cells]  # an empty castle: its interior spaces
    quads = [cam.project(np.hstack([sq, np.zeros((4, 1))])) for sq in squares]
    longest = max(float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).max()) for q in quads)
    step = p.art.tile_px_step
    tile_px = int(np.clip(math.ceil(longest * 1.05 / step) * step, p.art.min_tile_px, p.art.max_tile_px))
    ppm = tile_px / TILE_MM

    scans = None
    art = p.art.style
    if art == "scans":
        scans = load_scans(p.art.scans_dir)
        if scans is None:
            raise SynthError("tile art 'scans': the classic scans folder is not there")
    elif art != "procedural":
        raise SynthError(f"unknown tile art {art!r} (procedural or scans)")

    # -- photo: table, then board ---------------------------------------------------------------
    surface = str(p.table.surfaces[int(r_table.integers(len(p.table.surfaces)))])
    photo = _table_photo(cam, surface, (bx0, by0, bx1, by1), r_table)
    pad = 4.0
    ox, oy = bx0 - pad, by0 - pad
    cw, ch = int(math.ceil((bx1 - bx0 + 2 * pad) * ppm)), int(math.ceil((by1 - by0 + 2 * pad) * ppm))
    canvas = np.zeros((ch, cw, 3), np.uint8)
    alpha = np.zeros((ch, cw), np.uint8)
    if wall is not None:
        wall.draw(canvas, alpha, ox, oy, ppm, r_table)
    for pl in placed:
        t = pl.entry
        if scans is not None and scans.has(t.tile):
            img = scans.render(t.tile, t.rot, tile_px)
        else:
            img = render_tile(t.tile, t.rot, tile_px, pl.variant)
        _paste_tile(canvas, alpha, img, pl, ox, oy, ppm)
    _composite_board(photo, cam, canvas, alpha, ox, oy, ppm)

    # -- pieces ---------------------------------------------------------------------------------
    elev = math.radians(_u(r_light, p.light.light_elevation_deg))
    laz = r_light.uniform(0, 2 * math.pi)
    light = np.array([math.cos(elev) * math.cos(laz), math.cos(elev) * math.sin(laz), -math.sin(elev)])
    by_cell = {pl.entry.at: pl for pl in placed}
    solids: list[tuple[pieces.Solid, int | None]] = []
    for k, m in enumerate(state.meeples):
        pl = by_cell.get(m.at)
        if pl is None:
            raise SynthError(f"meeple {k} stands on {list(m.at)}, where there is no tile")
        seg_i = pl.entry.tile.segment_index_on_board(m.on, pl.entry.rot)
        if seg_i is None:
            unit = (0.5, 0.5)
            kind = Kind.FIELD
        else:
            mrng = np.random.default_rng([int(seed) & 0xFFFFFFFF, k, m.at[0] & 0xFFFF, m.at[1] & 0xFFFF])
            unit = rotate_unit_point(segment_point(pl.entry.tile, seg_i, mrng), pl.entry.rot)
            kind = pl.entry.tile.segments[seg_i].kind
        x, y = pl.to_world(unit)
        colour = pieces.PLAYER_BGR.get(m.player, pieces.NEUTRAL_BGR)
        yaw = float(r_piece.uniform(0, 360))
        solids.append((pieces.meeple(x, y, yaw, colour, follower_role(kind) == "lying"), k))
    solids += [(s, None) for s in _tokens(state, by_cell, r_piece)]
    opacity = _u(r_light, p.light.figure_shadow_opacity)
    _draw_shadows(photo, cam, [s for s, _ in solids], light, opacity)
    meeple_quads: dict[int, Quad] = {}
    for s, k in sorted(solids, key=lambda sk: -float(cam.depth(sk[0].points().mean(axis=0)[None])[0])):
        pieces.draw_solid(photo, cam, s, light, r_piece)
        if k is not None:
            meeple_quads[k] = pieces.image_box(cam, s)  # type: ignore[assignment]

    # -- light, optics, noise, JPEG -------------------------------------------------------------
    kelvin = _u(r_light, p.light.kelvin)
    _light(photo, p, kelvin, r_light)
    defocus = _u(r_optics, p.optics.defocus_sigma_px)
    motion = _u(r_optics, p.optics.motion_len_px) if r_optics.random() < p.optics.motion_prob else 0.0
    photo = _blur(photo, defocus, motion, float(r_optics.uniform(0, 180)))
    noise = _u(r_optics, p.optics.noise_sigma)
    photo = _noise(photo, noise, r_optics)
    q = int(r_optics.integers(p.optics.jpeg_quality[0], p.optics.jpeg_quality[1] + 1))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, q])
    if not ok:  # pragma: no cover
        raise SynthError("JPEG encoding failed")

    # -- truth ----------------------------------------------------------------------------------
    tiles_out = tuple(replace(pl.entry, confidence=1.0, quad=_quad(q4)) for pl, q4 in zip(placed, quads))
    meeples_out = tuple(replace(m, confidence=1.0, quad=meeple_quads[k]) for k, m in enumerate(state.meeples))
    truth = Reading(state=replace(state, tiles=tiles_out, meeples=meeples_out), image=(width, height))
    shot = Shot(width, height, tilt, azimuth, roll, f, k1, surface, tile_px, q, defocus, motion, noise, kelvin, art)
    return SynthPhoto(image=photo, jpeg=buf.tobytes(), reading=truth, shot=shot, camera=cam)


def _quad(q: np.ndarray) -> Quad:
    return tuple((float(x), float(y)) for x, y in q)  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# board
def _paste_tile(canvas: np.ndarray, alpha: np.ndarray, img: np.ndarray, pl: _Placed, ox: float, oy: float,
                ppm: float) -> None:
    """Draw one tile into the top-down canvas (affine: size, twist, position)."""
    n = img.shape[0]
    c, s = math.cos(pl.twist), math.sin(pl.twist)
    k = TILE_MM * ppm / n
    # canvas = A @ [u, v, 1]: tile pixel centres (u + 0.5) spread over the 45 mm
    cx, cy = (pl.centre[0] - ox) * ppm, (pl.centre[1] - oy) * ppm
    a = np.array([[c * k, -s * k, 0.0], [s * k, c * k, 0.0]])
    half = n / 2.0
    a[0, 2] = cx - 0.5 - (a[0, 0] * (half - 0.5) + a[0, 1] * (half - 0.5))
    a[1, 2] = cy - 0.5 - (a[1, 0] * (half - 0.5) + a[1, 1] * (half - 0.5))
    r = int(math.ceil(TILE_MM * ppm * 0.75)) + 2
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    x1, y1 = min(canvas.shape[1], int(cx) + r), min(canvas.shape[0], int(cy) + r)
    if x1 <= x0 or y1 <= y0:
        return
    a[:, 2] -= (x0, y0)
    roi = canvas[y0:y1, x0:x1]
    cv2.warpAffine(img, a, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    mask = cv2.warpAffine(np.full((n, n), 255, np.uint8), a, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    np.maximum(alpha[y0:y1, x0:x1], mask, out=alpha[y0:y1, x0:x1])


def _composite_board(photo: np.ndarray, cam: Camera, canvas: np.ndarray, alpha: np.ndarray, ox: float, oy: float,
                     ppm: float) -> None:
    """Map the top-down board into the photo where it lies (one remap of its window)."""
    ch, cw = alpha.shape
    corners = np.array([[ox, oy, 0], [ox + cw / ppm, oy, 0], [ox + cw / ppm, oy + ch / ppm, 0],
                        [ox, oy + ch / ppm, 0]])
    pts = cam.project(corners)
    h, w = photo.shape[:2]
    x0, y0 = max(0, int(pts[:, 0].min()) - 4), max(0, int(pts[:, 1].min()) - 4)
    x1, y1 = min(w, int(pts[:, 0].max()) + 5), min(h, int(pts[:, 1].max()) + 5)
    if x1 <= x0 or y1 <= y0:
        return
    mx, my = cam.ground_map(x0, y0, x1 - x0, y1 - y0, origin=(ox, oy), scale=ppm, shift=-0.5)
    board = cv2.remap(canvas, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.remap(alpha, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    wa = a.astype(np.float32) * (1.0 / 255.0)
    roi = photo[y0:y1, x0:x1]
    photo[y0:y1, x0:x1] = cv2.blendLinear(board, roi, wa, 1.0 - wa)


# ---------------------------------------------------------------------------------------------
# table
_CLOTH = [(60, 110, 40), (120, 70, 40), (40, 40, 130), (150, 170, 180), (90, 60, 90), (50, 50, 55)]
_WOOD = [(50, 95, 150), (35, 70, 120), (80, 130, 180), (60, 80, 95)]


def _table_photo(cam: Camera, surface: str, board: tuple[float, float, float, float],
                 rng: np.random.Generator) -> np.ndarray:
    """The bare table as the camera sees it (a low-resolution texture remapped to the photo)."""
    w, h = cam.width, cam.height
    gx, gy = cam.ground_map(0, 0, w // 16 * 16, h // 16 * 16, step=32)
    bx0, by0, bx1, by1 = board
    lim = 1500.0
    x0, x1 = max(float(gx.min()), bx0 - lim), min(float(gx.max()), bx1 + lim)
    y0, y1 = max(float(gy.min()), by0 - lim), min(float(gy.max()), by1 + lim)
    span = max(x1 - x0, y1 - y0, 1.0)
    tppm = min(1.2, 1000.0 / span)
    tw, th = max(8, int((x1 - x0) * tppm) + 2), max(8, int((y1 - y0) * tppm) + 2)
    tex = _texture(surface, tw, th, tppm, rng)
    mx, my = cam.ground_map(0, 0, w, h, step=16, origin=(x0, y0), scale=tppm)
    return cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, h // cells), max(2, w // cells))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _texture(surface: str, w: int, h: int, ppm: float, rng: np.random.Generator) -> np.ndarray:
    """A table surface texture ``w`` x ``h`` px at ``ppm`` px per mm (BGR uint8)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if surface == "wood":
        base = np.array(_WOOD[int(rng.integers(len(_WOOD)))], np.float32) * rng.uniform(0.85, 1.15)
        ang = rng.uniform(0, math.pi)
        along = (xx * math.cos(ang) + yy * math.sin(ang)) / ppm
        across = (-xx * math.sin(ang) + yy * math.cos(ang)) / ppm
        warp = _smooth_noise(rng, w, h, 24) * 6.0
        grain = np.sin((across + warp) * (2 * math.pi / rng.uniform(6.0, 14.0)))
        plank = float(rng.uniform(90, 160))
        seam = (np.abs(((across / plank) % 1.0) - 0.5) > 0.495).astype(np.float32)
        shade = 1.0 + 0.035 * grain + 0.06 * _smooth_noise(rng, w, h, 60) - 0.3 * seam
        shade += 0.03 * np.sin(along / rng.uniform(40, 90))
    elif surface == "cloth":
        base = np.array(_CLOTH[int(rng.integers(len(_CLOTH)))], np.float32) * rng.uniform(0.8, 1.2)
        weave = np.sin(xx / ppm * 2 * math.pi / 1.2) * np.sin(yy / ppm * 2 * math.pi / 1.2)
        shade = 1.0 + 0.05 * weave + 0.1 * _smooth_noise(rng, w, h, 80) + 0.03 * rng.normal(0, 1, (h, w))
    else:  # white gloss
        base = np.array([228.0, 230.0, 232.0], np.float32) * rng.uniform(0.9, 1.0)
        shade = 1.0 + 0.04 * _smooth_noise(rng, w, h, 120)
    img = base[None, None, :] * shade[:, :, None].astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# The Castle's wall
@dataclass
class _Wall:
    cells: frozenset[tuple[int, int]]
    start_fields: tuple[Any, ...]
    pitch: float
    depth: float = 34.0

    def corners(self) -> np.ndarray:
        """Outer corners of every cell's wall reach (mm), enough to bound the wall."""
        d, pch = self.depth, self.pitch
        return np.array([(cx * pch + sx * (pch + 2 * d) - d, cy * pch + sy * (pch + 2 * d) - d)
                         for cx, cy in self.cells for sx in (0, 1) for sy in (0, 1)], float)

    def draw(self, canvas: np.ndarray, alpha: np.ndarray, ox: float, oy: float, ppm: float,
             rng: np.random.Generator) -> None:
        """Paint the wall band, its track ticks and the start fields onto the board canvas."""
        stone = np.array([120, 135, 150]) * rng.uniform(0.85, 1.1)
        d, pch = self.depth, self.pitch

        def rect(xa: float, ya: float, xb: float, yb: float, col: Any) -> None:
            p0 = (int((min(xa, xb) - ox) * ppm), int((min(ya, yb) - oy) * ppm))
            p1 = (int((max(xa, xb) - ox) * ppm), int((max(ya, yb) - oy) * ppm))
            cv2.rectangle(canvas, p0, p1, tuple(float(v) for v in col), -1)
            cv2.rectangle(alpha, p0, p1, 255, -1)

        for (cx, cy) in sorted(self.cells):
            x0, y0, x1, y1 = cx * pch, cy * pch, (cx + 1) * pch, (cy + 1) * pch
            for e in EDGES:
                dx, dy = EDGE_STEP[e]
                if (cx + dx, cy + dy) in self.cells:
                    continue
                # extend the band's ends at convex corners
                if e in ("N", "S"):
                    ext_w = d if (cx - 1, cy) not in self.cells else 0.0
                    ext_e = d if (cx + 1, cy) not in self.cells else 0.0
                    ya, yb = (y0 - d, y0) if e == "N" else (y1, y1 + d)
                    rect(x0 - ext_w, ya, x1 + ext_e, yb, stone)
                    for k in range(4):
                        xt = x0 + k * pch / 4
                        rect(xt, ya + d * 0.4, xt + 0.8, yb - d * 0.4, stone * 0.6)
                else:
                    ext_n = d if (cx, cy - 1) not in self.cells else 0.0
                    ext_s = d if (cx, cy + 1) not in self.cells else 0.0
                    xa, xb = (x1, x1 + d) if e == "E" else (x0 - d, x0)
                    rect(xa, y0 - ext_n, xb, y1 + ext_s, stone)
                    for k in range(4):
                        yt = y0 + k * pch / 4
                        rect(xa + d * 0.4, yt, xb - d * 0.4, yt + 0.8, stone * 0.6)
        colours = {Kind.PATH: (170, 184, 190), Kind.COURT: (140, 196, 214), Kind.HOUSE: (60, 80, 170),
                   Kind.TOWER: (110, 116, 122)}
        band = 12.0
        for sf in self.start_fields:
            cx, cy = sf.at
            x0, y0, x1, y1 = cx * pch, cy * pch, (cx + 1) * pch, (cy + 1) * pch
            parts = (0.0, 0.4, 0.6, 1.0)
            for k, kind in enumerate(sf.kinds):
                a, b = parts[k], parts[k + 1]
                col = colours.get(kind, (150, 150, 150))
                if sf.side == "N":
                    rect(x0 + a * pch, y0 - band, x0 + b * pch, y0, col)
                elif sf.side == "S":
                    rect(x1 - b * pch, y1, x1 - a * pch, y1 + band, col)
                elif sf.side == "E":
                    rect(x1, y0 + a * pch, x1 + band, y0 + b * pch, col)
                else:
                    rect(x0 - band, y1 - b * pch, x0, y1 - a * pch, col)


def _wall_geometry(state: State, pitch: float) -> _Wall | None:
    layout = state.layout
    if state.game != "castle" or layout is None or not getattr(layout, "cells", None):
        return None
    return _Wall(cells=frozenset(layout.cells), start_fields=tuple(layout.start_fields), pitch=pitch)


# ---------------------------------------------------------------------------------------------
# tokens: towers, bridges, castles
def _tokens(state: State, by_cell: dict[tuple[int, int], _Placed], rng: np.random.Generator) -> list[pieces.Solid]:
    out: list[pieces.Solid] = []
    floor = 8.5
    for t in state.towers:
        pl = by_cell.get(tuple(t["at"]))  # type: ignore[arg-type]
        if pl is None:
            continue
        x, y = pl.to_world((0.62, 0.62))
        yaw = math.degrees(pl.twist) + float(rng.uniform(-8, 8))
        for k in range(int(t.get("height", 0))):
            out.append(pieces.box(x, y, 19.0, 19.0, floor - 0.3, yaw, (175, 185, 190), base_z=-k * floor))
        if t.get("closed"):
            out.append(pieces.meeple(x, y, yaw, pieces.PLAYER_BGR.get(t["closed"], pieces.NEUTRAL_BGR), False,
                                     base_z=-int(t.get("height", 0)) * floor))
    for b in state.bridges:
        pl = by_cell.get(tuple(b["at"]))  # type: ignore[arg-type]
        if pl is None:
            continue
        x, y = pl.to_world((0.5, 0.5))
        yaw = math.degrees(pl.twist) + (90.0 if b["axis"] == "NS" else 0.0)
        out.append(pieces.box(x, y, 40.0, 11.0, 5.0, yaw, (120, 150, 175)))
    for c in state.castles:
        pl = by_cell.get(tuple(c["at"]))  # type: ignore[arg-type]
        if pl is None:
            continue
        dx, dy = EDGE_STEP[c["dir"]]
        x, y = pl.to_world((0.5 + dx / 2, 0.5 + dy / 2))
        yaw = math.degrees(pl.twist) + (90.0 if dy else 0.0)
        out.append(pieces.box(x, y, 70.0, 32.0, 7.0, yaw, pieces.PLAYER_BGR.get(c["player"], pieces.NEUTRAL_BGR)))
    for player, cell in dict(getattr(state, "palas", {}) or {}).items():
        pl = by_cell.get(tuple(cell))  # type: ignore[arg-type]
        if pl is None:
            continue
        x, y = pl.to_world((0.38, 0.38))
        out.append(pieces.box(x, y, 15.0, 15.0, 17.0, math.degrees(pl.twist),
                              pieces.PLAYER_BGR.get(player, pieces.NEUTRAL_BGR)))
    return out


# ---------------------------------------------------------------------------------------------
# light and optics
def _draw_shadows(photo: np.ndarray, cam: Camera, solids: list[pieces.Solid], light: np.ndarray,
                  opacity: float) -> None:
    if not solids:
        return
    h, w = photo.shape[:2]
    polys = [cam.project(pieces.shadow_polygon(s, light)) for s in solids]
    allp = np.vstack(polys)
    pad = 12
    x0, y0 = max(0, int(allp[:, 0].min()) - pad), max(0, int(allp[:, 1].min()) - pad)
    x1, y1 = min(w, int(allp[:, 0].max()) + pad), min(h, int(allp[:, 1].max()) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for poly in polys:
        cv2.fillPoly(mask, [np.round(poly - (x0, y0)).astype(np.int32)], 255, lineType=cv2.LINE_AA)
    sigma = max(1.0, 0.002 * max(w, h))
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    gain = (128.0 - (128.0 * opacity / 255.0) * mask.astype(np.float32)).astype(np.uint8)
    roi = photo[y0:y1, x0:x1]
    cv2.multiply(roi, cv2.merge([gain, gain, gain]), dst=roi, scale=1.0 / 128.0)


def kelvin_gains(kelvin: float) -> np.ndarray:
    """Per-channel (BGR) gains of light at ``kelvin`` seen with a 5500 K white balance."""
    t = (kelvin - 5500.0) / 2500.0
    return np.array([1.0 + 0.22 * t, 1.0 + 0.02 * t, 1.0 - 0.2 * t], np.float32)


def _light(photo: np.ndarray, p: SynthParams, kelvin: float, rng: np.random.Generator) -> None:
    """Uneven light, colour temperature, a soft shadow and glare spots, in place."""
    h, w = photo.shape[:2]
    sw, sh = max(4, w // 16), max(4, h // 16)
    lp = p.light
    field_ = _u(rng, lp.exposure) * (1.0 + _u(rng, lp.unevenness) * _smooth_noise(rng, sw, sh, max(2, sw // 3)) * 0.5)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (xx / sw - 0.5) * math.cos(ang) + (yy / sh - 0.5) * math.sin(ang)
    field_ *= 1.0 + _u(rng, lp.unevenness) * 0.6 * ramp
    if rng.random() < lp.soft_shadow_prob:
        a2 = rng.uniform(0, 2 * math.pi)
        off = rng.uniform(-0.3, 0.3)
        side = (xx / sw - 0.5) * math.cos(a2) + (yy / sh - 0.5) * math.sin(a2) - off
        edge = 1.0 / (1.0 + np.exp(-side / 0.06))
        field_ *= 1.0 - _u(rng, lp.soft_shadow_depth) * edge
    gain = np.clip(field_[:, :, None] * kelvin_gains(kelvin)[None, None, :] * 128.0, 0, 255).astype(np.uint8)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(photo, gain, dst=photo, scale=1.0 / 128.0)
    if rng.random() < lp.glare_prob:
        glare = np.zeros((sh, sw), np.float32)
        for _ in range(int(rng.integers(1, lp.glare_max + 1))):
            cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
            r = rng.uniform(0.03, 0.12) * sw
            glare += _u(rng, lp.glare_strength) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        g = cv2.resize(np.clip(glare, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
        cv2.add(photo, cv2.merge([g, g, g]), dst=photo)


def _blur(photo: np.ndarray, sigma: float, motion: float, angle: float) -> np.ndarray:
    if sigma >= 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    if motion >= 1.5:
        n = int(math.ceil(motion)) | 1
        k = np.zeros((n, n), np.float32)
        c = n // 2
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.line(k, (int(round(c - dx * c)), int(round(c - dy * c))), (int(round(c + dx * c)), int(round(c + dy * c))),
                 1.0, 1)
        photo = cv2.filter2D(photo, -1, k / k.sum())
    return photo


def _noise(photo: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise: grain at half resolution plus coarser colour noise (demosaicked noise is
    not white); added with one saturating pass."""
    if sigma <= 0:
        return photo
    h, w = photo.shape[:2]
    hh, hw = (h + 1) // 2, (w + 1) // 2
    lum = rng.standard_normal((hh, hw), dtype=np.float32) * sigma
    chroma = rng.standard_normal(((h + 3) // 4, (w + 3) // 4, 3), dtype=np.float32) * (sigma * 0.5)
    half = cv2.resize(chroma, (hw, hh), interpolation=cv2.INTER_NEAREST)
    half += lum[:, :, None] + 128.0
    n = cv2.resize(np.clip(half, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    return cv2.addWeighted(photo, 1.0, n, 1.0, -128.0)
