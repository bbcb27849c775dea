"""The tile catalog: counts from tiles.md and the rulebook, and loud failures on bad data."""

from __future__ import annotations

import pytest

from scorer import CatalogError, load_catalog
from scorer.catalog import build_catalog
from scorer.geometry import SLOTS


def test_box_counts_match_the_rulebooks() -> None:
    cat = load_catalog()
    base = cat.box("base")
    assert len(base) == 24 and sum(base.values()) == 72
    assert base == {"A": 2, "B": 4, "C": 1, "D": 4, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3,
                    "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9,
                    "W": 4, "X": 1}
    assert len(cat.tile_set("festival")) == 10 and sum(t.count for t in cat.tile_set("festival")) == 10
    assert len(cat.tile_set("tower")) == 17 and sum(t.count for t in cat.tile_set("tower")) == 18
    assert len(cat.tile_set("bcb")) == 11 and sum(t.count for t in cat.tile_set("bcb")) == 12
    assert sum(1 for t in cat.tile_set("bcb") for _ in range(t.count) if "bazaar" in t.extras) == 8
    assert cat.start_tile == "D" and len(cat.deck("base")) == 71
    assert all(t.festival for t in cat.tile_set("festival"))


def test_every_tile_owns_every_slot_once_and_shields_are_where_the_art_has_them() -> None:
    cat = load_catalog()
    for tile in cat.tiles.values():
        owned = [s for seg in tile.segments for s in seg.slots if s in SLOTS]
        assert sorted(owned) == sorted(SLOTS), tile.id
    shields = {t.id for t in cat.tiles.values() if any(s.shield for s in t.segments)}
    assert shields == {"C", "F", "M", "O", "Q", "S", "TO/CccC+"}


def test_rotations_of_symmetric_tiles() -> None:
    cat = load_catalog()
    assert cat.get("C").rotations() == (0,)
    assert cat.get("B").rotations() == (0,)
    assert cat.get("U").rotations() == (0, 90)
    assert cat.get("D").rotations() == (0, 90, 180, 270)


@pytest.mark.parametrize("segments, message", [
    ([{"kind": "field", "slots": list(SLOTS)}, {"kind": "road", "slots": ["N"]}], "slot N is owned by segments 0 and 1"),
    ([{"kind": "field", "slots": list(SLOTS[1:])}], "slot Nw belongs to no segment"),
    ([{"kind": "field", "slots": list(SLOTS), "cities": ["N"]}], "names city N, but no city owns that slot"),
    ([{"kind": "forest", "slots": list(SLOTS)}], "unknown segment kind 'forest'"),
    ([{"kind": "road", "slots": ["Nw", "N", "Ne"]}, {"kind": "field", "slots": list(SLOTS[3:])}], "owns only centre slots"),
])
def test_bad_tile_data_fails_loudly(segments, message) -> None:
    data = {"base": {"start_tile": "Z", "tiles": [{"id": "Z", "count": 1, "segments": segments}]}}
    with pytest.raises(CatalogError, match=message):
        build_catalog(data)


def test_bad_counts_and_duplicate_ids_fail() -> None:
    seg = [{"kind": "field", "slots": list(SLOTS)}]
    with pytest.raises(CatalogError, match="count"):
        build_catalog({"base": {"tiles": [{"id": "Z", "count": 0, "segments": seg}]}})
    with pytest.raises(CatalogError, match="defined twice"):
        build_catalog({"base": {"tiles": [{"id": "Z", "count": 1, "segments": seg}] * 2}})


def test_joined_reaches_through_whole_edges_only() -> None:
    """The start cells plus the cells chained to them by whole edges; a corner touch joins nothing."""
    from scorer.geometry import joined
    cells = {(1, 0), (2, 0), (2, 1), (4, 0), (1, 1), (3, 2)}
    assert joined({(0, 0)}, cells) == {(0, 0), (1, 0), (2, 0), (2, 1), (1, 1)}
    assert joined(set(), cells) == set()
