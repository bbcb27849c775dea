"""HTML pages and form posts (with the session's CSRF token), the SVG renderer and the CLI."""

from __future__ import annotations

import io
import re

from flask.testing import FlaskClient
from web_helpers import board_state, make_jpeg, new_game, upload

from web.render_svg import state_svg, tile_svg


def _csrf(html: bytes) -> str:
    m = re.search(rb'name="csrf_token" value="([^"]+)"', html)
    assert m
    return m.group(1).decode()


def test_index_and_new_game_form(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"New game" in page.data and b"tiny_city" in page.data
    tok = _csrf(page.data)
    r = client.post("/games", data={"csrf_token": tok, "game": "base", "player_blue": "1", "player_red": "1",
                                    "order": "blue,red", "exp_tower": "1", "opt_tiny_city": "1"})
    assert r.status_code == 303
    gid = r.headers["Location"].rsplit("/", 1)[-1]
    summary = client.get(f"/api/games/{gid}").json
    assert summary["players"] == ["blue", "red"] and summary["expansions"] == ["tower"]
    assert summary["options"] == {"tiny_city": True}
    assert gid.encode() in client.get("/").data  # listed under "your games"
    r = client.post("/games", data={"csrf_token": tok, "game": "castle", "castle_player_black": "1",
                                    "castle_player_white": "1"})
    assert r.status_code == 303


def test_form_post_without_csrf_is_refused(client: FlaskClient) -> None:
    r = client.post("/games", data={"game": "base", "player_red": "1"})
    assert r.status_code == 400 and b"CSRF" in r.data and b"reload the page" in r.data
    r = client.post("/games", data={"game": "base", "player_red": "1", "csrf_token": "guess"})
    assert r.status_code == 400


def test_new_game_form_errors_are_pages(client: FlaskClient) -> None:
    tok = _csrf(client.get("/").data)
    r = client.post("/games", data={"csrf_token": tok, "game": "base"})
    assert r.status_code == 400 and b"at least one player" in r.data


def test_game_page_shows_everything(client: FlaskClient) -> None:
    gid = new_game(client)
    empty = client.get(f"/games/{gid}")
    assert empty.status_code == 200 and b'capture="environment"' in empty.data and b'accept="image/*"' in empty.data
    upload(client, gid, make_jpeg())
    page = client.get(f"/games/{gid}").data
    for words in (b"Open features", b"Final tally", b"Score-track positions", b"History", b"<svg",
                  b"completed city: 2 tiles x 2", b"class=\"cell tile doubtful\"", b"Check cell [2, 0]"):
        assert words in page, words
    partial = client.get(f"/games/{gid}?partial=1").data
    assert b"<html" not in partial and b"Open features" in partial
    assert client.get("/games/unknown").status_code == 404
    assert b"Not found" in client.get("/games/unknown").data


def test_form_upload_manual_and_undo(client: FlaskClient) -> None:
    gid = new_game(client)
    tok = _csrf(client.get(f"/games/{gid}").data)
    r = client.post(f"/games/{gid}/photos", data={"csrf_token": tok, "photo": (io.BytesIO(make_jpeg()), "p.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    r = client.post(f"/games/{gid}/photos", data={"csrf_token": tok, "photo": (io.BytesIO(b"text"), "p.txt")},
                    content_type="multipart/form-data")
    assert r.status_code == 415 and b"not a photo" in r.data
    r = client.post(f"/games/{gid}/manual", data={"csrf_token": tok, "what": "scores", "score_red": "7"})
    assert r.status_code == 303
    assert client.get(f"/api/games/{gid}/state").json["scores"]["red"] == 7
    r = client.post(f"/games/{gid}/manual", data={"csrf_token": tok, "what": "scores", "score_red": "x"})
    assert r.status_code == 400
    r = client.post(f"/games/{gid}/manual", data={"csrf_token": tok, "what": "nonsense"})
    assert r.status_code == 400
    r = client.post(f"/games/{gid}/undo", data={"csrf_token": tok, "step": "2"})
    assert r.status_code == 303
    assert client.get(f"/api/games/{gid}/state").json.get("scores", {}).get("red", 0) == 0
    assert client.post(f"/games/{gid}/undo", data={"csrf_token": tok, "step": "x"}).status_code == 400


def test_big_form_upload_is_413(client: FlaskClient) -> None:
    gid = new_game(client)
    tok = _csrf(client.get(f"/games/{gid}").data)
    r = client.post(f"/games/{gid}/photos", data={"csrf_token": tok,
                                                  "photo": (io.BytesIO(b"\xff" * (21 * 1024 * 1024)), "p.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 413 and "too large" in r.json["error"]


def test_state_svg_is_pure_and_complete() -> None:
    state = board_state()
    svg = state_svg(state, doubtful=[(2, 0)])
    assert svg == state_svg(state, doubtful=[(2, 0)])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="cell tile') == 4 and svg.count('class="figure') == 3
    assert 'data-x="2" data-y="0"' in svg and "doubtful" in svg
    assert "#d9b27c" in svg and "#7cb85a" in svg  # city tan, field green
    assert 'class="cell empty"' in svg  # the frontier, to add a missed tile
    assert "<svg" in tile_svg(state.tiles[0].tile, 90)
    assert state_svg(board_state({**_empty()})).startswith("<svg")


def _empty() -> dict:
    return {"format": "carcam/state@1", "game": "base", "players": ["red"], "tiles": [], "meeples": []}


def test_cli_registers_serve() -> None:
    import argparse

    from cli.web_commands import register
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "5123", "--data", "/tmp/x", "--demo"])
    assert args.port == 5123 and args.demo and args.host == "127.0.0.1"


def test_demo_loads_sample(tmp_path, app) -> None:
    import json

    from web_helpers import BOARD

    from web import service
    from web.db import connect
    folder = tmp_path / "samples" / "base-midgame"
    folder.mkdir(parents=True)
    (folder / "photo.jpg").write_bytes(make_jpeg())
    (folder / "truth.json").write_text(json.dumps(BOARD))
    db = connect(app.config["DATABASE"])
    try:
        gid = service.load_demo(db, str(tmp_path / "samples"), app.config["READER"], follow=False)
        assert service.latest_step(db, gid) is not None
    finally:
        db.close()
