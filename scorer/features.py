"""The feature graph: union-find over tile segments joined across shared edges.

Tiles are added one at a time and features only ever grow, so the graph is incremental: placing
a tile costs a few unions, and a whole game never rebuilds it. A feature is *open* while one of
its edge slots faces an empty cell that could still take a tile; roads, cities (and The Castle's
paths, towers, houses) are complete when nothing is open. Monasteries are complete when all
eight neighbours are filled; fields never complete.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .catalog import Kind, TileType
from .geometry import EDGE_SLOTS, EDGES, FACING_SLOT, Cell, neighbour, surrounding

if TYPE_CHECKING:
    from .board import Board, StartField


class Feature(NamedTuple):
    """A snapshot of one connected feature (road, city, field, monastery, path, ...).

    A NamedTuple rather than a frozen dataclass: scoring builds one per feature, and this is the
    cheapest immutable record Python has."""

    id: int
    kind: Kind
    cells: frozenset[Cell]
    tiles: int
    complete: bool
    shields: int = 0
    wells: int = 0
    markets: int = 0
    start_fields: int = 0
    cities: frozenset[int] = frozenset()

    def sorted_cells(self) -> list[Cell]:
        return sorted(self.cells, key=lambda c: (c[1], c[0]))


class FeatureGraph:
    """Incremental union-find of segments; owned and fed by :class:`scorer.board.Board`."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._parent: list[int] = []
        self._kind: list[Kind] = []
        self._cell: list[Cell | None] = []
        self._links: list[tuple[int, ...]] = []  # field -> city nodes on the same tile
        self.node_of: dict[tuple[Cell, int], int] = {}
        # per-root aggregates
        # per-node aggregates, valid at roots only (lists indexed by node: faster than dicts)
        self._cells: list[set[Cell]] = []
        self._open: list[int] = []
        self._shields: list[int] = []
        self._wells: list[int] = []
        self._markets: list[int] = []
        #: start fields a feature runs into, by (cell, side): one start field counts as one tile even
        #: when two of its slots (a court on each side of a path) join the same feature
        self._starts: list[set[tuple[Cell, str]]] = []
        self._start_nodes: dict[tuple[Cell, str, str], int] = {}
        self.monasteries: list[int] = []

    # -- union-find -------------------------------------------------------------------------
    def find(self, n: int) -> int:
        parent = self._parent
        root = n
        while parent[root] != root:
            root = parent[root]
        while parent[n] != root:
            parent[n], n = root, parent[n]
        return root

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self._cells[ra]) < len(self._cells[rb]):
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._cells[ra] |= self._cells[rb]
        self._open[ra] += self._open[rb]
        self._shields[ra] += self._shields[rb]
        self._wells[ra] += self._wells[rb]
        self._markets[ra] += self._markets[rb]
        if self._starts[rb]:
            self._starts[ra] |= self._starts[rb]
        return ra

    def _new_node(self, kind: Kind, cell: Cell | None, cells: set[Cell], open_slots: int,
                  shields: int = 0, wells: int = 0, markets: int = 0,
                  start: tuple[Cell, str] | None = None) -> int:
        n = len(self._parent)
        self._parent.append(n)
        self._kind.append(kind)
        self._cell.append(cell)
        self._links.append(())
        self._cells.append(cells)
        self._open.append(open_slots)
        self._shields.append(shields)
        self._wells.append(wells)
        self._markets.append(markets)
        self._starts.append({start} if start is not None else set())
        return n

    # -- building ---------------------------------------------------------------------------
    def add_start_field(self, field: StartField) -> None:
        """Create the segments a start field shows; consecutive slots of one kind are one area."""
        slots = EDGE_SLOTS[field.side]
        prev: int | None = None
        prev_kind: Kind | None = None
        for slot, kind in zip(slots, field.kinds):
            if kind is prev_kind and prev is not None and kind is not Kind.PATH:
                node = prev
            else:
                node = self._new_node(kind, None, set(), 0, start=(field.at, field.side))
            self._start_nodes[(field.at, field.side, slot)] = node
            prev, prev_kind = node, kind
        if field.markets:
            court = next((self._start_nodes[(field.at, field.side, s)]
                          for s, k in zip(slots, field.kinds) if k is Kind.COURT), None)
            if court is not None:
                self._markets[self.find(court)] += field.markets

    def add_tile(self, cell: Cell, tile: TileType, rot: int) -> None:
        """Add the segments of a newly placed tile and join them to their neighbours."""
        board = self._board
        nodes: list[int] = []
        for i, seg in enumerate(tile.segments):
            n = self._new_node(seg.kind, cell, {cell}, seg.edge_slots, shields=int(seg.shield),
                               wells=int(seg.well), markets=seg.markets)
            self.node_of[(cell, i)] = n
            nodes.append(n)
            if seg.kind is Kind.MONASTERY:
                self.monasteries.append(n)
        for i, seg in enumerate(tile.segments):
            if seg.cities:
                links = tuple(nodes[j] for c in seg.cities if (j := tile.segment_index(c)) is not None)
                self._links[nodes[i]] = links
        if not tile.segments:
            # An unknown tile: features facing it must stay open, so nothing is closed here.
            return
        mine_at = tile.board_slots(rot)
        starts = self._start_nodes
        for edge in EDGES:
            other = neighbour(cell, edge)
            placed = board.tiles.get(other)
            if placed is not None and not placed.tile.segments:
                continue  # faces an unknown tile: stays open
            theirs_at = placed.tile.board_slots(placed.rot) if placed is not None else None
            holdable = placed is not None or board.can_hold(other)
            if theirs_at is None and holdable and not starts:
                continue  # an open edge of an unbounded board: its slots simply stay open
            for slot in EDGE_SLOTS[edge]:
                mine = nodes[mine_at[slot]]
                if theirs_at is not None:
                    theirs = self.node_of[(other, theirs_at[FACING_SLOT[slot]])]
                    if self._kind[mine] is self._kind[theirs]:
                        root = self._union(mine, theirs)
                        self._open[root] -= 2
                    else:
                        self._open[self.find(mine)] -= 1
                        self._open[self.find(theirs)] -= 1
                    continue
                start = starts.get((cell, edge, slot)) if starts else None
                if start is not None:
                    if self._kind[start] is self._kind[mine]:
                        root = self._union(mine, start)
                        self._open[root] -= 1
                    else:
                        self._open[self.find(mine)] -= 1
                elif not holdable:
                    self._open[self.find(mine)] -= 1  # the castle wall closes this slot

    # -- queries ----------------------------------------------------------------------------
    def node(self, cell: Cell, segment: int) -> int:
        return self.node_of[(cell, segment)]

    def kind(self, node: int) -> Kind:
        return self._kind[node]

    def is_complete(self, node: int) -> bool:
        """Whether the feature of ``node`` is complete (a field never is)."""
        kind = self._kind[node]
        if kind is Kind.MONASTERY:
            return self.monastery_tiles(node) == 9
        if kind in (Kind.FIELD, Kind.COURT):
            return False
        return self._open[self.find(node)] == 0

    def open_cells(self, node: int) -> set[Cell]:
        """The empty cells the feature of ``node`` reaches across an edge (a monastery: the empty
        cells around it): where the tiles that may complete it go."""
        board = self._board
        if self._kind[node] is Kind.MONASTERY:
            cell = self._cell[node]
            assert cell is not None
            return {c for c in surrounding(cell) if c not in board.tiles}
        root = self.find(node)
        out: set[Cell] = set()
        for c in self._cells[root]:
            placed = board.tiles[c]
            for edge in EDGES:
                other = neighbour(c, edge)
                if other in board.tiles or other in out:
                    continue
                if any((i := placed.segment_at(s)) is not None and self.find(self.node_of[(c, i)]) == root
                       for s in EDGE_SLOTS[edge]):
                    out.add(other)
        return out

    def monastery_tiles(self, node: int) -> int:
        """The monastery tile plus its filled neighbours (9 when complete)."""
        cell = self._cell[node]
        assert cell is not None
        return 1 + sum(1 for c in surrounding(cell) if c in self._board.tiles)

    def field_cities(self) -> dict[int, set[int]]:
        """For every field root, the roots of the city features it touches (one pass)."""
        out: dict[int, set[int]] = {}
        find = self.find
        for n, links in enumerate(self._links):
            if links:
                out.setdefault(find(n), set()).update(find(c) for c in links)
        return out

    def feature(self, node: int, field_cities: dict[int, set[int]] | None = None) -> Feature:
        """A snapshot of the feature that ``node`` belongs to."""
        kind = self._kind[node]
        if kind is Kind.MONASTERY:
            cell = self._cell[node]
            assert cell is not None
            tiles = self.monastery_tiles(node)
            cells = {cell, *(c for c in surrounding(cell) if c in self._board.tiles)}
            return Feature(id=node, kind=kind, cells=frozenset(cells), tiles=tiles, complete=tiles == 9)
        root = self.find(node)
        cities: frozenset[int] = frozenset()
        if kind is Kind.FIELD:
            if field_cities is None:
                field_cities = self.field_cities()
            cities = frozenset(field_cities.get(root, ()))
        cells = self._cells[root]
        return Feature(
            id=root, kind=kind, cells=frozenset(cells), tiles=len(cells) + len(self._starts[root]),
            complete=self.is_complete(root), shields=self._shields[root], wells=self._wells[root],
            markets=self._markets[root], start_fields=len(self._starts[root]), cities=cities,
        )

    def roots(self) -> list[int]:
        """One node per feature: union-find roots of tile segments, plus every monastery."""
        out = [n for n in range(len(self._parent))
               if self._parent[n] == n and self._cell_count(n) and self._kind[n] is not Kind.MONASTERY]
        return out + self.monasteries

    def _cell_count(self, root: int) -> int:
        return len(self._cells[root])

    def features(self, links: dict[int, set[int]] | None = None) -> list[Feature]:
        """Every feature on the board (start-field areas no tile has joined are left out).
        ``links`` is :meth:`field_cities`, when the caller has it already."""
        if links is None:
            links = self.field_cities()
        return [self.feature(n, links) for n in self.roots()]
