"""Exception types of the rules engine.

Every error carries a one-line message that names the offending item, so the command line can
print it as is (exit code 2) and the web app can return it as a 4xx body.
"""

from __future__ import annotations

from dataclasses import dataclass


class CarcamError(Exception):
    """Base class of every error carcam raises on bad input."""


class FormatError(CarcamError):
    """A JSON document does not follow ``spec/formats.md`` (the message names the item)."""


class CatalogError(CarcamError):
    """A tile definition is inconsistent (a slot owned twice, a field naming a missing city...)."""


@dataclass(frozen=True)
class Conflict:
    """One reason a board is illegal: the cells (and edge, where there is one) involved."""

    cells: tuple[tuple[int, int], ...]
    reason: str
    edge: str | None = None

    def __str__(self) -> str:
        where = " / ".join(f"[{x}, {y}]" for x, y in self.cells)
        return f"{where}: {self.reason}"


class IllegalBoardError(CarcamError):
    """A board breaks the rules; ``conflicts`` lists every offending cell and edge."""

    def __init__(self, conflicts: list[Conflict] | tuple[Conflict, ...]) -> None:
        self.conflicts = tuple(conflicts)
        shown = "; ".join(str(c) for c in self.conflicts[:5])
        more = f" (+{len(self.conflicts) - 5} more)" if len(self.conflicts) > 5 else ""
        super().__init__(f"illegal board: {shown}{more}")


class IllegalMoveError(CarcamError):
    """A turn of a game record breaks the rules; ``turn`` is its 1-based number."""

    def __init__(self, turn: int, reason: str) -> None:
        self.turn = turn
        self.reason = reason
        super().__init__(f"turn {turn}: {reason}")
