"""A real browser (system Chromium, headless, driven by Playwright) plays through a game:
create it, upload a photo, read scores and open features, correct a tile, watch a second
screen update. Screenshots of each page go to ``tests/web/screenshots/`` (gitignored)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import make_jpeg, misread

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture
def server(app) -> Iterator[str]:
    from werkzeug.serving import make_server
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join(5)


@pytest.fixture
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"),
                              headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def test_play_through_a_game(server: str, browser, reader, tmp_path: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    reader.readings.append(misread())
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(5000)
    page.goto(server + "/")
    page.get_by_text("red", exact=True).click()
    page.get_by_text("blue", exact=True).click()
    page.screenshot(path=str(SHOTS / "1-new-game.png"), full_page=True)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/games/*")
    game_url = page.url

    # a second screen on the same game (a desktop at the table)
    other = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    other.goto(game_url)

    photo = tmp_path / "table.jpg"
    photo.write_bytes(make_jpeg(900, 700))
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector("#upload-status:has-text('Read 4 tiles')")
    page.wait_for_selector("svg.board .cell.tile.doubtful")
    totals = page.locator(".totals li")
    assert totals.first.locator(".name").inner_text() == "red"
    assert totals.first.locator(".pts").inner_text() == "5"
    assert page.locator(".open-table tbody tr").count() >= 2
    assert "road" in page.locator(".open-table").inner_text()
    page.screenshot(path=str(SHOTS / "2-game-after-photo.png"), full_page=True)

    # the second screen updates by itself within 2 s
    other.wait_for_selector(".totals li .pts:has-text('5')", timeout=2500)
    other.screenshot(path=str(SHOTS / "3-second-screen.png"), full_page=True)

    # correct the doubtful tile: V at 270 -> V at 0
    page.locator("svg.board .cell.tile[data-x='2'][data-y='0']").click()
    page.wait_for_selector("#fix .cand[data-tile='V'][data-rot='0']")
    page.screenshot(path=str(SHOTS / "4-correct-tile.png"))
    page.locator("#fix .cand[data-tile='V'][data-rot='0']").click()
    page.wait_for_selector("#fix", state="hidden")
    page.wait_for_selector(".totals li:first-child .pts:has-text('4')")
    assert page.locator(".totals li", has_text="red").locator(".pts").inner_text() == "3"
    page.locator("#scores").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "5-after-correction.png"), full_page=True)
    other.wait_for_selector(".totals li:first-child .pts:has-text('4')", timeout=2500)

    # a bad upload says why, in words
    bad = tmp_path / "notes.txt"
    bad.write_text("not a photo")
    page.set_input_files("#photo-input", str(bad))
    page.wait_for_selector("#upload-status.error:has-text('not a photo')")
    page.locator("#final").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "6-final-and-entries.png"), full_page=False)


def test_question_is_answered_with_one_tap(browser, reader, tmp_path: Path) -> None:
    """With following on: two photos whose turns could have scored or not; the page asks
    "Which happened?", one tap answers, and a second screen shows the new totals."""
    from test_web_follow import CLOSED, OPENING, reading
    from web_helpers import make_app
    from werkzeug.serving import make_server
    SHOTS.mkdir(exist_ok=True)
    app = make_app(str(tmp_path / "data"), reader, follow=True)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{srv.server_port}"
        reader.readings += [reading(OPENING), reading(CLOSED)]
        page = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                   has_touch=True).new_page()
        page.set_default_timeout(5000)
        page.goto(base + "/")
        page.get_by_text("red", exact=True).click()
        page.get_by_text("blue", exact=True).click()
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_url("**/games/*")
        other = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        other.goto(page.url)
        photo = tmp_path / "table.jpg"
        photo.write_bytes(make_jpeg(600, 400))
        for tiles in ("Read 2 tiles", "Read 3 tiles"):
            page.set_input_files("#photo-input", str(photo))
            page.wait_for_selector(f"#upload-status:has-text('{tiles}')")
        ask = page.locator("#questions")
        ask.wait_for()
        assert "Which happened?" in ask.inner_text()
        ask.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "7-question.png"))
        other.wait_for_selector("#questions", timeout=4000)
        ask.get_by_role("button", name="red put a follower on the road they just closed: red +3").click()
        page.wait_for_selector("#questions", state="detached")
        page.wait_for_selector(".totals li:first-child .pts:has-text('3')")
        other.wait_for_selector(".totals li:first-child .pts:has-text('3')", timeout=4000)
        page.locator("#history").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "8-after-answer-history.png"), full_page=True)
        page.locator("#scores").screenshot(path=str(SHOTS / "9-score-history.png"))
        page.locator("#history").screenshot(path=str(SHOTS / "10-history.png"))
    finally:
        srv.shutdown()
        thread.join(5)
