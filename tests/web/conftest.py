"""Fixtures of the web tests: an app on a temporary SQLite file with a fake photo reader."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

# the test modules share web_helpers.py; tests/ has no packages, so put this folder on the path
sys.path.insert(0, str(Path(__file__).parent))
from web_helpers import FakeReader, make_app, make_jpeg  # noqa: E402


@pytest.fixture
def reader() -> FakeReader:
    return FakeReader()


@pytest.fixture
def app(tmp_path: Path, reader: FakeReader) -> Flask:
    return make_app(str(tmp_path / "data"), reader, follow=False)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def jpeg() -> bytes:
    return make_jpeg()
