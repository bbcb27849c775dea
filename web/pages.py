"""HTML pages: the new-game form and the game page (upload, board, scores, open features, final
tally, manual entries, history). Form posts carry the session's CSRF token."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, session, url_for

from scorer.base_rules import OPTIONS, PLAYER_COLOURS
from scorer.catalog import EXPANSIONS
from scorer.formats import CASTLE_COLOURS

from . import service
from .db import get_db
from .render_svg import player_colour

bp = Blueprint("pages", __name__)


def _remember(gid: str) -> None:
    """Keep the games made in this browser, so the start page can list them (and only them)."""
    mine = [g for g in session.get("games", []) if g != gid]
    session["games"] = [gid, *mine][:10]


@bp.get("/")
def index() -> Any:
    db = get_db()
    mine = []
    for gid in session.get("games", []):
        try:
            g = service.get_game(db, gid)
        except service.NotFound:
            continue
        mine.append(g)
    return render_template("index.html", base_colours=PLAYER_COLOURS, castle_colours=CASTLE_COLOURS,
                           expansions=EXPANSIONS, expansion_names=service.EXPANSION_NAMES, options=list(OPTIONS),
                           colour=player_colour, mine=mine, game_names=service.GAME_NAMES)


@bp.post("/games")
def create_game() -> Any:
    form = request.form
    game = form.get("game", "base")
    if game == "castle":
        players = [c for c in CASTLE_COLOURS if form.get(f"castle_player_{c}")]
        payload = {"game": "castle", "expansions": [], "players": players, "options": {}}
    else:
        order = form.get("order", "")
        chosen = [c for c in PLAYER_COLOURS if form.get(f"player_{c}")]
        ordered = [c for c in order.split(",") if c in chosen]
        players = ordered + [c for c in chosen if c not in ordered]
        payload = {"game": "base", "expansions": [e for e in EXPANSIONS if form.get(f"exp_{e}")],
                   "players": players, "options": {o: True for o in OPTIONS if form.get(f"opt_{o}")}}
    gid = service.new_game(get_db(), payload)
    _remember(gid)
    return redirect(url_for("pages.game_page", gid=gid), 303)


@bp.get("/games/<gid>")
def game_page(gid: str) -> Any:
    db = get_db()
    game = service.get_game(db, gid)
    _remember(gid)
    view = service.page_view(db, game)
    template = "_live.html" if request.args.get("partial") else "game.html"
    return render_template(template, v=view, json=json)


@bp.post("/games/<gid>/photos")
def upload(gid: str) -> Any:
    """The upload form without script: read the photo, then show the game."""
    db = get_db()
    game = service.get_game(db, gid)
    f = request.files.get("photo")
    if f is None:
        raise service.ServiceError("choose a photo first")
    service.add_photo(db, game, f.read(), current_app.config["READER"],
                             current_app.config["FOLLOW"])
    return redirect(url_for("pages.game_page", gid=gid) + "#board", 303)


@bp.post("/games/<gid>/manual")
def manual(gid: str) -> Any:
    """Hand entries from the form: score-track positions, ransom, bazaar."""
    db = get_db()
    game = service.get_game(db, gid)
    form = request.form
    payload: dict[str, Any] = {}
    what = form.get("what")
    if what == "scores":
        scores = {}
        for p in game.players:
            raw = form.get(f"score_{p}", "").strip()
            if raw:
                if not raw.isdigit():
                    raise service.ServiceError(f"{p}: enter the score-track position as a whole number")
                scores[p] = int(raw)
        payload["scores"] = scores
    elif what == "ransom":
        payload["ransom"] = {"payer": form.get("payer"), "to": form.get("to")}
    elif what == "prisoner":
        holder, prisoner = form.get("holder"), form.get("prisoner")
        st = service.current_state_json(db, game)
        prisoners = {k: list(v) for k, v in st.get("prisoners", {}).items()}
        prisoners.setdefault(str(holder), []).append(prisoner)
        payload["prisoners"] = prisoners
    elif what == "bazaar":
        pts = form.get("points", "").strip()
        if not pts.isdigit():
            raise service.ServiceError("bazaar: enter the points paid as a whole number")
        entry: dict[str, Any] = {"buyer": form.get("buyer"), "points": int(pts)}
        if form.get("paid_to"):
            entry["paid_to"] = form.get("paid_to")
        payload["bazaar"] = [entry]
    elif what == "wall_tiles":
        walls: dict[str, Any] = {}
        for p in game.players:
            walls[p] = {k: _numbers(form.get(f"{k}_{p}", ""), f"{p} {k}") for k in ("held", "used")}
        payload["wall_tiles"] = walls
    else:
        abort(400)
    service.manual_entry(db, game, payload)
    return redirect(url_for("pages.game_page", gid=gid) + "#entries", 303)


def _numbers(text: str, what: str) -> list[int]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if not all(p.isdigit() for p in parts):
        raise service.ServiceError(f"{what}: enter wall tile numbers 1-9 separated by spaces")
    return [int(p) for p in parts]


@bp.post("/games/<gid>/steps/<int:seq>/choose")
def choose(gid: str, seq: int) -> Any:
    """The answer to a question from the form (without script): one button per alternative."""
    db = get_db()
    game = service.get_game(db, gid)
    raw = request.form.get("alternative", "")
    if not raw.isdigit():
        raise service.ServiceError("which alternative? (send alternative=0, 1, ...)")
    service.choose(db, game, seq, {"alternative": int(raw)})
    return redirect(url_for("pages.game_page", gid=gid) + "#totals", 303)


@bp.post("/games/<gid>/undo")
def undo(gid: str) -> Any:
    db = get_db()
    game = service.get_game(db, gid)
    raw = request.form.get("step", "")
    if not raw.isdigit():
        raise service.ServiceError("undo: which step?")
    service.undo(db, game, int(raw))
    return redirect(url_for("pages.game_page", gid=gid) + "#history", 303)
