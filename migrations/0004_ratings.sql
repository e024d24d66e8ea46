-- Glicko-2 ratings (1.1 "Ratings"): humans and bots in one pool. A bot is a
-- player row of kind 'bot' (no token can sign in as one). Each rated game
-- leaves one rating_changes row per player, for profiles and their history.
ALTER TABLE players ADD COLUMN kind TEXT NOT NULL DEFAULT 'human';
ALTER TABLE players ADD COLUMN rd REAL NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06;
ALTER TABLE players ADD COLUMN games INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE rating_changes (
    game_id            TEXT NOT NULL REFERENCES games (game_id),
    player             TEXT NOT NULL,
    rating_before      REAL NOT NULL,
    rd_before          REAL NOT NULL,
    volatility_before  REAL NOT NULL,
    rating_after       REAL NOT NULL,
    rd_after           REAL NOT NULL,
    volatility_after   REAL NOT NULL,
    at                 TEXT NOT NULL,
    PRIMARY KEY (game_id, player)
);

CREATE INDEX rating_changes_by_player ON rating_changes (player, at);
CREATE INDEX players_by_rating ON players (kind, rating);
