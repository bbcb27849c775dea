"""The rules of Carcassonne: The Castle (Die Burg), all in one module.

A newcomer finds every castle rule here, with the rulebook section it comes from (German names
in brackets; ``shared/rules/the-castle.de.txt``). The Castle uses the base game's board and
feature graph (:mod:`scorer.board`, :mod:`scorer.features`) on a bounded board, the wall, which
is data (a :class:`scorer.board.Layout`, ``"layout"`` in ``spec/formats.md``).

Rules, in the order a game uses them:

* Placing ("Burgkarten legen"): the first castle tile lies with a whole edge against a start
  field, every later one against a start field or another tile. Only paths must continue across
  an edge; towers, houses and courts may touch anything, and a different kind or the wall bounds
  them. Anything may lie against the wall. A tile that fits nowhere is discarded and the same
  player draws again. Each player has 6 followers (the seventh marks the score) and a keep.
* Followers ("Gefolgsleute setzen"): one on the tile just laid, on a path (herald), tower
  (knight), house (squire) or court (merchant) that holds no follower yet.
* Completed features ("Die fertigen Wege, Türme und Häuser werden gewertet"): a path scores 1 per
  tile (2 per tile if at least one well lies on it), a tower 2 per tile, a house 1 per tile; a
  start field the feature runs into counts as one tile. A path ends at the wall, at a plaza, at a
  building or closes a loop; a tower or house is complete when paths, other kinds or the wall
  surround it. The player with MORE followers in the feature scores; a tie scores nobody.
  Followers go home after the scoring (even after a tie); merchants never do.
* Several scorings from one tile: the player who laid it scores first ("Für das Abräumen...").
* Track ("Zählleiste"): 0-99 with laps; scores here include laps (112 = 12 with a lap marker).
  Landing exactly on either number of a corner tower during a scoring in play takes the wall tile
  lying there; passing over it takes nothing. The corner tower 0/1 holds no wall tile.
* Keep ("Palas"): placed on the player's first completed house in which they had the majority,
  moved to a completed house with more tiles in which they had the majority.
* Wall tiles ("Die Mauerplättchen"), usable from the holder's next turn, in their own turn, each
  once: 1 an immediate second turn; 2 / 3 a tower / house completed in that turn scores double;
  at the final scoring 4 / 5 / 6 an incomplete path / tower / house scores 1 / 2 / 1 per tile,
  7 one court scores 4 per market instead of 3, 8 the keep counts 2 tiles larger, 9 five points.
  Tiles 2-7 need more followers than the opponent in that feature.
* Final scoring ("Die Schlusswertung"), in this order: the keep (the larger keep scores the
  number of spaces in the largest connected group of empty interior spaces; equal keeps score
  nobody), the courts (3 per market to the merchant majority; a tie, nobody), then wall tiles
  4, 5, 6 and 9. Incomplete paths, towers and houses score nothing otherwise. Every held wall
  tile is used where it earns its holder most.

Decisions where the rulebook is silent (also listed in ``scorer/data/layouts/README.md``):

* A wall tile lying face down on a corner whose number the record does not know (``0``) is taken
  as an *unknown* tile. Using it in a later turn (``"wall_tiles_used": [n]``) reveals it as ``n``;
  an unknown tile still held at the end scores nothing, and the report says so in its notes.
* A record's ``corner_tiles`` is the set-up: a corner it does not list holds an unknown tile. A
  state's ``corner_tiles`` is what still lies on the wall: a corner it does not list is empty.
* Two copies of wall tile 4, 5, 6 or 7 go to two different features; copies of 8 and 9 add up.
* Wall tiles 4-9 taken in the very last turn still count at the final scoring.
* The record's players alternate; a turn that uses wall tile 1 is followed by a turn of the same
  player, and so is a discarded draw (the player draws again).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from .base_rules import feature_root, free_follower_slots, group_figures
from .board import Board, Layout, StartField
from .board import PlacedTile as PlacedTileView
from .catalog import Kind, TileType, load_catalog
from .errors import Conflict, FormatError, IllegalMoveError
from .features import Feature
from .formats import GameRecord, MeepleEntry, State, TileEntry, Turn
from .game import TurnResult
from .geometry import EDGE_SLOTS, EDGES, FACING_SLOT, SLOT_EDGE, Cell, joined, neighbour
from .scoring import Figure, OpenFeature, ScoreEvent, ScoreReport, majority, plural

# ---------------------------------------------------------------------------------------------
# the numbers of the rulebook
FOLLOWERS_PER_PLAYER = 6          # 7 per colour, one marks the score ("Spielvorbereitung")
PLAYER_COLOURS = ("black", "white")
MAX_PLAYERS = 2
TRACK_LENGTH = 100                # fields 0-99, then a lap ("Zählleiste")
PATH_POINTS = 1                   # per tile ("Ein fertiger Weg")
PATH_WELL_POINTS = 2              # per tile when at least one well lies on the path
TOWER_POINTS = 2                  # per tile ("Ein fertiger Turm")
HOUSE_POINTS = 1                  # per tile ("Ein fertiges Haus")
MARKET_POINTS = 3                 # per market of a court ("Die Wertung der Höfe")
MARKET_POINTS_WALL_7 = 4          # per market with wall tile 7
KEEP_BONUS_WALL_8 = 2             # wall tile 8: the keep counts 2 tiles larger
WALL_9_POINTS = 5                 # wall tile 9
#: wall tiles 4, 5, 6: the incomplete feature kind they score and the points per tile
END_WALL_TILES: Mapping[int, tuple[Kind, int]] = {4: (Kind.PATH, 1), 5: (Kind.TOWER, 2), 6: (Kind.HOUSE, 1)}
#: wall tiles 2, 3: the completed feature kind they double
DOUBLE_WALL_TILES: Mapping[int, Kind] = {2: Kind.TOWER, 3: Kind.HOUSE}
WALL_TILE_NUMBERS = range(1, 10)
WALL_TILE_COPIES = 2              # 18 wall tiles, nine kinds, two of each
UNKNOWN_WALL_TILE = 0             # a face-down tile whose number the record does not know
COMPLETABLE = (Kind.PATH, Kind.TOWER, Kind.HOUSE)
ROLE = {Kind.PATH: "herald", Kind.TOWER: "knight", Kind.HOUSE: "squire", Kind.COURT: "merchant"}
STRICT_KINDS = frozenset({Kind.PATH})   # only paths must continue across an edge

OPTIONS: Mapping[str, type] = {}
SHIPPED_LAYOUTS = ("standard",)


def _cell(obj: Any, path: str) -> tuple[int, int]:
    if (not isinstance(obj, list) or len(obj) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise FormatError(f"{path}: a cell is a pair of whole numbers [x, y]")
    return (obj[0], obj[1])


def parse_layout(obj: Any, path: str = "layout", name: str | None = None, provisional: bool = False) -> Layout:
    """A castle wall given inline (``cells``, ``start_fields``, ``corners``)."""
    if isinstance(obj, str):
        return load_layout(obj)
    if not isinstance(obj, dict):
        raise FormatError(f"{path}: a layout is a shipped layout's name or an object")
    allowed = {"cells", "start_fields", "corners", "name", "provisional", "note"}
    for k in obj:
        if k not in allowed:
            raise FormatError(f"{path}.{k}: unknown key")
    if "cells" not in obj:
        raise FormatError(f"{path}.cells: missing")
    cells_list = obj["cells"]
    if not isinstance(cells_list, list) or not cells_list:
        raise FormatError(f"{path}.cells: expected a non-empty list of cells")
    cells = [_cell(c, f"{path}.cells[{i}]") for i, c in enumerate(cells_list)]
    if len(set(cells)) != len(cells):
        raise FormatError(f"{path}.cells: a cell is listed twice")
    cellset = frozenset(cells)
    starts = []
    for i, sf in enumerate(obj.get("start_fields", [])):
        p = f"{path}.start_fields[{i}]"
        if not isinstance(sf, dict):
            raise FormatError(f"{p}: expected an object")
        for k in sf:
            if k not in ("at", "side", "slots", "markets"):
                raise FormatError(f"{p}.{k}: unknown key")
        at = _cell(sf.get("at"), f"{p}.at")
        if at not in cellset:
            raise FormatError(f"{p}.at: {list(at)} is not an interior cell")
        side = sf.get("side")
        if side not in ("N", "E", "S", "W"):
            raise FormatError(f"{p}.side: expected N, E, S or W")
        from .geometry import neighbour
        if neighbour(at, side) in cellset:
            raise FormatError(f"{p}.side: the {side} side of {list(at)} is not on the wall")
        slots = sf.get("slots")
        if not isinstance(slots, list) or len(slots) != 3:
            raise FormatError(f"{p}.slots: expected three kinds")
        kinds = []
        for j, k in enumerate(slots):
            try:
                kind = Kind(k)
            except ValueError:
                kind = None
            if kind not in (Kind.PATH, Kind.TOWER, Kind.HOUSE, Kind.COURT):
                raise FormatError(f"{p}.slots[{j}]: {json.dumps(k)} is not a castle kind")
            kinds.append(kind)
        if Kind.PATH in (kinds[0], kinds[2]):
            raise FormatError(f"{p}.slots: a path crosses the middle of an edge only")
        markets = sf.get("markets", 0)
        if not isinstance(markets, int) or isinstance(markets, bool) or markets < 0:
            raise FormatError(f"{p}.markets: expected a whole number >= 0")
        if markets and Kind.COURT not in kinds:
            raise FormatError(f"{p}.markets: markets need a court")
        starts.append(StartField(at=at, side=side, kinds=tuple(kinds), markets=markets))  # type: ignore[arg-type]
    corners = []
    for i, c in enumerate(obj.get("corners", [])):
        if (not isinstance(c, list) or len(c) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99 for v in c)):
            raise FormatError(f"{path}.corners[{i}]: a corner tower is a pair of track numbers 0..99")
        corners.append((c[0], c[1]))
    return Layout(name=obj.get("name", name), cells=cellset, start_fields=tuple(starts),
                  corners=tuple(corners), provisional=bool(obj.get("provisional", provisional)))


@cache
def load_layout(name: str) -> Layout:
    """A layout shipped in ``scorer/data/layouts``."""
    if name not in SHIPPED_LAYOUTS:
        raise FormatError(f"layout: unknown layout {json.dumps(name)} (shipped: {', '.join(SHIPPED_LAYOUTS)})")
    path = resources.files("scorer") / "data" / "layouts" / f"{name}.json"
    return parse_layout(json.loads(path.read_text(encoding="utf-8")), f"layout {name!r}", name=name)


def parse_castle_extras(obj: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """Parse ``layout``, ``palas``, ``wall_tiles`` and ``corner_tiles`` of a castle document."""
    out: dict[str, Any] = {"layout": parse_layout(obj.get("layout", "standard"))}
    palas = obj.get("palas", {})
    if not isinstance(palas, dict):
        raise FormatError("palas: expected an object")
    for p in palas:
        if p not in players:
            raise FormatError(f"palas.{p}: player {json.dumps(p)} is not in players")
    out["palas"] = {p: _cell(c, f"palas.{p}") for p, c in palas.items()}
    walls = obj.get("wall_tiles", {})
    if not isinstance(walls, dict):
        raise FormatError("wall_tiles: expected an object")
    wt: dict[str, dict[str, tuple[int, ...]]] = {}
    for p, v in walls.items():
        if p not in players:
            raise FormatError(f"wall_tiles.{p}: player {json.dumps(p)} is not in players")
        if not isinstance(v, dict) or set(v) - {"held", "used"}:
            raise FormatError(f"wall_tiles.{p}: expected {{\"held\": [...], \"used\": [...]}}")
        wt[p] = {}
        for k in ("held", "used"):
            vals = v.get(k, [])
            if not isinstance(vals, list):
                raise FormatError(f"wall_tiles.{p}.{k}: expected a list")
            for j, n in enumerate(vals):
                if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
                    raise FormatError(f"wall_tiles.{p}.{k}[{j}]: wall tile {json.dumps(n)} is not 1..9")
            wt[p][k] = tuple(vals)
    out["wall_tiles"] = wt
    corners = obj.get("corner_tiles", {})
    if not isinstance(corners, dict):
        raise FormatError("corner_tiles: expected an object")
    ct: dict[str, int] = {}
    for k, n in corners.items():
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 9:
            raise FormatError(f"corner_tiles.{k}: wall tile {json.dumps(n)} is not 0..9")
        ct[str(k)] = n
    out["corner_tiles"] = ct
    return out


def castle_extras_to_json(state: Any) -> dict[str, Any]:
    """Write the castle keys of a state."""
    layout = state.layout
    out: dict[str, Any] = {}
    if layout is not None:
        if layout.name in SHIPPED_LAYOUTS:
            out["layout"] = layout.name
        else:
            out["layout"] = {
                "cells": [list(c) for c in sorted(layout.cells, key=lambda c: (c[1], c[0]))],
                "start_fields": [{"at": list(s.at), "side": s.side, "slots": [k.value for k in s.kinds],
                                  **({"markets": s.markets} if s.markets else {})}
                                 for s in layout.start_fields],
                "corners": [list(c) for c in layout.corners]}
    if state.palas:
        out["palas"] = {p: list(c) for p, c in state.palas.items()}
    if state.wall_tiles:
        out["wall_tiles"] = {p: {k: list(v) for k, v in d.items()} for p, d in state.wall_tiles.items()}
    if state.corner_tiles:
        out["corner_tiles"] = dict(state.corner_tiles)
    return out


# ---------------------------------------------------------------------------------------------
# boards, features and their values
def castle_board(layout: Layout) -> Board:
    """An empty castle board: bounded by ``layout``; only paths must match across an edge."""
    return Board(layout=layout, strict_kinds=STRICT_KINDS)


def size_text(feature: Feature) -> str:
    """``3 tiles``, or ``4 tiles (3 castle tiles + 1 start field)`` when it runs into start fields."""
    if not feature.start_fields:
        return plural(feature.tiles, "tile")
    return (f"{plural(feature.tiles, 'tile')} ({plural(feature.tiles - feature.start_fields, 'castle tile')}"
            f" + {plural(feature.start_fields, 'start field')})")


def completed_value(feature: Feature) -> tuple[int, str]:
    """Points and reason of a completed path, tower or house ("Ein fertiger Weg/Turm, ein fertiges
    Haus"); a start field counts as one tile."""
    if feature.kind is Kind.PATH:
        if feature.wells:
            return (PATH_WELL_POINTS * feature.tiles,
                    f"completed path: {size_text(feature)} x {PATH_WELL_POINTS} "
                    f"({plural(feature.wells, 'well')} on it)")
        return PATH_POINTS * feature.tiles, f"completed path: {size_text(feature)} x {PATH_POINTS}"
    if feature.kind is Kind.TOWER:
        return TOWER_POINTS * feature.tiles, f"completed tower: {size_text(feature)} x {TOWER_POINTS}"
    if feature.kind is Kind.HOUSE:
        return HOUSE_POINTS * feature.tiles, f"completed house: {size_text(feature)} x {HOUSE_POINTS}"
    raise ValueError(f"a {feature.kind.value} is never completed in The Castle")


def winner(figures: Iterable[Figure], players: Iterable[str]) -> tuple[str | None, Counter[str]]:
    """The player with MORE followers (The Castle's rule: a tie gives nobody)."""
    owners, counts = majority(figures, players, strict=True)
    return (owners[0] if owners else None), counts


def majority_text(kind: Kind, counts: Counter[str]) -> str:
    """``black alone (1 herald)``, ``black 2 knights vs white 1``, ``tie: black 1 = white 1``."""
    role = ROLE[kind]
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) == 1:
        p, n = ranked[0]
        return f"{p} alone ({plural(n, role)})"
    if ranked[0][1] == ranked[1][1]:
        return "tie (" + " = ".join(f"{p} {n}" for p, n in ranked) + f" {role}s): nobody scores"
    (p, n), *rest = ranked
    return f"{p} {plural(n, role)} vs " + ", ".join(f"{q} {m}" for q, m in rest)


def house_segments_at(board: Board, cell: Cell) -> list[int]:
    """Graph roots of the house segments of the tile on ``cell`` (a keep stands on one)."""
    placed = board.tiles.get(cell)
    if placed is None:
        return []
    return [board.graph.find(board.graph.node(cell, i))
            for i, seg in enumerate(placed.tile.segments) if seg.kind is Kind.HOUSE]


def keep_house(board: Board, cell: Cell) -> Feature | None:
    """The completed house a keep standing on ``cell`` marks (the largest one on that tile)."""
    houses = [board.graph.feature(r) for r in house_segments_at(board, cell)]
    done = [h for h in houses if h.complete]
    return max(done, key=lambda h: h.tiles) if done else None


def empty_regions(layout: Layout, filled: Iterable[Cell]) -> list[frozenset[Cell]]:
    """Connected groups (by whole edges) of interior spaces holding no tile, largest first."""
    empty = set(layout.cells) - set(filled)
    out: list[frozenset[Cell]] = []
    while empty:
        group = joined({min(empty)}, empty)
        empty -= group
        out.append(frozenset(group))
    out.sort(key=lambda g: (-len(g), min(g)))
    return out


# ---------------------------------------------------------------------------------------------
# the score track and the corner towers
def corner_landed(layout: Layout, score: int) -> tuple[int, int] | None:
    """The corner tower whose numbers include the track field of ``score`` (laps wrap), or None."""
    field_ = score % TRACK_LENGTH
    return next((c for c in layout.corners if field_ in c), None)


def has_wall_tile(corner: tuple[int, int]) -> bool:
    """Every corner tower holds a wall tile at the start except the one of field 0 (0/1)."""
    return 0 not in corner


def setup_corner_tiles(layout: Layout, corner_tiles: Mapping[str, int], path: str = "corner_tiles"
                       ) -> dict[int, int]:
    """The wall tiles lying on the corners at the start of a recorded game, by a corner's first
    number: the record's numbers, ``0`` (unknown) on every other corner except 0/1."""
    firsts = {c[0]: c for c in layout.corners}
    for key, n in corner_tiles.items():
        try:
            first = int(key)
        except ValueError:
            raise FormatError(f"{path}.{key}: a corner is named by its first track number") from None
        if first not in firsts:
            raise FormatError(f"{path}.{key}: no corner tower of the layout starts at track number {key}")
        if not has_wall_tile(firsts[first]):
            raise FormatError(f"{path}.{key}: the corner tower {firsts[first][0]}/{firsts[first][1]} "
                              "holds no wall tile")
        if not (n == UNKNOWN_WALL_TILE or n in WALL_TILE_NUMBERS):
            raise FormatError(f"{path}.{key}: wall tile {n} is not 1..9")
    counts = Counter(n for n in corner_tiles.values() if n)
    for n, k in sorted(counts.items()):
        if k > WALL_TILE_COPIES:
            raise FormatError(f"{path}: wall tile {n} lies on {k} corners, but the game has {WALL_TILE_COPIES}")
    return {c[0]: int(corner_tiles.get(str(c[0]), UNKNOWN_WALL_TILE))
            for c in layout.corners if has_wall_tile(c)}


def wall_tile_name(n: int) -> str:
    return "an unknown wall tile" if n == UNKNOWN_WALL_TILE else f"wall tile {n}"


# ---------------------------------------------------------------------------------------------
# final scoring ("Die Schlusswertung"): keep, courts, wall tiles 4, 5, 6, 9
@dataclass(frozen=True)
class FinalScoring:
    """The final scoring's events (rule order) and what each incomplete feature / court earns."""

    events: tuple[ScoreEvent, ...]
    by_feature: Mapping[int, int]
    notes: tuple[str, ...]


def final_scoring(board: Board, figures: list[Figure], players: tuple[str, ...],
                  keeps: Mapping[str, int], held: Mapping[str, Iterable[int]]) -> FinalScoring:
    """Score the end of the game. ``keeps`` are the tiles of each player's keep house, ``held``
    the wall tiles each player still holds (``0`` for an unknown one). Every held tile is used
    where it earns its holder most."""
    assert board.layout is not None
    graph = board.graph
    held_count = {p: Counter(held.get(p, ())) for p in players}
    events: list[ScoreEvent] = []
    notes: list[str] = []
    by_feature: dict[int, int] = {}
    by_root = group_figures(board, figures)

    # 1. the keep ("Die Wertung des größten Palas"), wall tile 8
    sizes: dict[str, int] = {}
    size_why: dict[str, str] = {}
    for p in players:
        if p not in keeps:
            continue
        eights = held_count[p][8]
        sizes[p] = keeps[p] + KEEP_BONUS_WALL_8 * eights
        size_why[p] = f"{p}'s keep {plural(keeps[p], 'tile')}"
        if eights:
            size_why[p] += f" + {KEEP_BONUS_WALL_8 * eights} for wall tile 8"
    regions = empty_regions(board.layout, board.tiles)
    space = len(regions[0]) if regions else 0
    if sizes:
        top = max(sizes.values())
        best = [p for p in players if sizes.get(p) == top]
        compare = " vs ".join(size_why[p] for p in players if p in sizes)
        if len(best) > 1:
            notes.append(f"keep: {compare}: equal keeps, nobody scores")
        elif space == 0:
            notes.append(f"keep: {best[0]} has the largest keep ({compare}) but no empty space is left")
        else:
            cells = tuple(sorted(regions[0], key=lambda c: (c[1], c[0])))
            events.append(ScoreEvent(
                player=best[0], points=space, what="keep", tiles=space, phase="end", cells=cells,
                why=(f"largest keep ({compare}): the largest connected group of empty spaces inside "
                     f"the wall has {plural(space, 'space')}, 1 point each")))

    # 2. the courts ("Die Wertung der Höfe"), wall tile 7
    courts: list[tuple[Feature, str, Counter[str]]] = []
    for root, figs in by_root.items():
        if graph.kind(root) is not Kind.COURT:
            continue
        feature = graph.feature(root)
        who, counts = winner(figs, players)
        if feature.markets == 0:
            continue
        if who is None:
            notes.append(f"court of {plural(feature.markets, 'market')}: {majority_text(Kind.COURT, counts)}")
            continue
        courts.append((feature, who, counts))
    courts.sort(key=lambda c: c[0].sorted_cells())
    sevens: set[int] = set()
    for p in players:
        mine = sorted((c for c in courts if c[1] == p), key=lambda c: -c[0].markets)
        sevens.update(c[0].id for c in mine[:held_count[p][7]])
    for feature, who, counts in courts:
        per = MARKET_POINTS_WALL_7 if feature.id in sevens else MARKET_POINTS
        why = f"court: {plural(feature.markets, 'market')} x {per}"
        if feature.id in sevens:
            why += " (wall tile 7)"
        points = per * feature.markets
        by_feature[feature.id] = points
        events.append(ScoreEvent(player=who, points=points, what="court", tiles=feature.tiles, phase="end",
                                 cells=tuple(feature.sorted_cells()),
                                 why=f"{why}; {majority_text(Kind.COURT, counts)}"))

    # 3. wall tiles 4, 5, 6: one incomplete path / tower / house each, where the holder has more
    for n, (kind, per) in END_WALL_TILES.items():
        for p in players:
            copies = held_count[p][n]
            if not copies:
                continue
            candidates: list[tuple[Feature, Counter[str]]] = []
            for root, figs in by_root.items():
                if graph.kind(root) is not kind or graph.is_complete(root):
                    continue
                who, counts = winner(figs, players)
                if who == p:
                    candidates.append((graph.feature(root), counts))
            candidates.sort(key=lambda fc: (-fc[0].tiles, fc[0].sorted_cells()))
            for feature, counts in candidates[:copies]:
                points = per * feature.tiles
                by_feature[feature.id] = by_feature.get(feature.id, 0) + points
                events.append(ScoreEvent(
                    player=p, points=points, what=f"wall tile {n}", tiles=feature.tiles, phase="end",
                    cells=tuple(feature.sorted_cells()),
                    why=(f"wall tile {n}: incomplete {kind.value} of {size_text(feature)} x {per}; "
                         f"{majority_text(kind, counts)}")))
            if len(candidates) < copies:
                notes.append(f"{p}'s wall tile {n}: no incomplete {kind.value} in which {p} has more "
                             f"{ROLE[kind]}s")

    # 4. wall tile 9
    for p in players:
        for _ in range(held_count[p][9]):
            events.append(ScoreEvent(player=p, points=WALL_9_POINTS, what="wall tile 9", tiles=0,
                                     phase="end", why=f"wall tile 9: {WALL_9_POINTS} points"))
    for p in players:
        unknown = held_count[p][UNKNOWN_WALL_TILE]
        if unknown:
            notes.append(f"{p} holds {plural(unknown, 'wall tile')} taken face down whose number the "
                         "record does not give: scored as nothing")
    return FinalScoring(events=tuple(events), by_feature=by_feature, notes=tuple(notes))


def open_features(board: Board, figures: list[Figure], players: tuple[str, ...],
                  final: FinalScoring) -> list[OpenFeature]:
    """Every incomplete path, tower, house and every court, with its majority owner, what it
    earns if the game ended now and what it would score if completed."""
    graph = board.graph
    by_root = group_figures(board, figures)
    out: list[OpenFeature] = []
    for feature in graph.features():
        if feature.complete:
            continue
        figs = by_root.get(feature.id, [])
        who, counts = winner(figs, players)
        now = final.by_feature.get(feature.id, 0)
        if feature.kind is Kind.COURT:
            if_completed = None
            detail = (f"court with {plural(feature.markets, 'market')}, scored at the end; "
                      + (majority_text(Kind.COURT, counts) if counts else "no merchant"))
        else:
            if_completed, detail = completed_value(feature)
            detail = detail.replace("completed", "if completed")
        out.append(OpenFeature(kind=feature.kind.value, tiles=feature.tiles,
                               owners=(who,) if who else (), points_now=now,
                               cells=tuple(feature.sorted_cells()), points_if_completed=if_completed,
                               figures=tuple(figs), detail=detail))
    order = {"path": 0, "tower": 1, "house": 2, "court": 3}
    out.sort(key=lambda o: (order[o.kind], -o.tiles, o.cells))
    return out


# ---------------------------------------------------------------------------------------------
# playing a game turn by turn
@dataclass(frozen=True)
class HeldTile:
    """A wall tile in front of a player: its number (0 unknown) and the turn it was taken in."""

    number: int
    taken_in: int


@dataclass
class CastleGame:
    """A game of The Castle in progress: the board inside the wall, followers, the track, keeps
    and wall tiles. :meth:`play` applies one :class:`scorer.formats.Turn` of a record and raises
    :class:`IllegalMoveError` (game unchanged) when it breaks a rule."""

    players: tuple[str, ...] = PLAYER_COLOURS
    layout: Layout | None = None
    corner_tiles: Mapping[str, int] = field(default_factory=dict)
    check_box: bool = True

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        if len(self.players) > MAX_PLAYERS:
            raise FormatError(f"players[{MAX_PLAYERS}]: The Castle is for two players, got {len(self.players)}")
        if not self.players or len(set(self.players)) != len(self.players):
            raise FormatError("players: The Castle needs one or two different colours")
        if self.layout is None:
            self.layout = load_layout("standard")
        self.board = castle_board(self.layout)
        self.figures: list[Figure] = []
        self.supply = dict.fromkeys(self.players, FOLLOWERS_PER_PLAYER)
        self.track = dict.fromkeys(self.players, 0)
        #: each player's keep: a cell of its house and the house's tiles
        self.palas: dict[str, tuple[Cell, int]] = {}
        #: the graph root of each keep's house, so a state can name a cell that marks it alone
        self.palas_house: dict[str, int] = {}
        self.held: dict[str, list[HeldTile]] = {p: [] for p in self.players}
        self.used: dict[str, list[int]] = {p: [] for p in self.players}
        self.corners = setup_corner_tiles(self.layout, self.corner_tiles)
        self.box = Counter(load_catalog().box("castle"))
        self.history: list[TurnResult] = []
        self.notes: list[str] = []
        self.entry = 0          # record entries applied (discarded draws included)
        self.turns_done = 0     # complete turns (a tile laid)
        self.next_player: str | None = None
        #: graph roots of every completed feature that was scored (each at most once)
        self.scored: list[int] = []

    @classmethod
    def from_record(cls, record: GameRecord) -> CastleGame:
        """A game set up as a ``carcam/game@1`` record of The Castle says (no turn played yet)."""
        if record.game != "castle":
            raise ValueError("use scorer.game.Game for the base game")
        if record.start is not None:
            raise FormatError("start: The Castle has no start tile; the first tile goes against a start field")
        layout = record.layout if record.layout is not None else load_layout("standard")
        return cls(players=record.players, layout=layout, corner_tiles=dict(record.corner_tiles))

    # -- what a player may do -------------------------------------------------------------------
    def usable_wall_tiles(self, player: str) -> list[int]:
        """Numbers of the wall tiles ``player`` may use in the turn about to be played (taken in
        an earlier turn; 0 for an unknown one)."""
        now = self.turns_done + 1
        return [h.number for h in self.held[player] if h.taken_in < now]

    def follower_problem(self, player: str, cell: Cell, slot: str) -> str | None:
        """Why ``player`` may not put a follower on ``slot`` of the tile just laid at ``cell``."""
        if self.supply[player] <= 0:
            return f"{player} has no follower left in supply"
        node = self.board.node_at(cell, slot)
        if node is None:
            placed = self.board.tiles[cell]
            return f"tile {placed.tile.name()} (rot {placed.rot}) has no segment at slot {slot}"
        root = self.board.graph.find(node)
        for f in self.figures:
            if feature_root(self.board, f) == root:
                kind = self.board.graph.kind(root)
                return (f"the {kind.value} already holds {f.player}'s {ROLE[kind]} at {list(f.at)} "
                        "(a follower may not join an occupied feature)")
        return None

    def follower_options(self, tile: TileType, at: Cell, rot: int) -> list[str]:
        """Board slots where a follower could stand if ``tile`` were laid at ``at``/``rot`` now
        (start fields carry no follower, so only tiles can make a segment occupied)."""
        return free_follower_slots(self.board, self.figures, tile, at, rot)

    # -- a turn ---------------------------------------------------------------------------------
    def play(self, turn: Turn) -> TurnResult:
        """Apply one turn (one record entry). Raise :class:`IllegalMoveError` if it is illegal."""
        number = self.entry + 1
        player = turn.player
        if player not in self.players:
            raise IllegalMoveError(number, f"player {player} is not in the game")
        if self.next_player is not None and player != self.next_player:
            raise IllegalMoveError(number, f"it is {self.next_player}'s turn, not {player}'s")
        if turn.discarded:
            return self._discard(number, turn)
        tile, at, rot = turn.tile, turn.at, turn.rot
        if tile is None or at is None:
            raise IllegalMoveError(number, "a turn lays a tile: 'tile', 'at' and 'rot' are needed")
        problems = self.board.placement_problems(at, tile, rot)
        if problems:
            raise IllegalMoveError(number, f"{tile.name()} at {list(at)} rot {rot}: "
                                           + "; ".join(c.reason for c in problems))
        using = self._wall_tiles_to_use(number, player, turn.wall_tiles_used)
        if self.check_box and tile.id is not None:
            if self.box[tile.id] <= 0:
                raise IllegalMoveError(number, f"no tile {tile.id} left in the box "
                                               f"({load_catalog().box('castle').get(tile.id, 0)} in all)")
        self.board.place(at, tile, rot, check=False)
        try:
            if turn.meeple is not None:
                why = self.follower_problem(player, at, turn.meeple)
                if why:
                    raise IllegalMoveError(number, f"follower on {turn.meeple}: {why}")
            figures = self.figures + ([Figure(player, at, turn.meeple)] if turn.meeple else [])
            scorings = self._completed(at, figures)
            doubled = self._doubles(number, player, turn.wall_tiles_used, scorings)
        except IllegalMoveError:
            self.board = self.board.without(at)
            raise
        # the turn is legal: commit it
        if self.check_box and tile.id is not None:
            self.box[tile.id] -= 1
        if turn.meeple is not None:
            self.supply[player] -= 1
        self.figures = figures
        self._spend_wall_tiles(player, using, turn.wall_tiles_used)
        events = self._score(number, player, scorings, doubled, phase="turn")
        self.turns_done += 1
        self.entry = number
        self.next_player = player if 1 in turn.wall_tiles_used else self._other(player)
        points = dict.fromkeys(self.players, 0)
        for e in events:
            points[e.player] += e.points
        result = TurnResult(number, player, tile.name(), at, rot, tuple(events), points, dict(self.track))
        self.history.append(result)
        return result

    def _other(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def _discard(self, number: int, turn: Turn) -> TurnResult:
        """A drawn tile that fits nowhere leaves the game; the same player draws again."""
        if turn.wall_tiles_used:
            raise IllegalMoveError(number, "a discarded draw uses no wall tile (list it on the turn that lays a tile)")
        if turn.tile is not None:
            if turn.at is not None:
                raise IllegalMoveError(number, "a discarded tile has no 'at'")
            if self.board.legal_placements(turn.tile):
                raise IllegalMoveError(number, f"tile {turn.tile.name()} was discarded but fits")
            if self.check_box and turn.tile.id is not None:
                if self.box[turn.tile.id] <= 0:
                    raise IllegalMoveError(number, f"no tile {turn.tile.id} left in the box")
                self.box[turn.tile.id] -= 1
        self.entry = number
        self.next_player = turn.player
        result = TurnResult(number, turn.player, turn.tile.name() if turn.tile else "?", None, 0, (),
                            dict.fromkeys(self.players, 0), dict(self.track))
        self.history.append(result)
        return result

    def _wall_tiles_to_use(self, number: int, player: str, wanted: tuple[int, ...]) -> list[int]:
        """Check that ``player`` holds every wall tile listed (usable now) and may use it during
        a turn; return the held numbers spent (an unknown tile stands in for a missing number)."""
        pool = Counter(self.usable_wall_tiles(player))
        spent: list[int] = []
        for n in wanted:
            if n not in WALL_TILE_NUMBERS:
                raise IllegalMoveError(number, f"wall tile {n} does not exist (1..9)")
            if n >= 4:
                raise IllegalMoveError(number, f"wall tile {n} counts at the final scoring; it is not "
                                               "used during a turn")
            if pool[n] > 0:
                pool[n] -= 1
                spent.append(n)
            elif pool[UNKNOWN_WALL_TILE] > 0:
                pool[UNKNOWN_WALL_TILE] -= 1
                spent.append(UNKNOWN_WALL_TILE)
            elif n in [h.number for h in self.held[player]]:
                raise IllegalMoveError(number, f"{player} took wall tile {n} this turn; it may be used "
                                               "from their next turn")
            else:
                raise IllegalMoveError(number, f"{player} does not hold wall tile {n}")
        return spent

    def _spend_wall_tiles(self, player: str, spent: list[int], numbers: tuple[int, ...]) -> None:
        """Take the spent tiles (``0`` for an unknown one now revealed) out of ``player``'s
        hand and out of the game; ``numbers`` are the numbers the record gives them."""
        now = self.turns_done + 1
        for n in spent:
            held = next(h for h in self.held[player] if h.number == n and h.taken_in < now)
            self.held[player].remove(held)
        self.used[player].extend(numbers)

    def _completed(self, at: Cell, figures: list[Figure]) -> list[tuple[Feature, list[Figure]]]:
        """Paths, towers and houses the tile on ``at`` completed, with their followers (rule
        order: paths, towers, houses). Besides the tile's own features, a neighbour's tower or
        house may be completed by it: a different kind facing it bounds it."""
        graph = self.board.graph
        placed = self.board.tiles[at]
        nodes = [graph.node(at, i) for i in range(len(placed.tile.segments))]
        for slot in (s for e in EDGES for s in EDGE_SLOTS[e]):
            node = self.board.node_at(neighbour(at, SLOT_EDGE[slot]), FACING_SLOT[slot])
            if node is not None:
                nodes.append(node)
        roots: list[int] = []
        for node in nodes:
            if graph.kind(node) in COMPLETABLE:
                root = graph.find(node)
                if root not in roots and graph.is_complete(root):
                    roots.append(root)
        by_root = group_figures(self.board, figures)
        out = [(graph.feature(r), by_root.get(r, [])) for r in roots]
        out.sort(key=lambda fs: (COMPLETABLE.index(fs[0].kind), fs[0].sorted_cells()))
        return out

    def _doubles(self, number: int, player: str, wall_tiles: tuple[int, ...],
                 scorings: list[tuple[Feature, list[Figure]]]) -> set[int]:
        """Features doubled by wall tiles 2 (tower) and 3 (house) used this turn: each goes to a
        different completed feature of its kind in which ``player`` has more followers, the one
        worth most first."""
        doubled: set[int] = set()
        for n in wall_tiles:
            kind = DOUBLE_WALL_TILES.get(n)
            if kind is None:
                continue
            options = [f for f, figs in scorings if f.kind is kind and f.id not in doubled
                       and winner(figs, self.players)[0] == player]
            if not options:
                raise IllegalMoveError(number, f"wall tile {n}: {player} completed no {kind.value} this turn "
                                               f"in which they have more {ROLE[kind]}s")
            doubled.add(max(options, key=lambda f: f.tiles).id)
        return doubled

    def _score(self, number: int | None, placer: str | None, scorings: list[tuple[Feature, list[Figure]]],
               doubled: set[int], phase: str) -> list[ScoreEvent]:
        """Score completed features: the placer's scorings first, each moving the marker (and
        perhaps taking a wall tile) on its own; followers go home; keeps are placed or moved."""
        events: list[ScoreEvent] = []
        for feature, figs in scorings:
            self.scored.append(feature.id)
            who, counts = winner(figs, self.players)
            if figs and who is None:
                self.notes.append(f"turn {number}: completed {feature.kind.value} of {size_text(feature)}: "
                                  f"{majority_text(feature.kind, counts)}" if number else
                                  f"completed {feature.kind.value}: {majority_text(feature.kind, counts)}")
            if who is None:
                continue
            value, why = completed_value(feature)
            if feature.id in doubled:
                n = next(k for k, v in DOUBLE_WALL_TILES.items() if v is feature.kind)
                value, why = 2 * value, f"{why}, doubled by wall tile {n}"
            events.append(ScoreEvent(player=who, points=value, what=feature.kind.value, tiles=feature.tiles,
                                     why=f"{why}; {majority_text(feature.kind, counts)}", phase=phase,
                                     turn=number, cells=tuple(feature.sorted_cells())))
            if feature.kind is Kind.HOUSE:
                self._keep(number, who, feature)
        if placer is not None:
            events.sort(key=lambda e: e.player != placer)
        out: list[ScoreEvent] = []
        for e in events:
            before = self.track[e.player]
            self.track[e.player] = before + e.points
            out.append(e)
            corner = corner_landed(self.board.layout, self.track[e.player])  # type: ignore[arg-type]
            if corner is None or e.points <= 0 or not has_wall_tile(corner):
                continue
            tile = self.corners.pop(corner[0], None)
            where = f"{corner[0]}/{corner[1]}"
            if tile is None:
                self.notes.append(f"turn {number}: {e.player} lands on corner tower {where}; no wall tile is left there")
                continue
            self.held[e.player].append(HeldTile(tile, self.turns_done + 1))
            self.notes.append(f"turn {number}: {e.player} lands on field {self.track[e.player] % TRACK_LENGTH} "
                              f"(corner tower {where}) and takes {wall_tile_name(tile)}")
        gone = {id(f) for _, figs in scorings for f in figs}
        for f in self.figures:
            if id(f) in gone:
                self.supply[f.player] += 1
        self.figures = [f for f in self.figures if id(f) not in gone]
        return out

    def _keep(self, number: int | None, player: str, house: Feature) -> None:
        """The keep goes on the player's first completed house with their majority, and moves to
        a later one with more tiles ("Ein fertiges Haus und der Palas")."""
        current = self.palas.get(player)
        if current is not None and current[1] >= house.tiles:
            return
        cell = house.sorted_cells()[0]
        self.palas[player] = (cell, house.tiles)
        self.palas_house[player] = house.id
        verb = "moves the keep to" if current else "places the keep on"
        self.notes.append(f"turn {number}: {player} {verb} the house of {plural(house.tiles, 'tile')} at {list(cell)}")

    # -- reading the game -----------------------------------------------------------------------
    def keep_cell(self, player: str) -> Cell:
        """A cell of the player's keep house that a state can name without doubt: one where
        :func:`keep_house` finds this house. A tile may hold two completed houses; when every cell
        of a small keep house also holds a larger one, the state format cannot tell them apart and
        the first cell is written (a photo has the same doubt)."""
        cell, _ = self.palas[player]
        root = self.palas_house.get(player)
        if root is None:
            return cell
        house = self.board.graph.feature(self.board.graph.find(root))
        for c in house.sorted_cells():
            found = keep_house(self.board, c)
            if found is not None and found.id == house.id:
                return c
        return cell

    def held_numbers(self) -> dict[str, list[int]]:
        return {p: [h.number for h in self.held[p]] for p in self.players}

    def state(self) -> State:
        """The position now as ``carcam/state@1``: what a photo shows plus the track, keeps and
        wall tiles. An unknown held wall tile cannot be written (``held`` lists 1..9) and is left out."""
        return State(
            game="castle", players=self.players,
            tiles=tuple(TileEntry(at=c, tile=p.tile, rot=p.rot) for c, p in self.board.tiles.items()),
            meeples=tuple(MeepleEntry(player=f.player, at=f.at, on=f.on) for f in self.figures),
            scores=dict(self.track), layout=self.layout,
            palas={p: self.keep_cell(p) for p in self.palas},
            wall_tiles={p: {"held": tuple(sorted(h.number for h in self.held[p] if h.number)),
                            "used": tuple(self.used[p])}
                        for p in self.players if self.held[p] or self.used[p]},
            corner_tiles={str(k): v for k, v in sorted(self.corners.items())})

    def final_report(self) -> ScoreReport:
        """Totals if the game ended now: every turn's scorings, then the final scoring."""
        final = final_scoring(self.board, self.figures, self.players,
                              {p: size for p, (_, size) in self.palas.items()}, self.held_numbers())
        open_ = open_features(self.board, self.figures, self.players, final)
        return ScoreReport(players=self.players, track=dict.fromkeys(self.players, 0),
                           events=tuple(e for r in self.history for e in r.events) + final.events,
                           open=tuple(open_), notes=tuple(self.notes) + final.notes)


def replay_castle(record: GameRecord) -> tuple[list[TurnResult], ScoreReport]:
    """Replay a whole castle record; returns every turn's result and the final report."""
    game = CastleGame.from_record(record)
    results = [game.play(t) for t in record.turns]
    return results, game.final_report()


# ---------------------------------------------------------------------------------------------
# scoring a position (a photo plus the track, keeps and held wall tiles)
def castle_conflicts(position: Any) -> list[Conflict]:
    """What makes a castle position impossible, beyond mismatched tile edges: a tile outside the
    wall, a path that does not continue into a start field, tiles joined to no start field, a
    keep not on a completed house, more than two wall tiles of a number."""
    state: State = position.state
    board: Board = position.board
    layout = board.layout
    out: list[Conflict] = []
    if layout is None:
        return out
    for cell, placed in board.tiles.items():
        if cell not in layout.cells:
            out.append(Conflict((cell,), f"tile {placed.tile.name()} lies outside the castle wall"))
            continue
        if not placed.tile.segments:
            continue
        for edge in EDGES:
            sf = layout.start_field(cell, edge)
            if sf is None:
                continue
            for k, slot in enumerate(EDGE_SLOTS[edge]):
                mine, theirs = placed.kind_at(slot), sf.kinds[k]
                if mine is not theirs and Kind.PATH in (mine, theirs):
                    out.append(Conflict((cell,), edge=edge, reason=(
                        f"{placed.tile.name()} (rot {placed.rot}) shows {mine.value if mine else '?'} at its "
                        f"{edge} edge ({slot}) but the start field shows {theirs.value}: the path does not continue")))
                    break
    out += _unanchored(board, layout)
    for p, cell in state.palas.items():
        if keep_house(board, cell) is None:
            out.append(Conflict((cell,), f"palas.{p}: the keep must stand on a completed house, "
                                         f"and {list(cell)} has none"))
    counts: Counter[int] = Counter(n for n in state.corner_tiles.values() if n)
    for d in state.wall_tiles.values():
        counts.update(d.get("held", ()))
        counts.update(d.get("used", ()))
    for n, k in sorted(counts.items()):
        if k > WALL_TILE_COPIES:
            out.append(Conflict((), f"wall tile {n} appears {k} times (held, used and on corners); "
                                    f"the game has {WALL_TILE_COPIES}"))
    return out


def _unanchored(board: Board, layout: Layout) -> list[Conflict]:
    """Groups of tiles that no chain of whole edges joins to a start field."""
    anchors = [sf.at for sf in layout.start_fields if sf.at in board.tiles]
    seen = set(anchors)
    stack = list(anchors)
    while stack:
        c = stack.pop()
        for e in EDGES:
            n = neighbour(c, e)
            if n in board.tiles and n not in seen:
                seen.add(n)
                stack.append(n)
    rest = sorted(c for c in board.tiles if c not in seen)
    if not rest:
        return []
    return [Conflict(tuple(rest), "tiles joined to no start field by a chain of whole edges")]


def _keep_sizes(board: Board, palas: Mapping[str, Cell]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p, cell in palas.items():
        house = keep_house(board, cell)
        if house is not None:
            out[p] = house.tiles
    return out


def score_position(position: Any) -> ScoreReport:
    """Totals of a castle position if the game ended now: the track, then completed paths,
    towers and houses still holding followers (scored as at the end of a turn, landing on corner
    towers included), then the final scoring with every held wall tile."""
    state: State = position.state
    players = state.players
    layout = state.layout if state.layout is not None else load_layout("standard")
    game = CastleGame(players=players, layout=layout, check_box=False)
    game.board = position.board
    game.figures = list(position.figures)
    game.track = {p: int(state.scores.get(p, 0)) for p in players}
    game.corners = {int(k): int(v) for k, v in state.corner_tiles.items()}
    sizes = _keep_sizes(game.board, state.palas)
    game.palas = {p: (state.palas[p], n) for p, n in sizes.items()}
    game.held = {p: [HeldTile(n, 0) for n in state.wall_tiles.get(p, {}).get("held", ())] for p in players}
    graph = game.board.graph
    roots = {feature_root(game.board, f) for f in game.figures}
    done = [r for r in roots if r is not None and graph.kind(r) in COMPLETABLE and graph.is_complete(r)]
    by_root = group_figures(game.board, game.figures)
    scorings = sorted(((graph.feature(r), by_root[r]) for r in done),
                      key=lambda fs: (COMPLETABLE.index(fs[0].kind), fs[0].sorted_cells()))
    game.notes = []
    events = game._score(None, None, scorings, set(), phase="completed")
    final = final_scoring(game.board, game.figures, players, {p: s for p, (_, s) in game.palas.items()},
                          game.held_numbers())
    open_ = open_features(game.board, game.figures, players, final)
    notes = [n.replace("turn None: ", "") for n in game.notes]
    return ScoreReport(players=players, track={p: int(state.scores.get(p, 0)) for p in players},
                       events=tuple(events) + final.events, open=tuple(open_), notes=tuple(notes) + final.notes)


# ---------------------------------------------------------------------------------------------
# random legal games (property tests, synthetic photos)
def random_corner_tiles(rng: random.Random, layout: Layout) -> dict[str, int]:
    """Shuffle the 18 wall tiles and lay one face down on every corner except 0/1."""
    pool = [n for n in WALL_TILE_NUMBERS for _ in range(WALL_TILE_COPIES)]
    rng.shuffle(pool)
    corners = [c for c in layout.corners if has_wall_tile(c)]
    return {str(c[0]): pool[i] for i, c in enumerate(corners[:len(pool)])}


def random_castle_game(seed: int, layout: Layout | None = None, turns: int | None = None,
                       follower_rate: float = 0.6, players: Iterable[str] = PLAYER_COLOURS,
                       wall_tile_rate: float = 0.7, merchant_rate: float = 0.3) -> GameRecord:
    """Play a random legal game of The Castle (seeded) and return its record.

    Each turn draws from the 60 castle tiles, lays the tile at a random legal spot (a tile that
    fits nowhere is discarded and the same player draws again), puts a follower on a random free
    segment with probability ``follower_rate`` (a court only with probability
    ``merchant_rate`` when another segment is free) and, with probability ``wall_tile_rate``, uses the
    usable wall tiles 1, 2, 3 it holds where the rules allow. ``turns`` stops after that many
    tiles laid. The corner tiles are dealt at random."""
    rng = random.Random(seed)
    layout = layout if layout is not None else load_layout("standard")
    players = tuple(players)
    catalog = load_catalog()
    deck = catalog.deck("castle")
    rng.shuffle(deck)
    corner_tiles = random_corner_tiles(rng, layout)
    game = CastleGame(players=players, layout=layout, corner_tiles=corner_tiles)
    played: list[Turn] = []
    laid = 0
    limit = len(deck) if turns is None else turns
    while deck and laid < limit:
        player = game.next_player or players[0]
        tile = catalog.get(deck.pop())
        assert tile is not None
        spots = game.board.legal_placements(tile)
        if not spots:
            turn = Turn(player=player, tile=tile, at=None, discarded=True)
            game.play(turn)
            played.append(turn)
            continue
        at, rot = spots[rng.randrange(len(spots))]
        meeple = None
        if rng.random() < follower_rate and game.supply[player] > 0:
            free = game.follower_options(tile, at, rot)
            placed = PlacedTileView(tile, rot)
            # merchants never come home: a random player who always chose courts would soon run dry
            if rng.random() > merchant_rate:
                free = [s for s in free if placed.kind_at(s) is not Kind.COURT] or free
            if free:
                meeple = free[rng.randrange(len(free))]
        wish = tuple(n for n in game.usable_wall_tiles(player) if n in (1, 2, 3) and rng.random() < wall_tile_rate)
        for use in (wish, tuple(n for n in wish if n == 1), ()):
            turn = Turn(player=player, tile=tile, at=at, rot=rot, meeple=meeple, wall_tiles_used=use)
            try:
                game.play(turn)
            except IllegalMoveError:
                continue
            break
        played.append(turn)
        laid += 1
    return GameRecord(game="castle", expansions=(), options={}, players=players, start=None,
                      turns=tuple(played), layout=layout, corner_tiles=corner_tiles)

