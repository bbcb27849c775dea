"""A pinhole phone camera over the table, with mild radial distortion.

World frame (millimetres): x east, y south on the table plane, z = x cross y points *into* the
table, so a point ``h`` mm above the table has ``z = -h``. OpenCV's camera frame (x right, y
down, z forward) then equals the world frame for a camera looking straight down with the board's
north at the top of the photo; tilt, azimuth and roll turn it from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass(frozen=True)
class Camera:
    """World-to-image projection: ``p_cam = R (P - C)``, then pinhole ``f``, centre ``c``, ``k1``."""

    width: int
    height: int
    f: float
    R: np.ndarray
    C: np.ndarray
    k1: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.width - 1) / 2.0, (self.height - 1) / 2.0)

    @classmethod
    def looking_at(cls, width: int, height: int, f: float, target: np.ndarray, distance: float,
                   tilt_deg: float, azimuth_deg: float, roll_deg: float, k1: float = 0.0) -> Camera:
        """A camera ``distance`` mm from ``target`` on the table, tilted ``tilt_deg`` from vertical."""
        R = _rz(math.radians(roll_deg)) @ _rx(math.radians(tilt_deg)) @ _rz(math.radians(azimuth_deg))
        axis = R.T @ np.array([0.0, 0.0, 1.0])
        C = np.asarray(target, float) - distance * axis
        return cls(width, height, f, R, C, k1)

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) in camera coordinates."""
        return (np.asarray(pts, float) - self.C) @ self.R.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) to distorted image pixels (N, 2)."""
        pc = self.to_camera(pts)
        z = np.maximum(pc[:, 2], 1e-6)
        xn, yn = pc[:, 0] / z, pc[:, 1] / z
        scale = 1.0 + self.k1 * (xn * xn + yn * yn)
        cx, cy = self.centre
        return np.stack([self.f * xn * scale + cx, self.f * yn * scale + cy], axis=1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        """Distance along the optical axis of world points (N, 3)."""
        return self.to_camera(pts)[:, 2]

    def undistort_normalised(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel coordinates to ideal normalised coordinates (inverse of the radial model)."""
        cx, cy = self.centre
        xd, yd = (u - cx) / self.f, (v - cy) / self.f
        xu, yu = xd.copy(), yd.copy()
        if self.k1:
            for _ in range(6):
                scale = 1.0 + self.k1 * (xu * xu + yu * yu)
                xu, yu = xd / scale, yd / scale
        return xu, yu

    def ground_map(self, x0: int, y0: int, w: int, h: int, step: int = 8, origin: tuple[float, float] = (0.0, 0.0),
                   scale: float = 1.0, shift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Table coordinates seen by every pixel of the photo window ``(x0, y0, w, h)``, as
        ``(mm - origin) * scale + shift`` (so a caller gets texture pixel maps directly).

        Computed on a coarse grid and interpolated (the mapping is smooth); pixels looking at or
        above the horizon get finite far-away coordinates."""
        gw, gh = w // step + 2, h // step + 2
        u = x0 + np.arange(gw, dtype=np.float64) * step
        v = y0 + np.arange(gh, dtype=np.float64) * step
        uu, vv = np.meshgrid(u, v)
        xn, yn = self.undistort_normalised(uu, vv)
        rays = np.stack([xn, yn, np.ones_like(xn)], axis=-1) @ self.R  # to world directions
        dz = rays[..., 2]
        t = np.where(dz > 1e-3, -self.C[2] / np.maximum(dz, 1e-3), 1e5)
        gx = ((self.C[0] + t * rays[..., 0] - origin[0]) * scale + shift).astype(np.float32)
        gy = ((self.C[1] + t * rays[..., 1] - origin[1]) * scale + shift).astype(np.float32)
        full_w, full_h = (gw - 1) * step, (gh - 1) * step
        gx = cv2.resize(gx, (full_w + 1, full_h + 1), interpolation=cv2.INTER_LINEAR)[:h, :w]
        gy = cv2.resize(gy, (full_w + 1, full_h + 1), interpolation=cv2.INTER_LINEAR)[:h, :w]
        return gx, gy


def fit_distance(width: int, height: int, f: float, target: np.ndarray, corners: np.ndarray, margin: float,
                 tilt: float, azimuth: float, roll: float, k1: float) -> Camera:
    """The camera nearest the table whose photo holds every ``corners`` point with ``margin``."""
    lo, hi = 10.0, 50000.0
    mx, my = margin * width, margin * height
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        cam = Camera.looking_at(width, height, f, target, mid, tilt, azimuth, roll, k1)
        pc = cam.to_camera(corners)
        if (pc[:, 2] <= 1.0).any():
            lo = mid
            continue
        p = cam.project(corners)
        inside = ((p[:, 0] >= mx) & (p[:, 0] <= width - 1 - mx) & (p[:, 1] >= my)
                  & (p[:, 1] <= height - 1 - my)).all()
        if inside:
            hi = mid
        else:
            lo = mid
    return Camera.looking_at(width, height, f, target, hi, tilt, azimuth, roll, k1)
