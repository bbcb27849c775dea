"""The web app's business logic: games, photos, corrections, manual entries, scores.

View functions only parse the request and call one function here; everything here takes a
database connection and plain values, so it is tested without a browser. Scoring, formats and
legality all come from :mod:`scorer`; this module only composes them.

Storage model (``schema.sql``): a game keeps its set-up, its game record (``carcam/game@1``) and
a list of *steps*. Each step (a photo read, a tile or figure correction, a manual entry) stores
the whole ``carcam/state@1`` after it, the cells still doubtful, and the totals at that moment,
so the score history is a list of rows and undo only marks steps as undone.

Scores: the latest state is scored with ``Position(state).score(strict=False)``; its ``scores``
(the score track) carry points scored earlier. Turns between two photos are inferred by
:func:`follow_turns` (the hook for ``scorer.follow``): the record it extends is replayed for the
track, so features completed between photos still count. When the photos allow turns with
different scores the step keeps them as a question (:func:`questions`, :func:`choose`); tile and
figure corrections follow the last photo's turns again so the record agrees (:func:`_correct`).
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import cv2
import numpy as np

from scorer import (
    CarcamError,
    GameRecord,
    Position,
    Reading,
    ScoreReport,
    State,
    game_to_json,
    parse_game,
    parse_state,
    replay,
    state_to_json,
)
from scorer.base_rules import PLAYER_COLOURS
from scorer.catalog import EXPANSIONS, load_catalog
from scorer.formats import CASTLE_COLOURS, STATE, reading_to_json, resolve_tile
from scorer.geometry import ALL_SLOTS, Cell
from scorer.position import board_for

from .render_svg import DOUBTFUL_CONFIDENCE, tile_svg

if TYPE_CHECKING:
    from scorer.follow import Alternative, Evidence, EvidenceTotal, FiguresSeen, FollowResult

MAX_PIXELS = 60_000_000
JPEG_QUALITY = 88
RANSOM_POINTS = 3
_CELL_IN_TEXT = re.compile(r"\[(-?\d+),\s*(-?\d+)\]")


# ---------------------------------------------------------------------------------------------
# errors: each carries the HTTP status the views answer with and a message for players
class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status, the message is for people."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotFound(ServiceError):
    status = 404


class Unreadable(ServiceError):
    """The photo is not a usable image (or the reader could not read a board in it)."""

    status = 422


class Unavailable(ServiceError):
    """A part this build does not have yet (the photo reader, The Castle's data)."""

    status = 503


class Reader(Protocol):
    """What ``app.config["READER"]`` must offer (``vision.reader.BoardReader`` does)."""

    def read(self, image_bytes: bytes, *, game: str, expansions: tuple[str, ...], players: tuple[str, ...],
             prior: State | None = None) -> Reading: ...


# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameInfo:
    """A game's set-up and record, as stored."""

    id: str
    game: str
    expansions: tuple[str, ...]
    players: tuple[str, ...]
    options: Mapping[str, Any]
    record: dict[str, Any] | None
    version: int
    created: str


@dataclass(frozen=True)
class Step:
    """One stored step of a game: what it did and the state after it."""

    seq: int
    kind: str
    note: str
    photo_id: int | None
    state: dict[str, Any]
    doubtful: tuple[Cell, ...]
    record_before: dict[str, Any] | None
    totals: dict[str, int]
    track: dict[str, int]
    created: str
    follow: dict[str, Any] = field(default_factory=dict)


@dataclass
class FollowOutcome:
    """What :func:`follow_turns` gives back: the record to keep, the board in the record's frame
    (``None``: use the reading as it is), notes in words, how many turns were added, how a
    photo cell maps onto the record's frame and the step's ``follow`` data (see schema.sql)."""

    record: dict[str, Any] | None
    state: State | None = None
    notes: list[str] = field(default_factory=list)
    turns: int = 0
    cell_map: Callable[[Cell], Cell] | None = None
    follow: dict[str, Any] | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------------
# games
def new_game(db: sqlite3.Connection, payload: Any) -> str:
    """Create a game from ``{"game", "expansions", "players", "options"}``; returns its id."""
    if not isinstance(payload, dict):
        raise ServiceError("expected a JSON object with game, expansions, players and options")
    unknown = set(payload) - {"game", "expansions", "players", "options"}
    if unknown:
        raise ServiceError(f"unknown key {sorted(unknown)[0]!r} (allowed: game, expansions, players, options)")
    game = payload.get("game", "base")
    expansions = payload.get("expansions", [])
    players = payload.get("players", [])
    options = payload.get("options", {})
    if game not in ("base", "castle"):
        raise ServiceError(f"game: unknown game {json.dumps(game)} (base or castle)")
    if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
        raise ServiceError("expansions: expected a list of names")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ServiceError("players: expected a list of colours")
    if not isinstance(options, dict):
        raise ServiceError("options: expected an object")
    colours = CASTLE_COLOURS if game == "castle" else PLAYER_COLOURS
    for i, p in enumerate(players):
        if p not in colours:
            raise ServiceError(f"players[{i}]: {json.dumps(p)} is not a colour of this game ({', '.join(colours)})")
    if len(players) < (2 if game == "castle" else 1):
        raise ServiceError("players: choose at least " + ("two players" if game == "castle" else "one player"))
    for i, e in enumerate(expansions):
        if e not in EXPANSIONS:
            raise ServiceError(f"expansions[{i}]: unknown expansion {json.dumps(e)} (known: {', '.join(EXPANSIONS)})")
    if game == "base":
        # the engine checks the rest (duplicates, counts, option types) with its own messages
        parse_state({"format": STATE, "game": game, "expansions": expansions, "players": players,
                     "options": options})
    else:
        if expansions:
            raise ServiceError("expansions: The Castle takes no expansions")
        if len(set(players)) != len(players):
            raise ServiceError("players: a colour is listed twice")
        if options:
            raise ServiceError(f"options: The Castle has no option {sorted(options)[0]!r}")
    gid = secrets.token_urlsafe(16)
    setup = {"expansions": expansions, "players": players, "options": options}
    db.execute("INSERT INTO games (id, created, game, setup) VALUES (?, ?, ?, ?)",
               (gid, _now(), game, json.dumps(setup)))
    db.commit()
    return gid


def get_game(db: sqlite3.Connection, gid: str) -> GameInfo:
    """A stored game, or :class:`NotFound` (the same answer for a malformed id)."""
    row = db.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone() if len(gid) < 100 else None
    if row is None:
        raise NotFound("no such game (check the link: games are only found by their full address)")
    setup = json.loads(row["setup"])
    return GameInfo(id=row["id"], game=row["game"], expansions=tuple(setup["expansions"]),
                    players=tuple(setup["players"]), options=setup["options"], record=json.loads(row["record"]),
                    version=row["version"], created=row["created"])


_KEEP: Any = object()


def _bump(db: sqlite3.Connection, gid: str, record: Any = _KEEP) -> None:
    """Count a change (live screens poll the version); optionally store a new game record."""
    if record is _KEEP:
        db.execute("UPDATE games SET version = version + 1 WHERE id = ?", (gid,))
    else:
        db.execute("UPDATE games SET version = version + 1, record = ? WHERE id = ?", (json.dumps(record), gid))


def _step_from_row(row: sqlite3.Row) -> Step:
    return Step(seq=row["seq"], kind=row["kind"], note=row["note"], photo_id=row["photo_id"],
                state=json.loads(row["state"]), doubtful=tuple(tuple(c) for c in json.loads(row["doubtful"])),
                record_before=json.loads(row["record_before"]), totals=json.loads(row["totals"]), track=json.loads(row["track"]),
                created=row["created"], follow=json.loads(row["follow"] or "{}"))


def steps(db: sqlite3.Connection, gid: str) -> list[Step]:
    """The game's steps that are not undone, oldest first."""
    rows = db.execute("SELECT * FROM steps WHERE game_id = ? AND undone = 0 ORDER BY seq", (gid,)).fetchall()
    return [_step_from_row(r) for r in rows]


def latest_step(db: sqlite3.Connection, gid: str) -> Step | None:
    row = db.execute("SELECT * FROM steps WHERE game_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1",
                     (gid,)).fetchone()
    return None if row is None else _step_from_row(row)


def empty_state_json(game: GameInfo) -> dict[str, Any]:
    """The state of a game before its first photo: no tiles, no figures."""
    return {"format": STATE, "game": game.game, "expansions": list(game.expansions),
            "options": dict(game.options), "players": list(game.players), "tiles": [], "meeples": []}


def parse(doc: dict[str, Any]) -> State:
    """Parse a stored or edited state; The Castle's missing data becomes :class:`Unavailable`."""
    try:
        return parse_state(doc)
    except CarcamError:
        raise
    except (OSError, ImportError, AttributeError) as exc:
        if doc.get("game") == "castle":
            raise Unavailable("The Castle's board data (its wall layout) is not in this build of carcam yet; "
                              "its games can be created but not read or scored") from exc
        raise


def current_state_json(db: sqlite3.Connection, game: GameInfo) -> dict[str, Any]:
    step = latest_step(db, game.id)
    return step.state if step is not None else empty_state_json(game)


def current_state(db: sqlite3.Connection, game: GameInfo) -> State:
    return parse(current_state_json(db, game))


# ---------------------------------------------------------------------------------------------
# scoring
def score(state: State) -> ScoreReport:
    """Scores if the game ended now (lenient: a misread board is scored, its conflicts shown)."""
    try:
        return Position(state).score(strict=False)
    except CarcamError:
        raise
    except (ImportError, AttributeError, NotImplementedError) as exc:
        if state.game == "castle":
            raise Unavailable("The Castle's scoring is not in this build of carcam yet") from exc
        raise


def conflicts(state: State) -> list[dict[str, Any]]:
    """What makes the board impossible (edges that do not match, ...), for highlighting."""
    try:
        found = Position(state).status()
    except (ImportError, AttributeError, OSError):
        return []
    return [{"cells": [list(c) for c in k.cells], "reason": k.reason} for k in found]


# ---------------------------------------------------------------------------------------------
# following the game: turns between photos, questions for the players, corrections that feed
# the record. A step that *derives* turns (a photo, or a correction that re-follows the last
# photo) keeps in ``steps.follow`` the step it was followed from (its *anchor*), so that the same
# derivation can be run again when an earlier answer changes the record (see schema.sql).
QUESTION = "Which happened?"


def _conf_map(step: Step | None) -> dict[Cell, float]:
    """How surely each tile of ``step``'s board was read (1.0: set by hand)."""
    if step is None:
        return {}
    return {(int(x), int(y)): float(c) for x, y, c in step.follow.get("conf", [])}


def _conf_list(conf: Mapping[Cell, float], state: State) -> list[list[float]]:
    """``conf`` for the tiles of ``state``, as stored in ``steps.follow``."""
    return [[t.at[0], t.at[1], round(float(conf[t.at]), 4)] for t in state.tiles if t.at in conf]


def _follow_input(state: State, conf: Mapping[Cell, float]) -> State:
    """A stored board as ``scorer.follow`` takes it: tiles with their confidences and no score
    track (the track a step stores predates the new turns; it must not pick an alternative)."""
    tiles = tuple(replace(t, confidence=conf.get(t.at)) for t in state.tiles)
    return replace(state, tiles=tiles, scores={})


def _anchor_state(step: Step | None) -> State | None:
    """The board a derivation starts from (``previous`` of ``follow_step``), or None."""
    if step is None:
        return None
    state = parse(step.state)
    return _follow_input(state, _conf_map(step)) if state.tiles else None


def _turn_rows(record: GameRecord, n: int) -> list[dict[str, Any]]:
    """The last ``n`` turns of ``record`` replayed: who laid which tile where, the follower's
    feature and the points each turn scored (with the engine's reasons), for the history."""
    if n <= 0:
        return []
    try:
        from scorer.follow import new_game as replayed
        results = replayed(record).history[-n:]
    except (ImportError, CarcamError):
        return []
    rows = []
    for t, r in zip(record.turns[-n:], results):
        kind = None
        if t.meeple is not None and t.tile is not None:
            seg = t.tile.segment_index_on_board(t.meeple, t.rot)
            kind = t.tile.segments[seg].kind.value if seg is not None else None
        rows.append({"player": t.player, "tile": r.tile, "at": list(t.at) if t.at else None, "rot": t.rot,
                     "follower": kind, "points": {p: v for p, v in r.points.items() if v},
                     "events": [e.to_json() for e in r.events]})
    return rows


def _headline(alt: Alternative, rows: list[dict[str, Any]], board: State, kinds: set[str]) -> str:
    """One alternative in words for the players: what no photo shows, then the points, e.g.
    "blue put a follower on the road they just closed: blue +3"."""
    said = []
    for t, row in zip(alt.turns, rows):
        if t.take_back is not None:
            said.append(f"{t.player} took back their follower from {list(t.take_back[0])}")
        if t.meeple is None or t.tile is None or t.at is None:
            continue
        seg = t.tile.segment_index_on_board(t.meeple, t.rot)
        if any(m.player == t.player and m.at == t.at and t.tile.segment_index_on_board(m.on, t.rot) == seg
               for m in board.meeples):
            continue  # the photo shows this follower: nothing to ask
        kind = row.get("follower") or "feature"
        if row["points"].get(t.player):
            said.append(f"{t.player} put a follower on the {kind} they just closed")
        else:
            said.append(f"{t.player} put a follower on the {kind} at {list(t.at)}, closed before the photo")
    if not said:
        said.append(f"no follower was put on the closed {' or '.join(sorted(kinds))}" if kinds else alt.summary)
    gained = ", ".join(f"{p} +{n}" for p, n in alt.points.items() if n) or "no points"
    return "; ".join(said) + ": " + gained


def _question(result: FollowResult) -> dict[str, Any] | None:
    """The question to ask when ``result`` is ambiguous: every alternative with its summary,
    points and record (the record is what choosing it sets: ``result.choose(i)``)."""
    if not result.ambiguous:
        return None
    rows = [_turn_rows(a.record, len(a.turns)) for a in result.alternatives]
    kinds = {r["follower"] for a, rs in zip(result.alternatives, rows) for t, r in zip(a.turns, rs)
             if t.meeple is not None and r.get("follower") and r["points"].get(t.player)}
    # alternatives that score alike now differ only at the end (a coat of arms under a follower)
    at_end = len({tuple(sorted(a.track.items())) for a in result.alternatives}) == 1
    alternatives = []
    for i, (a, rs) in enumerate(zip(result.alternatives, rows)):
        summary = _headline(a, rs, result.corrected_state, kinds)
        if at_end:
            summary += " now; at the end " + ", ".join(f"{p} {n}" for p, n in a.final.items())
        alternatives.append({"alternative": i, "summary": summary,
                             "points": {p: n for p, n in a.points.items() if n}, "track": dict(a.track),
                             "final": dict(a.final), "detail": a.summary, "hidden_followers": a.hidden_followers,
                             "turns": rs, "record": game_to_json(result.choose(i))})
    question: dict[str, Any] = {"alternatives": alternatives, "chosen": None}
    if result.asked_about:  # followers whose feature an answer settles (FollowResult.figures_answered)
        question["asked_about"] = [[c[0], c[1], player] for c, player in result.asked_about]
    return question


def _answered_history(history: dict[str, Any] | None, question: Mapping[str, Any],
                      chosen: int) -> dict[str, Any] | None:
    """A step's ``history`` (:func:`history_to_json`) once its ``question`` is answered with
    alternative ``chosen``: the sightings of the followers it asked about marked as the players'
    answer (``FollowResult.figures_answered``), and on the cells whose tile the alternatives told
    apart the tiles not chosen put below the chosen one (``FollowResult.evidence_answered``), so
    that the next photos keep both."""
    if not history:
        return history
    from scorer.follow import mark_answered, mark_tiles_answered

    total, seen = history_from_json(history)
    asked = question.get("asked_about")
    if seen is not None and asked:
        seen = mark_answered(seen, [((int(x), int(y)), str(p)) for x, y, p in asked])
    if total is not None:
        total = mark_tiles_answered(total, [parse_game(a["record"]) for a in question["alternatives"]], chosen)
    return {**history, **history_to_json(total, seen)}


def history_to_json(total: EvidenceTotal | None, seen: FiguresSeen | None,
                    unfit: State | None = None) -> dict[str, Any]:
    """What a followed game has seen so far (``FollowResult.evidence_total`` and
    ``figures_seen``: each cell's evidence summed over the photos, the followers seen on it
    photo by photo; ``unfit``: this photo's reading when the game did not fit it) as JSON for a
    step's ``follow`` data; the next photo's step continues from it."""
    out: dict[str, Any] = {}
    if unfit is not None:
        out["unfit"] = state_to_json(unfit)
    if total:
        out["evidence"] = [[c[0], c[1], n, [[t, r, round(float(v), 1)] for (t, r), v in scores.items()]]
                           for c, (n, scores) in total.items()]
    if seen:
        out["figures"] = [[c[0], c[1], [None if photo is None else [list(f) for f in photo] for photo in photos]]
                          for c, photos in seen.items()]
    return out


def history_from_json(doc: dict[str, Any] | None) -> tuple[EvidenceTotal | None, FiguresSeen | None]:
    """The inverse of :func:`history_to_json` (None for what was not stored)."""
    if not doc:
        return None, None
    total = {(int(x), int(y)): (int(n), {(str(t), int(r)): float(v) for t, r, v in scores})
             for x, y, n, scores in doc.get("evidence", [])} or None
    seen = {(int(x), int(y)): tuple(None if photo is None else tuple((str(p), str(s)) for p, s in photo)
                                    for photo in photos)
            for x, y, photos in doc.get("figures", [])} or None
    return total, seen


def unfit_from_history(doc: dict[str, Any] | None) -> State | None:
    """The photo a followed game did not fit, from :func:`history_to_json`'s ``unfit`` (None
    when there is none or it no longer parses)."""
    try:
        return parse_state(doc["unfit"]) if doc and doc.get("unfit") else None
    except CarcamError:
        return None


def _follow(record: dict[str, Any] | None, previous: State | None, new: State | Reading,
            evidence: Evidence | None = None,
            history: dict[str, Any] | None = None,
            snapped: Collection[tuple[Cell, str, str]] = (),
            faint: Collection[tuple[Cell, str, str]] = ()) -> tuple[FollowResult | None, list[str]]:
    """``scorer.follow.follow_step`` with its warnings as notes; None when it cannot follow."""
    try:
        from scorer.follow import follow_step
    except ImportError:
        return None, ["turns between photos are not followed in this build"]
    try:
        old = parse_game(record) if record is not None else None
        total, seen = history_from_json(history)
        result = follow_step(old, previous, new, evidence=evidence, evidence_total=total, figures_seen=seen,
                             snapped=snapped, unfit=unfit_from_history(history), faint=faint)
    except CarcamError as exc:
        return None, [f"the turns since the last photo could not be followed: {exc}"]
    notes = [w for w in result.warnings if not w.startswith("reading: ")]
    if not result.used:
        notes.insert(0, "this photo does not fit the game and was not used: please take it again")
    return result, notes


def _amend(record: dict[str, Any] | None, amend: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """Apply a figure correction to the turn that laid its cell: ``{"at", "player", "on"}`` puts
    that player's follower on ``on`` (``on: null`` takes it off). Returns the amended record
    (None: no turn of ``record`` laid that cell, so nothing to amend) and a note when the
    correction cannot be a turn of the game."""
    if record is None:
        return None, None
    rec = parse_game(record)
    at = tuple(amend["at"])
    i = next((i for i, t in enumerate(rec.turns) if t.at == at and not t.discarded), None)
    if i is None:
        return None, None
    t = rec.turns[i]
    on = amend.get("on")
    if on is None:
        if t.meeple is None or t.player != amend["player"]:
            return None, None
    elif t.player != amend["player"]:
        return None, (f"{amend['player']}'s figure at {list(at)}: that tile was laid by {t.player}, so the "
                      "record cannot hold it (the board shows it)")
    fixed = replace(rec, turns=rec.turns[:i] + (replace(t, meeple=on),) + rec.turns[i + 1:])
    try:
        replay(fixed)
    except CarcamError as exc:
        return None, f"the figure at {list(at)} cannot be a turn of this game ({exc}); the record keeps the turn"
    return game_to_json(fixed), None


def _derive(base: dict[str, Any] | None, anchor: Step | None, new: State | Reading,
            conf: Mapping[Cell, float] | None = None, amends: list[dict[str, Any]] | None = None,
            before: Mapping[str, Any] | None = None,
            evidence: Evidence | None = None,
            snapped: Collection[tuple[Cell, str, str]] = (),
            faint: Collection[tuple[Cell, str, str]] = ()) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Follow from the board of step ``anchor`` (record ``base``) to ``new``: the record to keep
    and the new step's ``follow`` data. ``amends`` (figure corrections of turns before the gap)
    are applied to ``base`` first; ``before`` is the ``follow`` data this derivation replaces,
    whose answer is kept when the same alternative is offered again. None: cannot follow."""
    notes: list[str] = []
    kept: list[dict[str, Any]] = []
    for a in amends or []:
        fixed, note = _amend(base, a)
        if note:
            notes.append(note)
        if fixed is not None:
            base = fixed
            kept.append(a)
    result, warnings = _follow(base, anchor and _anchor_state(anchor), new, evidence,
                               anchor.follow.get("history") if anchor else None, snapped, faint)
    if result is None:
        return None
    notes += warnings
    question = _question(result)
    record = game_to_json(result.record)
    turns = _turn_rows(result.record, len(result.turns))
    old = (before or {}).get("question")
    if question and old and old.get("chosen") is not None:
        said = old["alternatives"][old["chosen"]]["summary"]
        again = next((a for a in question["alternatives"] if a["summary"] == said), None)
        if again is not None:
            question["chosen"] = again["alternative"]
            record, turns = again["record"], again["turns"]
    answered = question is not None and question.get("chosen") is not None
    if conf is None:
        conf = {t.at: t.confidence for t in result.corrected_state.tiles if t.confidence is not None}
    follow: dict[str, Any] = {"derived": True, "anchor": anchor.seq if anchor else None,
                              "conf": _conf_list(conf, result.corrected_state), "turns": turns, "notes": notes}
    if kept:
        follow["amend"] = kept
    if question:
        follow["question"] = question
    history = history_to_json(result.evidence_total, result.figures_answered() if answered else result.figures_seen,
                              result.unfit)
    if history:
        follow["history"] = history
    follow["state"], follow["transform"] = result.corrected_state, result.transform  # popped by the caller
    return record, follow


def follow_turns(record: dict[str, Any] | None, previous: Step | None, reading: Reading,
                 evidence: Evidence | None = None, snapped: Collection[tuple[Cell, str, str]] = (),
                 faint: Collection[tuple[Cell, str, str]] = ()) -> FollowOutcome:
    """THE HOOK for ``scorer.follow``: infer the turns played since the last photo.

    Calls ``scorer.follow.follow_step(record, previous board, reading)``, which extends the game
    record (started from the first photo) and returns the board in the record's frame with
    ``scores`` = the replayed score track, so completed features whose followers went home still
    count. When the photos allow turns with different scores, the step keeps every alternative
    as a question for the players (:func:`choose`). When ``scorer.follow`` is missing or cannot
    follow (The Castle, an impossible jump), the reading is used as it is and the record is
    kept: a photo is never refused for that. ``evidence`` is the reader's per-cell evidence
    (``vision.reader.ReadDetail.evidence``), when the reader gives it, and ``snapped`` the
    figures it read beside their foot (``ReadDetail.snapped``: weaker looks at their segment;
    a later re-derivation of the step, after a correction, goes without them), ``faint`` those
    too pale to read (``ReadDetail.faint``: a new tile of their player's is asked about)."""
    got = _derive(record, previous, reading, evidence=evidence, snapped=snapped, faint=faint)
    if got is None:
        _, notes = _follow(record, _anchor_state(previous), reading, evidence, snapped=snapped, faint=faint)
        return FollowOutcome(record, None, notes)
    new_record, follow = got
    state, transform = follow.pop("state"), follow.pop("transform")
    notes = list(follow["notes"])
    q = follow.get("question")
    if q:
        notes.append(f"{QUESTION} {len(q['alternatives'])} ways to reach this board give different scores: "
                     "answer the question on the game page (the first is counted until then)")
    return FollowOutcome(new_record, state, notes, len(follow["turns"]), transform.cell, follow)


def record_track(record: dict[str, Any] | None) -> dict[str, int]:
    """The score track a record's replay gives (nothing before the first photo)."""
    if not record or not record.get("turns"):
        return {}
    try:
        results, _ = replay(parse_game(record))
    except CarcamError:
        return {}
    return dict(results[-1].totals) if results else {}


def _add_step(db: sqlite3.Connection, game: GameInfo, kind: str, note: str, state_doc: dict[str, Any],
              doubtful: set[Cell] | tuple[Cell, ...], photo_id: int | None = None,
              record: Any = _KEEP, follow: dict[str, Any] | None = None) -> Step:
    """Validate ``state_doc``, score it and store it as the game's newest step. ``follow`` is what
    :mod:`scorer.follow` found for it (see ``schema.sql``); by default the tile confidences of
    the step before are carried over, so a later photo still knows how surely each cell was read."""
    state = parse(state_doc)
    state_doc = state_to_json(state)
    try:
        totals = score(state).final
    except Unavailable:
        totals = {}
    track = {p: int(state.scores.get(p, 0)) for p in state.players}
    seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game_id = ?", (game.id,)).fetchone()[0]
    cells = sorted({tuple(c) for c in doubtful} & {t.at for t in state.tiles}, key=lambda c: (c[1], c[0]))
    if follow is None:
        last = latest_step(db, game.id)
        follow = {"conf": _conf_list(_conf_map(last), state)}
    db.execute("INSERT INTO steps (game_id, seq, kind, note, photo_id, state, doubtful, record_before, totals, "
               "track, created, follow) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (game.id, seq, kind, note, photo_id, json.dumps(state_doc), json.dumps([list(c) for c in cells]),
                json.dumps(game.record), json.dumps(totals), json.dumps(track), _now(), json.dumps(follow)))
    _bump(db, game.id, record)
    db.commit()
    return Step(seq, kind, note, photo_id, state_doc, tuple(cells), game.record, totals, track, _now(), follow)


# ---------------------------------------------------------------------------------------------
# photos
def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Walk a JPEG's markers to its end marker; return (width, height) from its frame header.

    OpenCV decodes a truncated JPEG into a half-grey picture with only a warning, so a file that
    stops before its end-of-image marker is refused here instead."""
    n, i, size = len(data), 2, (0, 0)
    while True:
        if i >= n:
            raise Unreadable("the photo is truncated (the JPEG file stops before its end); send it again", 400)
        if data[i] != 0xFF:
            raise Unreadable("the photo is a damaged JPEG file (bad marker); send it again", 400)
        while i < n and data[i] == 0xFF:
            i += 1
        if i >= n:
            continue
        marker = data[i]
        i += 1
        if marker == 0xD9:
            return size
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:
            continue
        if i + 2 > n:
            continue
        length = int.from_bytes(data[i:i + 2], "big")
        if length < 2:
            raise Unreadable("the photo is a damaged JPEG file (bad segment length)", 400)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 7 <= n:
            size = (int.from_bytes(data[i + 5:i + 7], "big"), int.from_bytes(data[i + 3:i + 5], "big"))
        i += length
        if marker == 0xDA:  # entropy-coded scan data runs to the next real marker
            while True:
                j = data.find(b"\xff", i)
                if j < 0 or j + 1 >= n:
                    i = n
                    break
                nxt = data[j + 1]
                if nxt == 0x00 or 0xD0 <= nxt <= 0xD7 or nxt == 0xFF:
                    i = j + 1
                    continue
                i = j
                break


def decode_photo(data: bytes) -> tuple[np.ndarray, bytes]:
    """Decode an uploaded photo in memory; return the image and its re-encoded JPEG bytes.

    Only JPEG, PNG and WebP are accepted, checked by their content (never by the file name). The
    stored copy is always re-encoded, so nothing of the uploaded file but its pixels is kept."""
    if not data:
        raise ServiceError("the photo is empty (0 bytes)")
    if data[:3] == b"\xff\xd8\xff":
        w, h = _jpeg_size(data)
        if w * h > MAX_PIXELS:
            raise Unreadable(f"the photo is {w} x {h} pixels; at most {MAX_PIXELS // 1_000_000} megapixels", 413)
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        if b"IEND" not in data[-16:]:
            raise Unreadable("the photo is truncated (the PNG file stops before its end); send it again", 400)
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        if w * h > MAX_PIXELS:
            raise Unreadable(f"the photo is {w} x {h} pixels; at most {MAX_PIXELS // 1_000_000} megapixels", 413)
    elif not (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        raise Unreadable("this file is not a photo: send a JPEG, PNG or WebP image", 415)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise Unreadable("the photo could not be decoded (damaged image file); send it again", 400)
    ok, buf = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), JPEG_QUALITY])
    if not ok:  # pragma: no cover - OpenCV encodes any decoded image
        raise Unreadable("the photo could not be stored")
    return image, buf.tobytes()


def default_reader() -> Reader:
    """The real photo reader, imported only when a photo arrives (it pulls in the vision stack)."""
    try:
        from vision.reader import BoardReader  # type: ignore[import-not-found]
    except ImportError as exc:
        raise Unavailable("the photo reader (vision.reader) is not installed in this build; "
                          "enter the board by hand or try again later") from exc
    return BoardReader()


def doubtful_cells(reading: Reading) -> set[Cell]:
    """Cells to check: tiles or figures read with little confidence, unknown tiles, cells that a
    reading warning names as ``[x, y]``."""
    out = {t.at for t in reading.state.tiles
           if not t.tile.known or (t.confidence is not None and t.confidence < DOUBTFUL_CONFIDENCE)}
    out |= {m.at for m in reading.state.meeples if m.confidence is not None and m.confidence < DOUBTFUL_CONFIDENCE}
    for w in reading.warnings:
        out |= {(int(x), int(y)) for x, y in _CELL_IN_TEXT.findall(w)}
    return out


def add_photo(db: sqlite3.Connection, game: GameInfo, data: bytes, reader: Reader | None,
              follow: bool = True) -> dict[str, Any]:
    """Decode, read and store a photo; the board it shows becomes the game's newest step.

    What a photo cannot show is carried over from the previous state: the score track (plus
    points of turns :func:`follow_turns` inferred), prisoners and wall tiles. Figures of colours
    not in the game are dropped with a warning."""
    image, jpeg = decode_photo(data)
    h, w = image.shape[:2]
    previous_doc = current_state_json(db, game)
    previous = parse(previous_doc)
    reader = reader or default_reader()
    evidence = None
    snapped: Collection[tuple[Cell, str, str]] = ()
    faint: Collection[tuple[Cell, str, str]] = ()
    try:
        kwargs = dict(game=game.game, expansions=game.expansions, players=game.players,
                      prior=previous if previous.tiles else None)
        if follow and hasattr(reader, "read_detail"):
            # the reader's per-cell evidence lets the follower choose among the legal tiles
            detail = reader.read_detail(data, **kwargs)
            reading, evidence = detail.reading, detail.evidence
            snapped = getattr(detail, "snapped", ())
            faint = getattr(detail, "faint", ())
        else:
            reading = reader.read(data, **kwargs)
    except CarcamError as exc:
        raise Unreadable(f"no board could be read in this photo: {exc}") from exc
    if not isinstance(reading, Reading):
        raise Unreadable("the photo reader gave no reading")
    warnings = list(reading.warnings)
    raw = reading_to_json(reading)
    doc = {k: v for k, v in raw.items() if k not in ("image", "warnings")}
    doc["format"] = STATE
    doc.update(game=game.game, expansions=list(game.expansions), options=dict(game.options),
               players=list(game.players))
    kept = [m for m in doc.get("meeples", []) if m["player"] in game.players]
    if len(kept) != len(doc.get("meeples", [])):
        others = sorted({m["player"] for m in doc["meeples"]} - set(game.players))
        warnings.append(f"figures of {', '.join(others)} were seen but that colour is not in this game; ignored")
    doc["meeples"] = [{k: v for k, v in m.items() if k not in ("confidence", "quad")} for m in kept]
    doc["tiles"] = [{k: v for k, v in t.items() if k not in ("confidence", "quad")} for t in doc.get("tiles", [])]
    for key in ("scores", "prisoners", "wall_tiles", "corner_tiles"):
        if key in previous_doc:  # a photo cannot show these: keep what was entered by hand
            doc[key] = previous_doc[key]
    parse(doc)
    outcome = FollowOutcome(game.record)
    if follow:
        # what the photo shows, with the reader's confidences (they decide which reading of a
        # cell wins) and without the score track (a photo cannot show it)
        seen = replace(reading.state, game=game.game, expansions=game.expansions, options=dict(game.options),
                       players=game.players, meeples=tuple(m for m in reading.state.meeples if m.player in game.players),
                       scores={})
        outcome = follow_turns(game.record, latest_step(db, game.id),
                               Reading(state=seen, image=reading.image, warnings=reading.warnings), evidence,
                               snapped, faint)
    doubtful = doubtful_cells(reading)
    if outcome.state is not None:
        # the board in the record's frame; the track is the replay's plus what was entered by
        # hand since (bazaar, ransom, corrections of the track)
        offset = {p: int(previous.scores.get(p, 0)) - record_track(game.record).get(p, 0) for p in game.players}
        doc = state_to_json(outcome.state)
        doc["scores"] = {p: max(0, int(outcome.state.scores.get(p, 0)) + offset[p]) for p in game.players}
        for key in ("prisoners", "wall_tiles", "corner_tiles"):
            if key in previous_doc:
                doc[key] = previous_doc[key]
        if outcome.cell_map is not None:
            move = outcome.cell_map
            doubtful = {move(c) for c in doubtful}
            for item in raw.get("tiles", []) + raw.get("meeples", []):
                item["at"] = list(move(tuple(item["at"])))
    warnings += outcome.notes
    cur = db.execute("INSERT INTO photos (game_id, created, jpeg, width, height, reading) VALUES (?, ?, ?, ?, ?, ?)",
                     (game.id, _now(), jpeg, w, h, json.dumps(raw)))
    photo_id = int(cur.lastrowid or 0)
    shown = parse(doc)
    note = f"photo {photo_id}: {len(shown.tiles)} tiles, {len(shown.meeples)} figures"
    if outcome.turns:
        note += f", {outcome.turns} turn(s) followed"
    follow_data = outcome.follow or {"conf": [[t.at[0], t.at[1], t.confidence] for t in reading.state.tiles
                                              if t.confidence is not None]}
    step = _add_step(db, game, "photo", note, doc, doubtful, photo_id,
                     outcome.record if outcome.record is not game.record else _KEEP, follow_data)
    state = parse(step.state)
    return {"step": step.seq, "photo": photo_id, "reading": raw, "warnings": warnings,
            "doubtful": [list(c) for c in step.doubtful], "state": step.state, "score": score_json(state)}


def photo_jpeg(db: sqlite3.Connection, game: GameInfo, photo_id: int) -> bytes:
    row = db.execute("SELECT jpeg FROM photos WHERE id = ? AND game_id = ?", (photo_id, game.id)).fetchone()
    if row is None:
        raise NotFound("no such photo in this game")
    return bytes(row["jpeg"])


def latest_photo(db: sqlite3.Connection, game: GameInfo) -> dict[str, Any] | None:
    """The photo of the newest step that has one: its id, size and reading (for the overlay)."""
    row = db.execute("SELECT p.id, p.width, p.height, p.reading FROM steps s JOIN photos p ON p.id = s.photo_id "
                     "WHERE s.game_id = ? AND s.undone = 0 ORDER BY s.seq DESC LIMIT 1", (game.id,)).fetchone()
    if row is None:
        return None
    return {"id": row["id"], "width": row["width"], "height": row["height"],
            "reading": json.loads(row["reading"]) if row["reading"] else None}


# ---------------------------------------------------------------------------------------------
# corrections
def _cell_arg(value: Any, what: str = "at") -> Cell:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ServiceError(f"{what}: a cell is a pair of whole numbers [x, y], got {json.dumps(value)}")
    return (value[0], value[1])


def _object(payload: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise ServiceError("expected a JSON object")
    for k in required:
        if k not in payload:
            raise ServiceError(f"{k}: missing")
    for k in payload:
        if k not in required and k not in optional:
            raise ServiceError(f"{k}: unknown key (allowed: {', '.join(required + optional)})")
    return payload


def _checked(doc: dict[str, Any]) -> dict[str, Any]:
    """Parse an edited state so a bad correction is refused with the engine's message."""
    try:
        parse(doc)
    except CarcamError as exc:
        raise ServiceError(f"correction refused: {exc}") from exc
    return doc


def set_tile(db: sqlite3.Connection, game: GameInfo, payload: Any, follow: bool = True) -> Step:
    """Put, replace or remove the tile on one cell: ``{"at", "tile", "rot"}`` or ``{"at", "remove": true}``.

    Figures on the cell that the new tile has no segment for are removed (and said so). With
    ``follow``, the game record is made to agree (:func:`_correct`)."""
    p = _object(payload, ("at",), ("tile", "rot", "remove"))
    at = _cell_arg(p["at"])
    doc = json.loads(json.dumps(current_state_json(db, game)))
    tiles = [t for t in doc.get("tiles", []) if tuple(t["at"]) != at]
    old = [t for t in doc.get("tiles", []) if tuple(t["at"]) == at]
    figures = doc.get("meeples", [])
    if p.get("remove"):
        if "tile" in p or "rot" in p:
            raise ServiceError("remove: give either remove or tile and rot, not both")
        if not old:
            raise ServiceError(f"at: no tile on cell {list(at)} to remove")
        dropped = [m for m in figures if tuple(m["at"]) == at]
        doc["meeples"] = [m for m in figures if tuple(m["at"]) != at]
        doc["tiles"] = tiles
        note = f"removed tile {old[0]['tile'] if isinstance(old[0]['tile'], str) else 'inline'} at {list(at)}"
        if dropped:
            note += f" and {len(dropped)} figure(s) on it"
    else:
        if "tile" not in p or "rot" not in p:
            raise ServiceError("tile and rot: both are needed to put a tile (or send remove: true)")
        if p["rot"] not in (0, 90, 180, 270) or isinstance(p["rot"], bool):
            raise ServiceError(f"rot: {json.dumps(p['rot'])} is not 0, 90, 180 or 270")
        try:
            tile = resolve_tile(p["tile"], "tile", game.game)
        except CarcamError as exc:
            raise ServiceError(str(exc)) from exc
        if not tile.known:
            raise ServiceError("tile: name the tile (\"?\" is what the reader writes when it cannot tell)")
        tiles.append({"at": list(at), "tile": p["tile"], "rot": p["rot"]})
        doc["tiles"] = tiles
        kept, dropped = [], []
        for m in figures:
            if tuple(m["at"]) == at and tile.segment_index_on_board(m["on"], p["rot"]) is None:
                dropped.append(m)
            else:
                kept.append(m)
        doc["meeples"] = kept
        name = p["tile"] if isinstance(p["tile"], str) else "inline tile"
        note = f"tile {name} rot {p['rot']} at {list(at)}" + (" (was " + str(old[0]["tile"]) + ")" if old else "")
        if dropped:
            note += f"; {len(dropped)} figure(s) on a segment it lacks removed"
    _checked(doc)
    step = latest_step(db, game.id)
    doubt = set(step.doubtful) - {at} if step else set()
    conf = _conf_map(step)
    conf.pop(at, None)
    if not p.get("remove"):
        conf[at] = 1.0  # set by hand: a later photo does not overrule it
    return _correct(db, game, "tile", note, doc, doubt, conf, follow)


def edit_figure(db: sqlite3.Connection, game: GameInfo, payload: Any, follow: bool = True) -> Step:
    """Add, remove or move a figure: ``{"action": "add"|"remove"|"move", "player", "at", "on", "to"}``.

    With ``follow``, the game record is made to agree (:func:`_correct`): a figure on a tile laid
    before the last photo's turns amends the turn that laid it."""
    p = _object(payload, ("action", "player", "at", "on"), ("to",))
    action = p["action"]
    if action not in ("add", "remove", "move"):
        raise ServiceError(f"action: {json.dumps(action)} is not add, remove or move")
    if p["player"] not in game.players:
        raise ServiceError(f"player: {json.dumps(p['player'])} is not in this game ({', '.join(game.players)})")
    at = _cell_arg(p["at"])
    if p["on"] not in ALL_SLOTS:
        raise ServiceError(f"on: unknown slot {json.dumps(p['on'])} (slots: {' '.join(ALL_SLOTS)})")
    doc = json.loads(json.dumps(current_state_json(db, game)))
    figures = doc.get("meeples", [])
    me = {"player": p["player"], "at": list(at), "on": p["on"]}
    where = f"{p['player']} figure at {list(at)} on {p['on']}"
    if action == "add":
        if "to" in p:
            raise ServiceError("to: only a move has a destination")
        figures.append(me)
        note = f"added {where}"
        amends = [{"at": list(at), "player": p["player"], "on": p["on"]}]
    else:
        found = next((i for i, m in enumerate(figures) if m == me), None)
        if found is None:
            raise ServiceError(f"there is no {where}")
        moved = figures.pop(found)
        if action == "move":
            to = p.get("to")
            if not isinstance(to, dict) or set(to) - {"at", "on"} or "on" not in to:
                raise ServiceError("to: expected {\"at\": [x, y], \"on\": slot}")
            dest = _cell_arg(to.get("at", list(at)), "to.at")
            if to["on"] not in ALL_SLOTS:
                raise ServiceError(f"to.on: unknown slot {json.dumps(to['on'])}")
            figures.append({**moved, "at": list(dest), "on": to["on"]})
            note = f"moved {where} to {list(dest)} on {to['on']}"
            amends = [{"at": list(dest), "player": p["player"], "on": to["on"]}]
            if dest != at:
                amends.insert(0, {"at": list(at), "player": p["player"], "on": None})
        else:
            if "to" in p:
                raise ServiceError("to: only a move has a destination")
            note = f"removed {where}"
            amends = [{"at": list(at), "player": p["player"], "on": None}]
    doc["meeples"] = figures
    _checked(doc)
    step = latest_step(db, game.id)
    return _correct(db, game, "figure", note, doc, set(step.doubtful) if step else set(), _conf_map(step), follow,
                    amends)


def _correct(db: sqlite3.Connection, game: GameInfo, kind: str, note: str, doc: dict[str, Any],
             doubt: set[Cell], conf: dict[Cell, float], follow: bool,
             amends: list[dict[str, Any]] | None = None) -> Step:
    """Store a tile or figure correction so that the game record agrees with the corrected board
    (else the next photo, followed from the record, would undo it).

    The rule: the turns of the last photo are followed again, from the board before that photo
    to the corrected board (``scorer.follow.follow_step``; the corrected cell counts as read with
    full confidence, so a tile laid earlier is rewritten in the record when the game still
    replays). A figure correction on a tile laid before that photo amends the turn that laid it.
    The board shown is the corrected one; its score track moves by what the new record scores
    differently. Before the first followed photo (or with following off) only the board changes."""
    state = parse(doc)
    data: dict[str, Any] = {"conf": _conf_list(conf, state)}
    record: Any = _KEEP
    rows = steps(db, game.id) if follow else []
    derived = next((r for r in reversed(rows) if r.follow.get("derived")), None)
    if derived is not None:
        a = derived.follow.get("anchor")
        anchor = next((r for r in rows if r.seq == a), None)
        first = next((r for r in rows if r.seq > (a or 0)), None)
        got = None
        if (a is None or anchor is not None) and first is not None:
            got = _derive(first.record_before, anchor, _follow_input(state, conf), conf,
                          [*derived.follow.get("amend", []), *(amends or [])], derived.follow)
        if got is None:
            note += "; the game record could not follow this correction"
        else:
            record, data = got
            del data["state"], data["transform"]
            old, new = record_track(game.record), record_track(record)
            track = doc.get("scores", {})
            doc = {**doc, "scores": {p: max(0, int(track.get(p, 0)) - old.get(p, 0) + new.get(p, 0))
                                     for p in game.players}}
            note += f"; the turns since step {a} followed again" if a else "; the game record started again"
    return _add_step(db, game, kind, note, doc, doubt, record=record, follow=data)


def manual_entry(db: sqlite3.Connection, game: GameInfo, payload: Any) -> Step:
    """What a photo cannot show: ``scores`` (track positions), ``prisoners``, ``ransom``,
    ``bazaar`` transfers and ``wall_tiles``; any subset, applied in that order."""
    p = _object(payload, (), ("scores", "prisoners", "ransom", "bazaar", "wall_tiles"))
    if not p:
        raise ServiceError("nothing to enter: give scores, prisoners, ransom, bazaar or wall_tiles")
    doc = json.loads(json.dumps(current_state_json(db, game)))
    notes: list[str] = []
    scores = {pl: int(doc.get("scores", {}).get(pl, 0)) for pl in game.players}
    if "scores" in p:
        if not isinstance(p["scores"], dict):
            raise ServiceError("scores: expected {colour: points}")
        for pl, v in p["scores"].items():
            if pl not in game.players:
                raise ServiceError(f"scores.{pl}: not a player of this game")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ServiceError(f"scores.{pl}: expected a whole number of points >= 0, got {json.dumps(v)}")
            scores[pl] = v
        notes.append("score track: " + ", ".join(f"{k} {v}" for k, v in p["scores"].items()))
    if "prisoners" in p:
        if "tower" not in game.expansions:
            raise ServiceError("prisoners: only the tower expansion takes prisoners")
        doc["prisoners"] = p["prisoners"]
        notes.append("prisoners entered")
    if "ransom" in p:
        r = p["ransom"]
        if "tower" not in game.expansions:
            raise ServiceError("ransom: only the tower expansion takes prisoners")
        if not isinstance(r, dict) or set(r) != {"payer", "to"}:
            raise ServiceError("ransom: expected {\"payer\": colour, \"to\": colour}")
        payer, to = r["payer"], r["to"]
        held = list(doc.get("prisoners", {}).get(to, [])) if isinstance(doc.get("prisoners"), dict) else []
        if payer not in game.players or to not in game.players or payer == to:
            raise ServiceError("ransom: payer and to must be two different players of this game")
        if payer not in held:
            raise ServiceError(f"ransom: {to} holds no follower of {payer}")
        if scores[payer] < RANSOM_POINTS:
            raise ServiceError(f"ransom: {payer} has {scores[payer]} points, a ransom costs {RANSOM_POINTS}")
        held.remove(payer)
        doc["prisoners"][to] = held
        scores[payer] -= RANSOM_POINTS
        scores[to] += RANSOM_POINTS
        notes.append(f"ransom: {payer} paid {RANSOM_POINTS} to {to}")
    if "bazaar" in p:
        if "bcb" not in game.expansions:
            raise ServiceError("bazaar: only Bridges, Castles & Bazaars has bazaars")
        if not isinstance(p["bazaar"], list):
            raise ServiceError("bazaar: expected a list of {\"buyer\", \"points\", \"paid_to\"}")
        for i, b in enumerate(p["bazaar"]):
            if not isinstance(b, dict) or set(b) - {"tile", "buyer", "points", "paid_to"} or "buyer" not in b \
                    or "points" not in b:
                raise ServiceError(f"bazaar[{i}]: expected {{\"buyer\", \"points\", \"paid_to\", \"tile\"}}")
            buyer, pts, paid_to = b["buyer"], b["points"], b.get("paid_to")
            if buyer not in game.players or (paid_to is not None and paid_to not in game.players):
                raise ServiceError(f"bazaar[{i}]: buyer and paid_to must be players of this game")
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
                raise ServiceError(f"bazaar[{i}].points: expected a whole number >= 0")
            if scores[buyer] < pts:
                raise ServiceError(f"bazaar[{i}]: {buyer} has only {scores[buyer]} points, cannot pay {pts}")
            scores[buyer] -= pts
            if paid_to is not None and paid_to != buyer:
                scores[paid_to] += pts
            notes.append(f"bazaar: {buyer} paid {pts}" + (f" to {paid_to}" if paid_to and paid_to != buyer else ""))
    if "wall_tiles" in p:
        if game.game != "castle":
            raise ServiceError("wall_tiles: only The Castle has wall tiles")
        doc["wall_tiles"] = p["wall_tiles"]
        notes.append("wall tiles entered")
    doc["scores"] = scores
    _checked(doc)
    step = latest_step(db, game.id)
    return _add_step(db, game, "manual", "; ".join(notes), doc, set(step.doubtful) if step else set())


def undo(db: sqlite3.Connection, game: GameInfo, seq: Any) -> int:
    """Undo step ``seq`` and every later one (each was built on it); the record loses the turns
    they added. Returns how many steps were undone."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ServiceError(f"step: expected a step number, got {json.dumps(seq)}")
    row = db.execute("SELECT record_before FROM steps WHERE game_id = ? AND seq = ? AND undone = 0",
                     (game.id, seq)).fetchone()
    if row is None:
        raise NotFound(f"step {seq}: no such step (or it is already undone)")
    cur = db.execute("UPDATE steps SET undone = 1 WHERE game_id = ? AND seq >= ? AND undone = 0", (game.id, seq))
    _bump(db, game.id, json.loads(row["record_before"]))
    db.commit()
    return cur.rowcount


def _superseded_by(rows: list[Step], i: int) -> int | None:
    """The later step that followed the turns of ``rows[i]`` again (a correction), if any: its
    question replaces the question of ``rows[i]``."""
    for r in rows[i + 1:]:
        if r.follow.get("derived") and (r.follow.get("anchor") or 0) < rows[i].seq:
            return r.seq
    return None


def questions(db: sqlite3.Connection, game: GameInfo) -> list[dict[str, Any]]:
    """The players' questions: each step (not undone, not asked again later) whose photos allow
    turns with different scores, with its alternatives (summary, points, track, totals) and the
    answer so far (``chosen``: None while unanswered; the first alternative counts until then)."""
    rows = steps(db, game.id)
    out = []
    for i, r in enumerate(rows):
        q = r.follow.get("question")
        if not q or _superseded_by(rows, i) is not None:
            continue
        out.append({"step": r.seq, "question": QUESTION, "chosen": q.get("chosen"),
                    "alternatives": [{k: a[k] for k in ("alternative", "summary", "points", "track", "final", "detail",
                                                        "hidden_followers")} for a in q["alternatives"]]})
    return out


def choose(db: sqlite3.Connection, game: GameInfo, seq: int, payload: Any) -> dict[str, Any]:
    """Answer step ``seq``'s question with ``{"alternative": i}``.

    The record from that step on becomes ``FollowResult.choose(i)``: the step's turns are those
    of alternative ``i``, and every later step that inferred turns is followed again on top of
    it (its answer kept where the same alternative is offered again). The score track of the
    step and of every later step moves by what the new record scores differently (hand entries
    are kept). Returns the question as answered and the new scores."""
    if not isinstance(payload, dict) or set(payload) != {"alternative"}:
        raise ServiceError('expected {"alternative": i} (the number of the alternative, from 0)')
    i = payload["alternative"]
    if not isinstance(i, int) or isinstance(i, bool):
        raise ServiceError(f"alternative: expected a whole number, got {json.dumps(i)}")
    rows = steps(db, game.id)
    idx = next((k for k, r in enumerate(rows) if r.seq == seq), None)
    if idx is None:
        raise NotFound(f"step {seq}: no such step (or it was undone)")
    step = rows[idx]
    q = step.follow.get("question")
    if not q:
        raise NotFound(f"step {seq} asks no question: the turns it followed have only one outcome")
    again = _superseded_by(rows, idx)
    if again is not None:
        raise ServiceError(f"step {seq}: a correction at step {again} followed these turns again; "
                           f"answer the question of step {again} instead", 409)
    n = len(q["alternatives"])
    if not 0 <= i < n:
        raise ServiceError(f"alternative: step {seq} has alternatives 0 to {n - 1}, not {i}")
    old_after = {r.seq: (rows[k + 1].record_before if k + 1 < len(rows) else game.record) for k, r in enumerate(rows)}
    chosen = q["alternatives"][i]
    current = chosen["record"]
    new_after = {seq: current}
    answered = {**step.follow, "question": {**q, "chosen": i}, "turns": chosen["turns"]}
    if step.follow.get("history"):
        answered["history"] = _answered_history(step.follow["history"], q, i)
    changes = [(step, step.record_before, current, answered)]
    followed = {seq: answered}  # each step's follow data as it now stands
    for r in rows[idx + 1:]:
        before, data = current, r.follow
        if data.get("derived"):
            a = data.get("anchor")
            anchor = next((x for x in rows if x.seq == a), None)
            if anchor is not None and a in followed:  # its history as answered or followed again
                anchor = replace(anchor, follow=followed[a])
            got = _derive(new_after.get(a, old_after.get(a)) if a is not None else None, anchor,
                          _follow_input(parse(r.state), _conf_map(r)), _conf_map(r), data.get("amend", []), data)
            if got is None:
                raise ServiceError(f"step {r.seq} cannot be followed after this answer; undo it first", 409)
            current, data = got
            del data["state"], data["transform"]
        new_after[r.seq] = current
        followed[r.seq] = data
        changes.append((r, before, current, data))
    for r, before, after, data in changes:
        old, new = record_track(old_after[r.seq]), record_track(after)
        doc = dict(r.state)
        track = doc.get("scores", {})
        doc["scores"] = {p: max(0, int(track.get(p, 0)) - old.get(p, 0) + new.get(p, 0)) for p in game.players}
        state = parse(doc)
        try:
            totals = score(state).final
        except Unavailable:
            totals = {}
        db.execute("UPDATE steps SET state = ?, totals = ?, track = ?, record_before = ?, follow = ? "
                   "WHERE game_id = ? AND seq = ?",
                   (json.dumps(state_to_json(state)), json.dumps(totals), json.dumps(dict(doc["scores"])),
                    json.dumps(before), json.dumps(data), game.id, r.seq))
    _bump(db, game.id, current)
    db.commit()
    latest = latest_step(db, game.id)
    return {"step": seq, "alternative": i, "summary": chosen["summary"],
            "track": latest.track if latest else {}, "totals": latest.totals if latest else {}}


# ---------------------------------------------------------------------------------------------
# reading the game
def candidates(db: sqlite3.Connection, game: GameInfo, at: Cell) -> list[dict[str, Any]]:
    """Tiles and rotations that fit ``at`` against its neighbours (``Board.edge_conflicts``),
    the current tile first, then those the box still holds; each with a small SVG preview."""
    state = current_state(db, game)
    board = board_for(state.game, state.layout)
    for t in state.tiles:
        if t.at != at:
            board.place(t.at, t.tile, t.rot, check=False)
    if not board.can_hold(at):
        raise ServiceError(f"at: cell {list(at)} lies outside the castle wall")
    catalog = load_catalog()
    box = catalog.box(state.game, state.expansions)
    used: dict[str, int] = {}
    for t in state.tiles:
        if t.at != at and t.tile.id is not None:
            used[t.tile.id] = used.get(t.tile.id, 0) + 1
    current = next((t for t in state.tiles if t.at == at), None)
    out: list[dict[str, Any]] = []
    for tid in box:
        tile = catalog.get(tid)
        if tile is None:
            continue
        for rot in tile.rotations():
            if board.edge_conflicts(at, tile, rot):
                continue
            is_current = current is not None and current.tile.id == tid and current.rot == rot
            out.append({"tile": tid, "rot": rot, "current": is_current, "left": box[tid] - used.get(tid, 0),
                        "svg": tile_svg(tile, rot, 56)})
    out.sort(key=lambda c: (not c["current"], c["left"] <= 0))
    return out


def segments_on(state: State, at: Cell) -> list[dict[str, str]]:
    """The segments of the tile on ``at`` by one board slot each (where a figure can go)."""
    from scorer.geometry import rotate_slot
    t = next((t for t in state.tiles if t.at == at), None)
    if t is None:
        return []
    return [{"on": rotate_slot(seg.slots[0], t.rot), "kind": seg.kind.value} for seg in t.tile.segments]


def score_json(state: State) -> dict[str, Any]:
    """``carcam/score@1`` of a state."""
    return score(state).to_json()


def open_json(report: ScoreReport) -> list[dict[str, Any]]:
    """Open features with what completing them would bring, and the reason in words."""
    return [{**o.to_json(), "points_if_completed": o.points_if_completed, "why": o.detail} for o in report.open]


def history(db: sqlite3.Connection, game: GameInfo, replayed: bool = True) -> dict[str, Any]:
    """The score history: each step's track and totals with the turns it inferred (player, tile,
    points), and (``replayed``) the whole record's turns replayed."""
    all_steps = steps(db, game.id)
    rows = []
    for i, s in enumerate(all_steps):
        row: dict[str, Any] = {"step": s.seq, "kind": s.kind, "note": s.note, "track": s.track, "totals": s.totals,
                               "created": s.created, "turns": s.follow.get("turns", []),
                               "notes": s.follow.get("notes", [])}
        if s.follow.get("derived"):
            row["followed_from"] = s.follow.get("anchor")
            again = _superseded_by(all_steps, i)
            if again is not None:
                row["followed_again_at"] = again
        q = s.follow.get("question")
        if q:
            row["question"] = {"chosen": q.get("chosen"), "alternatives": len(q["alternatives"])}
        rows.append(row)
    turns: list[dict[str, Any]] = []
    if replayed and game.record and game.record.get("turns"):
        try:
            results, _ = replay(parse_game(game.record))
            turns = [r.to_json() for r in results]
        except CarcamError as exc:
            turns = [{"error": str(exc)}]
    return {"steps": rows, "turns": turns}


def game_json(db: sqlite3.Connection, game: GameInfo) -> dict[str, Any]:
    """A game's summary for the API."""
    last = latest_step(db, game.id)
    return {"id": game.id, "game": game.game, "expansions": list(game.expansions), "players": list(game.players),
            "options": dict(game.options), "version": game.version, "created": game.created,
            "steps": len(steps(db, game.id)), "last_step": last.seq if last else None}


def version(db: sqlite3.Connection, gid: str) -> int:
    row = db.execute("SELECT version FROM games WHERE id = ?", (gid,)).fetchone() if len(gid) < 100 else None
    if row is None:
        raise NotFound("no such game")
    return int(row["version"])


# ---------------------------------------------------------------------------------------------
# demo
def load_demo(db: sqlite3.Connection, sample_dir: str, reader: Reader | None, follow: bool = True) -> str:
    """A game loaded from ``sample_images/<name>/photo.jpg`` (+ ``truth.json``) for ``--demo``.

    The photo is read by the reader when it is available; otherwise the truth file's board is
    used as the reading, so the demo works before the vision pipeline does."""
    from pathlib import Path
    base = Path(sample_dir)
    folders = sorted(p for p in base.glob("*") if (p / "photo.jpg").is_file()) if base.is_dir() else []
    if not folders:
        raise NotFound(f"no sample photos in {sample_dir} (expected <name>/photo.jpg and truth.json)")
    folder = next((p for p in folders if p.name == "base-midgame"), folders[0])
    data = (folder / "photo.jpg").read_bytes()
    truth: State | None = None
    if (folder / "truth.json").is_file():
        truth = parse_state(json.loads((folder / "truth.json").read_text(encoding="utf-8")))
    setup = {"game": truth.game if truth else "base", "expansions": list(truth.expansions) if truth else [],
             "players": list(truth.players) if truth and truth.players else ["red", "blue"],
             "options": dict(truth.options) if truth else {}}
    gid = new_game(db, setup)
    game = get_game(db, gid)
    try:
        add_photo(db, game, data, reader or default_reader(), follow)
    except Unavailable:
        if truth is None:
            raise
        h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2]
        add_photo(db, game, data, follow=follow, reader=_TruthReader(Reading(state=truth, image=(w, h), warnings=(
            "demo: the photo reader is not installed, so this board is the sample's truth file",))))
    return gid


class _TruthReader:
    """A reader that returns a fixed reading (the demo's fallback when vision is missing)."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading

    def read(self, image_bytes: bytes, **_kw: Any) -> Reading:
        return self.reading


# ---------------------------------------------------------------------------------------------
# the game page
GAME_NAMES = {"base": "Carcassonne", "castle": "The Castle"}
EXPANSION_NAMES = {"festival": "The Festival", "tower": "The Tower", "bcb": "Bridges, Castles & Bazaars"}
PLAY_PHASES = ("turn", "completed")


def page_view(db: sqlite3.Connection, game: GameInfo) -> dict[str, Any]:
    """Everything the game page shows, computed once per request (the template only lays it out)."""
    from .render_svg import player_colour, state_svg
    view: dict[str, Any] = {"game": game, "title": GAME_NAMES[game.game],
                            "expansion_names": [EXPANSION_NAMES[e] for e in game.expansions],
                            "colour": {p: player_colour(p) for p in game.players}, "unavailable": None}
    step = latest_step(db, game.id)
    view["step"] = step
    view["history"] = history(db, game, replayed=False)
    view["questions"] = questions(db, game)
    view["open_questions"] = [q for q in view["questions"] if q["chosen"] is None]
    view["photo"] = latest_photo(db, game)
    try:
        state = current_state(db, game)
    except Unavailable as exc:
        view["unavailable"] = exc.message
        return view
    view["state"] = state
    view["track"] = {p: int(state.scores.get(p, 0)) for p in game.players}
    bad = conflicts(state)
    view["conflicts"] = bad
    doubtful = list(step.doubtful) if step else []
    view["doubtful"] = doubtful
    view["svg"] = state_svg(state, doubtful=doubtful, conflicts=[tuple(c) for k in bad for c in k["cells"]])
    try:
        report = score(state)
    except Unavailable as exc:
        view["unavailable"] = exc.message
        return view
    view["report"] = report
    final = report.final
    view["ranking"] = sorted(game.players, key=lambda p: -final.get(p, 0))
    view["play_events"] = [e for e in report.events if e.phase in PLAY_PHASES]
    view["end_events"] = [e for e in report.events if e.phase not in PLAY_PHASES]
    view["open"] = [o for o in report.open if o.kind != "field" or o.owners]
    view["empty_fields"] = sum(1 for o in report.open if o.kind == "field" and not o.owners)
    view["farms"] = [o for o in report.open if o.kind == "field" and o.owners]
    view["farm_events"] = [e for e in report.events if e.phase == "farm"]
    view["final_events"] = [e for e in report.events if e.phase not in PLAY_PHASES + ("farm",)]
    return view
