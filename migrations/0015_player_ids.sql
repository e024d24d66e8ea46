-- A player is an id, not a name (issue 40). Every player gets `player_id`, made by the server when the
-- player is created, never changed and never reused; the rows that give a player a power or a
-- standing are keyed by it: roles, bans, mutes, a password, the devices signed in, puzzle ratings
-- and tries, a tournament's organiser. A rename moves only the label (`players.name`, and the names
-- games and reports show); a deleted account keeps its id under its placeholder name, so a newcomer
-- who later takes the name starts with nothing of it. Audit entries and retired names keep the id
-- of the player they were about, so that the log finds a player by any name they had.
--
-- Runs unchanged on SQLite and PostgreSQL. Today's players are numbered `m1`, `m2`, ... in name
-- order (ids the server makes are 16 hexadecimal digits: never one of these). A row keyed by a name
-- moves to the id of the player holding that name now only if that player existed when the row was
-- written: a role, ban or mute given to an account since deleted, whose name a newcomer took, goes
-- with the deleted account's id, not to the newcomer.

ALTER TABLE players ADD COLUMN player_id TEXT;
UPDATE players SET player_id = numbered.player_id
FROM (SELECT name, 'm' || CAST(ROW_NUMBER() OVER (ORDER BY name) AS TEXT) AS player_id FROM players) AS numbered
WHERE numbered.name = players.name;
CREATE UNIQUE INDEX players_by_id ON players (player_id);

-- The player a name-keyed row written at `at` was about: the account holding the name (ignoring
-- case) now if it was created by then, else the deleted account that held it then (its placeholder's
-- row), else the player a later rename took the name from.
CREATE TABLE migrated_owners (name_key TEXT NOT NULL, at TEXT NOT NULL, player_id TEXT);

INSERT INTO migrated_owners (name_key, at)
SELECT name_key, granted_at FROM moderation_roles
UNION SELECT name_key, banned_at FROM bans
UNION SELECT name_key, muted_at FROM mutes
UNION SELECT lower(organiser), created_at FROM tournaments
UNION SELECT lower(player), at FROM puzzle_attempts
UNION SELECT lower(target), at FROM audit_log
UNION SELECT lower(actor), at FROM audit_log;

CREATE INDEX migrated_owners_by_name ON migrated_owners (name_key, at);
UPDATE migrated_owners SET player_id = COALESCE(
    (SELECT p.player_id FROM players p WHERE p.name = migrated_owners.name_key COLLATE NOCASE
        AND p.created_at <= migrated_owners.at),
    (SELECT p.player_id FROM deleted_accounts d JOIN players p ON p.name = d.placeholder
        WHERE d.name_key = migrated_owners.name_key AND p.created_at <= migrated_owners.at
        AND d.deleted_at >= migrated_owners.at ORDER BY d.deleted_at LIMIT 1),
    (SELECT p.player_id FROM retired_names r JOIN players p ON p.name = r.new_name COLLATE NOCASE
        WHERE r.old_key = migrated_owners.name_key AND r.retired_at >= migrated_owners.at)
);

-- A deleted account's role and mute went with it (as a deletion does from now on); its ban stays.
CREATE TABLE deleted_players (player_id TEXT NOT NULL);
INSERT INTO deleted_players (player_id)
SELECT p.player_id FROM players p JOIN deleted_accounts d ON d.placeholder = p.name;

CREATE TABLE player_roles (
    player_id   TEXT PRIMARY KEY,
    role        TEXT NOT NULL,      -- 'admin' or 'moderator'
    granted_by  TEXT NOT NULL,
    granted_at  TEXT NOT NULL
);
INSERT INTO player_roles (player_id, role, granted_by, granted_at)
SELECT o.player_id, r.role, r.granted_by, r.granted_at
FROM moderation_roles r JOIN migrated_owners o ON o.name_key = r.name_key AND o.at = r.granted_at
WHERE o.player_id IS NOT NULL AND o.player_id NOT IN (SELECT player_id FROM deleted_players);
DROP TABLE moderation_roles;

CREATE TABLE player_bans (
    player_id  TEXT PRIMARY KEY,
    reason     TEXT NOT NULL,
    banned_by  TEXT NOT NULL,
    banned_at  TEXT NOT NULL
);
INSERT INTO player_bans (player_id, reason, banned_by, banned_at)
SELECT o.player_id, b.reason, b.banned_by, b.banned_at
FROM bans b JOIN migrated_owners o ON o.name_key = b.name_key AND o.at = b.banned_at
WHERE o.player_id IS NOT NULL;
DROP TABLE bans;

CREATE TABLE player_mutes (
    player_id  TEXT PRIMARY KEY,
    until      TEXT NOT NULL,
    reason     TEXT NOT NULL,
    muted_by   TEXT NOT NULL,
    muted_at   TEXT NOT NULL
);
INSERT INTO player_mutes (player_id, until, reason, muted_by, muted_at)
SELECT o.player_id, m.until, m.reason, m.muted_by, m.muted_at
FROM mutes m JOIN migrated_owners o ON o.name_key = m.name_key AND o.at = m.muted_at
WHERE o.player_id IS NOT NULL AND o.player_id NOT IN (SELECT player_id FROM deleted_players);
DROP TABLE mutes;

ALTER TABLE tournaments ADD COLUMN organiser_id TEXT;
UPDATE tournaments SET organiser_id = (
    SELECT o.player_id FROM migrated_owners o
    WHERE o.name_key = lower(tournaments.organiser) AND o.at = tournaments.created_at
);

-- Puzzle tries, and each player's puzzle rating (theirs who made its latest try).
CREATE TABLE player_puzzle_attempts (
    player_id  TEXT NOT NULL,
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (puzzle_id),
    solved     INTEGER NOT NULL,
    rated      INTEGER NOT NULL,
    at         TEXT NOT NULL
);
INSERT INTO player_puzzle_attempts (player_id, puzzle_id, solved, rated, at)
SELECT o.player_id, a.puzzle_id, a.solved, a.rated, a.at
FROM puzzle_attempts a JOIN migrated_owners o ON o.name_key = lower(a.player) AND o.at = a.at
WHERE o.player_id IS NOT NULL;
CREATE INDEX player_puzzle_attempts_by_player ON player_puzzle_attempts (player_id, puzzle_id);

CREATE TABLE player_puzzle_ratings (
    player_id   TEXT PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    INTEGER NOT NULL
);
INSERT INTO player_puzzle_ratings (player_id, rating, rd, volatility, attempts)
SELECT owner.player_id, r.rating, r.rd, r.volatility, r.attempts
FROM puzzle_ratings r JOIN (
    SELECT lower(a.player) AS name_key, MAX(a.at) AS at FROM puzzle_attempts a GROUP BY lower(a.player)
) latest ON latest.name_key = lower(r.player)
JOIN migrated_owners owner ON owner.name_key = latest.name_key AND owner.at = latest.at
WHERE owner.player_id IS NOT NULL;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;

-- Whom each audit entry was about and who acted (NULL: the operator, games, a report).
ALTER TABLE audit_log ADD COLUMN actor_id TEXT;
ALTER TABLE audit_log ADD COLUMN target_id TEXT;
UPDATE audit_log SET
    actor_id = (SELECT o.player_id FROM migrated_owners o WHERE o.name_key = lower(audit_log.actor)
        AND o.at = audit_log.at),
    target_id = (SELECT o.player_id FROM migrated_owners o WHERE o.name_key = lower(audit_log.target)
        AND o.at = audit_log.at);
CREATE INDEX audit_log_by_target ON audit_log (target_id, at_us);

DROP TABLE migrated_owners;
DROP TABLE deleted_players;

-- A password and the devices signed in: a deleted account has neither, so the name as stored now
-- is the account's.
CREATE TABLE player_passwords (
    player_id      TEXT PRIMARY KEY,
    password_hash  TEXT NOT NULL,
    set_at         TEXT NOT NULL
);
INSERT INTO player_passwords (player_id, password_hash, set_at)
SELECT p.player_id, a.password_hash, a.set_at FROM account_passwords a JOIN players p ON p.name = a.player;
DROP TABLE account_passwords;

CREATE TABLE player_devices (
    device_id     TEXT PRIMARY KEY,
    player_id     TEXT NOT NULL,
    token_hash    TEXT NOT NULL,
    label         TEXT NOT NULL,
    signed_in_at  TEXT NOT NULL
);
INSERT INTO player_devices (device_id, player_id, token_hash, label, signed_in_at)
SELECT a.device_id, p.player_id, a.token_hash, a.label, a.signed_in_at
FROM account_devices a JOIN players p ON p.name = a.player;
DROP TABLE account_devices;
CREATE UNIQUE INDEX player_devices_by_token ON player_devices (token_hash);
CREATE INDEX player_devices_by_player ON player_devices (player_id);

ALTER TABLE retired_names ADD COLUMN player_id TEXT;
UPDATE retired_names SET player_id = (
    SELECT p.player_id FROM players p WHERE p.name = retired_names.new_name COLLATE NOCASE
);

ALTER TABLE deleted_accounts ADD COLUMN player_id TEXT;
UPDATE deleted_accounts SET player_id = (
    SELECT p.player_id FROM players p WHERE p.name = deleted_accounts.placeholder
);
