"""The board: tiles on cells, placement legality and the feature graph that follows them.

The base game's table is unbounded; The Castle's board is bounded by a wall (a
:class:`Layout`) with start fields on its inner edge. Both use the same board and graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from .catalog import Kind, TileType
from .errors import Conflict, IllegalBoardError
from .features import FeatureGraph
from .geometry import EDGE_SLOTS, EDGES, FACING_SLOT, ROTATIONS, Cell, neighbour


class PlacedTile(NamedTuple):
    """A tile lying on the board at a rotation (a NamedTuple: boards hold many of them)."""

    tile: TileType
    rot: int

    def segment_at(self, board_slot: str) -> int | None:
        """Index of the segment at a board slot (after rotation), or None."""
        return self.tile.board_slots(self.rot).get(board_slot)

    def kind_at(self, board_slot: str) -> Kind | None:
        i = self.segment_at(board_slot)
        return None if i is None else self.tile.segments[i].kind


@dataclass(frozen=True)
class StartField:
    """A start field of The Castle's wall, lying against ``side`` of interior cell ``at``.

    ``kinds`` are the kinds it shows at the three slots of that edge, clockwise seen from inside
    the cell (the order of :data:`scorer.geometry.EDGE_SLOTS`)."""

    at: Cell
    side: str
    kinds: tuple[Kind, Kind, Kind]
    markets: int = 0


@dataclass(frozen=True)
class Layout:
    """A bounded board: the interior cells, start fields on the wall and the corner towers."""

    name: str | None
    cells: frozenset[Cell]
    start_fields: tuple[StartField, ...] = ()
    corners: tuple[tuple[int, int], ...] = ()
    provisional: bool = False
    _starts_at: dict[tuple[Cell, str], StartField] = field(default_factory=dict, compare=False,
                                                            repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts_at", {(s.at, s.side): s for s in self.start_fields})

    def start_field(self, cell: Cell, side: str) -> StartField | None:
        return self._starts_at.get((cell, side))


class Board:
    """Tiles on cells, with their feature graph kept up to date on every placement.

    ``rules`` decides which kinds must match across an edge (every slot in the base game,
    paths only in The Castle)."""

    def __init__(self, layout: Layout | None = None, strict_kinds: frozenset[Kind] | None = None) -> None:
        self.tiles: dict[Cell, PlacedTile] = {}
        self.layout = layout
        #: kinds that must meet their own kind across an edge; None means every kind must
        self.strict_kinds = strict_kinds
        self.graph = FeatureGraph(self)
        if layout is not None:
            for sf in layout.start_fields:
                self.graph.add_start_field(sf)

    def __len__(self) -> int:
        return len(self.tiles)

    def can_hold(self, cell: Cell) -> bool:
        """Whether a tile may ever lie on ``cell`` (always, unless a wall bounds the board)."""
        return self.layout is None or cell in self.layout.cells

    def _must_match(self, kind: Kind | None) -> bool:
        return self.strict_kinds is None or kind in self.strict_kinds

    def edge_conflicts(self, cell: Cell, tile: TileType, rot: int) -> list[Conflict]:
        """Every edge where ``tile`` at ``rot`` on ``cell`` would not continue its neighbour."""
        out: list[Conflict] = []
        if not tile.segments:
            return out
        placed = PlacedTile(tile, rot)
        for edge in EDGES:
            other = neighbour(cell, edge)
            there = self.tiles.get(other)
            start = None if self.layout is None else self.layout.start_field(cell, edge)
            for k, slot in enumerate(EDGE_SLOTS[edge]):
                mine = placed.kind_at(slot)
                if there is not None and there.tile.segments:
                    theirs = there.kind_at(FACING_SLOT[slot])
                elif start is not None:
                    theirs = start.kinds[k]
                else:
                    continue
                if mine is theirs:
                    continue
                if self._must_match(mine) or self._must_match(theirs):
                    out.append(Conflict(
                        cells=(cell, other),
                        edge=edge,
                        reason=(f"{tile.name()} (rot {rot}) shows {mine.value if mine else '?'} at "
                                f"its {edge} edge ({slot}) but "
                                + (f"{there.tile.name()} shows {theirs.value if theirs else '?'}"
                                   if there is not None else
                                   f"the start field shows {theirs.value if theirs else '?'}")),
                    ))
                    break
        return out

    def touches(self, cell: Cell) -> bool:
        """Whether ``cell`` shares a whole edge with a tile (or a start field in The Castle)."""
        for edge in EDGES:
            if neighbour(cell, edge) in self.tiles:
                return True
            if self.layout is not None and self.layout.start_field(cell, edge) is not None:
                return True
        return False

    def placement_problems(self, cell: Cell, tile: TileType, rot: int) -> list[Conflict]:
        """Why ``tile`` may not go on ``cell`` at ``rot``; empty when the placement is legal."""
        if rot not in ROTATIONS:
            return [Conflict((cell,), f"rotation {rot} is not 0/90/180/270")]
        if cell in self.tiles:
            return [Conflict((cell,), f"cell already holds {self.tiles[cell].tile.name()}")]
        if not self.can_hold(cell):
            return [Conflict((cell,), "cell lies outside the castle wall")]
        if (self.tiles or self.layout is not None) and not self.touches(cell):
            what = "a tile or a start field" if self.layout is not None else "a tile"
            return [Conflict((cell,), f"does not share an edge with {what} (corners do not count)")]
        return self.edge_conflicts(cell, tile, rot)

    def place(self, cell: Cell, tile: TileType, rot: int, check: bool = True) -> None:
        """Put a tile on the board; with ``check``, refuse an illegal placement."""
        if check:
            problems = self.placement_problems(cell, tile, rot)
            if problems:
                raise IllegalBoardError(problems)
        elif cell in self.tiles:
            raise IllegalBoardError([Conflict((cell,), "two tiles on one cell")])
        self.tiles[cell] = PlacedTile(tile, rot)
        self.graph.add_tile(cell, tile, rot)

    def frontier(self) -> set[Cell]:
        """Empty cells where a tile could be put next to the existing ones."""
        out: set[Cell] = set()
        for cell in self.tiles:
            for edge in EDGES:
                n = neighbour(cell, edge)
                if n not in self.tiles and self.can_hold(n):
                    out.add(n)
        if self.layout is not None:
            out.update(sf.at for sf in self.layout.start_fields if sf.at not in self.tiles)
        return out

    def legal_placements(self, tile: TileType) -> list[tuple[Cell, int]]:
        """Every (cell, rotation) where ``tile`` may be put now (distinct rotations only)."""
        cells = sorted(self.frontier()) if (self.tiles or self.layout is not None) else [(0, 0)]
        return [(c, r) for c in cells for r in tile.rotations()
                if not self.placement_problems(c, tile, r)]

    def node_at(self, cell: Cell, board_slot: str) -> int | None:
        """The graph node of the segment at ``board_slot`` of the tile on ``cell``."""
        placed = self.tiles.get(cell)
        if placed is None:
            return None
        i = placed.segment_at(board_slot)
        return None if i is None else self.graph.node(cell, i)

    def conflicts(self) -> list[Conflict]:
        """Every edge on the board where two tiles do not match (for a board read from a photo)."""
        out: list[Conflict] = []
        for cell, placed in self.tiles.items():
            if not placed.tile.segments:
                continue
            mine = placed.tile.board_slots(placed.rot)
            for edge in ("E", "S"):
                other = neighbour(cell, edge)
                there = self.tiles.get(other)
                if there is None or not there.tile.segments:
                    continue
                theirs = there.tile.board_slots(there.rot)
                for slot in EDGE_SLOTS[edge]:
                    a = placed.tile.segments[mine[slot]].kind
                    b = there.tile.segments[theirs[FACING_SLOT[slot]]].kind
                    if a is not b and (self._must_match(a) or self._must_match(b)):
                        out.append(Conflict(
                            cells=(cell, other), edge=edge,
                            reason=(f"{placed.tile.name()} (rot {placed.rot}) shows {a.value} on its "
                                    f"{edge} edge but {there.tile.name()} (rot {there.rot}) shows {b.value}")))
                        break
        return out

    def without(self, cell: Cell) -> Board:
        """The same board less the tile on ``cell`` (features only grow, so a tile laid by a turn
        that proves illegal is taken back by rebuilding)."""
        return Board.from_tiles(((c, p.tile, p.rot) for c, p in self.tiles.items() if c != cell),
                                self.layout, self.strict_kinds)

    @classmethod
    def from_tiles(cls, tiles: Iterable[tuple[Cell, TileType, int]], layout: Layout | None = None,
                   strict_kinds: frozenset[Kind] | None = None) -> Board:
        """Build a board from placements in any order, without the rule that each tile must
        touch an earlier one (a photo has no order); edges are checked by :meth:`conflicts`."""
        board = cls(layout, strict_kinds)
        for cell, tile, rot in tiles:
            board.place(cell, tile, rot, check=False)
        return board
