"""Cells, edges, slots and rotation (``spec/formats.md``, "Geometry" and "Slots").

A cell is ``(x, y)`` with x growing east and y growing south. Each edge has three slots, listed
clockwise from the north-west corner; ``C`` (monastery) and ``I`` (inner segment) touch no edge.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Cell = tuple[int, int]

SLOTS: Final = ("Nw", "N", "Ne", "En", "E", "Es", "Se", "S", "Sw", "Ws", "W", "Wn")
INNER_SLOTS: Final = ("C", "I")
ALL_SLOTS: Final = SLOTS + INNER_SLOTS
EDGES: Final = ("N", "E", "S", "W")
ROTATIONS: Final = (0, 90, 180, 270)

#: The three slots of each edge, clockwise.
EDGE_SLOTS: Final[dict[str, tuple[str, str, str]]] = {
    "N": ("Nw", "N", "Ne"),
    "E": ("En", "E", "Es"),
    "S": ("Se", "S", "Sw"),
    "W": ("Ws", "W", "Wn"),
}
SLOT_EDGE: Final[dict[str, str]] = {s: e for e, ss in EDGE_SLOTS.items() for s in ss}
OPPOSITE_EDGE: Final[dict[str, str]] = {"N": "S", "S": "N", "E": "W", "W": "E"}
#: The slot a slot meets across its edge (``N`` meets ``S``, ``Nw`` meets ``Sw``, ...).
FACING_SLOT: Final[dict[str, str]] = {
    "Nw": "Sw", "N": "S", "Ne": "Se", "En": "Wn", "E": "W", "Es": "Ws",
    "Sw": "Nw", "S": "N", "Se": "Ne", "Wn": "En", "W": "E", "Ws": "Es",
}
EDGE_STEP: Final[dict[str, Cell]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

_SLOT_INDEX: Final = {s: i for i, s in enumerate(SLOTS)}


def rotate_slot(slot: str, rot: int) -> str:
    """Where ``slot`` of a tile lies on the board once the tile is turned ``rot`` degrees clockwise."""
    if slot in INNER_SLOTS:
        return slot
    return SLOTS[(_SLOT_INDEX[slot] + 3 * (rot // 90)) % 12]


def unrotate_slot(slot: str, rot: int) -> str:
    """The printed slot of a tile turned ``rot`` degrees that lies at board slot ``slot``."""
    return rotate_slot(slot, (360 - rot) % 360)


def neighbour(cell: Cell, edge: str) -> Cell:
    """The cell across ``edge`` of ``cell``."""
    dx, dy = EDGE_STEP[edge]
    return (cell[0] + dx, cell[1] + dy)


def joined(start: Iterable[Cell], cells: Iterable[Cell]) -> set[Cell]:
    """The ``start`` cells plus every one of ``cells`` joined to them by a chain of whole edges
    (through other such cells): what a board reaches, as tiles must be laid."""
    reach = set(start)
    free = set(cells) - reach
    stack = list(reach)
    while stack:
        c = stack.pop()
        for e in EDGES:
            n = neighbour(c, e)
            if n in free:
                free.discard(n)
                reach.add(n)
                stack.append(n)
    return reach


def surrounding(cell: Cell) -> tuple[Cell, ...]:
    """The eight cells around ``cell`` (a monastery's neighbourhood)."""
    x, y = cell
    return tuple((x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


def rotate_cell(cell: Cell, rot: int) -> Cell:
    """Turn a cell about the origin by ``rot`` degrees clockwise (whole-board rotation)."""
    x, y = cell
    for _ in range(rot // 90 % 4):
        x, y = -y, x
    return (x, y)
