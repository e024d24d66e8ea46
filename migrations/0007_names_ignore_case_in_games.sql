-- Games are found by a player's name ignoring case, as names compare: the
-- indexes on a game's seats and creator fold case like `players` does.
-- A player is found by their token's hash, for an HTTP request that says
-- who it comes from (`Authorization: Bearer TOKEN`).
DROP INDEX games_by_black;
DROP INDEX games_by_white;
DROP INDEX games_by_creator;
CREATE INDEX games_by_black ON games (black_name COLLATE NOCASE);
CREATE INDEX games_by_white ON games (white_name COLLATE NOCASE);
CREATE INDEX games_by_creator ON games (created_by COLLATE NOCASE);
CREATE INDEX players_by_token ON players (token_hash);
