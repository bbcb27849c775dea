"""Playing and replaying a game turn by turn (base game and The Festival).

A :class:`Game` applies turns of a ``carcam/game@1`` record in order, refusing an illegal one
with its number and reason, and keeps the track scores that a single photo cannot show.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import base_rules
from .catalog import TileType, load_catalog
from .errors import CarcamError, IllegalMoveError
from .formats import GameRecord, MeepleEntry, State, TileEntry, Turn
from .position import Position, board_for
from .scoring import Figure, ScoreEvent, ScoreReport


@dataclass(frozen=True)
class TurnResult:
    """What one turn did: its events, the points each player gained and the totals after it."""

    number: int
    player: str
    tile: str
    at: tuple[int, int] | None
    rot: int
    events: tuple[ScoreEvent, ...]
    points: Mapping[str, int]
    totals: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.number, "player": self.player, "tile": self.tile,
                "at": list(self.at) if self.at else None, "rot": self.rot,
                "points": dict(self.points), "totals": dict(self.totals),
                "events": [e.to_json() for e in self.events]}


@dataclass
class Game:
    """A base game in progress: board, figures on it, followers in supply, track scores."""

    players: tuple[str, ...]
    expansions: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    check_box: bool = True

    def __post_init__(self) -> None:
        self.board = board_for("base")
        self.figures: list[Figure] = []
        self.supply = dict.fromkeys(self.players, base_rules.FOLLOWERS_PER_PLAYER)
        self.track = dict.fromkeys(self.players, 0)
        self.box = Counter(load_catalog().box("base", self.expansions))
        self.history: list[TurnResult] = []
        self.turn_number = 0
        self.towers: dict[tuple[int, int], int] = {}
        self.prisoners: dict[str, list[str]] = {p: [] for p in self.players}

    # -- set-up -------------------------------------------------------------------------------
    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """A game set up as the record says (start tile laid), no turn played yet."""
        if record.game != "base":
            raise ValueError("use scorer.castle_rules.CastleGame for The Castle")
        game = cls(players=record.players, expansions=record.expansions, options=record.options)
        assert record.start is not None
        game.start(record.start.tile, record.start.at, record.start.rot)
        return game

    def start(self, tile: TileType, at: tuple[int, int] = (0, 0), rot: int = 0) -> None:
        """Lay the start tile."""
        self._take_from_box(tile, 0)
        self.board.place(at, tile, rot, check=False)

    def _take_from_box(self, tile: TileType, number: int) -> None:
        if not self.check_box or tile.id is None:
            return
        if self.box[tile.id] <= 0:
            raise IllegalMoveError(number, f"no tile {tile.id} left in the box "
                                           f"({load_catalog().box('base', self.expansions).get(tile.id, 0)} in all)")
        self.box[tile.id] -= 1

    # -- turns --------------------------------------------------------------------------------
    def follower_problem(self, player: str, cell: tuple[int, int], slot: str) -> str | None:
        """Why ``player`` may not put a follower on ``slot`` of the tile just laid at ``cell``."""
        if self.supply[player] <= 0:
            return f"{player} has no follower left in supply"
        node = self.board.node_at(cell, slot)
        if node is None:
            placed = self.board.tiles[cell]
            return f"tile {placed.tile.name()} (rot {placed.rot}) has no segment at slot {slot}"
        root = self.board.graph.find(node)
        for f in self.figures:
            if base_rules.feature_root(self.board, f) == root:
                return (f"the {self.board.graph.kind(root).value} is already occupied by "
                        f"{f.player}'s follower at {list(f.at)}")
        return None

    def follower_options(self, tile: TileType, at: tuple[int, int], rot: int) -> list[str]:
        """Board slots where a follower could go if ``tile`` were laid at ``at``/``rot`` now."""
        return base_rules.free_follower_slots(self.board, self.figures, tile, at, rot)

    def play(self, turn: Turn) -> TurnResult:
        """Apply one turn; raise :class:`IllegalMoveError` (board unchanged) if it is illegal."""
        number = self.turn_number + 1
        if turn.player not in self.players:
            raise IllegalMoveError(number, f"player {turn.player} is not in the game")
        if turn.discarded:
            if turn.tile is not None and turn.at is None:
                if self.board.legal_placements(turn.tile):
                    raise IllegalMoveError(number, f"tile {turn.tile.name()} was discarded but fits")
                self._take_from_box(turn.tile, number)
            self.turn_number = number
            result = TurnResult(number, turn.player, turn.tile.name() if turn.tile else "?", None, 0,
                                (), dict.fromkeys(self.players, 0), dict(self.track))
            self.history.append(result)
            return result
        tile, at = turn.tile, turn.at
        assert tile is not None and at is not None
        problems = self.board.placement_problems(at, tile, turn.rot)
        if problems:
            raise IllegalMoveError(number, f"{tile.name()} at {list(at)} rot {turn.rot}: "
                                           + "; ".join(c.reason for c in problems))
        if turn.meeple is not None and turn.take_back is not None:
            raise IllegalMoveError(number, "a festival turn places a follower or takes one back, not both")
        if turn.take_back is not None and not tile.festival:
            raise IllegalMoveError(number, f"tile {tile.name()} has no festival symbol: nothing may be taken back")
        self._take_from_box(tile, number)
        saved = (list(self.figures), dict(self.supply), dict(self.towers),
                 {p: list(v) for p, v in self.prisoners.items()})
        self.board.place(at, tile, turn.rot, check=False)
        try:
            if turn.meeple is not None:
                why = self.follower_problem(turn.player, at, turn.meeple)
                if why:
                    raise IllegalMoveError(number, f"follower on {turn.meeple}: {why}")
                self.figures.append(Figure(turn.player, at, turn.meeple))
                self.supply[turn.player] -= 1
            if turn.take_back is not None:
                cell, slot = turn.take_back
                fig = next((f for f in self.figures if f.player == turn.player and f.at == cell
                            and f.on == slot), None)
                if fig is None:
                    raise IllegalMoveError(number, f"festival: {turn.player} has no follower at "
                                                   f"{list(cell)} on {slot} to take back")
                self.figures.remove(fig)
                self.supply[turn.player] += 1
            transfers = self._expansion_actions(turn, number)
        except CarcamError:
            self._undo_last_tile(at, tile)
            self.figures, self.supply, self.towers, self.prisoners = saved
            raise
        roots = base_rules.completed_by(self.board, at)
        events, home = base_rules.score_completed(self.board, roots, self.figures, self.players,
                                                  self.options, "turn", number)
        gone = {id(f) for f in home}
        self.figures = [f for f in self.figures if id(f) not in gone]
        for f in home:
            self.supply[f.player] += 1
        events += transfers
        points = dict.fromkeys(self.players, 0)
        for e in events:
            points[e.player] += e.points
            self.track[e.player] += e.points
        self.turn_number = number
        result = TurnResult(number, turn.player, tile.name(), at, turn.rot, tuple(events), points,
                            dict(self.track))
        self.history.append(result)
        return result

    def _expansion_actions(self, turn: Turn, number: int) -> list[ScoreEvent]:
        """The Tower (build/close a tower, capture a follower, ransom) and the bazaar's points.

        Bridges and castle tokens change the feature graph and are refused until supported, so a
        record using them is never scored wrongly in silence."""
        extra = turn.extra
        for key in ("bridge", "castle"):
            if key in extra:
                raise CarcamError(f"turn {number}: {key!r} (Bridges, Castles & Bazaars) is not supported by "
                                  "this carcam yet; score this game without it")
        out: list[ScoreEvent] = []
        if "tower" in extra:
            out += self._tower_action(turn, number, extra["tower"])
        if "ransom" in extra:
            holder = extra["ransom"]
            if holder not in self.players or turn.player not in self.prisoners.get(holder, []):
                raise IllegalMoveError(number, f"ransom: {holder} holds no follower of {turn.player}")
            self.prisoners[holder].remove(turn.player)
            self.supply[turn.player] += 1
            out += [ScoreEvent(turn.player, -3, "ransom", 0, f"ransom paid to {holder}: -3", "turn", number),
                    ScoreEvent(holder, 3, "ransom", 0, f"ransom received from {turn.player}: +3", "turn", number)]
        for i, sale in enumerate(extra.get("bazaar", [])):
            where = f"bazaar[{i}]"
            if not isinstance(sale, dict) or set(sale) - {"tile", "buyer", "points", "paid_to"}:
                raise IllegalMoveError(number, f"{where}: expected tile, buyer, points, paid_to")
            buyer, paid_to, pts = sale.get("buyer"), sale.get("paid_to"), sale.get("points", 0)
            if buyer not in self.players or (paid_to is not None and paid_to not in self.players):
                raise IllegalMoveError(number, f"{where}: buyer and paid_to must be players of this game")
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
                raise IllegalMoveError(number, f"{where}: points must be a whole number >= 0")
            if pts and paid_to != buyer:
                tile = sale.get("tile", "a tile")
                out.append(ScoreEvent(buyer, -pts, "bazaar", 0, f"bought {tile} at the bazaar for {pts}",
                                      "turn", number))
                if paid_to is not None:
                    out.append(ScoreEvent(paid_to, pts, "bazaar", 0, f"{buyer} paid {pts} for {tile}",
                                          "turn", number))
        return out

    def _tower_action(self, turn: Turn, number: int, action: Any) -> list[ScoreEvent]:
        """Build on or close a tower; a capture takes a follower in the tower's reach."""
        if not isinstance(action, dict) or set(action) - {"at", "action", "capture"} or "at" not in action:
            raise IllegalMoveError(number, "tower: expected {at, action, capture?}")
        try:
            at = (int(action["at"][0]), int(action["at"][1]))
        except (TypeError, ValueError, IndexError, KeyError):
            raise IllegalMoveError(number, "tower.at: expected a cell [x, y]") from None
        placed = self.board.tiles.get(at)
        if placed is None or "tower-foundation" not in placed.tile.extras:
            raise IllegalMoveError(number, f"tower: no tile with a tower foundation at {list(at)}")
        if turn.meeple is not None:
            raise IllegalMoveError(number, "tower: a turn builds a tower or places a follower, not both")
        kind = action.get("action", "build")
        if kind == "close":
            if self.supply[turn.player] <= 0:
                raise IllegalMoveError(number, f"tower: {turn.player} has no follower to close the tower")
            self.supply[turn.player] -= 1
            return []
        if kind != "build":
            raise IllegalMoveError(number, "tower.action: expected \"build\" or \"close\"")
        height = self.towers.get(at, 0) + 1
        self.towers[at] = height
        cap = action.get("capture")
        if cap is not None:
            try:
                cell, slot = (int(cap["at"][0]), int(cap["at"][1])), str(cap["on"])
            except (TypeError, ValueError, IndexError, KeyError):
                raise IllegalMoveError(number, "tower.capture: expected {at, on}") from None
            in_reach = (cell[0] == at[0] and abs(cell[1] - at[1]) <= height) or \
                       (cell[1] == at[1] and abs(cell[0] - at[0]) <= height)
            if not in_reach:
                raise IllegalMoveError(number, f"tower.capture: {list(cell)} is out of reach of a tower of "
                                               f"height {height} at {list(at)}")
            fig = next((f for f in self.figures if f.at == cell and f.on == slot), None)
            if fig is None:
                raise IllegalMoveError(number, f"tower.capture: no follower at {list(cell)} on {slot}")
            self.figures.remove(fig)
            if fig.player == turn.player:
                self.supply[fig.player] += 1
            else:
                self.prisoners[turn.player].append(fig.player)
        return []

    def _undo_last_tile(self, at: tuple[int, int], tile: TileType) -> None:
        """Rebuild the board without the tile just laid (an illegal follower rolls back the turn)."""
        self.board = self.board.without(at)
        if self.check_box and tile.id is not None:
            self.box[tile.id] += 1

    # -- reading the game ---------------------------------------------------------------------
    def state(self) -> State:
        """The position now as ``carcam/state@1`` (what a photo of the table would show)."""
        return State(
            game="base", expansions=self.expansions, options=dict(self.options), players=self.players,
            tiles=tuple(TileEntry(at=c, tile=p.tile, rot=p.rot) for c, p in self.board.tiles.items()),
            meeples=tuple(MeepleEntry(player=f.player, at=f.at, on=f.on) for f in self.figures),
            scores=dict(self.track))

    def final_report(self) -> ScoreReport:
        """Totals if the game ended now: the track plus end-of-game scoring."""
        events = base_rules.score_end(self.board, self.figures, self.players, self.options)
        open_ = base_rules.open_features(self.board, self.figures, self.players, self.options)
        # the track is the sum of the turn events, so the report starts from zero and lists them
        return ScoreReport(players=self.players, track=dict.fromkeys(self.players, 0),
                           events=tuple(e for r in self.history for e in r.events) + tuple(events),
                           open=tuple(open_))

    def position(self) -> Position:
        return Position(self.state())


def replay(record: GameRecord) -> tuple[list[TurnResult], ScoreReport]:
    """Replay a whole record; returns every turn's result and the final report."""
    if record.game == "castle":
        from .castle_rules import replay_castle
        return replay_castle(record)
    game = Game.from_record(record)
    results = [game.play(t) for t in record.turns]
    return results, game.final_report()


# ---------------------------------------------------------------------------------------------
# random legal games (property tests, benchmarks, synthetic photos)
def random_game(seed: int, players: Iterable[str] = ("red", "blue"), expansions: Iterable[str] = (),
                turns: int | None = None, follower_rate: float = 0.6,
                options: Mapping[str, Any] | None = None) -> GameRecord:
    """Play a random legal base game from the real deck (seeded) and return its record.

    Each turn draws a tile, places it at a random legal spot (a tile that fits nowhere is
    discarded, as the rules say) and, with probability ``follower_rate``, puts a follower on a
    random free segment of it. ``turns`` stops early."""
    rng = random.Random(seed)
    players = tuple(players)
    exps = tuple(expansions)
    catalog = load_catalog()
    deck = catalog.deck("base", exps)
    rng.shuffle(deck)
    start = catalog.get(catalog.start_tile)
    assert start is not None
    game = Game(players=players, expansions=exps, options=dict(options or {}))
    game.start(start)
    played: list[Turn] = []
    limit = len(deck) if turns is None else min(turns, len(deck))
    i = 0
    while deck and len([t for t in played if not t.discarded]) < limit:
        player = players[i % len(players)]
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
        take_back = None
        if tile.festival and game.figures and rng.random() < 0.3:
            mine = [f for f in game.figures if f.player == player]
            if mine:
                f = mine[rng.randrange(len(mine))]
                take_back = (f.at, f.on)
        if take_back is None and rng.random() < follower_rate and game.supply[player] > 0:
            free = game.follower_options(tile, at, rot)
            if free:
                meeple = free[rng.randrange(len(free))]
        turn = Turn(player=player, tile=tile, at=at, rot=rot, meeple=meeple, take_back=take_back)
        game.play(turn)
        played.append(turn)
        i += 1
    return GameRecord(game="base", expansions=exps, options=dict(options or {}), players=players,
                      start=TileEntry(at=(0, 0), tile=start, rot=0), turns=tuple(played))

