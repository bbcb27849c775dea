"""Tile types and the tile catalog, loaded from the JSON data files in ``scorer/data/tiles``.

A tile is a list of segments; each of the twelve edge slots belongs to exactly one segment
(``spec/formats.md``). The loader checks that for every tile and fails loudly on bad data, so a
typo in a data file can never silently change a score.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources
from typing import Any

from .errors import CatalogError
from .geometry import INNER_SLOTS, SLOTS, rotate_slot


class Kind(StrEnum):
    """What a segment is. The first four are the base game's, the rest The Castle's."""

    CITY = "city"
    ROAD = "road"
    FIELD = "field"
    MONASTERY = "monastery"
    PATH = "path"
    TOWER = "tower"
    HOUSE = "house"
    COURT = "court"


BASE_KINDS = frozenset({Kind.CITY, Kind.ROAD, Kind.FIELD, Kind.MONASTERY})
CASTLE_KINDS = frozenset({Kind.PATH, Kind.TOWER, Kind.HOUSE, Kind.COURT})

#: Names of the tile sets shipped as data files, by expansion name used in the formats.
TILE_SETS = ("base", "festival", "tower", "bcb", "castle")
EXPANSIONS = ("festival", "tower", "bcb")

_SEGMENT_KEYS = {"kind", "slots", "shield", "cities", "inn", "no_castle_base", "well", "markets"}


@dataclass(frozen=True)
class Segment:
    """One connected area of a tile: its kind, the slots it owns and its attributes."""

    kind: Kind
    slots: tuple[str, ...]
    shield: bool = False
    cities: tuple[str, ...] = ()
    inn: bool = False
    no_castle_base: bool = False
    well: bool = False
    markets: int = 0

    @cached_property
    def edge_slots(self) -> int:
        """How many of the twelve edge slots the segment owns (C and I are not on an edge)."""
        return sum(1 for s in self.slots if s not in INNER_SLOTS)

    def to_json(self) -> dict[str, Any]:
        """The segment as written in the formats."""
        out: dict[str, Any] = {"kind": self.kind.value, "slots": list(self.slots)}
        if self.shield:
            out["shield"] = True
        if self.cities:
            out["cities"] = list(self.cities)
        if self.inn:
            out["inn"] = True
        if self.no_castle_base:
            out["no_castle_base"] = True
        if self.well:
            out["well"] = True
        if self.markets:
            out["markets"] = self.markets
        return out


@dataclass(frozen=True)
class TileType:
    """A kind of tile: its id (``None`` for an inline tile), segments, box count and extras."""

    id: str | None
    segments: tuple[Segment, ...]
    count: int = 1
    set: str = "inline"
    extras: frozenset[str] = frozenset()
    art: str | None = None
    _slot_segment: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)
    _by_rotation: Mapping[int, Mapping[str, int]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {s: i for i, seg in enumerate(self.segments) for s in seg.slots}
        object.__setattr__(self, "_slot_segment", index)
        # board slot -> segment index for each rotation: placing a tile is then plain lookups
        tables = {rot: {rotate_slot(s, rot): i for s, i in index.items()} for rot in (0, 90, 180, 270)}
        object.__setattr__(self, "_by_rotation", tables)

    def board_slots(self, rot: int) -> Mapping[str, int]:
        """Board slot -> segment index once the tile is turned ``rot`` degrees."""
        return self._by_rotation[rot]

    @property
    def known(self) -> bool:
        """False for the placeholder of an unrecognised tile (``"?"`` in a reading)."""
        return self.id != UNKNOWN_TILE_ID

    @property
    def festival(self) -> bool:
        return "festival" in self.extras

    def segment_index(self, slot: str) -> int | None:
        """Index of the segment that owns printed ``slot`` (or ``C``/``I``), or None."""
        return self._slot_segment.get(slot)

    def segment_index_on_board(self, board_slot: str, rot: int) -> int | None:
        """Index of the segment at ``board_slot`` once the tile is turned ``rot`` degrees."""
        return self._by_rotation[rot].get(board_slot)

    def kind_at(self, slot: str) -> Kind | None:
        i = self._slot_segment.get(slot)
        return None if i is None else self.segments[i].kind

    def name(self) -> str:
        """How the tile is named in messages."""
        return self.id if self.id is not None else "inline tile"

    def to_json(self) -> str | dict[str, Any]:
        """The tile as written in a state: its id, or inline segments."""
        if self.id is not None:
            return self.id
        return {"segments": [s.to_json() for s in self.segments]}

    def rotations(self) -> tuple[int, ...]:
        """The distinct rotations of this tile (a U tile has two, a C tile one)."""
        seen: dict[tuple[Any, ...], int] = {}
        for rot in (0, 90, 180, 270):
            sig = tuple(sorted(
                (seg.kind.value, tuple(sorted(rotate_slot(s, rot) for s in seg.slots)), seg.shield,
                 seg.well, seg.markets)
                for seg in self.segments))
            seen.setdefault(sig, rot)
        return tuple(sorted(seen.values()))


UNKNOWN_TILE_ID = "?"
#: A tile the reader could not recognise: it fills its cell but has no segments, so no edge is
#: checked against it and every feature that runs into it stays open.
UNKNOWN_TILE = TileType(id=UNKNOWN_TILE_ID, segments=(), count=0, set="unknown")


def parse_segment(obj: Any, where: str, kinds: frozenset[Kind] | None = None) -> Segment:
    """Build a :class:`Segment` from its JSON form; ``where`` names it in errors."""
    if not isinstance(obj, dict):
        raise CatalogError(f"{where}: a segment must be an object")
    unknown = set(obj) - _SEGMENT_KEYS
    if unknown:
        raise CatalogError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    try:
        kind = Kind(obj.get("kind"))
    except ValueError:
        raise CatalogError(f"{where}: unknown segment kind {obj.get('kind')!r}") from None
    if kinds is not None and kind not in kinds:
        raise CatalogError(f"{where}: segment kind {kind.value!r} does not belong to this game")
    slots = obj.get("slots")
    if not isinstance(slots, list) or not slots or not all(isinstance(s, str) for s in slots):
        raise CatalogError(f"{where}: 'slots' must be a non-empty list of slot names")
    for s in slots:
        if s not in SLOTS and s not in INNER_SLOTS:
            raise CatalogError(f"{where}: unknown slot {s!r}")
    cities = obj.get("cities", [])
    if not isinstance(cities, list) or not all(isinstance(c, str) for c in cities):
        raise CatalogError(f"{where}: 'cities' must be a list of slots")
    if cities and kind is not Kind.FIELD:
        raise CatalogError(f"{where}: only a field lists the cities it touches")
    markets = obj.get("markets", 0)
    if not isinstance(markets, int) or isinstance(markets, bool) or markets < 0:
        raise CatalogError(f"{where}: 'markets' must be a whole number >= 0")
    if markets and kind is not Kind.COURT:
        raise CatalogError(f"{where}: only a court has markets")
    for flag in ("shield", "inn", "no_castle_base", "well"):
        if not isinstance(obj.get(flag, False), bool):
            raise CatalogError(f"{where}: {flag!r} must be true or false")
    if obj.get("shield") and kind is not Kind.CITY:
        raise CatalogError(f"{where}: only a city has a shield")
    if obj.get("well") and kind is not Kind.PATH:
        raise CatalogError(f"{where}: only a path has a well")
    return Segment(
        kind=kind, slots=tuple(slots), shield=bool(obj.get("shield", False)),
        cities=tuple(cities), inn=bool(obj.get("inn", False)),
        no_castle_base=bool(obj.get("no_castle_base", False)), well=bool(obj.get("well", False)),
        markets=markets,
    )


def validate_tile(tile: TileType, where: str) -> None:
    """Check a tile: each edge slot owned exactly once, inner slots at most once, kinds sane,
    road/path segments on centre slots only, a field's cities exist on the tile."""
    owners: dict[str, int] = {}
    for i, seg in enumerate(tile.segments):
        for s in seg.slots:
            if s in owners:
                raise CatalogError(f"{where}: slot {s} is owned by segments {owners[s]} and {i}")
            owners[s] = i
        if seg.kind in (Kind.MONASTERY,) and seg.slots != ("C",):
            raise CatalogError(f"{where}: a monastery owns exactly slot C")
        if seg.kind in (Kind.ROAD, Kind.PATH) and any(s not in ("N", "E", "S", "W") for s in seg.slots):
            raise CatalogError(f"{where}: a {seg.kind.value} owns only centre slots (N E S W)")
        if "C" in seg.slots and seg.kind is not Kind.MONASTERY:
            raise CatalogError(f"{where}: slot C belongs to a monastery")
    missing = [s for s in SLOTS if s not in owners]
    if missing:
        raise CatalogError(f"{where}: slot {missing[0]} belongs to no segment")
    for i, seg in enumerate(tile.segments):
        for c in seg.cities:
            j = owners.get(c)
            if j is None or tile.segments[j].kind is not Kind.CITY:
                raise CatalogError(f"{where}: segment {i} names city {c}, but no city owns that slot")


def parse_tile(obj: Any, where: str, kinds: frozenset[Kind] | None = None, **meta: Any) -> TileType:
    """Build and validate a :class:`TileType` from ``{"segments": [...]}``."""
    if not isinstance(obj, dict) or not isinstance(obj.get("segments"), list):
        raise CatalogError(f"{where}: a tile needs a 'segments' list")
    segs = tuple(parse_segment(s, f"{where}.segments[{i}]", kinds) for i, s in enumerate(obj["segments"]))
    tile = TileType(segments=segs, **({"id": None} | meta))
    validate_tile(tile, where)
    return tile


@dataclass(frozen=True)
class Catalog:
    """All known tile types by id, with each set's box counts and the base start tile."""

    tiles: Mapping[str, TileType]
    start_tile: str

    def get(self, tile_id: str) -> TileType | None:
        return self.tiles.get(tile_id)

    def tile_set(self, name: str) -> tuple[TileType, ...]:
        return tuple(t for t in self.tiles.values() if t.set == name)

    def box(self, game: str = "base", expansions: Iterable[str] = ()) -> dict[str, int]:
        """How many tiles of each type the box holds for a game with these expansions."""
        sets = ["castle"] if game == "castle" else ["base", *expansions]
        return {t.id: t.count for s in sets for t in self.tile_set(s) if t.id is not None}

    def deck(self, game: str = "base", expansions: Iterable[str] = ()) -> list[str]:
        """The tiles to shuffle: every tile of the box, less the start tile (base game)."""
        out = [tid for tid, n in self.box(game, expansions).items() for _ in range(n)]
        if game == "base":
            out.remove(self.start_tile)
        return out


def _read_set(name: str) -> dict[str, Any]:
    path = resources.files("scorer") / "data" / "tiles" / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"tile set {name!r}: data file missing") from None
    except json.JSONDecodeError as exc:
        raise CatalogError(f"tile set {name!r}: bad JSON ({exc})") from None


def build_catalog(sets: Mapping[str, Mapping[str, Any]]) -> Catalog:
    """Build a catalog from parsed data files (``{set name: file content}``), validating all."""
    tiles: dict[str, TileType] = {}
    start = None
    for set_name, data in sets.items():
        kinds = CASTLE_KINDS if set_name == "castle" else BASE_KINDS
        start = data.get("start_tile", start)
        for i, obj in enumerate(data.get("tiles", [])):
            tid = obj.get("id")
            where = f"tile set {set_name!r}, tile {tid or i}"
            if not isinstance(tid, str) or not tid:
                raise CatalogError(f"{where}: missing id")
            if tid in tiles:
                raise CatalogError(f"{where}: id defined twice")
            count = obj.get("count")
            if not isinstance(count, int) or count < 1:
                raise CatalogError(f"{where}: count must be a whole number >= 1")
            unknown = set(obj) - {"id", "count", "segments", "extras", "art", "name"}
            if unknown:
                raise CatalogError(f"{where}: unknown key {sorted(unknown)[0]!r}")
            tiles[tid] = parse_tile(
                obj, where, kinds, id=tid, count=count, set=set_name,
                extras=frozenset(obj.get("extras", [])), art=obj.get("art"),
            )
    if start is not None and start not in tiles:
        raise CatalogError(f"start tile {start!r} is not in the catalog")
    return Catalog(tiles=tiles, start_tile=start or "D")


@cache
def load_catalog() -> Catalog:
    """The shipped catalog (every set), loaded once and validated."""
    return build_catalog({name: _read_set(name) for name in TILE_SETS if _has_set(name)})


def _has_set(name: str) -> bool:
    return (resources.files("scorer") / "data" / "tiles" / f"{name}.json").is_file()
