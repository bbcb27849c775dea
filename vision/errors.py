"""Typed errors of the vision pipeline.

Every error is a :class:`scorer.CarcamError`, so the command line prints it as one line (exit 2)
and the web app returns it as a 4xx body. Each message tells the player what to change.
"""

from __future__ import annotations

from scorer import CarcamError


class VisionError(CarcamError):
    """Base class of every error the photo reader raises."""


class NotAnImageError(VisionError):
    """The input is not a decodable image (wrong file, truncated upload...)."""


class ImageTooLargeError(VisionError):
    """The image has more pixels than the reader accepts (a decompression bomb guard)."""


class ImageTooSmallError(VisionError):
    """The image is too small to read tiles from."""


class BoardNotFoundError(VisionError):
    """No tiles were found in the photo."""


class TooBlurredError(VisionError):
    """The photo is too blurred to read the tiles."""


class ProfileError(VisionError):
    """A calibration profile is missing, malformed or of the wrong format."""
