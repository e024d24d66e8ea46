"""The SQL of the accounts' records (`server.accounts`): passwords, devices, deleted accounts.

Registered in `server.storage.statements`, which commits them like every record. The accounts' own
tables are keyed by the player's id (migration 0015), found from the name the record carries; games
show names, matched ignoring case with `lower()` (they may hold a name as it was written before names
ignored case).
"""

from __future__ import annotations

from typing import Any

from engine.record import format_timestamp
from server.domain import AccountDeleted, AccountRecord, DeviceSignedIn, DevicesSignedOut, PasswordSet

Statement = tuple[str, tuple[Any, ...]]

_ID_OF = "(SELECT player_id FROM players WHERE name = ? COLLATE NOCASE)"
"""The id of the player called the parameter now: the accounts' rows are keyed by it."""
_SET_PASSWORD = (
    "INSERT INTO player_passwords (player_id, password_hash, set_at) "
    "SELECT player_id, ?, ? FROM players WHERE name = ? COLLATE NOCASE "
    "ON CONFLICT (player_id) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at"
)
_REPLACE_TOKEN = "UPDATE players SET token_hash = ? WHERE name = ?"
_ADD_DEVICE = (
    "INSERT INTO player_devices (device_id, player_id, token_hash, label, signed_in_at) "
    "SELECT ?, player_id, ?, ?, ? FROM players WHERE name = ? COLLATE NOCASE ON CONFLICT (token_hash) DO NOTHING"
)
"""A token already a device's (two first passwords set at once from one token) stays that device."""
_REMOVE_DEVICE = f"DELETE FROM player_devices WHERE device_id = ? AND player_id = {_ID_OF}"
_RENAMES = (
    "UPDATE games SET black_name = ? WHERE lower(black_name) = lower(?)",
    "UPDATE games SET white_name = ? WHERE lower(white_name) = lower(?)",
    "UPDATE games SET created_by = ? WHERE lower(created_by) = lower(?)",
    "UPDATE opening_steps SET player = ? WHERE lower(player) = lower(?)",
    "UPDATE rating_changes SET player = ? WHERE player = ?",
    "UPDATE tournaments SET organiser = ? WHERE lower(organiser) = lower(?)",
)
"""Each puts the first parameter (a placeholder) where the second (a name) was shown."""
_GONE_WITH_THE_ACCOUNT = tuple(
    f"DELETE FROM {table} WHERE player_id = {_ID_OF}"
    for table in ("player_passwords", "player_devices", "player_roles", "player_mutes")
)
"""What a deleted account takes with it: its password, devices, role and mute (its ban stays, with its
id, in case a moderator looks for it)."""
_RENAME_PLAYER = "UPDATE players SET name = ?, token_hash = ? WHERE name = ?"
_RESERVE_NAME = (
    "INSERT INTO deleted_accounts (placeholder, name_key, deleted_at, name_free_at, player_id) "
    "SELECT ?, ?, ?, ?, player_id FROM players WHERE name = ?"
)


def account_rows(record: AccountRecord) -> list[Statement]:
    """The row statements of an account's record, in the order they must run."""
    if isinstance(record, DeviceSignedIn):
        return [_device_row(record)]
    if isinstance(record, PasswordSet):
        rows: list[Statement] = [(_SET_PASSWORD, (record.password_hash, format_timestamp(record.at), record.player))]
        if record.replaced_token_hash is not None:
            rows.append((_REPLACE_TOKEN, (record.replaced_token_hash, record.player)))
        if record.first_device is not None:
            rows.append(_device_row(record.first_device))
        return rows
    if isinstance(record, DevicesSignedOut):
        return [(_REMOVE_DEVICE, (device_id, record.player)) for device_id in record.device_ids]
    return _deletion_rows(record)


def _device_row(record: DeviceSignedIn) -> Statement:
    at = format_timestamp(record.at)
    return _ADD_DEVICE, (record.device_id, record.token_hash, record.label, at, record.player)


def _deletion_rows(record: AccountDeleted) -> list[Statement]:
    name, placeholder = record.name, record.placeholder
    deleted_at, free_at = format_timestamp(record.at), format_timestamp(record.name_free_at)
    return [
        *((rename, (placeholder, name)) for rename in _RENAMES),
        *((gone, (name,)) for gone in _GONE_WITH_THE_ACCOUNT),
        (_RENAME_PLAYER, (placeholder, record.unusable_token_hash, name)),
        (_RESERVE_NAME, (placeholder, name.lower(), deleted_at, free_at, placeholder)),
    ]
