-- Player names are unique ignoring case ('alice' and 'ALICE' are one player,
-- shown as first written). A database from before this rule may hold names
-- that differ only in case: the later ones are renamed NAME-ROWID so that
-- the rule can hold (their games keep the old name).
UPDATE players
SET name = name || '-' || rowid
WHERE rowid NOT IN (SELECT MIN(rowid) FROM players GROUP BY name COLLATE NOCASE);

CREATE UNIQUE INDEX players_name_nocase ON players (name COLLATE NOCASE);
