"""Thresholds of the vision pipeline, as JSON files (``default.json``), not code."""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _default() -> dict[str, Any]:
    text = (resources.files("vision.config") / "default.json").read_text(encoding="utf-8")
    return json.loads(text)


def load_config(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The default configuration, with ``overrides`` merged in (nested dicts merge key by key)."""
    cfg = copy.deepcopy(_default())
    if overrides:
        _merge(cfg, overrides)
    return cfg


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> None:
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            _merge(base[k], v)
        else:
            base[k] = v
