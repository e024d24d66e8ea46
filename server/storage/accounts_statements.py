"""The SQL of the accounts' records (`server.accounts`): passwords, devices, deleted accounts.

Registered in `server.storage.statements`, which commits them like every record. Names are matched
as stored (`players.name`, as first written) in the accounts' own tables, and ignoring case with
`lower()` in the games, which may hold a name as it was written before names ignored case.
"""

from __future__ import annotations

from typing import Any

from engine.record import format_timestamp
from server.domain import AccountDeleted, AccountRecord, DeviceSignedIn, DevicesSignedOut, PasswordSet

Statement = tuple[str, tuple[Any, ...]]

_SET_PASSWORD = (
    "INSERT INTO account_passwords (player, password_hash, set_at) VALUES (?, ?, ?) "
    "ON CONFLICT (player) DO UPDATE SET password_hash = excluded.password_hash, set_at = excluded.set_at"
)
_REPLACE_TOKEN = "UPDATE players SET token_hash = ? WHERE name = ?"
_ADD_DEVICE = (
    "INSERT INTO account_devices (device_id, player, token_hash, label, signed_in_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (token_hash) DO NOTHING"
)
"""A token already a device's (two first passwords set at once from one token) stays that device."""
_REMOVE_DEVICE = "DELETE FROM account_devices WHERE device_id = ? AND player = ?"
_RENAMES = (
    "UPDATE games SET black_name = ? WHERE lower(black_name) = lower(?)",
    "UPDATE games SET white_name = ? WHERE lower(white_name) = lower(?)",
    "UPDATE games SET created_by = ? WHERE lower(created_by) = lower(?)",
    "UPDATE opening_steps SET player = ? WHERE lower(player) = lower(?)",
    "UPDATE rating_changes SET player = ? WHERE player = ?",
)
"""Each puts the first parameter (a placeholder) where the second (a name) was."""
_DELETE_PASSWORD = "DELETE FROM account_passwords WHERE player = ?"
_DELETE_DEVICES = "DELETE FROM account_devices WHERE player = ?"
_RENAME_PLAYER = "UPDATE players SET name = ?, token_hash = ? WHERE name = ?"
_RESERVE_NAME = "INSERT INTO deleted_accounts (placeholder, name_key, deleted_at, name_free_at) VALUES (?, ?, ?, ?)"


def account_rows(record: AccountRecord) -> list[Statement]:
    """The row statements of an account's record, in the order they must run."""
    if isinstance(record, DeviceSignedIn):
        return [_device_row(record)]
    if isinstance(record, PasswordSet):
        rows: list[Statement] = [(_SET_PASSWORD, (record.player, record.password_hash, format_timestamp(record.at)))]
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
    return _ADD_DEVICE, (record.device_id, record.player, record.token_hash, record.label, at)


def _deletion_rows(record: AccountDeleted) -> list[Statement]:
    name, placeholder = record.name, record.placeholder
    deleted_at, free_at = format_timestamp(record.at), format_timestamp(record.name_free_at)
    return [
        *((rename, (placeholder, name)) for rename in _RENAMES),
        (_DELETE_PASSWORD, (name,)),
        (_DELETE_DEVICES, (name,)),
        (_RENAME_PLAYER, (placeholder, record.unusable_token_hash, name)),
        (_RESERVE_NAME, (placeholder, name.lower(), deleted_at, free_at)),
    ]
