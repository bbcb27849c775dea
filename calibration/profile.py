"""Calibration: a colour profile built from the player's own tile photos with known truth.

``build_profile`` reads each photo with the default reader, lays the truth over the found grid
(best alignment up to translation and quarter turns), and collects the Lab colours of the pixels
where the truth's rendered class map says field, city, road or other. The medians become the
profile's prototypes, which the reader then uses instead of the built-in ones (still adapted to
each photo). Simple, but it captures a print run's greens and browns and a table's light.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from scorer import State
from vision.classify import warp_board
from vision.colours import to_lab
from vision.compare import compare
from vision.errors import ProfileError
from vision.reader import BoardReader
from vision.templates import CLASSES, render, rotate_map

PROFILE_FORMAT = "carcam/vision-profile@1"


def build_profile(photos: list[tuple[str | bytes, State]], reader: BoardReader | None = None) -> dict[str, Any]:
    """A profile (JSON-ready dict) from photos paired with their true states."""
    reader = reader or BoardReader()
    cfg = reader.cfg
    samples: dict[str, list[np.ndarray]] = {c: [] for c in CLASSES}
    used = 0
    for src, truth in photos:
        # the very grid the reading was made on: re-locating could pick another hypothesis
        detail = reader.read_detail(src, game=truth.game, expansions=truth.expansions)
        reading, grid = detail.reading, detail.grid
        m = compare(reading.state, truth)
        patch = int(cfg["classify"]["patch"])
        top = to_lab(warp_board(detail.work, grid, patch))
        c0, r0 = detail.origin
        # the reading's cells -> truth cells by the alignment found, so truth tiles map back
        from scorer.geometry import rotate_cell
        truth_at = {t.at: t for t in truth.tiles}
        for t in reading.state.tiles:
            x, y = rotate_cell(t.at, m.rot)
            tt = truth_at.get((x + m.shift[0], y + m.shift[1]))
            if tt is None or not tt.tile.known:
                continue
            classes, _ = render(tt.tile, patch, cfg["classify"])
            classes = rotate_map(classes, (tt.rot - m.rot) % 360)
            gi, gj = t.at[0] + c0 - grid.cols.start, t.at[1] + r0 - grid.rows.start
            cell = top[gj * patch:(gj + 1) * patch, gi * patch:(gi + 1) * patch]
            if cell.shape[:2] != (patch, patch):
                continue
            for k, name in enumerate(CLASSES):
                px = cell[classes == k]
                if len(px):
                    samples[name].append(px[:: max(1, len(px) // 200)])
        used += 1
    protos = {}
    for name in CLASSES:
        if samples[name]:
            protos[name] = [round(float(v), 1) for v in np.median(np.concatenate(samples[name]), axis=0)]
        else:
            protos[name] = list(cfg["colours"]["prototypes"][name])
    return {"format": PROFILE_FORMAT, "photos": used, "prototypes": protos}


def load_profile(path: str | Path) -> dict[str, Any]:
    """Read and check a profile file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ProfileError(f"cannot read calibration profile {path}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != PROFILE_FORMAT:
        raise ProfileError(f"{path} is not a carcam calibration profile ({PROFILE_FORMAT})")
    protos = doc.get("prototypes")
    if not isinstance(protos, dict) or set(protos) != set(CLASSES) or not all(
            isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) for x in v)
            for v in protos.values()):
        raise ProfileError(f"{path}: 'prototypes' must give a Lab colour for each of {', '.join(CLASSES)}")
    unknown = set(doc) - {"format", "photos", "prototypes"}
    if unknown:
        raise ProfileError(f"{path}: unknown key {sorted(unknown)[0]!r}")
    return doc
