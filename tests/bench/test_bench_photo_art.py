"""The photo games' renders (bench.bench_follow.photo_of): the tiles' drawing they are made with."""

from __future__ import annotations

import pytest

from bench.bench_follow import COLOURS, photo_of, true_states
from scorer import random_game
from vision.synth import load_scans


@pytest.mark.skipif(load_scans() is None, reason="classic scans folder absent")
def test_a_photo_game_rendered_from_the_scans_shows_the_same_board_in_another_drawing() -> None:
    states, _, _ = true_states(random_game(4250, COLOURS[:2], turns=3))
    state = states[-1]
    drawn, scanned = photo_of(state, 4250), photo_of(state, 4250, art="scans")
    assert drawn.shot.art == "procedural"
    assert scanned.shot.art == "scans"
    # the same take: the same camera and the same board, only the tiles' drawing differs
    assert (scanned.shot.width, scanned.shot.tilt_deg) == (drawn.shot.width, drawn.shot.tilt_deg)
    assert scanned.reading.state == drawn.reading.state
    assert scanned.jpeg != drawn.jpeg
