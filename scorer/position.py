"""A position: a board with its figures, track scores and held pieces, built from a state.

``Position.status()`` says what is wrong with a position (python-chess style) and
``Position.score()`` gives the totals if the game ended now, with every reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import base_rules
from .board import Board
from .catalog import Kind, load_catalog
from .errors import Conflict, IllegalBoardError
from .formats import State
from .geometry import joined
from .scoring import Figure, ScoreReport


def board_for(state_game: str, layout: Any = None) -> Board:
    """An empty board for a game (The Castle: bounded by its layout; only paths must match)."""
    if state_game == "castle":
        return Board(layout=layout, strict_kinds=frozenset({Kind.PATH}))
    return Board()


class Position:
    """A board with figures, built from a :class:`scorer.formats.State`."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.players = state.players
        self.board = board_for(state.game, state.layout)
        for t in state.tiles:
            self.board.place(t.at, t.tile, t.rot, check=False)
        self.figures = [Figure(m.player, m.at, m.on) for m in state.meeples]

    def status(self) -> list[Conflict]:
        """Everything that makes this position impossible in a real game (empty when fine):
        edges that do not match, tiles not joined to the rest, more tiles of a type than the box
        holds, more followers of a player than they own, a follower on a missing segment."""
        out = list(self.board.conflicts())
        out += self._disconnected()
        if self.state.game == "castle":
            from .castle_rules import castle_conflicts
            out += castle_conflicts(self)
        box = load_catalog().box(self.state.game, self.state.expansions)
        used = Counter(t.tile.id for t in self.state.tiles if t.tile.id is not None and t.tile.known)
        for tid, n in sorted(used.items()):
            if tid not in box:
                cells = tuple(t.at for t in self.state.tiles if t.tile.id == tid)
                out.append(Conflict(cells, f"tile {tid} is not in the box of this game "
                                           f"(expansions: {', '.join(self.state.expansions) or 'none'})"))
            elif n > box[tid]:
                cells = tuple(t.at for t in self.state.tiles if t.tile.id == tid)
                out.append(Conflict(cells, f"{n} tiles {tid} but the box holds {box[tid]}"))
        per_player = Counter(f.player for f in self.figures)
        limit = self.followers_per_player()
        for p, n in per_player.items():
            if n > limit:
                cells = tuple(f.at for f in self.figures if f.player == p)
                out.append(Conflict(cells, f"{p} has {n} followers on the board but owns {limit}"))
        for f in self.figures:
            placed = self.board.tiles.get(f.at)
            if placed is not None and placed.tile.known and placed.segment_at(f.on) is None:
                out.append(Conflict((f.at,), f"{f.player}'s follower stands on slot {f.on}, "
                                             f"which tile {placed.tile.name()} does not have"))
        return out

    def followers_per_player(self) -> int:
        if self.state.game == "castle":
            from .castle_rules import FOLLOWERS_PER_PLAYER as castle_followers
            return castle_followers
        return base_rules.FOLLOWERS_PER_PLAYER

    def _disconnected(self) -> list[Conflict]:
        tiles = self.board.tiles
        if not tiles or self.state.game == "castle":
            return []
        seen = joined({next(iter(tiles))}, tiles)
        if len(seen) == len(tiles):
            return []
        # report the smaller part as the odd one out
        rest = [c for c in tiles if c not in seen]
        part = rest if len(rest) <= len(seen) else sorted(seen)
        return [Conflict(tuple(sorted(part)), "tiles not joined to the rest of the board by an edge")]

    def check(self) -> None:
        """Raise :class:`IllegalBoardError` listing every conflict, if there is any."""
        problems = self.status()
        if problems:
            raise IllegalBoardError(problems)

    def score(self, strict: bool = True) -> ScoreReport:
        """Totals if the game ended now: track, then completed features that still hold
        followers, then end-of-game scoring. With ``strict`` an illegal board is refused."""
        if strict:
            self.check()
        if self.state.game == "castle":
            from .castle_rules import score_position
            return score_position(self)
        players = self.players
        options = self.state.options
        board = self.board
        complete = [r for r in {base_rules.feature_root(board, f) for f in self.figures}
                    if r is not None and board.graph.kind(r) is not Kind.FIELD and board.graph.is_complete(r)]
        order = {Kind.ROAD: 0, Kind.CITY: 1, Kind.MONASTERY: 2}
        complete.sort(key=lambda r: (order[board.graph.kind(r)], board.graph.feature(r).sorted_cells()))
        events, home = base_rules.score_completed(board, complete, self.figures, players, options,
                                                  "completed")
        gone = {id(f) for f in home}
        remaining = [f for f in self.figures if id(f) not in gone]
        links = board.graph.field_cities()  # once: both end scoring and open features need it
        events += base_rules.score_end(board, remaining, players, options, links)
        open_ = base_rules.open_features(board, remaining, players, options, links)
        track = {p: int(self.state.scores.get(p, 0)) for p in players}
        return ScoreReport(players=players, track=track, events=tuple(events), open=tuple(open_))
