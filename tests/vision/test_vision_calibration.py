"""Calibration: a colour profile from photos with known truth, and the reader using it."""

from __future__ import annotations

import json

import pytest

from calibration import build_profile
from calibration.profile import load_profile
from vision.errors import ProfileError
from vision.reader import BoardReader
from vision.synth import generate, preset


@pytest.fixture(scope="module")
def photo():
    return generate(3, preset("easy").with_size(1600, 1200), seed=3, game="base", tiles=20)


def test_profile_learns_distinct_class_colours_from_a_photo_with_truth(photo, tmp_path) -> None:
    profile = build_profile([(photo.jpeg, photo.reading.state)])
    assert profile["photos"] == 1
    field, city = profile["prototypes"]["field"], profile["prototypes"]["city"]
    # OpenCV Lab: a* below 128 is green, above is red; printed fields are green, cities are not
    assert field[1] < 128 <= city[1] + 8
    assert abs(field[1] - city[1]) > 10
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(profile))
    reading = BoardReader(profile=load_profile(path)).read(photo.jpeg)
    assert len(reading.state.tiles) >= 15


def test_a_bad_profile_is_refused(tmp_path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "carcam/vision-profile@1", "prototypes": {"field": [1, 2]}}))
    with pytest.raises(ProfileError, match="prototypes"):
        load_profile(path)
