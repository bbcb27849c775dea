"""carcam calibration package."""
