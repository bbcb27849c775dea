"""Stage 7: draw a reading onto the photo: each cell's label and confidence, each figure, and
doubtful cells in red, so a player can see at a glance what carcam read and where it hesitates."""

from __future__ import annotations

import cv2
import numpy as np

from scorer import Reading

_BGR = {"red": (40, 40, 230), "blue": (230, 80, 30), "green": (40, 180, 40), "yellow": (30, 220, 240),
        "black": (20, 20, 20), "grey": (150, 150, 150), "white": (250, 250, 250)}


def draw_overlay(image: np.ndarray, reading: Reading, doubtful_below: float = 0.6) -> np.ndarray:
    """A copy of ``image`` (BGR, full size) with the reading drawn on it."""
    out = image.copy()
    h, w = out.shape[:2]
    th = max(1, int(round(max(h, w) / 700)))
    fs = max(0.4, max(h, w) / 2400)
    for t in reading.state.tiles:
        if t.quad is None:
            continue
        q = np.array(t.quad, dtype=np.int32)
        conf = t.confidence if t.confidence is not None else 1.0
        colour = (0, 0, 255) if conf < doubtful_below or not t.tile.known else (255, 255, 0)
        cv2.polylines(out, [q], True, colour, th)
        cx, cy = q.mean(0).astype(int)
        label = f"{t.tile.id}{t.rot if t.tile.known else ''}"
        for col, wgt in (((0, 0, 0), th + 2), ((255, 255, 255), th)):
            cv2.putText(out, label, (cx - int(30 * fs), cy), cv2.FONT_HERSHEY_SIMPLEX, fs, col, wgt, cv2.LINE_AA)
            cv2.putText(out, f"{conf:.2f}", (cx - int(30 * fs), cy + int(30 * fs)), cv2.FONT_HERSHEY_SIMPLEX,
                        fs * 0.7, col, wgt, cv2.LINE_AA)
    for m in reading.state.meeples:
        if m.quad is None:
            continue
        q = np.array(m.quad, dtype=np.int32)
        cv2.polylines(out, [q], True, _BGR.get(m.player, (255, 0, 255)), th + 1)
        x, y = q[0]
        cv2.putText(out, f"{m.player[:2]} {m.on}", (int(x), int(y) - 4), cv2.FONT_HERSHEY_SIMPLEX, fs * 0.8,
                    (255, 255, 255), th, cv2.LINE_AA)
    return out
