"""Errors of the synthetic photo generator (bad input: one line on the command line, exit 2)."""

from __future__ import annotations

from scorer import CarcamError


class SynthError(CarcamError):
    """A synthetic photo cannot be made as asked (unknown preset, castle engine missing...)."""
