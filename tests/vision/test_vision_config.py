"""The vision settings file: every setting is named once (JSON lets a later key silently
replace an earlier one of the same name, as a new ``outline_close_frac`` once replaced the
mask-segment setting of that name), and overrides merge key by key."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from vision.config import load_config


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"settings named twice in one section: {twice}"
    return dict(pairs)


def test_every_setting_is_named_once_per_section() -> None:
    text = (resources.files("vision.config") / "default.json").read_text(encoding="utf-8")
    json.loads(text, object_pairs_hook=_no_duplicates)


def test_the_duplicate_check_catches_a_repeated_key() -> None:
    try:
        json.loads('{"locate": {"a": 1, "a": 2}}', object_pairs_hook=_no_duplicates)
    except AssertionError as exc:
        assert "['a']" in str(exc)
    else:
        raise AssertionError("a repeated key passed")


def test_overrides_merge_key_by_key() -> None:
    cfg = load_config({"locate": {"polygon_keep": 0}})
    assert cfg["locate"]["polygon_keep"] == 0
    assert cfg["locate"]["outline_close_frac"] == load_config()["locate"]["outline_close_frac"]
