"""Stage 1: load a photo safely and bring it to a bounded working resolution.

Phone photos carry their orientation in EXIF; ``cv2.imdecode`` with ``IMREAD_COLOR`` applies it,
so the decoded pixels are upright as the player saw them. The pixel count is checked from the
header before decoding, so a decompression bomb is refused without allocating it.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageTooLargeError, ImageTooSmallError, NotAnImageError


@dataclass(frozen=True)
class LoadedImage:
    """The decoded photo (BGR, upright) and a copy scaled to the working resolution."""

    full: np.ndarray  # decoded pixels (possibly reduced 2x/4x/8x at decode time when ``fast``)
    work: np.ndarray
    scale: float  # work pixels per pixel of the original photo
    orig_size: tuple[int, int] = (0, 0)  # (width, height) of the original photo

    @property
    def size(self) -> tuple[int, int]:
        return self.orig_size


def read_bytes(src: bytes | bytearray | str | os.PathLike[str] | np.ndarray) -> bytes | np.ndarray:
    """The raw bytes of a path, or the bytes / array given."""
    if isinstance(src, np.ndarray):
        return src
    if isinstance(src, (bytes, bytearray)):
        return bytes(src)
    path = Path(src)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise NotAnImageError(f"cannot read {path}: {exc.strerror or exc}") from None


def header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, without decoding (None if not found)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:2] == b"\xff\xd8":
        i = 2
        n = len(data)
        while i + 4 <= n:
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 2 if marker != 0xFF else 1
                continue
            seg_len = struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                if i + 9 <= n:
                    h, w = struct.unpack(">HH", data[i + 5:i + 9])
                    return int(w), int(h)
                return None
            i += 2 + seg_len
    return None


def load_image(src: bytes | bytearray | str | os.PathLike[str] | np.ndarray, max_pixels: int = 80_000_000,
               min_side: int = 200, work_side: int = 1400, fast: bool = False) -> LoadedImage:
    """Decode a photo (EXIF orientation applied), refusing non-images, truncated files and
    images over ``max_pixels``; scale a working copy so its long side is at most ``work_side``.
    With ``fast`` a large JPEG is decoded at 1/2, 1/4 or 1/8 size straight away (much faster;
    the reader only needs the working resolution)."""
    reduce = 1
    data = read_bytes(src)
    if isinstance(data, np.ndarray):
        img = data
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        if img.ndim != 3 or img.shape[2] not in (3, 4) or img.dtype != np.uint8:
            raise NotAnImageError("the image array must be 8-bit BGR")
        if img.shape[2] == 4:
            img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    else:
        if len(data) < 32:
            raise NotAnImageError("the file is empty or too short to be a photo; send a JPEG or PNG photo")
        size = header_size(data)
        if size is not None and size[0] * size[1] > max_pixels:
            raise ImageTooLargeError(
                f"the photo has {size[0]}x{size[1]} pixels, more than {max_pixels // 1_000_000} MP; "
                "send a smaller photo")
        if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-1024:]:
            raise NotAnImageError("the JPEG file is truncated (incomplete upload?); send the photo again")
        buf = np.frombuffer(data, dtype=np.uint8)
        flag = cv2.IMREAD_COLOR
        if fast and size is not None and data[:2] == b"\xff\xd8":
            for r, f in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                         (2, cv2.IMREAD_REDUCED_COLOR_2)):
                if max(size) / r >= work_side:
                    reduce, flag = r, f
                    break
        img = cv2.imdecode(buf, flag)
        if img is None:
            raise NotAnImageError("the file is not a photo carcam can read; send a JPEG or PNG photo")
    h, w = img.shape[:2]
    if reduce > 1:
        # the original size, oriented as decoded (EXIF may have swapped the sides)
        sw, sh = size  # type: ignore[misc]
        ow, oh = (sw, sh) if (w >= h) == (sw >= sh) else (sh, sw)
    else:
        ow, oh = w, h
    if h * w > max_pixels:
        raise ImageTooLargeError(f"the photo has {w}x{h} pixels, more than {max_pixels // 1_000_000} MP; "
                                 "send a smaller photo")
    if min(oh, ow) < min_side:
        raise ImageTooSmallError(f"the photo is only {ow}x{oh} pixels; take it at a higher resolution")
    s = min(1.0, work_side / max(h, w))
    work = img if s == 1.0 else cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    scale = work.shape[1] / ow
    return LoadedImage(full=img, work=work, scale=scale, orig_size=(ow, oh))
