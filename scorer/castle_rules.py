"""The rules of Carcassonne: The Castle (Die Burg). Format-level parsing of the castle keys.

(The scoring rules are added on top of this module; see issue 4.)
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Mapping

from .board import Layout, StartField
from .catalog import Kind
from .errors import FormatError

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
    for p, c in palas.items():
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
