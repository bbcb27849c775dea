"""Knobs of the synthetic photo generator, one dataclass per factor, and the named presets.

Every factor that makes a real table photo hard (tilt, light, blur, noise, table, sloppy tiles)
has its own dataclass of ranges. A generated photo draws concrete values from these ranges with
the photo's seeded random generator, so a preset describes a *mix* of photos, not one photo.
Ranges are ``(low, high)`` pairs, sampled uniformly; a pair with equal ends is a fixed value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

Range = tuple[float, float]

#: Size of a real tile, millimetres.
TILE_MM = 45.0


@dataclass(frozen=True)
class CameraParams:
    """Pinhole phone camera: tilt from straight down, in-plane rotation, focal length, lens."""

    tilt_deg: Range = (0.0, 45.0)
    #: direction the camera looks from, around the board (degrees)
    azimuth_deg: Range = (0.0, 360.0)
    #: in-plane rotation of the photo (degrees)
    roll_deg: Range = (-180.0, 180.0)
    #: 35 mm-equivalent focal length (phone main cameras are about 24-28 mm)
    focal_eq_mm: Range = (23.0, 30.0)
    #: radial distortion k1 (normalised coordinates); phones correct most of it
    k1: Range = (-0.04, 0.04)
    #: free space between the board and the photo border, as a fraction of the photo size
    margin: Range = (0.04, 0.18)
    #: aim point offset from the board centre, as a fraction of the board size
    aim_jitter: float = 0.05


@dataclass(frozen=True)
class LightParams:
    """Light falling on the table: overall level, gradient, colour temperature, glare, shadows."""

    exposure: Range = (0.85, 1.12)
    #: strength of the low-frequency brightness variation across the photo (0 = even)
    unevenness: Range = (0.0, 0.35)
    #: colour temperature in kelvin; the white balance is assumed set for 5500 K
    kelvin: Range = (3200.0, 7000.0)
    #: probability of glare spots, and how many at most
    glare_prob: float = 0.4
    glare_max: int = 2
    glare_strength: Range = (40.0, 140.0)
    #: probability of a large soft shadow (a person or a lamp) and its darkness
    soft_shadow_prob: float = 0.35
    soft_shadow_depth: Range = (0.15, 0.45)
    #: elevation of the main light above the table (degrees) for figure shadows and shading
    light_elevation_deg: Range = (35.0, 80.0)
    figure_shadow_opacity: Range = (0.25, 0.55)


@dataclass(frozen=True)
class OpticsParams:
    """What the lens and sensor do to the photo: defocus, motion blur, noise, JPEG."""

    defocus_sigma_px: Range = (0.0, 1.6)
    motion_prob: float = 0.25
    motion_len_px: Range = (2.0, 7.0)
    noise_sigma: Range = (1.0, 6.0)
    jpeg_quality: tuple[int, int] = (60, 95)


@dataclass(frozen=True)
class TableParams:
    """The surface the tiles lie on."""

    surfaces: tuple[str, ...] = ("wood", "cloth", "gloss")


@dataclass(frozen=True)
class LayoutParams:
    """How sloppily the tiles are laid: gaps between them and small twists (real tables)."""

    gap_mm: Range = (0.3, 1.8)
    jitter_mm: float = 0.6
    twist_deg: float = 1.5


@dataclass(frozen=True)
class ArtParams:
    """Which tile art to draw: ``procedural`` always works; ``scans`` uses the classic scans
    when the art folder is present (and falls back to procedural per tile)."""

    style: str = "procedural"
    scans_dir: str | None = None
    #: tile raster size limits (pixels per tile) for the top-down board render
    min_tile_px: int = 48
    max_tile_px: int = 224
    #: tile rasters are drawn at multiples of this size, so cached rasters serve many photos
    tile_px_step: int = 16


@dataclass(frozen=True)
class OutputParams:
    """Photo size in megapixels (4:3, landscape or portrait)."""

    megapixels: Range = (1.0, 12.0)
    aspect: float = 4.0 / 3.0
    portrait_prob: float = 0.3
    #: fixed size (width, height) overriding ``megapixels``, e.g. for tests and samples
    size: tuple[int, int] | None = None


@dataclass(frozen=True)
class SynthParams:
    """All the knobs of one photo mix."""

    camera: CameraParams = field(default_factory=CameraParams)
    light: LightParams = field(default_factory=LightParams)
    optics: OpticsParams = field(default_factory=OpticsParams)
    table: TableParams = field(default_factory=TableParams)
    layout: LayoutParams = field(default_factory=LayoutParams)
    art: ArtParams = field(default_factory=ArtParams)
    output: OutputParams = field(default_factory=OutputParams)

    def with_size(self, width: int, height: int) -> SynthParams:
        """The same mix at a fixed photo size."""
        return replace(self, output=replace(self.output, size=(int(width), int(height))))

    def with_art(self, style: str, scans_dir: str | None = None) -> SynthParams:
        """The same mix with another tile art."""
        return replace(self, art=replace(self.art, style=style, scans_dir=scans_dir))


def _easy() -> SynthParams:
    return SynthParams(
        camera=CameraParams(tilt_deg=(0.0, 8.0), roll_deg=(-10.0, 10.0), k1=(0.0, 0.0), margin=(0.06, 0.12)),
        light=LightParams(exposure=(0.95, 1.05), unevenness=(0.0, 0.1), kelvin=(5000.0, 6000.0),
                          glare_prob=0.0, soft_shadow_prob=0.0),
        optics=OpticsParams(defocus_sigma_px=(0.0, 0.5), motion_prob=0.0, noise_sigma=(0.5, 2.0),
                            jpeg_quality=(88, 95)),
        layout=LayoutParams(gap_mm=(0.3, 0.8), jitter_mm=0.2, twist_deg=0.5),
    )


def _hard() -> SynthParams:
    return SynthParams(
        camera=CameraParams(tilt_deg=(25.0, 50.0), k1=(-0.06, 0.06), margin=(0.02, 0.08)),
        light=LightParams(exposure=(0.7, 1.2), unevenness=(0.25, 0.5), kelvin=(2800.0, 7500.0),
                          glare_prob=0.8, glare_max=3, soft_shadow_prob=0.6),
        optics=OpticsParams(defocus_sigma_px=(0.8, 2.2), motion_prob=0.5, noise_sigma=(4.0, 9.0),
                            jpeg_quality=(60, 75)),
        layout=LayoutParams(gap_mm=(0.8, 2.0), jitter_mm=0.9, twist_deg=2.5),
    )


#: Named mixes. ``default`` is what the benchmarks use (tilt up to 45 degrees).
PRESETS: dict[str, SynthParams] = {
    "default": SynthParams(),
    "easy": _easy(),
    "hard": _hard(),
}


def preset(name: str = "default", **overrides: Any) -> SynthParams:
    """A named preset, optionally with whole factor dataclasses replaced (``camera=...``)."""
    from .errors import SynthError

    if name not in PRESETS:
        raise SynthError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    return replace(PRESETS[name], **overrides) if overrides else PRESETS[name]
