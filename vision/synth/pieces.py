"""Wooden pieces as small 3-D solids: meeples (standing or lying), tower floors, bridges, castles.

Each piece is an extruded outline (a prism) in world millimetres. It is projected through the
photo's camera face by face (far faces first, faces turned away skipped, Lambert shading from
the scene light), so tilt and perspective shift a standing figure over its tile as they shift
real wood; its shadow is the outline pushed along the light onto the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import Camera

#: wood colours (BGR) of the player colours
PLAYER_BGR: dict[str, tuple[int, int, int]] = {
    "red": (38, 38, 200), "blue": (170, 90, 30), "green": (60, 150, 40), "yellow": (30, 200, 235),
    "black": (35, 35, 38), "grey": (140, 140, 136), "white": (232, 234, 236),
}
NEUTRAL_BGR = (150, 160, 168)

#: meeple outline (mm): x across, y up; about 16 mm wide and 16 mm tall, 7.5 mm thick
_MEEPLE = np.array([
    (-1.6, 16.0), (1.6, 16.0), (2.8, 14.6), (3.0, 12.4), (2.2, 11.0), (7.6, 9.8), (8.0, 8.2),
    (4.2, 7.0), (5.8, 0.0), (1.9, 0.0), (0.0, 4.3), (-1.9, 0.0), (-5.8, 0.0), (-4.2, 7.0),
    (-8.0, 8.2), (-7.6, 9.8), (-2.2, 11.0), (-3.0, 12.4), (-2.8, 14.6),
])
MEEPLE_THICKNESS = 7.5


@dataclass(frozen=True)
class Solid:
    """A prism: ``bottom`` and ``top`` outlines (N, 3 world mm, same order) and its colour."""

    bottom: np.ndarray
    top: np.ndarray
    colour: tuple[int, int, int]

    def points(self) -> np.ndarray:
        return np.vstack([self.bottom, self.top])


def meeple(x: float, y: float, yaw_deg: float, colour: tuple[int, int, int], lying: bool,
           base_z: float = 0.0) -> Solid:
    """A meeple at table point ``(x, y)``: standing, or lying on its back (farmer, merchant)."""
    a = math.radians(yaw_deg)
    ca, sa = math.cos(a), math.sin(a)
    u, v = _MEEPLE[:, 0], _MEEPLE[:, 1]
    if lying:
        # the outline lies flat; the head points along yaw; thickness goes up
        lx, ly = u, v - 8.0
        wx, wy = x + ca * lx - sa * ly, y + sa * lx + ca * ly
        bottom = np.stack([wx, wy, np.full_like(wx, base_z)], axis=1)
        top = bottom.copy()
        top[:, 2] -= MEEPLE_THICKNESS
        return Solid(bottom, top, colour)
    # standing: the outline is vertical, extruded across its thickness
    h = MEEPLE_THICKNESS / 2
    wx, wy = x + ca * u, y + sa * u
    nx, ny = -sa * h, ca * h
    front = np.stack([wx + nx, wy + ny, base_z - v], axis=1)
    back = np.stack([wx - nx, wy - ny, base_z - v], axis=1)
    return Solid(back, front, colour)


def box(x: float, y: float, w: float, d: float, h: float, yaw_deg: float, colour: tuple[int, int, int],
        base_z: float = 0.0) -> Solid:
    """A block ``w`` x ``d`` mm, ``h`` mm tall, centred on ``(x, y)``, its base ``-base_z`` mm up."""
    a = math.radians(yaw_deg)
    ca, sa = math.cos(a), math.sin(a)
    pts = np.array([(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)])
    wx = x + ca * pts[:, 0] - sa * pts[:, 1]
    wy = y + sa * pts[:, 0] + ca * pts[:, 1]
    bottom = np.stack([wx, wy, np.full(4, base_z)], axis=1)
    top = bottom.copy()
    top[:, 2] -= h
    return Solid(bottom, top, colour)


def _faces(s: Solid) -> list[np.ndarray]:
    n = len(s.bottom)
    faces = [s.bottom[::-1], s.top]
    for i in range(n):
        j = (i + 1) % n
        faces.append(np.array([s.bottom[i], s.bottom[j], s.top[j], s.top[i]]))
    return faces


def draw_solid(img: np.ndarray, cam: Camera, s: Solid, light: np.ndarray, rng: np.random.Generator) -> None:
    """Paint a solid into the photo (painter's order, shading by face normal)."""
    centre = s.points().mean(axis=0)
    faces = _faces(s)
    order = []
    for k, f in enumerate(faces):
        c = f.mean(axis=0)
        normal = np.cross(f[1] - f[0], f[2] - f[0]) if len(f) >= 3 else np.zeros(3)
        if np.linalg.norm(normal) < 1e-9:
            continue
        normal /= np.linalg.norm(normal)
        if np.dot(normal, c - centre) < 0:  # outward
            normal = -normal
        if np.dot(normal, cam.C - c) <= 0:  # turned away from the camera
            continue
        order.append((float(cam.depth(c[None])[0]), k, normal))
    order.sort(key=lambda t: -t[0])
    base = np.array(s.colour, float)
    for _, k, normal in order:
        shade = 0.45 + 0.55 * max(0.0, float(np.dot(normal, light)))
        col = np.clip(base * shade + rng.normal(0, 2.0, 3), 0, 255)
        poly = cam.project(faces[k])
        pts = np.round(poly * 16).astype(np.int32)
        cv2.fillPoly(img, [pts], tuple(float(c) for c in col), lineType=cv2.LINE_AA, shift=4)


def shadow_polygon(s: Solid, light: np.ndarray) -> np.ndarray:
    """The solid's shadow on the table (world points, convex hull), light ``light`` (unit, to sun)."""
    pts = s.points()
    # move each point along -light until z = 0 (light points up: negative z)
    t = pts[:, 2] / light[2]
    flat = pts - t[:, None] * light
    hull = cv2.convexHull(flat[:, :2].astype(np.float32)).reshape(-1, 2)
    return np.hstack([hull, np.zeros((len(hull), 1), np.float32)])


def image_box(cam: Camera, s: Solid) -> tuple[tuple[float, float], ...]:
    """The solid's image bounding box, corners clockwise from the top-left."""
    p = cam.project(s.points())
    x0, y0 = p.min(axis=0)
    x1, y1 = p.max(axis=0)
    return ((float(x0), float(y0)), (float(x1), float(y0)), (float(x1), float(y1)), (float(x0), float(y1)))
