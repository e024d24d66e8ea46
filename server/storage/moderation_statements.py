"""The SQL of moderation's records: roles, bans, mutes, renames, reports, deleted games, the audit log.

`server.storage.statements` hands each moderation record here. Every
statement runs unchanged on SQLite and PostgreSQL: a player's roles, bans
and mutes are keyed by their id (migration 0015), the names games and
reports show are matched by their lower-case key, and rows are replaced
with `INSERT ... ON CONFLICT ... DO UPDATE`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.record import format_timestamp
from server.domain import (
    AuditEntry,
    GamesDeleted,
    ModerationRecord,
    PlayerBanned,
    PlayerMuted,
    PlayerRenamed,
    PlayerUnbanned,
    PlayerUnmuted,
    ReportClosed,
    ReportFiled,
    RoleGranted,
    RoleRevoked,
)

Statement = tuple[str, tuple[Any, ...]]

_INSERT_AUDIT = (
    "INSERT INTO audit_log (entry_id, at, at_us, actor, action, target, reason, detail, actor_id, target_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_GRANT = (
    "INSERT INTO player_roles (player_id, role, granted_by, granted_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (player_id) DO UPDATE SET role = excluded.role, "
    "granted_by = excluded.granted_by, granted_at = excluded.granted_at"
)
_REVOKE = "DELETE FROM player_roles WHERE player_id = ?"
_BAN = (
    "INSERT INTO player_bans (player_id, reason, banned_by, banned_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (player_id) DO UPDATE SET reason = excluded.reason, "
    "banned_by = excluded.banned_by, banned_at = excluded.banned_at"
)
_UNBAN = "DELETE FROM player_bans WHERE player_id = ?"
_MUTE = (
    "INSERT INTO player_mutes (player_id, until, reason, muted_by, muted_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (player_id) DO UPDATE SET until = excluded.until, "
    "reason = excluded.reason, muted_by = excluded.muted_by, muted_at = excluded.muted_at"
)
_UNMUTE = "DELETE FROM player_mutes WHERE player_id = ?"
_FILE_REPORT = (
    "INSERT INTO reports (report_id, reporter, target, room_id, chat_id, chat_text, reason, filed_at, filed_us) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_CLOSE_REPORT = "UPDATE reports SET closed_by = ?, closed_at = ?, resolution = ? WHERE report_id = ?"
_RENAME_PLAYER = "UPDATE players SET name = ? WHERE player_id = ?"
_RENAMES = (
    "UPDATE games SET black_name = ? WHERE lower(black_name) = ?",
    "UPDATE games SET white_name = ? WHERE lower(white_name) = ?",
    "UPDATE games SET created_by = ? WHERE lower(created_by) = ?",
    "UPDATE rating_changes SET player = ? WHERE lower(player) = ?",
    "UPDATE opening_steps SET player = ? WHERE lower(player) = ?",
    "UPDATE reports SET reporter = ? WHERE lower(reporter) = ?",
    "UPDATE reports SET target = ? WHERE lower(target) = ?",
    "UPDATE retired_names SET new_name = ? WHERE lower(new_name) = ?",
    "UPDATE tournaments SET organiser = ? WHERE lower(organiser) = ?",
)
"""Each puts the new name (first parameter) where the old one's key (second) is shown. What a player
has (a role, a ban, a mute, a password, devices, puzzle ratings) is keyed by their id and stays."""
_FREE_NAME = "DELETE FROM retired_names WHERE old_key = ?"
_RETIRE_NAME = (
    "INSERT INTO retired_names (old_key, old_name, new_name, retired_at, player_id) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (old_key) DO UPDATE SET old_name = excluded.old_name, new_name = excluded.new_name, "
    "retired_at = excluded.retired_at, player_id = excluded.player_id"
)
_GAME_TABLES = (
    "moves",
    "opening_steps",
    "rating_changes",
    "results",
    "review_marks",
    "review_plies",
    "game_reviews",
    "mined_games",
    "imported_games",
)
"""The tables holding rows of a game, those that refer to another of them first."""
_DELETE_GAME = (
    "UPDATE players SET games = games - 1 WHERE name IN (SELECT player FROM rating_changes WHERE game_id = ?)",
    *(f"DELETE FROM {table} WHERE game_id = ?" for table in _GAME_TABLES),
    "UPDATE puzzles SET game_id = NULL WHERE game_id = ?",
    "DELETE FROM games WHERE game_id = ?",
)
"""What a game leaves in each table, the game's own row last (the others refer to it). A puzzle
taken from the game stays, without its link back (the position alone says nothing of who played).
A rated game's players keep the ratings it changed, but it no longer counts among their rated
games: a profile's wins, losses and draws, read from the games stored, add up to that count."""


def name_key(name: str) -> str:
    """The key a player's name is matched by in moderation's tables (names compare ignoring case)."""
    return name.lower()


def microseconds(moment: datetime) -> int:
    """A time as whole microseconds since 1970, for ordering rows by time."""
    return round(moment.timestamp() * 1_000_000)


def moderation_rows(record: ModerationRecord) -> list[Statement]:
    """The statements a moderation record writes, in order."""
    match record:
        case AuditEntry():
            at = format_timestamp(record.at)
            values = (record.actor, record.action, record.target, record.reason, record.detail)
            ids = (record.actor_id, record.target_id)
            return [(_INSERT_AUDIT, (record.entry_id, at, microseconds(record.at), *values, *ids))]
        case RoleGranted():
            return [(_GRANT, (record.player_id, record.role, record.by, format_timestamp(record.at)))]
        case RoleRevoked():
            return [(_REVOKE, (record.player_id,))]
        case PlayerBanned():
            return [(_BAN, (record.player_id, record.reason, record.by, format_timestamp(record.at)))]
        case PlayerUnbanned():
            return [(_UNBAN, (record.player_id,))]
        case PlayerMuted():
            until, at = format_timestamp(record.until), format_timestamp(record.at)
            return [(_MUTE, (record.player_id, until, record.reason, record.by, at))]
        case PlayerUnmuted():
            return [(_UNMUTE, (record.player_id,))]
        case PlayerRenamed():
            return _rename_rows(record)
        case ReportFiled():
            report = record.report
            filed = (report.reason, format_timestamp(report.filed_at), microseconds(report.filed_at))
            where = (report.room_id, report.chat_id, report.chat_text)
            return [(_FILE_REPORT, (report.report_id, report.reporter, report.target, *where, *filed))]
        case ReportClosed():
            return [(_CLOSE_REPORT, (record.by, format_timestamp(record.at), record.resolution, record.report_id))]
        case GamesDeleted():
            return [(sql, (game_id,)) for game_id in record.game_ids for sql in _DELETE_GAME]


def _rename_rows(record: PlayerRenamed) -> list[Statement]:
    old_key, new_key = name_key(record.old), name_key(record.new)
    rows: list[Statement] = [(_RENAME_PLAYER, (record.new, record.player_id))]
    rows += [(sql, (record.new, old_key)) for sql in _RENAMES]
    rows.append((_FREE_NAME, (new_key,)))
    if old_key != new_key:  # a change of case keeps the name
        retired = (old_key, record.old, record.new, format_timestamp(record.at), record.player_id)
        rows.append((_RETIRE_NAME, retired))
    return rows
