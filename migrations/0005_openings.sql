-- Opening rules (1.1 "Openings"): a game's opening rule, and every step of
-- its opening phase with who took it. The stones the opening places are
-- ordinary rows of `moves`; a swap of colours rewrites the game's seats.
ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT 'none';

CREATE TABLE opening_steps (
    game_id  TEXT NOT NULL REFERENCES games (game_id),
    idx      INTEGER NOT NULL,
    player   TEXT NOT NULL,
    side     TEXT NOT NULL,   -- 'first' (who placed the first stones) or 'second'
    step     TEXT NOT NULL,   -- JSON, as engine.opening_record.step_to_dict writes it
    PRIMARY KEY (game_id, idx)
);
