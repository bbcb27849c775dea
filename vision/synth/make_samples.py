"""Regenerate ``sample_images/``: small synthetic photos with their truth, procedural art only.

Run from the repository root: ``.venv/bin/python -m vision.synth.make_samples``. The classic
scans are never used here (licensing); each photo is about 1600x1200 and under 600 KB.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from .params import OpticsParams, preset
from .positions import random_castle_state, random_state
from .scene import generate
from .write import write_photo

ROOT = Path(__file__).resolve().parents[2] / "sample_images"
SIZE = (1600, 1200)
MAX_BYTES = 600_000


def _params():
    base = preset("default").with_size(*SIZE).with_art("procedural")
    return replace(base, optics=replace(OpticsParams(), jpeg_quality=(82, 86), noise_sigma=(1.0, 3.0),
                                        motion_prob=0.0))


def main(root: Path = ROOT) -> int:
    """Write base-midgame, base-final and castle-midgame into ``root``."""
    params = _params()
    jobs = {
        "base-midgame": (random_state(21, tiles=35, players=3), 5),
        "base-final": (random_state(4, tiles=72, players=4), 11),
        "castle-midgame": (random_castle_state(8, tiles=40), 2),
    }
    for name, (state, seed) in jobs.items():
        photo = generate(state, params, seed=seed)
        jpg, _ = write_photo(photo, root / name)
        size = jpg.stat().st_size
        print(f"{name}: {len(state.tiles)} tiles, {len(state.meeples)} meeples, {size // 1000} KB")
        if size > MAX_BYTES:
            print(f"{name}: photo over {MAX_BYTES} bytes", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
