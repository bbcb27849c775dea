"""SQLite storage for the web app (standard library ``sqlite3``, a real file in WAL mode).

One connection per request, kept on ``flask.g`` and closed at teardown, as in the Flask
tutorial. WAL mode lets a second screen poll while a photo is being stored.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask, current_app, g


def connect(path: str) -> sqlite3.Connection:
    """A connection to the database file at ``path`` (WAL mode, foreign keys on, rows by name)."""
    db = sqlite3.connect(path, timeout=10, detect_types=0)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=10000")
    return db


def get_db() -> sqlite3.Connection:
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


#: Columns added to ``steps`` after the first release: a database made before gets them at start-up.
_ADDED_COLUMNS = {"follow": "TEXT NOT NULL DEFAULT '{}'"}


def init_db(path: str) -> None:
    """Create the tables (idempotent: every statement is ``IF NOT EXISTS``) and add columns that an
    older database lacks (``CREATE TABLE IF NOT EXISTS`` leaves an existing table as it was)."""
    schema = Path(__file__).with_name("schema.sql").read_text(encoding="utf-8")
    db = connect(path)
    try:
        db.executescript(schema)
        have = {row["name"] for row in db.execute("PRAGMA table_info(steps)")}
        for name, decl in _ADDED_COLUMNS.items():
            if name not in have:
                db.execute(f"ALTER TABLE steps ADD COLUMN {name} {decl}")
        db.commit()
    finally:
        db.close()


def init_app(app: Flask) -> None:
    """Create the schema and close connections after each request."""
    init_db(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
