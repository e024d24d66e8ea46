-- Game reviews and puzzles (issue 32). Runs unchanged on SQLite and PostgreSQL.
--
-- A review is computed once per game and shared by everyone who opens it: one
-- game_reviews row, an evaluation per position (review_plies) and its marks
-- (review_marks). Lines of points are JSON [[x, y], ...] like results.line.

CREATE TABLE game_reviews (
    game_id        TEXT PRIMARY KEY REFERENCES games (game_id),
    reviewed_at    TEXT NOT NULL,
    budget_nodes   INTEGER NOT NULL,   -- solver nodes per position it was computed with
    turning_point  INTEGER            -- ply of the last marked move, NULL without marks
);

CREATE TABLE review_plies (
    game_id  TEXT NOT NULL REFERENCES game_reviews (game_id),
    ply      INTEGER NOT NULL,
    score    INTEGER NOT NULL,         -- black's side, within +-1000
    win_in   INTEGER,                  -- a forced win: + black in N of its moves, - white
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE review_marks (
    game_id  TEXT NOT NULL REFERENCES game_reviews (game_id),
    ply      INTEGER NOT NULL,
    kind     TEXT NOT NULL,            -- missed_win | blunder
    player   TEXT NOT NULL,            -- black | white: who played the marked move
    win      TEXT NOT NULL,            -- vcf | vct
    line     TEXT NOT NULL,
    PRIMARY KEY (game_id, ply, kind)
);

-- A puzzle: a position with a forced win whose first move is unique. Its id is
-- made from the position, so that the same position is one puzzle. game_id is
-- NULL for the starting set's puzzles (games of the project's bots, not stored
-- here; source says where they come from).
CREATE TABLE puzzles (
    puzzle_id   TEXT PRIMARY KEY,
    game_id     TEXT REFERENCES games (game_id),
    source      TEXT NOT NULL,
    ply         INTEGER NOT NULL,
    rule        TEXT NOT NULL,
    size        INTEGER NOT NULL,
    moves       TEXT NOT NULL,         -- the position: the game's moves before the puzzle
    solution    TEXT NOT NULL,         -- attacker first, the defender's best replies between
    theme       TEXT NOT NULL,         -- vcf | vct
    win_in      INTEGER NOT NULL,
    forbidden   INTEGER NOT NULL,      -- 1: renju's forbidden points decide it
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    INTEGER NOT NULL,
    added_at    TEXT NOT NULL
);

CREATE INDEX puzzles_by_rating ON puzzles (rating);

-- The games the miner has looked at, with or without a puzzle found.
CREATE TABLE mined_games (
    game_id   TEXT PRIMARY KEY REFERENCES games (game_id),
    mined_at  TEXT NOT NULL
);

-- Players' puzzle ratings, apart from their game ratings.
CREATE TABLE puzzle_ratings (
    player      TEXT PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    INTEGER NOT NULL
);

-- One row per finished try; only a player's first try at a puzzle is rated.
CREATE TABLE puzzle_attempts (
    player     TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (puzzle_id),
    solved     INTEGER NOT NULL,
    rated      INTEGER NOT NULL,
    at         TEXT NOT NULL
);

CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player, puzzle_id);
