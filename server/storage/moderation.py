"""Moderation's reads: roles, bans, mutes, retired names, reports, the audit log, games to delete.

Each function takes a read snapshot (`Storage._snapshot`) and returns the
server's values, read from rows by column name; `Storage` calls them from
thin methods of the `ModerationReader` port (`server.domain`).
"""

from __future__ import annotations

from datetime import datetime

from engine.record import PlayerInfo, parse_timestamp
from server.domain import (
    AuditEntry,
    GameId,
    GameToDelete,
    PlayerBanned,
    PlayerMuted,
    Report,
    Role,
    RoleGranted,
    RoomId,
)
from server.storage.drivers import Reads
from server.storage.moderation_statements import microseconds, name_key
from server.storage.rows import Row

_REPORT_COLUMNS = (
    "report_id, reporter, target, room_id, chat_id, chat_text, reason, filed_at, closed_by, closed_at, resolution"
)
_AUDIT_COLUMNS = "entry_id, at, actor, action, target, reason, detail, actor_id, target_id"


_HOLDER = "JOIN players p ON p.player_id = x.player_id WHERE p.name = ? COLLATE NOCASE"
"""Joins a table keyed by player id (as `x`) to the player now called the parameter (ignoring case)."""


async def role_of(snapshot: Reads, name: str) -> Role | None:
    row = await snapshot.row(f"SELECT x.role FROM player_roles x {_HOLDER}", (name,))
    return None if row is None else _role(row["role"])


async def roles(snapshot: Reads) -> list[RoleGranted]:
    rows = await snapshot.rows(
        "SELECT p.player_id, p.name, x.role, x.granted_by, x.granted_at FROM player_roles x "
        "JOIN players p ON p.player_id = x.player_id ORDER BY lower(p.name)"
    )
    return [
        RoleGranted(
            row["player_id"], row["name"], _role(row["role"]), row["granted_by"], parse_timestamp(row["granted_at"])
        )
        for row in rows
    ]


async def ban_of(snapshot: Reads, name: str) -> PlayerBanned | None:
    row = await snapshot.row(
        f"SELECT p.player_id, p.name, x.reason, x.banned_by, x.banned_at FROM player_bans x {_HOLDER}", (name,)
    )
    if row is None:
        return None
    at = parse_timestamp(row["banned_at"])
    return PlayerBanned(row["player_id"], row["name"], row["reason"], row["banned_by"], at)


async def mute_of(snapshot: Reads, name: str) -> PlayerMuted | None:
    row = await snapshot.row(
        f"SELECT p.player_id, p.name, x.until, x.reason, x.muted_by, x.muted_at FROM player_mutes x {_HOLDER}",
        (name,),
    )
    if row is None:
        return None
    until, at = parse_timestamp(row["until"]), parse_timestamp(row["muted_at"])
    return PlayerMuted(row["player_id"], row["name"], until, row["reason"], row["muted_by"], at)


async def renamed_to(snapshot: Reads, name: str) -> str | None:
    row = await snapshot.row("SELECT new_name FROM retired_names WHERE old_key = ?", (name_key(name),))
    return None if row is None else str(row["new_name"])


async def audit_log(snapshot: Reads, limit: int, target: str | None) -> list[AuditEntry]:
    """The latest entries, newest first; with `target`, those about the player called so now, the
    player a rename took the name from, and a deleted account that had it (by their ids), and any
    whose target is the name as written (games, a report, an entry from before player ids)."""
    if target is None:
        rows = await snapshot.rows(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log ORDER BY at_us DESC, entry_id LIMIT ?", (limit,)
        )
        return [_audit_entry(row) for row in rows]
    key = name_key(target)
    rows = await snapshot.rows(
        f"SELECT {_AUDIT_COLUMNS} FROM audit_log WHERE target_id IN ("
        "SELECT player_id FROM players WHERE name = :name COLLATE NOCASE "
        "UNION SELECT player_id FROM retired_names WHERE old_key = :key "
        "UNION SELECT player_id FROM deleted_accounts WHERE name_key = :key) "
        "OR (target_id IS NULL AND lower(target) = :key) ORDER BY at_us DESC, entry_id LIMIT :limit",
        {"name": target, "key": key, "limit": limit},
    )
    return [_audit_entry(row) for row in rows]


async def sanctions_since(snapshot: Reads, since: datetime) -> list[AuditEntry]:
    """The bans, renames, password resets and deletions of games logged since `since`, oldest first
    (read by the audit log's time index): what every node carries out (`server.moderation.sanctions`)."""
    rows = await snapshot.rows(
        f"SELECT {_AUDIT_COLUMNS} FROM audit_log WHERE at_us >= ? "
        "AND action IN ('ban', 'rename', 'reset_password', 'delete_games') "
        "ORDER BY at_us, entry_id",
        (microseconds(since),),
    )
    return [_audit_entry(row) for row in rows]


def _audit_entry(row: Row) -> AuditEntry:
    return AuditEntry(
        row["entry_id"],
        parse_timestamp(row["at"]),
        row["actor"],
        row["action"],
        row["target"],
        row["reason"],
        row["detail"],
        row["actor_id"],
        row["target_id"],
    )


async def open_reports(snapshot: Reads, limit: int) -> list[Report]:
    rows = await snapshot.rows(
        f"SELECT {_REPORT_COLUMNS} FROM reports WHERE closed_at IS NULL ORDER BY filed_us, report_id LIMIT ?",
        (limit,),
    )
    return [_report(row) for row in rows]


async def reports_filed_since(snapshot: Reads, reporter: str, since: datetime) -> int:
    """How many reports `reporter` (ignoring case) has filed since `since`."""
    row = await snapshot.row(
        "SELECT COUNT(*) AS filed FROM reports WHERE lower(reporter) = ? AND filed_us >= ?",
        (name_key(reporter), microseconds(since)),
    )
    return 0 if row is None else int(row["filed"])


async def report(snapshot: Reads, report_id: str) -> Report | None:
    row = await snapshot.row(f"SELECT {_REPORT_COLUMNS} FROM reports WHERE report_id = ?", (report_id,))
    return None if row is None else _report(row)


async def games_to_delete(snapshot: Reads, game_ids: list[str]) -> list[GameToDelete]:
    if not game_ids:
        return []
    marks = ", ".join("?" for _ in game_ids)
    rows = await snapshot.rows(
        "SELECT g.game_id, g.black_name, g.black_kind, g.black_level, g.white_name, g.white_kind, g.white_level, "
        "g.rated, r.game_id IS NOT NULL AS finished, g.tournament_id, g.private, g.created_by "
        f"FROM games g LEFT JOIN results r ON r.game_id = g.game_id WHERE g.game_id IN ({marks})",
        tuple(game_ids),
    )
    return [
        GameToDelete(
            GameId(row["game_id"]),
            PlayerInfo(row["black_name"], row["black_kind"], row["black_level"]),
            PlayerInfo(row["white_name"], row["white_kind"], row["white_level"]),
            bool(row["rated"]),
            bool(row["finished"]),
            row["tournament_id"],
            bool(row["private"]),
            row["created_by"],
        )
        for row in rows
    ]


async def unfinished_games_of(snapshot: Reads, name: str) -> int:
    key = name_key(name)
    row = await snapshot.row(
        "SELECT COUNT(*) AS unfinished FROM games g LEFT JOIN results r ON r.game_id = g.game_id "
        "WHERE r.game_id IS NULL AND (lower(g.black_name) = ? OR lower(g.white_name) = ?)",
        (key, key),
    )
    return 0 if row is None else int(row["unfinished"])


def _role(text: str) -> Role:
    if text == "admin":
        return "admin"
    if text == "moderator":
        return "moderator"
    raise ValueError(f"unknown role {text!r} stored")


def _report(row: Row) -> Report:
    closed_at = row["closed_at"]
    return Report(
        report_id=row["report_id"],
        reporter=row["reporter"],
        target=row["target"],
        reason=row["reason"],
        filed_at=parse_timestamp(row["filed_at"]),
        room_id=None if row["room_id"] is None else RoomId(row["room_id"]),
        chat_id=row["chat_id"],
        chat_text=row["chat_text"],
        closed_by=row["closed_by"],
        closed_at=None if closed_at is None else parse_timestamp(closed_at),
        resolution=row["resolution"],
    )
