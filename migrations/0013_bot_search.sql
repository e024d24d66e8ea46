-- A bot seat of a level whose search a player may set (`alphabeta`) keeps the depth and the width
-- (candidates per ply) it was given; NULL: the level's own. Runs on SQLite and PostgreSQL alike.
ALTER TABLE games ADD COLUMN black_depth INTEGER;
ALTER TABLE games ADD COLUMN black_width INTEGER;
ALTER TABLE games ADD COLUMN white_depth INTEGER;
ALTER TABLE games ADD COLUMN white_width INTEGER;
