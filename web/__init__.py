"""carcam web package."""
