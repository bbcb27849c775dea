"""The JSON formats of ``spec/formats.md``: parsing with strict checks, and writing.

Parsing is strict: an unknown format, version or key is an error, as is a value of the wrong
type. Every error is a :class:`FormatError` whose one-line message names the item by its path
in the document (``tiles[3].rot``), so a player can find and fix it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .base_rules import OPTIONS as BASE_OPTIONS
from .base_rules import PLAYER_COLOURS
from .catalog import EXPANSIONS, UNKNOWN_TILE, UNKNOWN_TILE_ID, Catalog, TileType, load_catalog, parse_tile
from .errors import CarcamError, CatalogError, FormatError
from .geometry import ALL_SLOTS, EDGES, ROTATIONS, Cell

STATE = "carcam/state@1"
READING = "carcam/reading@1"
GAME = "carcam/game@1"
SCORE = "carcam/score@1"
KNOWN_FORMATS = (STATE, READING, GAME, SCORE)
GAMES = ("base", "castle")
CASTLE_COLOURS = ("black", "white")
COLOURS = PLAYER_COLOURS + ("white",)

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


# ---------------------------------------------------------------------------------------------
# typed documents
@dataclass(frozen=True)
class TileEntry:
    """A tile of a state: where, which, how turned (and, in a reading, how sure and where seen)."""

    at: Cell
    tile: TileType
    rot: int = 0
    confidence: float | None = None
    quad: Quad | None = None


@dataclass(frozen=True)
class MeepleEntry:
    """A follower of a state: whose, on which cell and slot (board orientation)."""

    player: str
    at: Cell
    on: str
    confidence: float | None = None
    quad: Quad | None = None


@dataclass(frozen=True)
class State:
    """``carcam/state@1``: what a photo shows plus what it cannot (track, held pieces)."""

    game: str = "base"
    expansions: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    tiles: tuple[TileEntry, ...] = ()
    meeples: tuple[MeepleEntry, ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)
    towers: tuple[Mapping[str, Any], ...] = ()
    prisoners: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    bridges: tuple[Mapping[str, Any], ...] = ()
    castles: tuple[Mapping[str, Any], ...] = ()
    layout: Any = None
    palas: Mapping[str, Cell] = field(default_factory=dict)
    wall_tiles: Mapping[str, Mapping[str, tuple[int, ...]]] = field(default_factory=dict)
    corner_tiles: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Reading:
    """``carcam/reading@1``: a state read from a photo, with confidences, quads and warnings."""

    state: State
    image: tuple[int, int]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """One turn of a game record."""

    player: str
    tile: TileType | None
    at: Cell | None
    rot: int = 0
    meeple: str | None = None
    take_back: tuple[Cell, str] | None = None
    discarded: bool = False
    wall_tiles_used: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRecord:
    """``carcam/game@1``: a game turn by turn."""

    game: str
    expansions: tuple[str, ...]
    options: Mapping[str, Any]
    players: tuple[str, ...]
    start: TileEntry | None
    turns: tuple[Turn, ...]
    layout: Any = None
    corner_tiles: Mapping[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# small checkers
def _keys(obj: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise FormatError(f"{path or 'document'}: expected an object, got {type(obj).__name__}")
    for k in required:
        if k not in obj:
            raise FormatError(f"{_join(path, k)}: missing")
    for k in obj:
        if k not in required and k not in optional:
            raise FormatError(f"{_join(path, k)}: unknown key")
    return obj


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _list(obj: Any, path: str) -> list[Any]:
    if not isinstance(obj, list):
        raise FormatError(f"{path}: expected a list")
    return obj


def _int(obj: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise FormatError(f"{path}: expected a whole number, got {json.dumps(obj)}")
    if (lo is not None and obj < lo) or (hi is not None and obj > hi):
        raise FormatError(f"{path}: {obj} is outside {lo}..{hi}")
    return obj


def _cell(obj: Any, path: str) -> Cell:
    if (not isinstance(obj, list) or len(obj) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise FormatError(f"{path}: a cell is a pair of whole numbers [x, y], got {json.dumps(obj)}")
    return (obj[0], obj[1])


def _rot(obj: Any, path: str) -> int:
    if obj not in ROTATIONS or isinstance(obj, bool):
        raise FormatError(f"{path}: rotation {json.dumps(obj)} is not 0/90/180/270")
    return int(obj)


def _slot(obj: Any, path: str) -> str:
    if obj not in ALL_SLOTS:
        raise FormatError(f"{path}: unknown slot {json.dumps(obj)} (slots: {' '.join(ALL_SLOTS)})")
    return str(obj)


def _confidence(obj: Any, path: str) -> float:
    if not isinstance(obj, (int, float)) or isinstance(obj, bool) or not 0 <= obj <= 1:
        raise FormatError(f"{path}: confidence must be a number in 0..1")
    return float(obj)


def _quad(obj: Any, path: str) -> Quad:
    if (not isinstance(obj, list) or len(obj) != 4 or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)
            for p in obj)):
        raise FormatError(f"{path}: a quad is four [x, y] image points")
    return tuple((float(p[0]), float(p[1])) for p in obj)  # type: ignore[return-value]


def _player(obj: Any, path: str, players: tuple[str, ...]) -> str:
    if obj not in players:
        raise FormatError(f"{path}: player {json.dumps(obj)} is not in players {list(players)}")
    return str(obj)


def resolve_tile(ref: Any, path: str, game: str, catalog: Catalog | None = None,
                 allow_unknown: bool = False) -> TileType:
    """A tile named by id (``"D"``, ``"FE/CRr"``) or given inline as ``{"segments": [...]}``."""
    catalog = catalog or load_catalog()
    if isinstance(ref, str):
        if ref == UNKNOWN_TILE_ID and allow_unknown:
            return UNKNOWN_TILE
        tile = catalog.get(ref)
        if tile is None:
            raise FormatError(f"{path}: unknown tile id {json.dumps(ref)}")
        if (game == "castle") != (tile.set == "castle"):
            raise FormatError(f"{path}: tile {ref} does not belong to the {game} game")
        return tile
    if isinstance(ref, dict):
        from .catalog import BASE_KINDS, CASTLE_KINDS
        try:
            return parse_tile(ref, path, CASTLE_KINDS if game == "castle" else BASE_KINDS)
        except CatalogError as exc:
            raise FormatError(str(exc)) from None
    raise FormatError(f"{path}: a tile is an id or {{\"segments\": [...]}}")


def _options(obj: Any, path: str, game: str) -> dict[str, Any]:
    allowed = _options_for(game)
    obj = _keys(obj, path, (), tuple(allowed))
    for k, v in obj.items():
        if not isinstance(v, allowed[k]) or (allowed[k] is int and isinstance(v, bool)):
            raise FormatError(f"{_join(path, k)}: expected {allowed[k].__name__}")
    return dict(obj)


def _options_for(game: str) -> Mapping[str, type]:
    if game == "castle":
        from .castle_rules import OPTIONS as CASTLE_OPTIONS
        return CASTLE_OPTIONS
    return BASE_OPTIONS


def _header(obj: Any, fmt: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """Check format, game, expansions and players common to states and records."""
    game = obj.get("game", "base")
    if game not in GAMES:
        raise FormatError(f"game: unknown game {json.dumps(game)} (known: {', '.join(GAMES)})")
    exps = _list(obj.get("expansions", []), "expansions")
    for i, e in enumerate(exps):
        if e not in EXPANSIONS:
            raise FormatError(f"expansions[{i}]: unknown expansion {json.dumps(e)} (known: {', '.join(EXPANSIONS)})")
        if game == "castle":
            raise FormatError(f"expansions[{i}]: The Castle takes no expansions")
    if len(set(exps)) != len(exps):
        raise FormatError("expansions: an expansion is listed twice")
    players = _list(obj.get("players", []), "players")
    colours = COLOURS
    for i, p in enumerate(players):
        if p not in colours:
            raise FormatError(f"players[{i}]: unknown colour {json.dumps(p)} (colours: {', '.join(colours)})")
    if len(set(players)) != len(players):
        raise FormatError("players: a colour is listed twice")
    if game == "castle" and len(players) > 2:
        raise FormatError(f"players[2]: The Castle is for two players, got {len(players)}")
    if game == "base" and len(players) > 6:
        raise FormatError("players: at most 6 players")
    return game, tuple(exps), tuple(players)


def check_format(obj: Any, *expected: str) -> str:
    """The document's ``format``, checked against the expected ones."""
    if not isinstance(obj, dict):
        raise FormatError("document: expected a JSON object")
    fmt = obj.get("format")
    if fmt is None:
        raise FormatError("format: missing (expected " + " or ".join(expected) + ")")
    if fmt not in expected:
        name = str(fmt).split("@")[0]
        if any(e.split("@")[0] == name for e in KNOWN_FORMATS):
            raise FormatError(f"format: unsupported version {json.dumps(fmt)} (this carcam reads "
                              + ", ".join(expected) + ")")
        raise FormatError(f"format: unknown format {json.dumps(fmt)} (expected {' or '.join(expected)})")
    return str(fmt)


# ---------------------------------------------------------------------------------------------
# state and reading
_STATE_KEYS = ("game", "expansions", "options", "players", "tiles", "meeples", "scores", "towers",
               "prisoners", "bridges", "castles", "layout", "palas", "wall_tiles", "corner_tiles")


def parse_state(obj: Any, catalog: Catalog | None = None) -> State:
    """Parse ``carcam/state@1`` (or the state inside a ``carcam/reading@1``)."""
    fmt = check_format(obj, STATE, READING)
    if fmt == READING:
        return parse_reading(obj, catalog).state
    _keys(obj, "", ("format",), _STATE_KEYS)
    return _parse_state_body(obj, catalog, reading=False)


def parse_reading(obj: Any, catalog: Catalog | None = None) -> Reading:
    """Parse ``carcam/reading@1``."""
    check_format(obj, READING)
    _keys(obj, "", ("format", "image"), _STATE_KEYS + ("warnings",))
    image = _keys(obj["image"], "image", ("width", "height"))
    size = (_int(image["width"], "image.width", 1), _int(image["height"], "image.height", 1))
    warnings = _list(obj.get("warnings", []), "warnings")
    for i, w in enumerate(warnings):
        if not isinstance(w, str):
            raise FormatError(f"warnings[{i}]: expected text")
    return Reading(state=_parse_state_body(obj, catalog, reading=True), image=size,
                   warnings=tuple(warnings))


def _parse_state_body(obj: dict[str, Any], catalog: Catalog | None, reading: bool) -> State:
    game, exps, players = _header(obj, STATE)
    options = _options(obj.get("options", {}), "options", game)
    extra = ("confidence", "quad") if reading else ()
    tiles: list[TileEntry] = []
    seen: dict[Cell, int] = {}
    for i, t in enumerate(_list(obj.get("tiles", []), "tiles")):
        path = f"tiles[{i}]"
        _keys(t, path, ("at", "tile"), ("rot",) + extra)
        at = _cell(t["at"], f"{path}.at")
        if at in seen:
            raise FormatError(f"{path}.at: two tiles on cell {list(at)} (tiles[{seen[at]}] and tiles[{i}])")
        seen[at] = i
        tile = resolve_tile(t["tile"], f"{path}.tile", game, catalog, allow_unknown=True)
        if tile.known and "rot" not in t:
            raise FormatError(f"{path}.rot: missing")
        rot = _rot(t.get("rot", 0), f"{path}.rot")
        tiles.append(TileEntry(
            at=at, tile=tile, rot=rot,
            confidence=_confidence(t["confidence"], f"{path}.confidence") if "confidence" in t else None,
            quad=_quad(t["quad"], f"{path}.quad") if "quad" in t else None))
    meeples: list[MeepleEntry] = []
    for i, m in enumerate(_list(obj.get("meeples", []), "meeples")):
        path = f"meeples[{i}]"
        _keys(m, path, ("player", "at", "on"), extra)
        player = _player(m["player"], f"{path}.player", players)
        at = _cell(m["at"], f"{path}.at")
        on = _slot(m["on"], f"{path}.on")
        if at not in seen:
            raise FormatError(f"{path}.at: no tile on cell {list(at)}")
        entry = tiles[seen[at]]
        if entry.tile.known and entry.tile.segment_index_on_board(on, entry.rot) is None:
            raise FormatError(f"{path}.on: tile {entry.tile.name()} at {list(at)} (rot {entry.rot}) has no "
                              f"segment at slot {on}")
        meeples.append(MeepleEntry(
            player=player, at=at, on=on,
            confidence=_confidence(m["confidence"], f"{path}.confidence") if "confidence" in m else None,
            quad=_quad(m["quad"], f"{path}.quad") if "quad" in m else None))
    scores = _keys(obj.get("scores", {}), "scores", (), players)
    for p, v in scores.items():
        _int(v, f"scores.{p}", 0)
    state = State(game=game, expansions=exps, options=options, players=players, tiles=tuple(tiles),
                  meeples=tuple(meeples), scores=dict(scores))
    extras: dict[str, Any] = {}
    if "towers" in obj or "prisoners" in obj:
        _need(exps, "tower", "towers" if "towers" in obj else "prisoners")
        extras["towers"] = tuple(_tower(t, f"towers[{i}]", players)
                                 for i, t in enumerate(_list(obj.get("towers", []), "towers")))
        prisoners = _keys(obj.get("prisoners", {}), "prisoners", (), players)
        extras["prisoners"] = {p: tuple(_player(q, f"prisoners.{p}[{j}]", players)
                                        for j, q in enumerate(_list(v, f"prisoners.{p}")))
                               for p, v in prisoners.items()}
    if "bridges" in obj or "castles" in obj:
        _need(exps, "bcb", "bridges" if "bridges" in obj else "castles")
        extras["bridges"] = tuple(_bridge(b, f"bridges[{i}]")
                                  for i, b in enumerate(_list(obj.get("bridges", []), "bridges")))
        extras["castles"] = tuple(_castle(c, f"castles[{i}]", players)
                                  for i, c in enumerate(_list(obj.get("castles", []), "castles")))
    castle_keys = [k for k in ("layout", "palas", "wall_tiles", "corner_tiles") if k in obj]
    if castle_keys and game != "castle":
        raise FormatError(f"{castle_keys[0]}: only The Castle has a {castle_keys[0]}")
    if game == "castle":
        from .castle_rules import parse_castle_extras
        extras.update(parse_castle_extras(obj, players))
    return State(**{**state.__dict__, **extras})


def _need(exps: tuple[str, ...], exp: str, key: str) -> None:
    if exp not in exps:
        raise FormatError(f"{key}: needs the {exp!r} expansion in 'expansions'")


def _tower(t: Any, path: str, players: tuple[str, ...]) -> dict[str, Any]:
    _keys(t, path, ("at", "height"), ("closed",))
    out = {"at": _cell(t["at"], f"{path}.at"), "height": _int(t["height"], f"{path}.height", 0)}
    if "closed" in t:
        out["closed"] = _player(t["closed"], f"{path}.closed", players)
    return out


def _bridge(b: Any, path: str) -> dict[str, Any]:
    _keys(b, path, ("at", "axis"))
    if b["axis"] not in ("NS", "EW"):
        raise FormatError(f"{path}.axis: expected \"NS\" or \"EW\"")
    return {"at": _cell(b["at"], f"{path}.at"), "axis": b["axis"]}


def _castle(c: Any, path: str, players: tuple[str, ...]) -> dict[str, Any]:
    _keys(c, path, ("at", "dir", "player"))
    if c["dir"] not in EDGES:
        raise FormatError(f"{path}.dir: expected N, E, S or W")
    return {"at": _cell(c["at"], f"{path}.at"), "dir": c["dir"],
            "player": _player(c["player"], f"{path}.player", players)}


def _quad_json(q: Quad | None) -> list[list[float]] | None:
    return None if q is None else [[round(x, 2), round(y, 2)] for x, y in q]


def state_to_json(state: State, reading: Reading | None = None) -> dict[str, Any]:
    """Write a state (or, with ``reading``, a reading) as JSON-ready dicts."""
    out: dict[str, Any] = {"format": READING if reading else STATE, "game": state.game,
                           "expansions": list(state.expansions), "options": dict(state.options),
                           "players": list(state.players)}
    tiles = []
    for t in state.tiles:
        d: dict[str, Any] = {"at": list(t.at), "tile": t.tile.to_json()}
        if t.tile.known:
            d["rot"] = t.rot
        if reading is not None:
            if t.confidence is not None:
                d["confidence"] = round(t.confidence, 4)
            if t.quad is not None:
                d["quad"] = _quad_json(t.quad)
        tiles.append(d)
    out["tiles"] = tiles
    meeples = []
    for m in state.meeples:
        d = {"player": m.player, "at": list(m.at), "on": m.on}
        if reading is not None:
            if m.confidence is not None:
                d["confidence"] = round(m.confidence, 4)
            if m.quad is not None:
                d["quad"] = _quad_json(m.quad)
        meeples.append(d)
    out["meeples"] = meeples
    if state.scores:
        out["scores"] = dict(state.scores)
    if state.towers or state.prisoners:
        out["towers"] = [{**t, "at": list(t["at"])} for t in state.towers]
        out["prisoners"] = {p: list(v) for p, v in state.prisoners.items()}
    if state.bridges or state.castles:
        out["bridges"] = [{**b, "at": list(b["at"])} for b in state.bridges]
        out["castles"] = [{**c, "at": list(c["at"])} for c in state.castles]
    if state.game == "castle":
        from .castle_rules import castle_extras_to_json
        out.update(castle_extras_to_json(state))
    if reading is not None:
        out["image"] = {"width": reading.image[0], "height": reading.image[1]}
        out["warnings"] = list(reading.warnings)
    return out


def reading_to_json(reading: Reading) -> dict[str, Any]:
    return state_to_json(reading.state, reading)


# ---------------------------------------------------------------------------------------------
# game record
_TURN_KEYS = ("meeple", "festival", "tower", "ransom", "bridge", "castle", "bazaar",
              "wall_tiles_used", "discarded")


def parse_game(obj: Any, catalog: Catalog | None = None) -> GameRecord:
    """Parse ``carcam/game@1``."""
    check_format(obj, GAME)
    _keys(obj, "", ("format", "players", "turns"),
          ("game", "expansions", "options", "start", "layout", "corner_tiles"))
    game, exps, players = _header(obj, GAME)
    if not players:
        raise FormatError("players: a game needs at least one player")
    options = _options(obj.get("options", {}), "options", game)
    start = None
    if "start" in obj:
        s = _keys(obj["start"], "start", ("tile", "at", "rot"))
        start = TileEntry(at=_cell(s["at"], "start.at"), tile=resolve_tile(s["tile"], "start.tile", game, catalog),
                          rot=_rot(s["rot"], "start.rot"))
    elif game == "base":
        raise FormatError("start: missing (the base game starts from a start tile)")
    turns = tuple(_turn(t, f"turns[{i}]", game, exps, players, catalog)
                  for i, t in enumerate(_list(obj["turns"], "turns")))
    layout = None
    corner_tiles: dict[str, int] = {}
    if game == "castle":
        from .castle_rules import parse_castle_extras
        extras = parse_castle_extras({k: obj[k] for k in ("layout", "corner_tiles") if k in obj}, players)
        layout, corner_tiles = extras.get("layout"), dict(extras.get("corner_tiles", {}))
    elif "layout" in obj or "corner_tiles" in obj:
        raise FormatError("layout: only The Castle has a layout")
    return GameRecord(game=game, expansions=exps, options=options, players=players, start=start,
                      turns=turns, layout=layout, corner_tiles=corner_tiles)


def _turn(t: Any, path: str, game: str, exps: tuple[str, ...], players: tuple[str, ...],
          catalog: Catalog | None) -> Turn:
    _keys(t, path, ("player",), ("tile", "at", "rot") + _TURN_KEYS)
    player = _player(t["player"], f"{path}.player", players)
    if "tile" in t:
        _tile_in_game(t["tile"], f"{path}.tile", game, exps, catalog)
    discarded = t.get("discarded", False)
    if not isinstance(discarded, bool):
        raise FormatError(f"{path}.discarded: expected true or false")
    tile = resolve_tile(t["tile"], f"{path}.tile", game, catalog) if "tile" in t else None
    if not discarded:
        for k in ("tile", "at", "rot"):
            if k not in t:
                raise FormatError(f"{_join(path, k)}: missing")
    at = _cell(t["at"], f"{path}.at") if "at" in t else None
    rot = _rot(t["rot"], f"{path}.rot") if "rot" in t else 0
    meeple = None
    if "meeple" in t:
        m = _keys(t["meeple"], f"{path}.meeple", ("on",))
        meeple = _slot(m["on"], f"{path}.meeple.on")
    take_back = None
    if "festival" in t:
        _need(exps, "festival", f"{path}.festival")
        f = _keys(t["festival"], f"{path}.festival", ("take_back",))
        tb = _keys(f["take_back"], f"{path}.festival.take_back", ("at", "on"))
        take_back = (_cell(tb["at"], f"{path}.festival.take_back.at"),
                     _slot(tb["on"], f"{path}.festival.take_back.on"))
    used: tuple[int, ...] = ()
    if "wall_tiles_used" in t:
        if game != "castle":
            raise FormatError(f"{path}.wall_tiles_used: only The Castle has wall tiles")
        used = tuple(_int(v, f"{path}.wall_tiles_used[{j}]", 1, 9)
                     for j, v in enumerate(_list(t["wall_tiles_used"], f"{path}.wall_tiles_used")))
    extra: dict[str, Any] = {}
    for key, exp in (("tower", "tower"), ("ransom", "tower"), ("bridge", "bcb"), ("castle", "bcb"),
                     ("bazaar", "bcb")):
        if key in t:
            _need(exps, exp, f"{path}.{key}")
            extra[key] = t[key]
    return Turn(player=player, tile=tile, at=at, rot=rot, meeple=meeple, take_back=take_back,
                discarded=discarded, wall_tiles_used=used, extra=extra)


def _tile_in_game(ref: Any, path: str, game: str, exps: tuple[str, ...], catalog: Catalog | None) -> None:
    """A record may only use tiles of the base box and its declared expansions."""
    tile = resolve_tile(ref, path, game, catalog)
    if game == "base" and tile.set not in ("base", "inline", *exps):
        raise FormatError(f"{path}: tile {tile.name()} needs the {tile.set!r} expansion in 'expansions'")


def game_to_json(record: GameRecord) -> dict[str, Any]:
    """Write a game record."""
    out: dict[str, Any] = {"format": GAME, "game": record.game, "expansions": list(record.expansions),
                           "options": dict(record.options), "players": list(record.players)}
    if record.start is not None:
        out["start"] = {"tile": record.start.tile.to_json(), "at": list(record.start.at),
                        "rot": record.start.rot}
    turns = []
    for t in record.turns:
        d: dict[str, Any] = {"player": t.player}
        if t.tile is not None:
            d["tile"] = t.tile.to_json()
        if t.at is not None:
            d["at"] = list(t.at)
            d["rot"] = t.rot
        if t.meeple is not None:
            d["meeple"] = {"on": t.meeple}
        if t.take_back is not None:
            d["festival"] = {"take_back": {"at": list(t.take_back[0]), "on": t.take_back[1]}}
        if t.wall_tiles_used:
            d["wall_tiles_used"] = list(t.wall_tiles_used)
        if t.discarded:
            d["discarded"] = True
        d.update(t.extra)
        turns.append(d)
    out["turns"] = turns
    if record.game == "castle":
        from .castle_rules import castle_extras_to_json
        out.update({k: v for k, v in castle_extras_to_json(
            State(game="castle", players=record.players, layout=record.layout,
                  corner_tiles=record.corner_tiles)).items() if k in ("layout", "corner_tiles")})
    return out


# ---------------------------------------------------------------------------------------------
# files
def load_json_text(text: str, what: str = "input") -> Any:
    """Parse JSON text, turning a syntax error into a one-line :class:`FormatError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{what}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def load_document(path: str) -> Any:
    """Read a JSON file; unreadable files and bad JSON become one-line errors."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise CarcamError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise FormatError(f"{path}: not a UTF-8 text file") from None
    return load_json_text(text, path)


PARSERS: dict[str, Callable[[Any], Any]] = {STATE: parse_state, READING: parse_reading, GAME: parse_game}
