"""Shared pieces of the web tests: a sample board, a fake photo reader, JPEGs, API shortcuts."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
from flask import Flask
from flask.testing import FlaskClient

from scorer import Reading, State, parse_state
from web import create_app

#: A small legal base board: start tile D, a city to its north (E turned), a road going east,
#: red's thief on the road, blue's knight in the (completed) north city, red's farmer south.
BOARD: dict[str, Any] = {
    "format": "carcam/state@1", "game": "base", "expansions": [], "options": {},
    "players": ["red", "blue"],
    "tiles": [
        {"at": [0, 0], "tile": "D", "rot": 0},
        {"at": [0, -1], "tile": "E", "rot": 180},
        {"at": [1, 0], "tile": "U", "rot": 0},
        {"at": [2, 0], "tile": "V", "rot": 0},
    ],
    "meeples": [
        {"player": "red", "at": [1, 0], "on": "E"},
        {"player": "blue", "at": [0, -1], "on": "S"},
        {"player": "red", "at": [0, 0], "on": "S"},
    ],
}


def board_state(doc: dict[str, Any] | None = None) -> State:
    return parse_state(doc or BOARD)


def as_reading(state: State, low: tuple[tuple[int, int], ...] = (), warnings: tuple[str, ...] = ()) -> Reading:
    """A reading of ``state`` as the reader would give it: confidences and quads on a 100-px grid."""
    xs = [t.at[0] for t in state.tiles] or [0]
    ys = [t.at[1] for t in state.tiles] or [0]
    x0, y0 = min(xs), min(ys)

    def quad(at: tuple[int, int], inset: float = 0) -> Any:
        x, y = (at[0] - x0) * 100 + 20 + inset, (at[1] - y0) * 100 + 20 + inset
        s = 100 - 2 * inset
        return ((x, y), (x + s, y), (x + s, y + s), (x, y + s))

    tiles = tuple(replace(t, confidence=0.4 if t.at in low else 0.97, quad=quad(t.at)) for t in state.tiles)
    meeples = tuple(replace(m, confidence=0.9, quad=quad(m.at, 35)) for m in state.meeples)
    return Reading(state=replace(state, tiles=tiles, meeples=meeples),
                   image=((max(xs) - x0 + 1) * 100 + 40, (max(ys) - y0 + 1) * 100 + 40), warnings=warnings)


class FakeReader:
    """Stands in for ``vision.reader.BoardReader``: returns the next queued reading."""

    def __init__(self) -> None:
        self.readings: list[Reading] = []
        self.calls: list[dict[str, Any]] = []
        self.default = as_reading(board_state(), low=((2, 0),), warnings=("tile at [2, 0] is hard to see",))

    def read(self, image_bytes: bytes, **kw: Any) -> Reading:
        self.calls.append({"bytes": len(image_bytes), **kw})
        return self.readings.pop(0) if self.readings else self.default


def make_jpeg(width: int = 480, height: int = 360, seed: int = 0) -> bytes:
    """A real JPEG (a table-coloured picture with tile-like squares)."""
    rng = np.random.default_rng(seed)
    img = np.full((height, width, 3), (60, 90, 120), np.uint8)
    for _ in range(12):
        x, y = int(rng.integers(0, width - 60)), int(rng.integers(0, height - 60))
        cv2.rectangle(img, (x, y), (x + 50, y + 50), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def misread() -> Reading:
    """The board with its last tile read at the wrong rotation (V at 270: its road leads nowhere)."""
    doc = {**BOARD, "tiles": [*BOARD["tiles"][:3], {"at": [2, 0], "tile": "V", "rot": 270}]}
    return as_reading(board_state(doc), low=((2, 0),), warnings=("tile at [2, 0] is hard to see",))


def new_game(client: FlaskClient, **kw: Any) -> str:
    body = {"game": "base", "expansions": [], "players": ["red", "blue"], "options": {}, **kw}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.json
    return str(r.json["id"])


def token(client: FlaskClient) -> str:
    return str(client.get("/api/csrf").json["token"])


def upload(client: FlaskClient, gid: str, data: bytes, name: str = "photo.jpg", csrf: str | None = None) -> Any:
    return client.post(f"/api/games/{gid}/photos", data={"photo": (io.BytesIO(data), name)},
                       headers={"X-CSRF-Token": csrf or token(client)}, content_type="multipart/form-data")


def make_app(data_dir: str, reader: Any, follow: bool) -> Flask:
    """An app on a temporary SQLite file with a fake reader; ``follow`` turns on following."""
    return create_app({"TESTING": True, "DATA_DIR": data_dir, "READER": reader,
                       "SECRET_KEY": "test-secret", "FOLLOW": follow})
