-- Moderation (issue 30): roles granted on the server's machine, bans and chat
-- mutes, names retired by a rename, players' reports, and the audit log of
-- every moderation action. A player is matched by `name_key`, the name in
-- lower case (names compare ignoring case); `name` keeps it as written.
-- Runs unchanged on SQLite and PostgreSQL: times are ISO text, with a number
-- of microseconds since 1970 where rows are listed in time order.

CREATE TABLE moderation_roles (
    name_key    TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL,      -- 'admin' or 'moderator'
    granted_by  TEXT NOT NULL,
    granted_at  TEXT NOT NULL
);

CREATE TABLE bans (
    name_key   TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    reason     TEXT NOT NULL,
    banned_by  TEXT NOT NULL,
    banned_at  TEXT NOT NULL
);

CREATE TABLE mutes (
    name_key  TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    until     TEXT NOT NULL,
    reason    TEXT NOT NULL,
    muted_by  TEXT NOT NULL,
    muted_at  TEXT NOT NULL
);

-- A name a rename took away: nobody may take it again, and whoever signs in
-- with it is told the new one.
CREATE TABLE retired_names (
    old_key     TEXT PRIMARY KEY,
    old_name    TEXT NOT NULL,
    new_name    TEXT NOT NULL,
    retired_at  TEXT NOT NULL
);

CREATE TABLE reports (
    report_id   TEXT PRIMARY KEY,
    reporter    TEXT NOT NULL,
    target      TEXT NOT NULL,
    room_id     TEXT,               -- where the reported chat line was said (NULL: the lobby)
    chat_id     TEXT,               -- the reported chat line, if a line is reported
    chat_text   TEXT,               -- its words, kept as evidence
    reason      TEXT NOT NULL,
    filed_at    TEXT NOT NULL,
    filed_us    BIGINT NOT NULL,
    closed_by   TEXT,               -- NULL while the report is open
    closed_at   TEXT,
    resolution  TEXT
);

CREATE INDEX reports_by_filing ON reports (filed_us);

CREATE TABLE audit_log (
    entry_id  TEXT PRIMARY KEY,
    at        TEXT NOT NULL,
    at_us     BIGINT NOT NULL,
    actor     TEXT NOT NULL,
    action    TEXT NOT NULL,
    target    TEXT NOT NULL,
    reason    TEXT NOT NULL,
    detail    TEXT
);

CREATE INDEX audit_log_by_time ON audit_log (at_us);
