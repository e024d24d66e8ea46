-- Accounts (issue 30): a password for a name, the devices signed in to it, and names given up.
-- Runs unchanged on SQLite and PostgreSQL: text ids made by the server, hashes as text, ISO times.
-- No REFERENCES to players: a deleted account's player row is renamed to a placeholder.

-- A name's password, as argon2id's own encoded string (algorithm, costs, salt and hash in one).
CREATE TABLE account_passwords (
    player         TEXT PRIMARY KEY,   -- players.name, as first written
    password_hash  TEXT NOT NULL,
    set_at         TEXT NOT NULL
);

-- Each device signed in to an account, by the SHA-256 (hex) of its token; the token is never stored.
-- Signing a device out deletes its row, and its token is refused from then on.
CREATE TABLE account_devices (
    device_id     TEXT PRIMARY KEY,
    player        TEXT NOT NULL,
    token_hash    TEXT NOT NULL,
    label         TEXT NOT NULL,
    signed_in_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX account_devices_by_token ON account_devices (token_hash);
CREATE INDEX account_devices_by_player ON account_devices (player);

-- Accounts their owners deleted: the placeholder their games and ratings now carry, and until when
-- the name (by its lower-case key) stays reserved.
CREATE TABLE deleted_accounts (
    placeholder   TEXT PRIMARY KEY,
    name_key      TEXT NOT NULL,
    deleted_at    TEXT NOT NULL,
    name_free_at  TEXT NOT NULL
);
CREATE INDEX deleted_accounts_by_name ON deleted_accounts (name_key);
