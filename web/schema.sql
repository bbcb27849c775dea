-- carcam web storage (SQLite, WAL mode). Created with IF NOT EXISTS so start-up is idempotent.
-- A game keeps its set-up, its game record (carcam/game@1) and a list of steps: each step is a
-- photo read, a correction or a manual entry, and stores the whole board state after it.

CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,               -- secrets.token_urlsafe: the game's only key
    created     TEXT NOT NULL,
    game        TEXT NOT NULL,                  -- "base" or "castle"
    setup       TEXT NOT NULL,                  -- JSON: expansions, players, options
    record      TEXT NOT NULL DEFAULT 'null',   -- JSON: carcam/game@1, started by the first photo
    version     INTEGER NOT NULL DEFAULT 1      -- bumped on every change (live updates)
);

CREATE TABLE IF NOT EXISTS photos (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    created     TEXT NOT NULL,
    jpeg        BLOB NOT NULL,                  -- re-encoded with cv2.imencode, never the upload
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    reading     TEXT                            -- JSON: carcam/reading@1 as the reader returned it
);

CREATE TABLE IF NOT EXISTS steps (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,               -- 1, 2, ... within a game
    kind        TEXT NOT NULL,                  -- photo | tile | figure | manual
    note        TEXT NOT NULL,                  -- what the step did, in words
    photo_id    INTEGER REFERENCES photos(id),
    state       TEXT NOT NULL,                  -- JSON: carcam/state@1 after the step
    doubtful    TEXT NOT NULL DEFAULT '[]',     -- JSON: cells still to check
    record_before TEXT NOT NULL DEFAULT 'null', -- JSON: the game record before this step (undo)
    totals      TEXT NOT NULL DEFAULT '{}',     -- JSON: scores if the game ended after this step
    track       TEXT NOT NULL DEFAULT '{}',     -- JSON: score-track positions after this step
    undone      INTEGER NOT NULL DEFAULT 0,
    created     TEXT NOT NULL,
    follow      TEXT NOT NULL DEFAULT '{}',     -- JSON: how this step's turns were followed (below)
    UNIQUE (game_id, seq)
);

-- steps.follow: {"derived": true when the step (a photo, or a correction that re-followed the last
-- photo) inferred turns with scorer.follow; "anchor": the step its turns were followed from (null:
-- the record was started); "conf": [[x, y, confidence]] of every tile after the step (a cell
-- corrected by hand is 1.0); "turns": the inferred turns with their points; "amend": figure
-- corrections applied to earlier turns; "question": {"alternatives": [...], "chosen": i or null}
-- when the photos allow turns with different scores; "notes": what did not fit}.
-- Databases made before this column existed get it from db.init_db (ALTER TABLE).

CREATE INDEX IF NOT EXISTS steps_by_game ON steps (game_id, undone, seq);
CREATE INDEX IF NOT EXISTS photos_by_game ON photos (game_id, id);
