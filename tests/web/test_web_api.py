"""The JSON API with Flask's test client: every route, and every error is a clear 4xx."""

from __future__ import annotations

import cv2
import numpy as np
from flask.testing import FlaskClient
from web_helpers import BOARD, FakeReader, as_reading, board_state, make_jpeg, misread, new_game, token, upload

from scorer import parse_game, parse_state


def test_create_game_returns_unguessable_id(client: FlaskClient) -> None:
    a, b = new_game(client), new_game(client)
    assert a != b and len(a) >= 20
    summary = client.get(f"/api/games/{a}").json
    assert summary["players"] == ["red", "blue"] and summary["steps"] == 0


def test_create_game_errors(client: FlaskClient) -> None:
    cases = [
        ({"game": "chess"}, "unknown game"),
        ({"players": ["pink"]}, "not a colour"),
        ({"players": ["red", "red"]}, "twice"),
        ({"players": ["red"], "expansions": ["dragons"]}, "unknown expansion"),
        ({"players": ["red"], "options": {"tiny_city": "yes"}}, "tiny_city"),
        ({"players": ["red"], "colour": "x"}, "unknown key"),
        ({"game": "castle", "players": ["red", "blue"]}, "not a colour"),
        ({"game": "castle", "players": ["black", "white"], "expansions": ["tower"]}, "no expansions"),
        ([1, 2], "JSON object"),
    ]
    for body, words in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert words in r.json["error"], (body, r.json)
    r = client.post("/api/games", data="{bad", content_type="application/json")
    assert r.status_code == 400 and "JSON" in r.json["error"]


def test_castle_game_can_be_created(client: FlaskClient) -> None:
    gid = new_game(client, game="castle", players=["black", "white"])
    assert client.get(f"/api/games/{gid}").json["game"] == "castle"
    assert client.get(f"/games/{gid}").status_code == 200


def test_upload_reads_and_scores(client: FlaskClient, reader: FakeReader, jpeg: bytes) -> None:
    gid = new_game(client)
    r = upload(client, gid, jpeg)
    assert r.status_code == 201, r.json
    body = r.json
    assert body["reading"]["format"] == "carcam/reading@1"
    assert body["score"]["format"] == "carcam/score@1"
    assert body["score"]["final"] == {"red": 3, "blue": 4}
    assert [2, 0] in body["doubtful"]
    assert reader.calls[0]["players"] == ("red", "blue") and reader.calls[0]["game"] == "base"
    state = client.get(f"/api/games/{gid}/state").json
    assert parse_state(state).tiles and state["format"] == "carcam/state@1"
    score = client.get(f"/api/games/{gid}/score").json
    assert score == body["score"]
    assert client.get(f"/api/games/{gid}/reading").json["warnings"] == ["tile at [2, 0] is hard to see"]
    photo = client.get(f"/api/games/{gid}/photos/{body['photo']}")
    assert photo.mimetype == "image/jpeg" and photo.data[:3] == b"\xff\xd8\xff"
    image = cv2.imdecode(np.frombuffer(photo.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (360, 480)
    svg = client.get(f"/api/games/{gid}/board.svg")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data


def test_record_history_and_open(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 404 and "first photo" in r.json["error"]
    upload(client, gid, jpeg)
    opened = client.get(f"/api/games/{gid}/open").json["open"]
    road = next(o for o in opened if o["kind"] == "road" and o["owners"] == ["red"])
    assert road["points_now"] == 3 and road["points_if_completed"] == 3 and "road" in road["why"]
    hist = client.get(f"/api/games/{gid}/history").json
    assert hist["steps"][0]["totals"] == {"red": 3, "blue": 4}


def test_record_after_follow(tmp_path, jpeg: bytes) -> None:
    """With the follow hook on, the first photo starts a carcam/game@1 record."""
    import pytest
    pytest.importorskip("scorer.follow")
    from web import create_app
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "READER": FakeReader(), "SECRET_KEY": "k"})
    client = app.test_client()
    gid = new_game(client)
    assert upload(client, gid, jpeg).status_code == 201
    record = client.get(f"/api/games/{gid}/record").json
    assert parse_game(record).players == ("red", "blue")


def test_upload_errors_are_clear_4xx(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    csrf = token(client)
    r = upload(client, gid, b"hello, I am a text file", "notes.txt", csrf)
    assert r.status_code == 415 and "not a photo" in r.json["error"]
    r = upload(client, gid, jpeg[: len(jpeg) * 2 // 3], "cut.jpg", csrf)
    assert r.status_code == 400 and "truncated" in r.json["error"]
    ok, png = cv2.imencode(".png", np.zeros((20, 20, 3), np.uint8))
    r = upload(client, gid, png.tobytes()[:-20], "cut.png", csrf)
    assert r.status_code == 400 and "truncated" in r.json["error"]
    r = upload(client, gid, b"", "empty.jpg", csrf)
    assert r.status_code == 400 and "empty" in r.json["error"]
    r = upload(client, gid, b"\xff\xd8\xff\xe0" + b"\x00" * 50, "bad.jpg", csrf)
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/photos", data={}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and "photo" in r.json["error"]
    assert client.get(f"/api/games/{gid}/history").json["steps"] == []


def test_oversized_upload_is_json_413(app, client: FlaskClient) -> None:
    gid = new_game(client)
    big = make_jpeg() + b"\x00" * (20 * 1024 * 1024)
    r = upload(client, gid, big)
    assert r.status_code == 413
    assert "too large" in r.json["error"] and "20 MB" in r.json["error"]


def test_upload_needs_csrf_header(client: FlaskClient, jpeg: bytes) -> None:
    import io
    gid = new_game(client)
    r = client.post(f"/api/games/{gid}/photos", data={"photo": (io.BytesIO(jpeg), "p.jpg")})
    assert r.status_code == 400 and "CSRF" in r.json["error"]
    r = upload(client, gid, jpeg, csrf="forged")
    assert r.status_code == 400 and "CSRF" in r.json["error"]


def test_unknown_game_and_photo(client: FlaskClient, jpeg: bytes) -> None:
    for path in ("", "/state", "/score", "/record", "/open", "/history", "/version", "/board.svg",
                 "/reading", "/cells/0/0", "/photos/1"):
        r = client.get(f"/api/games/nope{path}")
        assert r.status_code == 404, path
        assert "no such game" in r.json["error"]
    assert upload(client, "nope", jpeg).status_code == 404
    assert client.post("/api/games/nope/tiles", json={"at": [0, 0], "remove": True}).status_code == 404
    gid = new_game(client)
    assert client.get(f"/api/games/{gid}/photos/99").status_code == 404
    assert client.get(f"/api/games/{gid}/reading").status_code == 404
    assert client.get("/api/nothing-here").json["error"] == "not found"
    assert client.get(f"/api/games/{'x' * 500}").status_code == 404


def test_version_and_etag(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    r = client.get(f"/api/games/{gid}/version")
    v, etag = r.json["version"], r.headers["ETag"]
    assert client.get(f"/api/games/{gid}/version", headers={"If-None-Match": etag}).status_code == 304
    upload(client, gid, jpeg)
    assert client.get(f"/api/games/{gid}/version").json["version"] > v


def test_tile_correction_changes_score(client: FlaskClient, reader: FakeReader, jpeg: bytes) -> None:
    gid = new_game(client)
    reader.readings.append(misread())
    before = upload(client, gid, jpeg).json["score"]["final"]
    cell = client.get(f"/api/games/{gid}/cells/2/0").json
    assert {"tile": "V", "rot": 0} in [{"tile": c["tile"], "rot": c["rot"]} for c in cell["candidates"]]
    assert not any(c["tile"] == "V" and c["rot"] == 270 for c in cell["candidates"])
    assert all("<svg" in c["svg"] for c in cell["candidates"])
    r = client.post(f"/api/games/{gid}/tiles", json={"at": [2, 0], "tile": "V", "rot": 0})
    assert r.status_code == 200, r.json
    after = r.json["score"]["final"]
    assert before["red"] == 5 and after["red"] == 3
    step = client.get(f"/api/games/{gid}/history").json["steps"][-1]
    assert step["kind"] == "tile" and "V rot 0" in step["note"]


def test_tile_put_and_remove(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    upload(client, gid, jpeg)
    r = client.post(f"/api/games/{gid}/tiles", json={"at": [1, 0], "remove": True})
    assert r.status_code == 200 and "1 figure" in r.json["note"]
    assert not any(t["at"] == [1, 0] for t in r.json["state"]["tiles"])
    r = client.post(f"/api/games/{gid}/tiles", json={"at": [1, 0], "tile": "U", "rot": 0})
    assert r.status_code == 200


def test_malformed_corrections_are_400(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    upload(client, gid, jpeg)
    bad_tiles = [
        ({"at": [0, 0]}, "tile and rot"),
        ({"at": "0,0", "tile": "D", "rot": 0}, "pair of whole numbers"),
        ({"at": [0, 0], "tile": "ZZ", "rot": 0}, "unknown tile id"),
        ({"at": [0, 0], "tile": "D", "rot": 45}, "not 0, 90"),
        ({"at": [5, 5], "remove": True}, "no tile"),
        ({"at": [0, 0], "tile": "D", "rot": 0, "colour": 1}, "unknown key"),
        ({"tile": "D"}, "at: missing"),
        ([], "JSON object"),
    ]
    for body, words in bad_tiles:
        r = client.post(f"/api/games/{gid}/tiles", json=body)
        assert r.status_code == 400, body
        assert words in r.json["error"], (body, r.json)
    bad_figures = [
        ({"action": "fly", "player": "red", "at": [0, 0], "on": "S"}, "not add"),
        ({"action": "add", "player": "pink", "at": [0, 0], "on": "S"}, "not in this game"),
        ({"action": "add", "player": "red", "at": [0, 0], "on": "Q"}, "unknown slot"),
        ({"action": "add", "player": "red", "at": [9, 9], "on": "S"}, "no tile"),
        ({"action": "remove", "player": "blue", "at": [0, 0], "on": "S"}, "there is no"),
        ({"action": "move", "player": "red", "at": [0, 0], "on": "S", "to": 3}, "to:"),
    ]
    for body, words in bad_figures:
        r = client.post(f"/api/games/{gid}/figures", json=body)
        assert r.status_code == 400, body
        assert words in r.json["error"], (body, r.json)
    r = client.post(f"/api/games/{gid}/tiles", data="at=1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400 and "CSRF" in r.json["error"]
    r = client.post(f"/api/games/{gid}/tiles", data="{", content_type="application/json")
    assert r.status_code == 400 and "JSON" in r.json["error"]


def test_figures_add_move_remove(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    upload(client, gid, jpeg)
    r = client.post(f"/api/games/{gid}/figures", json={"action": "add", "player": "blue", "at": [2, 0], "on": "S"})
    assert r.status_code == 200 and r.json["score"]["final"]["blue"] == 7
    r = client.post(f"/api/games/{gid}/figures", json={"action": "move", "player": "blue", "at": [2, 0], "on": "S",
                                                       "to": {"at": [2, 0], "on": "Ne"}})
    assert r.status_code == 200, r.json
    r = client.post(f"/api/games/{gid}/figures", json={"action": "remove", "player": "blue", "at": [2, 0], "on": "Ne"})
    assert r.status_code == 200


def test_manual_entries_and_undo(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    upload(client, gid, jpeg)
    r = client.post(f"/api/games/{gid}/manual", json={"scores": {"red": 10, "blue": 4}})
    assert r.status_code == 200 and r.json["score"]["final"] == {"red": 13, "blue": 8}
    r = client.post(f"/api/games/{gid}/manual", json={"scores": {"red": -1}})
    assert r.status_code == 400 and ">= 0" in r.json["error"]
    r = client.post(f"/api/games/{gid}/manual", json={"bazaar": []})
    assert r.status_code == 400 and "Bazaars" in r.json["error"]
    r = client.post(f"/api/games/{gid}/manual", json={"prisoners": {"red": ["blue"]}})
    assert r.status_code == 400 and "tower" in r.json["error"]
    r = client.post(f"/api/games/{gid}/manual", json={"wall_tiles": {}})
    assert r.status_code == 400 and "Castle" in r.json["error"]
    assert client.post(f"/api/games/{gid}/manual", json={}).status_code == 400
    steps = client.get(f"/api/games/{gid}/history").json["steps"]
    assert [s["kind"] for s in steps] == ["photo", "manual"]
    r = client.post(f"/api/games/{gid}/undo", json={"step": steps[-1]["step"]})
    assert r.status_code == 200 and r.json["undone"] == 1
    assert client.get(f"/api/games/{gid}/score").json["final"] == {"red": 3, "blue": 4}
    assert client.post(f"/api/games/{gid}/undo", json={"step": 99}).status_code == 404
    assert client.post(f"/api/games/{gid}/undo", json={"step": "one"}).status_code == 400
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 400


def test_tower_and_bazaar_entries(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client, expansions=["tower", "bcb"])
    upload(client, gid, jpeg)
    client.post(f"/api/games/{gid}/manual", json={"scores": {"red": 10, "blue": 10}})
    r = client.post(f"/api/games/{gid}/manual", json={"prisoners": {"red": ["blue"]}})
    assert r.status_code == 200, r.json
    r = client.post(f"/api/games/{gid}/manual", json={"ransom": {"payer": "blue", "to": "red"}})
    assert r.status_code == 200, r.json
    state = client.get(f"/api/games/{gid}/state").json
    assert state["scores"] == {"red": 13, "blue": 7} and state["prisoners"] == {"red": []}
    r = client.post(f"/api/games/{gid}/manual", json={"ransom": {"payer": "blue", "to": "red"}})
    assert r.status_code == 400 and "holds no follower" in r.json["error"]
    r = client.post(f"/api/games/{gid}/manual", json={"bazaar": [{"buyer": "red", "points": 4, "paid_to": "blue"}]})
    assert r.status_code == 200
    assert client.get(f"/api/games/{gid}/state").json["scores"] == {"red": 9, "blue": 11}
    r = client.post(f"/api/games/{gid}/manual", json={"bazaar": [{"buyer": "red", "points": 40}]})
    assert r.status_code == 400 and "only 9 points" in r.json["error"]


def test_track_survives_next_photo(client: FlaskClient, jpeg: bytes) -> None:
    gid = new_game(client)
    upload(client, gid, jpeg)
    client.post(f"/api/games/{gid}/manual", json={"scores": {"red": 12}})
    r = upload(client, gid, make_jpeg(seed=2))
    assert r.json["state"]["scores"]["red"] == 12


def test_reader_failures(app, client: FlaskClient, jpeg: bytes) -> None:
    from scorer import CarcamError

    class Broken:
        def read(self, *_a, **_k):
            raise CarcamError("no board found")

    gid = new_game(client)
    app.config["READER"] = Broken()
    r = upload(client, gid, jpeg)
    assert r.status_code == 422 and "no board found" in r.json["error"]
    foreign = as_reading(board_state({**BOARD, "players": ["red", "blue", "green"],
                                      "meeples": BOARD["meeples"] + [{"player": "green", "at": [2, 0], "on": "S"}]}))
    fake = FakeReader()
    fake.readings.append(foreign)
    app.config["READER"] = fake
    r = upload(client, gid, jpeg)
    assert r.status_code == 201 and any("green" in w for w in r.json["warnings"])


def test_missing_reader_is_503(app, client: FlaskClient, jpeg: bytes, monkeypatch) -> None:
    import sys
    app.config["READER"] = None
    monkeypatch.setitem(sys.modules, "vision.reader", None)
    gid = new_game(client)
    r = upload(client, gid, jpeg)
    assert r.status_code == 503 and "reader" in r.json["error"]
