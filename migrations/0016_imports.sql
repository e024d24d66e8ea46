-- Imported games (docs/protocol.md, "Importing games"): a game a player uploaded from a file is a
-- game like any other (games, moves, results; never rated), and has a row here saying where it came
-- from. `fingerprint` (engine.game_import.game_fingerprint: rule, size, both names ignoring case,
-- the moves) is unique, so that the same game is stored once however often it is uploaded. An
-- imported game never comes back as a room after a restart. Runs on SQLite and PostgreSQL alike.
CREATE TABLE imported_games (
    game_id      TEXT PRIMARY KEY REFERENCES games (game_id),
    source       TEXT NOT NULL,
    file_name    TEXT NOT NULL,
    imported_by  TEXT NOT NULL,
    imported_at  TEXT NOT NULL,
    fingerprint  TEXT NOT NULL UNIQUE
);
