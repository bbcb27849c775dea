"""The game page follows the game with ``scorer.follow``: questions when the photos allow turns
with different scores, answers that replace the record, corrections that feed the record."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import FakeReader, as_reading, make_app, make_jpeg, new_game, token, upload

from scorer import Reading, parse_game, parse_state
from web import create_app

pytest.importorskip("scorer.follow")

Tile = tuple[tuple[int, int], str, int]
#: The start tile D with a crossroads W west of it: the road D-W is open to the east.
OPENING: list[Tile] = [((0, 0), "D", 0), ((-1, 0), "W", 0)]
#: Red's W east of D closes the road W-D-W (3 tiles): no photo shows whether red put a
#: follower on it (it scored 3 and went home in the same turn).
CLOSED: list[Tile] = [*OPENING, ((1, 0), "W", 0)]


def reading(tiles: Sequence[Tile], meeples: Sequence[dict[str, Any]] = (), low: tuple[tuple[int, int], ...] = ()) -> Reading:
    doc = {"format": "carcam/state@1", "game": "base", "expansions": [], "options": {}, "players": ["red", "blue"],
           "tiles": [{"at": list(a), "tile": t, "rot": r} for a, t, r in tiles], "meeples": list(meeples)}
    return as_reading(parse_state(doc), low=low)


@pytest.fixture
def follow_app(tmp_path: Path, reader: FakeReader) -> Flask:
    return make_app(str(tmp_path / "data"), reader, follow=True)


@pytest.fixture
def fc(follow_app: Flask) -> FlaskClient:
    return follow_app.test_client()


def photos(client: FlaskClient, reader: FakeReader, *boards: Reading) -> str:
    """A new game with one uploaded photo per board."""
    gid = new_game(client)
    reader.readings += boards
    for _ in boards:
        r = upload(client, gid, make_jpeg())
        assert r.status_code == 201, r.json
    return gid


def final(client: FlaskClient, gid: str) -> dict[str, int]:
    return dict(client.get(f"/api/games/{gid}/score").json["final"])


def turns(client: FlaskClient, gid: str) -> list[tuple[str, str, list[int], Any]]:
    rec = client.get(f"/api/games/{gid}/record").json
    return [(t["player"], t["tile"], t["at"], t.get("meeple")) for t in rec["turns"]]


def test_ambiguous_step_asks_and_the_answer_changes_the_scores(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED))
    body = fc.get(f"/api/games/{gid}/questions").json
    assert body["open"] == 1
    (q,) = body["questions"]
    assert q["step"] == 2 and q["question"] == "Which happened?" and q["chosen"] is None
    summaries = [a["summary"] for a in q["alternatives"]]
    assert summaries == ["no follower was put on the closed road: no points",
                         "red put a follower on the road they just closed: red +3"]
    assert q["alternatives"][1]["points"] == {"red": 3} and q["alternatives"][1]["hidden_followers"] == 1
    # the game page asks it, one button per alternative
    page = fc.get(f"/games/{gid}").get_data(as_text=True)
    assert "Which happened?" in page and "red put a follower on the road they just closed: red +3" in page
    assert 'data-choose="2" data-alternative="1"' in page
    # until answered, the first alternative counts
    assert final(fc, gid) == {"red": 0, "blue": 0}
    version = fc.get(f"/api/games/{gid}/version").json["version"]
    r = fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 1})
    assert r.status_code == 200, r.json
    assert r.json["track"] == {"red": 3, "blue": 0} and r.json["version"] > version
    assert final(fc, gid) == {"red": 3, "blue": 0}
    assert turns(fc, gid)[-1] == ("red", "W", [1, 0], {"on": "W"})
    assert fc.get(f"/api/games/{gid}/questions").json["open"] == 0
    # the score history shows the inferred turn with its points; the page no longer asks
    step2 = fc.get(f"/api/games/{gid}/history").json["steps"][1]
    assert step2["turns"][0]["player"] == "red" and step2["turns"][0]["tile"] == "W"
    assert step2["turns"][0]["points"] == {"red": 3} and step2["question"] == {"chosen": 1, "alternatives": 2}
    assert step2["totals"] == {"red": 3, "blue": 0}
    page = fc.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="questions"' not in page and "Answered: red put a follower" in page
    # answering again the other way goes back
    assert fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 0}).status_code == 200
    assert final(fc, gid) == {"red": 0, "blue": 0}


def test_answer_carries_to_later_photos_and_undo_still_works(fc: FlaskClient, reader: FakeReader) -> None:
    later = [*CLOSED, ((0, 1), "A", 0)]  # blue's monastery south of D, with its monk
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED),
                 reading(later, [{"player": "blue", "at": [0, 1], "on": "C"}]))
    assert final(fc, gid)["red"] == 0
    r = fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 1})
    assert r.status_code == 200 and r.json["track"]["red"] == 3
    hist = fc.get(f"/api/games/{gid}/history").json["steps"]
    assert [s["track"]["red"] for s in hist] == [0, 3, 3]
    assert hist[2]["turns"][0]["player"] == "blue" and hist[2]["turns"][0]["follower"] == "monastery"
    assert turns(fc, gid)[-2:] == [("red", "W", [1, 0], {"on": "W"}), ("blue", "A", [0, 1], {"on": "C"})]
    # undo the last photo: the answer stays; undo the asking photo: the question goes
    assert fc.post(f"/api/games/{gid}/undo", json={"step": 3}).json["undone"] == 1
    assert final(fc, gid)["red"] == 3 and len(turns(fc, gid)) == 2
    assert fc.post(f"/api/games/{gid}/undo", json={"step": 2}).json["undone"] == 1
    assert fc.get(f"/api/games/{gid}/questions").json == {"questions": [], "open": 0}
    assert len(turns(fc, gid)) == 1


def test_bad_choices_are_clear_4xx(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED))
    cases: list[tuple[int, Any, int, str]] = [
        (2, {"alternative": 2}, 400, "alternatives 0 to 1"),
        (2, {"alternative": -1}, 400, "alternatives 0 to 1"),
        (2, {"alternative": "1"}, 400, "whole number"),
        (2, {"alternative": True}, 400, "whole number"),
        (2, {"choice": 1}, 400, '{"alternative": i}'),
        (2, [1], 400, '{"alternative": i}'),
        (1, {"alternative": 0}, 404, "asks no question"),
        (9, {"alternative": 0}, 404, "no such step"),
    ]
    for seq, body, status, words in cases:
        r = fc.post(f"/api/games/{gid}/steps/{seq}/choose", json=body)
        assert r.status_code == status and words in r.json["error"], (seq, body, r.json)
    r = fc.post(f"/api/games/{gid}/steps/2/choose", data="{bad", content_type="application/json")
    assert r.status_code == 400 and "JSON" in r.json["error"]
    assert fc.post(f"/api/games/{gid}/steps/x/choose", json={"alternative": 0}).status_code == 404
    assert fc.post("/api/games/nope/steps/2/choose", json={"alternative": 0}).status_code == 404
    assert fc.get("/api/games/nope/questions").status_code == 404
    assert final(fc, gid) == {"red": 0, "blue": 0}


def test_answer_from_the_page_form(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED))
    r = fc.post(f"/games/{gid}/steps/2/choose", data={"alternative": "1", "csrf_token": token(fc)})
    assert r.status_code == 303
    assert final(fc, gid) == {"red": 3, "blue": 0}
    r = fc.post(f"/games/{gid}/steps/2/choose", data={"alternative": "x", "csrf_token": token(fc)})
    assert r.status_code == 400


def test_tile_correction_survives_the_next_photo(fc: FlaskClient, reader: FakeReader) -> None:
    # the reader sees U (a straight road) east of D, surely, but it is V (a curve)
    misread = [*OPENING, ((1, 0), "U", 0)]
    gid = photos(fc, reader, reading(OPENING), reading(misread))
    assert turns(fc, gid)[-1][1:3] == ("U", [1, 0])
    r = fc.post(f"/api/games/{gid}/tiles", json={"at": [1, 0], "tile": "V", "rot": 0})
    assert r.status_code == 200 and "followed again" in r.json["note"]
    assert turns(fc, gid)[-1][1:3] == ("V", [1, 0])
    # the next photo reads U again (and a new tile): the correction stands, in board and record
    reader.readings.append(reading([*misread, ((0, 1), "A", 0)]))
    body = upload(fc, gid, make_jpeg()).json
    assert {"at": [1, 0], "tile": "V", "rot": 0} in body["state"]["tiles"]
    assert any("kept V" in w for w in body["warnings"])
    assert [t[1:3] for t in turns(fc, gid)] == [("W", [-1, 0]), ("V", [1, 0]), ("A", [0, 1])]


def test_correcting_a_tile_of_an_earlier_photo_rewrites_its_turn(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading([*OPENING, ((1, 0), "U", 0)]),
                 reading([*OPENING, ((1, 0), "U", 0), ((0, 1), "A", 0)]))
    r = fc.post(f"/api/games/{gid}/tiles", json={"at": [1, 0], "tile": "V", "rot": 0})
    assert r.status_code == 200
    assert [t[1:3] for t in turns(fc, gid)] == [("W", [-1, 0]), ("V", [1, 0]), ("A", [0, 1])]


def test_figure_correction_amends_the_turn_that_laid_the_tile(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading([*OPENING, ((1, 0), "V", 0)]),
                 reading([*OPENING, ((1, 0), "V", 0), ((0, 1), "A", 0)]))
    who = turns(fc, gid)[1][0]
    # the reader missed a thief on the curve laid two photos ago
    r = fc.post(f"/api/games/{gid}/figures", json={"action": "add", "player": who, "at": [1, 0], "on": "W"})
    assert r.status_code == 200
    assert turns(fc, gid)[1] == (who, "V", [1, 0], {"on": "W"})
    # and a later photo that shows it does not call it unexplained
    reader.readings.append(reading([*OPENING, ((1, 0), "V", 0), ((0, 1), "A", 0), ((1, 1), "V", 90)],
                                   [{"player": who, "at": [1, 0], "on": "W"}]))
    body = upload(fc, gid, make_jpeg()).json
    assert not [w for w in body["warnings"] if "not explained" in w or "not there before" in w], body["warnings"]
    assert {"player": who, "at": [1, 0], "on": "W"} in body["state"]["meeples"]


def test_correction_asks_again_and_keeps_the_answer(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED))
    assert fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 1}).status_code == 200
    # a correction that keeps the closing tile re-follows step 2: same question, same answer
    r = fc.post(f"/api/games/{gid}/tiles", json={"at": [1, 0], "tile": "W", "rot": 0})
    assert r.status_code == 200
    (q,) = fc.get(f"/api/games/{gid}/questions").json["questions"]
    assert q["step"] == 3 and q["chosen"] == 1
    assert final(fc, gid) == {"red": 3, "blue": 0}
    r = fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 0})
    assert r.status_code == 409 and "step 3" in r.json["error"]
    assert fc.post(f"/api/games/{gid}/steps/3/choose", json={"alternative": 0}).status_code == 200
    assert final(fc, gid) == {"red": 0, "blue": 0}


def test_old_database_gets_the_follow_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE steps (id INTEGER PRIMARY KEY, game_id TEXT, seq INTEGER, kind TEXT, note TEXT, "
                     "photo_id INTEGER, state TEXT, doubtful TEXT, record_before TEXT, totals TEXT, track TEXT, "
                     "undone INTEGER NOT NULL DEFAULT 0, created TEXT);")
    db.close()
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k", "READER": FakeReader()})
    client = app.test_client()
    assert client.get("/").status_code == 200
    cols = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(steps)")]
    assert "follow" in cols


def test_record_replays(fc: FlaskClient, reader: FakeReader) -> None:
    gid = photos(fc, reader, reading(OPENING), reading(CLOSED))
    fc.post(f"/api/games/{gid}/steps/2/choose", json={"alternative": 1})
    assert parse_game(fc.get(f"/api/games/{gid}/record").json).turns[-1].meeple == "W"


class EvidenceReader(FakeReader):
    """A reader that, like ``vision.reader.BoardReader``, also gives its per-cell evidence."""

    def __init__(self) -> None:
        super().__init__()
        self.evidence: list[dict[tuple[int, int], dict[tuple[str, int], float]]] = []

    def read_detail(self, image_bytes: bytes, **kw: Any) -> Any:
        from types import SimpleNamespace
        return SimpleNamespace(reading=self.read(image_bytes, **kw), evidence=self.evidence.pop(0))


def _evidence(tiles: Sequence[Tile], like: dict[tuple[int, int], tuple[str, int]]) -> dict[Any, Any]:
    """Every base tile at every rotation scored low on each cell; ``like`` ranks one tile first."""
    from scorer.catalog import load_catalog
    cat = load_catalog()
    flat = {(tid, r): -30.0 - 0.01 * k for k, (tid, r) in
            enumerate((tid, r) for tid in sorted(cat.box("base", ())) for r in (0, 90, 180, 270))}
    out = {}
    for at, t, r in tiles:
        best = like.get(at, (t, r))
        out[at] = {**flat, best: -10.0}
    return out


def test_an_upload_follows_the_readers_evidence_not_its_free_reading(tmp_path: Path) -> None:
    """The reader decoded the new tile as a curve (legal there), but its evidence for that cell
    clearly prefers the crossroads: the game record takes the crossroads."""
    reader = EvidenceReader()
    app = make_app(str(tmp_path / "data"), reader, follow=True)
    client = app.test_client()
    misread = [*OPENING, ((1, 0), "V", 0)]
    reader.evidence += [_evidence(OPENING, {}), _evidence(misread, {(1, 0): ("W", 0)})]
    gid = photos(client, reader, reading(OPENING), reading(misread))
    assert turns(client, gid)[-1][1:3] == ("W", [1, 0])
    # without evidence the same upload takes the reading as it is
    plain = FakeReader()
    client = make_app(str(tmp_path / "data2"), plain, follow=True).test_client()
    gid = photos(client, plain, reading(OPENING), reading(misread))
    assert turns(client, gid)[-1][1:3] == ("V", [1, 0])


def test_evidence_summed_over_uploads_corrects_an_early_misread(tmp_path: Path) -> None:
    """The photo of the turn likes a curve on the new cell; the next photos each like the
    crossroads by less than one photo may overturn a played tile, but the game keeps what every
    photo saw (in each step's ``follow`` data), and their sum rewrites the record."""
    from scorer.follow import EVIDENCE_KEEP_MARGIN, EVIDENCE_SUM_MARGIN
    reader = EvidenceReader()
    client = make_app(str(tmp_path / "data"), reader, follow=True).test_client()
    misread = [*OPENING, ((1, 0), "V", 0)]
    turn_photo = _evidence(misread, {(1, 0): ("V", 0)})
    turn_photo[(1, 0)][("W", 0)] = -10.0 - 4.0
    later = _evidence(misread, {(1, 0): ("W", 0)})
    later[(1, 0)][("V", 0)] = -10.0 - (EVIDENCE_SUM_MARGIN / 2 + 1.0)
    assert EVIDENCE_SUM_MARGIN / 2 + 1.0 < EVIDENCE_KEEP_MARGIN  # one later photo alone cannot overturn it
    reader.evidence += [_evidence(OPENING, {}), turn_photo, later, later, later]
    gid = photos(client, reader, reading(OPENING), reading(misread), reading(misread), reading(misread),
                 reading(misread))
    assert turns(client, gid)[-1][1:3] == ("W", [1, 0])


def test_a_photo_the_game_cannot_use_asks_for_another(tmp_path: Path) -> None:
    """A photo whose cells fit too few of the tiles played (a wrong grid) is not used: its
    step's notes ask the player to take it again first, and the record does not change."""
    reader = EvidenceReader()
    client = make_app(str(tmp_path / "data"), reader, follow=True).test_client()
    board = [*OPENING, ((1, 0), "V", 0), ((0, 1), "U", 90), ((0, -1), "U", 90)]
    wrong = [(at, "BW"[k % 2], 0) for k, (at, _, _) in enumerate(board)]  # fields meet roads: not whole
    garbage = _evidence(wrong, {})
    reader.evidence += [_evidence(board, {}), garbage]
    gid = photos(client, reader, reading(board), reading(wrong))
    rows = client.get(f"/api/games/{gid}/history").json["steps"]
    assert rows[-1]["notes"][0] == "this photo does not fit the game and was not used: please take it again"
    assert not any("take it again" in n for n in rows[0]["notes"])


def test_follow_history_round_trips_through_json() -> None:
    import json

    from web.service import history_from_json, history_to_json
    total = {(0, 0): (2, {("D", 0): -20.5, ("E", 90): -31.0}), (1, 0): (1, {("W", 180): -9.0})}
    seen = {(1, 0): ((("red", "E"),), None, ())}
    doc = json.loads(json.dumps(history_to_json(total, seen)))
    assert history_from_json(doc) == (total, seen)
    assert history_from_json(None) == (None, None) and history_to_json(None, None) == {}


def test_the_photo_a_game_did_not_fit_round_trips_through_the_history() -> None:
    """A photo that did not fit the followed game is kept with the step's history, so that the
    next photo, if it does not fit either but agrees with it, restarts the record from the
    start tile (``scorer.follow.follow_step``'s ``unfit``)."""
    import json

    from scorer import Game, parse_state
    from scorer.catalog import load_catalog
    from web.service import history_to_json, unfit_from_history
    game = Game(players=("red", "blue"))
    game.start(load_catalog().get("D"))  # type: ignore[arg-type]
    state = game.state()
    doc = json.loads(json.dumps(history_to_json(None, None, state)))
    assert unfit_from_history(doc) == parse_state(json.loads(json.dumps(doc["unfit"])))
    assert [(e.at, e.tile.id, e.rot) for e in unfit_from_history(doc).tiles] == [((0, 0), "D", 0)]
    assert unfit_from_history({"unfit": {"format": "nonsense"}}) is None
    assert unfit_from_history(None) is None


def test_a_crest_question_shows_the_totals_at_the_end() -> None:
    """A coat of arms a knight may hide changes no score now, only at the end: each answer says
    the end totals it leads to."""
    from dataclasses import replace

    from scorer import Game, Turn, load_catalog
    from scorer.follow import follow_step
    from web.service import _question

    catalog = load_catalog()
    game = Game(players=("red", "blue"))
    game.start(catalog.get("D"))
    first = follow_step(None, None, replace(game.state(), scores={}))
    game.play(Turn("red", catalog.get("N"), (0, -1), 180, meeple="Se"))  # a knight on an N's city
    truth = replace(game.state(), scores={})
    # the photo's evidence: every cell's own tile far ahead, an M as likely as the N under the knight
    evidence = {e.at: {(e.tile.id, e.rot): -25.0, ("U", 0): -40.0} for e in truth.tiles}
    evidence[(0, -1)][("M", 180)] = -25.2
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence)
    q = _question(res)
    assert q is not None
    assert [a["summary"] for a in q["alternatives"]] == [
        "no coat of arms under red's follower on the tile at [0, -1] (N): no points now; at the end red 2, blue 0",
        "a coat of arms under red's follower on the tile at [0, -1] (M): no points now; at the end red 3, blue 0"]


def test_an_answer_between_tiles_is_kept_in_the_steps_history() -> None:
    """Choosing an alternative that lays another tile than the photos liked best (a thief on a
    W's village, read as a straight road U) puts the tile not chosen below it in the step's
    stored history (``FollowResult.evidence_answered``), so the next photos' sum keeps it as the
    scorer would."""
    from dataclasses import replace

    from scorer import Game, Turn, load_catalog
    from scorer.follow import ANSWER_TILE_LEAD, follow_step
    from web.service import _answered_history, _question, history_from_json, history_to_json

    catalog = load_catalog()
    game = Game(players=("red", "blue"))
    game.start(catalog.get("D"))
    first = follow_step(None, None, replace(game.state(), scores={}))
    game.play(Turn("red", catalog.get("W"), (1, 0), 0, meeple="E"))
    truth = replace(game.state(), scores={})
    evidence = {e.at: {(e.tile.id, e.rot): -25.0, ("V", 0): -40.0} for e in truth.tiles}
    evidence[(1, 0)] = {("U", 0): -25.0, ("W", 0): -25.4, ("V", 0): -40.0}
    res = follow_step(first.record, first.corrected_state, truth, evidence=evidence, evidence_total=first.evidence_total)
    q = _question(res)
    assert q is not None
    w = next(a["alternative"] for a in q["alternatives"] if a["turns"][-1]["tile"] == "W")
    history = history_to_json(res.evidence_total, res.figures_seen)
    total, _ = history_from_json(_answered_history(history, q, w))
    assert total is not None
    sums = total[(1, 0)][1]
    assert sums[("U", 0)] == pytest.approx(sums[("W", 0)] - ANSWER_TILE_LEAD)
    assert sums[("W", 0)] == pytest.approx(-25.4)  # the chosen tile as the photo saw it
    assert sums[("V", 0)] == pytest.approx(-40.0)  # a tile not offered as well
    assert history_from_json(history)[0][(1, 0)][1][("U", 0)] == pytest.approx(-25.0)  # unanswered
    assert total[(0, 0)] == history_from_json(history)[0][(0, 0)]  # the start tile as it was


def test_a_castle_game_is_followed_photo_by_photo(fc: FlaskClient, reader: FakeReader) -> None:
    """The Castle: the first photo shows the empty castle, each upload one turn more; the game
    page's record and scores are the replay of the turns inferred (questions answered first)."""
    from dataclasses import replace

    from scorer.castle_rules import CastleGame, random_castle_game

    truth = random_castle_game(3, turns=10, follower_rate=0.9)
    game = CastleGame.from_record(truth)
    boards, tracks, finals = [], [], []

    def photographed() -> None:
        boards.append(replace(game.state(), scores={}, wall_tiles={}))
        tracks.append(dict(game.track))
        finals.append(dict(game.final_report().final))

    photographed()
    for t in truth.turns:
        game.play(t)
        if not t.discarded:
            photographed()
    gid = new_game(fc, game="castle", players=["black", "white"])
    reader.readings += [as_reading(b) for b in boards]
    for _ in boards:
        assert upload(fc, gid, make_jpeg()).status_code == 201
    assert all(call.get("game") == "castle" for call in reader.calls)
    laid = [(t.player, t.tile.id if t.tile else None, list(t.at or ())) for t in truth.turns if not t.discarded]
    assert [(p, tile, at) for p, tile, at, _ in turns(fc, gid)] == laid
    # answer every question with what happened: then the scores are the true ones
    questions = fc.get(f"/api/games/{gid}/questions").json["questions"]
    assert questions, "seed 3: a knight put on a tower its own tile completed"
    for q in questions:
        k = q["step"] - 1
        right = next(a["alternative"] for a in q["alternatives"] if a["track"] == tracks[k] and a["final"] == finals[k])
        assert fc.post(f"/api/games/{gid}/steps/{q['step']}/choose", json={"alternative": right}).status_code == 200
    assert final(fc, gid) == game.final_report().final


def test_an_answer_on_where_a_follower_stands_is_kept_against_the_next_photo(fc: FlaskClient,
                                                                              reader: FakeReader) -> None:
    """Photo game 1343 through the web app: red's thief on a U's road, read on the road by its
    turn's photo and on the field beside it by the next: the photos tie, the players are asked
    and answer "road". The next photo reads the field again; the answer holds (unanswered, the
    photos alone, 2 to 1, move the thief onto the field)."""
    laid = [*OPENING, ((1, 0), "U", 0)]  # the road W-D-U runs on east, open
    road = [{"player": "red", "at": [1, 0], "on": "E"}]
    field = [{"player": "red", "at": [1, 0], "on": "N"}]
    results = {}
    for answer in (True, False):
        gid = photos(fc, reader, reading(OPENING), reading(laid, road), reading(laid, field))
        (q,) = fc.get(f"/api/games/{gid}/questions").json["questions"]
        assert q["step"] == 3
        i = next(a["alternative"] for a in q["alternatives"] if "road" in a["detail"])
        if answer:
            assert fc.post(f"/api/games/{gid}/steps/3/choose", json={"alternative": i}).status_code == 200
        reader.readings.append(reading(laid, field))
        assert upload(fc, gid, make_jpeg()).status_code == 201
        results[answer] = turns(fc, gid)[-1], fc.get(f"/api/games/{gid}/questions").json["open"]
    assert results[True] == (("red", "U", [1, 0], {"on": "E"}), 0)
    assert results[False][0] == ("red", "U", [1, 0], {"on": "Nw"})  # the field
