-- Who created each game's room: a bot-vs-bot game is listed to its creator,
-- and a private game to its creator as well as its players.
ALTER TABLE games ADD COLUMN created_by TEXT;

CREATE INDEX games_by_creator ON games (created_by);
