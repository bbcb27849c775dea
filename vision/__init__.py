"""carcam vision package."""
