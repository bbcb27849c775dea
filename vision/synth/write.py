"""Writing a synthetic photo to disk: ``photo.jpg`` and ``truth.json`` in a folder."""

from __future__ import annotations

import json
from pathlib import Path

from scorer import reading_to_json

from .scene import SynthPhoto


def write_photo(photo: SynthPhoto, folder: str | Path) -> tuple[Path, Path]:
    """Write ``photo.jpg`` (the JPEG bytes) and ``truth.json`` (carcam/reading@1) into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    jpg, truth = out / "photo.jpg", out / "truth.json"
    jpg.write_bytes(photo.jpeg)
    truth.write_text(json.dumps(reading_to_json(photo.reading), indent=1) + "\n", encoding="utf-8")
    return jpg, truth
