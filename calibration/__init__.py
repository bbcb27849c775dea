"""carcam calibration: colour profiles built from the player's own tile photos with known truth."""

from .profile import PROFILE_FORMAT, build_profile, load_profile

__all__ = ["PROFILE_FORMAT", "build_profile", "load_profile"]
