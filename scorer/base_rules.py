"""The rules of the Carcassonne base game and The Festival, in one place.

Every number a scoring uses is here, with the rule it comes from (rulebook page names in
German in brackets):

* completed road: 1 per tile ("Eine fertige Straße"); completed city: 2 per tile + 2 per shield
  ("Eine fertige Stadt"); completed monastery: 9 ("Ein fertiges Kloster");
* the majority of followers scores; a tie gives every tied player full points;
* followers go home after scoring, farmers never ("Rückkehr der Gefolgsleute");
* end of game: incomplete road 1 per tile, city 1 per tile + 1 per shield, monastery 1 + 1 per
  neighbour ("Schlusswertung"); farms: 3 per completed city to each field's majority
  ("Bauernwertung");
* option ``tiny_city`` (first edition): a completed city of two tiles scores 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .catalog import Kind
from .features import Feature
from .scoring import Figure, ScoreEvent, describe_majority, majority, plural

FOLLOWERS_PER_PLAYER = 7
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "black", "grey")
OPTIONS: Mapping[str, type] = {"tiny_city": bool}
FARM_POINTS_PER_CITY = 3

ROLE = {Kind.ROAD: "thief", Kind.CITY: "knight", Kind.MONASTERY: "monk", Kind.FIELD: "farmer"}


def completed_value(feature: Feature, options: Mapping[str, Any]) -> tuple[int, str]:
    """Points and reason for a completed road, city or monastery during play."""
    return completed_points(feature.kind, feature.tiles, feature.shields, options)


def completed_points(kind: Kind, tiles: int, shields: int, options: Mapping[str, Any]) -> tuple[int, str]:
    """Points and reason for a completed feature of ``kind`` with ``tiles`` tiles and ``shields``."""
    if kind is Kind.ROAD:
        return tiles, f"completed road: {plural(tiles, 'tile')} x 1"
    if kind is Kind.CITY:
        if options.get("tiny_city") and tiles == 2:
            return 2 + 2 * shields, "completed 2-tile city: 2 (first-edition rule)"
        why = f"completed city: {plural(tiles, 'tile')} x 2"
        if shields:
            why += f" + {plural(shields, 'shield')} x 2"
        return 2 * tiles + 2 * shields, why
    if kind is Kind.MONASTERY:
        return 9, "completed monastery: 9 tiles x 1"
    raise ValueError(f"a {kind.value} is never completed during play")


def end_value(feature: Feature) -> tuple[int, str]:
    """Points and reason for an incomplete road, city or monastery at the end of the game."""
    if feature.kind is Kind.ROAD:
        return feature.tiles, f"incomplete road: {plural(feature.tiles, 'tile')} x 1"
    if feature.kind is Kind.CITY:
        why = f"incomplete city: {plural(feature.tiles, 'tile')} x 1"
        if feature.shields:
            why += f" + {plural(feature.shields, 'shield')} x 1"
        return feature.tiles + feature.shields, why
    if feature.kind is Kind.MONASTERY:
        return feature.tiles, (f"incomplete monastery: 1 + {plural(feature.tiles - 1, 'neighbour')}"
                               " x 1")
    raise ValueError(f"no end value for a {feature.kind.value}")


def score_feature(feature: Feature, figures: list[Figure], players: tuple[str, ...], value: int,
                  why: str, phase: str, turn: int | None = None) -> list[ScoreEvent]:
    """One event per majority owner of ``feature`` (every tied player scores in full)."""
    owners, counts = majority(figures, players)
    if not owners or value == 0:
        return []
    reason = f"{why}; {describe_majority(owners, counts)}"
    cells = tuple(feature.sorted_cells())
    return [ScoreEvent(player=p, points=value, what=feature.kind.value, tiles=feature.tiles,
                       why=reason, phase=phase, turn=turn, cells=cells) for p in owners]


def farm_value(completed_cities: int) -> tuple[int, str]:
    """Points and reason of a field touching ``completed_cities`` completed cities."""
    return (FARM_POINTS_PER_CITY * completed_cities,
            f"field touching {plural(completed_cities, 'completed city', 'completed cities')} x 3")


# ---------------------------------------------------------------------------------------------
# rules that read the board (kept here so every base-game rule lives in this one module)
def feature_root(board: Any, fig: Figure) -> int | None:
    """The feature (graph root) a figure stands on, or None when its slot has no segment."""
    node = board.node_at(fig.at, fig.on)
    return None if node is None else board.graph.find(node)


def free_follower_slots(board: Any, figures: list[Figure], tile: Any, at: tuple[int, int], rot: int) -> list[str]:
    """Board slots (one per segment) where a follower could stand if ``tile`` were laid on ``at``
    at ``rot`` now: segments that would join no occupied feature (any game). Changes nothing.

    Laying the tile can also join two features through another of its segments (a curve's
    outer field joins two fields, and its inner field touches one of them), so the features
    that the tile's segments join are merged across the whole tile before they are checked."""
    from .geometry import FACING_SLOT, SLOT_EDGE, neighbour, rotate_slot
    occupied = {feature_root(board, f) for f in figures}
    merged: list[set[int]] = []
    for seg in tile.segments:
        slots = [rotate_slot(s, rot) for s in seg.slots]
        nodes = (board.node_at(neighbour(at, SLOT_EDGE[s]), FACING_SLOT[s]) for s in slots if s in SLOT_EDGE)
        merged.append({board.graph.find(n) for n in nodes if n is not None})
    changed = True
    while changed:  # two segments that join one feature join each other's features too
        changed = False
        for a in merged:
            for b in merged:
                if a is not b and a & b and not b <= a:
                    a |= b
                    changed = True
    return [rotate_slot(seg.slots[0], rot) for seg, roots in zip(tile.segments, merged) if not roots & occupied]


def group_figures(board: Any, figures: list[Figure]) -> dict[int, list[Figure]]:
    """Figures by the feature they stand on."""
    out: dict[int, list[Figure]] = {}
    for f in figures:
        root = feature_root(board, f)
        if root is not None:
            out.setdefault(root, []).append(f)
    return out


def completed_by(board: Any, cell: tuple[int, int]) -> list[int]:
    """Roads, cities and monasteries that the tile on ``cell`` completed (roots, rule order:
    roads, cities, monasteries)."""
    from .geometry import surrounding
    graph = board.graph
    placed = board.tiles[cell]
    roots: list[int] = []
    for i, seg in enumerate(placed.tile.segments):
        if seg.kind in (Kind.ROAD, Kind.CITY):
            root = graph.find(graph.node(cell, i))
            if root not in roots and graph.is_complete(root):
                roots.append(root)
    order = {Kind.ROAD: 0, Kind.CITY: 1}
    roots.sort(key=lambda r: order[graph.kind(r)])
    for c in (cell, *surrounding(cell)):
        there = board.tiles.get(c)
        if there is None:
            continue
        for i, seg in enumerate(there.tile.segments):
            if seg.kind is Kind.MONASTERY:
                node = graph.node(c, i)
                if graph.is_complete(node):
                    roots.append(node)
    return roots


def score_completed(board: Any, roots: list[int], figures: list[Figure], players: tuple[str, ...],
                    options: Mapping[str, Any], phase: str, turn: int | None = None
                    ) -> tuple[list[ScoreEvent], list[Figure]]:
    """Score completed features that hold followers; return the events and the figures that go
    home (every follower on a scored feature; farmers never stand on one)."""
    by_root = group_figures(board, figures)
    events: list[ScoreEvent] = []
    home: list[Figure] = []
    for root in roots:
        figs = by_root.get(root, [])
        if not figs:
            continue
        feature = board.graph.feature(root)
        value, why = completed_value(feature, options)
        events += score_feature(feature, figs, players, value, why, phase, turn)
        home += figs
    return events, home


def score_end(board: Any, figures: list[Figure], players: tuple[str, ...],
              options: Mapping[str, Any], links: dict[int, set[int]] | None = None) -> list[ScoreEvent]:
    """End-of-game scoring: incomplete roads, cities and monasteries, then farms."""
    graph = board.graph
    by_root = group_figures(board, figures)
    events: list[ScoreEvent] = []
    farms: list[tuple[Feature, list[Figure]]] = []
    if links is None:
        links = graph.field_cities()
    incomplete: list[tuple[Feature, list[Figure]]] = []
    for root, figs in by_root.items():
        feature = graph.feature(root, links)
        if feature.kind is Kind.FIELD:
            farms.append((feature, figs))
        elif not feature.complete:
            incomplete.append((feature, figs))
    order = {Kind.ROAD: 0, Kind.CITY: 1, Kind.MONASTERY: 2}
    incomplete.sort(key=lambda fs: (order.get(fs[0].kind, 3), fs[0].sorted_cells()))
    for feature, figs in incomplete:
        value, why = end_value(feature)
        events += score_feature(feature, figs, players, value, why, "end")
    farms.sort(key=lambda fs: fs[0].sorted_cells())
    for feature, figs in farms:
        done = sum(1 for c in feature.cities if graph.is_complete(c))
        value, why = farm_value(done)
        events += score_feature(feature, figs, players, value, why, "farm")
    return events


def open_features(board: Any, figures: list[Figure], players: tuple[str, ...],
                  options: Mapping[str, Any], links: dict[int, set[int]] | None = None) -> list[Any]:
    """Every incomplete road, city, monastery and every field, with owners and values."""
    from .scoring import OpenFeature
    graph = board.graph
    by_root = group_figures(board, figures)
    if links is None:
        links = graph.field_cities()
    out: list[OpenFeature] = []
    for feature in graph.features(links):
        if feature.complete:
            continue
        figs = by_root.get(feature.id, [])
        owners = majority(figs, players)[0] if figs else []
        if feature.kind is Kind.FIELD:
            done = sum(1 for c in feature.cities if graph.is_complete(c))
            now, why = farm_value(done)
            if_completed = None
        else:
            now, why = end_value(feature)
            if_completed = completed_points(feature.kind, feature.tiles, feature.shields, options)[0]
        out.append(OpenFeature(kind=feature.kind.value, tiles=feature.tiles, owners=tuple(owners),
                               points_now=now, cells=tuple(feature.sorted_cells()),
                               points_if_completed=if_completed, figures=tuple(figs), detail=why))
    order = {"road": 0, "city": 1, "monastery": 2, "field": 3}
    out.sort(key=lambda o: (order[o.kind], -o.tiles, o.cells))
    return out
