"""Synthetic table photos with ground truth (issue 5).

No labelled set of real table photos exists, so carcam makes its own: random legal positions
played by the rules engine, tiles drawn procedurally (or from the classic scans), wooden pieces
as 3-D solids, a pinhole phone camera over a textured table, light, blur, noise and JPEG. The
truth is a ``carcam/reading@1`` whose values are exact: the state plus every tile's and
meeple's image quad, confidence 1.0.

API::

    from vision.synth import generate, preset
    photo = generate(7, preset("default"), seed=7, tiles=40)   # random base game, 40 tiles
    photo = generate(state, "hard", seed=3)                    # a given scorer.State
    photo.jpeg, photo.image, photo.reading, photo.shot
"""

from .errors import SynthError
from .params import (
                     PRESETS,
                     ArtParams,
                     CameraParams,
                     LayoutParams,
                     LightParams,
                     OpticsParams,
                     OutputParams,
                     SynthParams,
                     TableParams,
                     preset,
)
from .positions import random_castle_state, random_state, record_states
from .scene import Shot, SynthPhoto, generate
from .tileart import ScanArt, load_scans, render_tile, segment_point
from .write import write_photo

presets = PRESETS

__all__ = [
    "SynthError", "PRESETS", "presets", "ArtParams", "CameraParams", "LayoutParams", "LightParams", "OpticsParams",
    "OutputParams", "SynthParams", "TableParams", "preset", "random_castle_state", "random_state", "record_states",
    "Shot", "SynthPhoto", "generate", "ScanArt", "load_scans", "render_tile", "segment_point", "write_photo",
]
