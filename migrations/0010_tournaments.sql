-- Tournaments: their terms and progress, their entrants, their pairings, and which games are theirs.
-- Runs unchanged on SQLite and PostgreSQL: ids are made by the server, times are ISO text.

CREATE TABLE tournaments (
    tournament_id       TEXT PRIMARY KEY,
    name                TEXT NOT NULL,
    format              TEXT NOT NULL,      -- round_robin, swiss or arena
    organiser           TEXT NOT NULL,
    rule                TEXT NOT NULL,
    size                INTEGER NOT NULL,
    clock_initial_ms    INTEGER NOT NULL,
    clock_increment_ms  INTEGER NOT NULL,
    opening             TEXT NOT NULL,
    rated               INTEGER NOT NULL,
    cycles              INTEGER NOT NULL,   -- round robin: 1 single, 2 double
    rounds              INTEGER NOT NULL,   -- Swiss
    duration_s          INTEGER NOT NULL,   -- arena
    starts_at           TEXT,               -- NULL: when the organiser starts it
    max_players         INTEGER NOT NULL,
    listed              INTEGER NOT NULL,
    created_at          TEXT NOT NULL,
    status              TEXT NOT NULL,      -- open, running, paused or finished
    round               INTEGER NOT NULL,
    started_at          TEXT,
    ends_at             TEXT,               -- when an arena stops pairing
    ended_at            TEXT
);

CREATE INDEX tournaments_by_status ON tournaments (status);

CREATE TABLE tournament_entrants (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (tournament_id),
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    level          TEXT,               -- a bot level's name, else NULL
    seed           INTEGER NOT NULL,
    rating         DOUBLE PRECISION NOT NULL,
    joined_at      TEXT NOT NULL,
    withdrawn_at   TEXT,
    PRIMARY KEY (tournament_id, name)
);

CREATE TABLE tournament_pairings (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (tournament_id),
    round          INTEGER NOT NULL,
    board          INTEGER NOT NULL,
    black_name     TEXT NOT NULL,
    white_name     TEXT,               -- NULL: a bye for black
    bye_score      DOUBLE PRECISION,   -- a bye's points (a game's come from its result)
    game_id        TEXT REFERENCES games (game_id),
    room_id        TEXT,
    PRIMARY KEY (tournament_id, round, board)
);

-- Every tournament game is found by its tournament.
ALTER TABLE games ADD COLUMN tournament_id TEXT;
CREATE INDEX games_by_tournament ON games (tournament_id);
