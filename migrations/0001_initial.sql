-- Players, games, their moves and their results.
-- A player's token is never stored, only its SHA-256 hash.

CREATE TABLE players (
    name        TEXT PRIMARY KEY,
    token_hash  BLOB NOT NULL,
    rating      INTEGER NOT NULL DEFAULT 1500,
    created_at  TEXT NOT NULL
);

CREATE TABLE games (
    game_id             TEXT PRIMARY KEY,
    room_id             TEXT NOT NULL,
    rule                TEXT NOT NULL,
    size                INTEGER NOT NULL,
    black_name          TEXT NOT NULL,
    black_kind          TEXT NOT NULL,
    black_level         TEXT,
    white_name          TEXT NOT NULL,
    white_kind          TEXT NOT NULL,
    white_level         TEXT,
    clock_initial_ms    INTEGER,
    clock_increment_ms  INTEGER,
    black_ms            INTEGER,   -- time left after the last stored event, for timed games
    white_ms            INTEGER,
    private             INTEGER NOT NULL DEFAULT 0,
    started_at          TEXT NOT NULL
);

CREATE INDEX games_by_black ON games (black_name);
CREATE INDEX games_by_white ON games (white_name);

CREATE TABLE moves (
    game_id  TEXT NOT NULL REFERENCES games (game_id),
    ply      INTEGER NOT NULL,
    x        INTEGER NOT NULL,
    y        INTEGER NOT NULL,
    color    TEXT NOT NULL,
    time_ms  INTEGER,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE results (
    game_id   TEXT PRIMARY KEY REFERENCES games (game_id),
    winner    TEXT,
    reason    TEXT NOT NULL,
    line      TEXT,             -- JSON [[x, y], ...] for a five
    ended_at  TEXT NOT NULL
);
