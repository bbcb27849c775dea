"""The JSON API (documented in ``web/README-api.md``). Views only parse and call the service."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from . import csrf_token, service
from .db import get_db
from .render_svg import state_svg

bp = Blueprint("api", __name__, url_prefix="/api")


def _json_body() -> Any:
    body = request.get_json(silent=True)
    if body is None:
        raise service.ServiceError("expected a JSON body (Content-Type: application/json)")
    return body


def _game(gid: str) -> service.GameInfo:
    return service.get_game(get_db(), gid)


def _after_change(gid: str, step: service.Step) -> dict[str, Any]:
    db = get_db()
    game = service.get_game(db, gid)
    state = service.parse(step.state)
    return {"step": step.seq, "note": step.note, "version": game.version, "state": step.state,
            "score": service.score_json(state)}


@bp.get("/csrf")
def get_csrf() -> Any:
    """A CSRF token for this session (for multipart uploads from scripts)."""
    return jsonify({"token": csrf_token(), "header": "X-CSRF-Token"})


@bp.post("/games")
def create_game() -> Any:
    gid = service.new_game(get_db(), _json_body())
    return jsonify({"id": gid, "url": url_for("pages.game_page", gid=gid)}), 201


@bp.get("/games/<gid>")
def game_summary(gid: str) -> Any:
    db = get_db()
    return jsonify(service.game_json(db, _game(gid)))


@bp.get("/games/<gid>/version")
def game_version(gid: str) -> Any:
    v = service.version(get_db(), gid)
    etag = f'"v{v}"'
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    resp = jsonify({"version": v})
    resp.headers["ETag"] = etag
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.post("/games/<gid>/photos")
def upload_photo(gid: str) -> Any:
    db = get_db()
    game = _game(gid)
    upload = request.files.get("photo")
    if upload is None:
        raise service.ServiceError("no photo: send the image as multipart form field 'photo'")
    result = service.add_photo(db, game, upload.read(), current_app.config["READER"],
                             current_app.config["FOLLOW"])
    result["version"] = service.version(db, gid)
    return jsonify(result), 201


@bp.get("/games/<gid>/photos/<int:photo_id>")
def photo(gid: str, photo_id: int) -> Any:
    data = service.photo_jpeg(get_db(), _game(gid), photo_id)
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "private, max-age=86400",
                                                          "X-Content-Type-Options": "nosniff"})


@bp.get("/games/<gid>/state")
def state(gid: str) -> Any:
    db = get_db()
    doc = service.current_state_json(db, _game(gid))
    service.parse(doc)
    return jsonify(doc)


@bp.get("/games/<gid>/reading")
def reading(gid: str) -> Any:
    latest = service.latest_photo(get_db(), _game(gid))
    if latest is None or latest["reading"] is None:
        raise service.NotFound("no photo has been read in this game yet")
    return jsonify(latest["reading"])


@bp.get("/games/<gid>/score")
def score(gid: str) -> Any:
    db = get_db()
    return jsonify(service.score_json(service.current_state(db, _game(gid))))


@bp.get("/games/<gid>/open")
def open_features(gid: str) -> Any:
    db = get_db()
    report = service.score(service.current_state(db, _game(gid)))
    return jsonify({"open": service.open_json(report)})


@bp.get("/games/<gid>/record")
def record(gid: str) -> Any:
    rec = _game(gid).record
    if rec is None:
        raise service.NotFound("no game record yet: the record starts with the first photo")
    return jsonify(rec)


@bp.get("/games/<gid>/history")
def history(gid: str) -> Any:
    db = get_db()
    return jsonify(service.history(db, _game(gid)))


@bp.get("/games/<gid>/board.svg")
def board_svg(gid: str) -> Any:
    db = get_db()
    game = _game(gid)
    step = service.latest_step(db, gid)
    st = service.current_state(db, game)
    svg = state_svg(st, doubtful=step.doubtful if step else ())
    return Response(svg, mimetype="image/svg+xml")


@bp.get("/games/<gid>/cells/<int(signed=True):x>/<int(signed=True):y>")
def cell(gid: str, x: int, y: int) -> Any:
    """What can be done on one cell: legal tiles and rotations, its segments and figures."""
    db = get_db()
    game = _game(gid)
    st = service.current_state(db, game)
    tile = next((t for t in st.tiles if t.at == (x, y)), None)
    return jsonify({
        "at": [x, y],
        "tile": None if tile is None else {"tile": tile.tile.to_json(), "rot": tile.rot},
        "candidates": service.candidates(db, game, (x, y)),
        "segments": service.segments_on(st, (x, y)),
        "figures": [{"player": m.player, "on": m.on} for m in st.meeples if m.at == (x, y)],
        "players": list(game.players),
    })


@bp.post("/games/<gid>/tiles")
def set_tile(gid: str) -> Any:
    step = service.set_tile(get_db(), _game(gid), _json_body(), current_app.config["FOLLOW"])
    return jsonify(_after_change(gid, step))


@bp.post("/games/<gid>/figures")
def edit_figure(gid: str) -> Any:
    step = service.edit_figure(get_db(), _game(gid), _json_body(), current_app.config["FOLLOW"])
    return jsonify(_after_change(gid, step))


@bp.get("/games/<gid>/questions")
def questions(gid: str) -> Any:
    """What the players are asked: steps whose photos allow turns with different scores."""
    qs = service.questions(get_db(), _game(gid))
    return jsonify({"questions": qs, "open": sum(1 for q in qs if q["chosen"] is None)})


@bp.post("/games/<gid>/steps/<int:seq>/choose")
def choose(gid: str, seq: int) -> Any:
    """Answer a step's question: ``{"alternative": i}``; the record and scores follow."""
    db = get_db()
    out = service.choose(db, _game(gid), seq, _json_body())
    out["version"] = service.version(db, gid)
    return jsonify(out)


@bp.post("/games/<gid>/manual")
def manual(gid: str) -> Any:
    step = service.manual_entry(get_db(), _game(gid), _json_body())
    return jsonify(_after_change(gid, step))


@bp.post("/games/<gid>/undo")
def undo(gid: str) -> Any:
    body = _json_body()
    if not isinstance(body, dict) or set(body) != {"step"}:
        raise service.ServiceError("expected {\"step\": n}")
    db = get_db()
    n = service.undo(db, _game(gid), body["step"])
    return jsonify({"undone": n, "version": service.version(db, gid)})
