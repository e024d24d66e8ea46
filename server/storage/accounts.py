"""Reading the accounts back (`server.accounts`): passwords, signed-in devices, reserved names.

Functions of a read snapshot (`Storage._snapshot`), called by `Storage`'s thin methods; their
records are written by `server.storage.accounts_statements`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.record import parse_timestamp
from server.domain import AccountDeleted, Refusal, SignedInDevice
from server.storage.drivers import Queries, Reads
from server.storage.moderation import unfinished_games_of

_DEVICES = (
    "SELECT d.device_id, p.name AS player, d.label, d.signed_in_at "
    "FROM player_devices d JOIN players p USING (player_id)"
)
"""The devices signed in, each with the name of its account now."""

STILL_PLAYING = "finish or resign your unfinished games before deleting the account"
"""Why an account seated in an unfinished game is not deleted (`not_allowed`)."""


def _device_from(row: Any) -> SignedInDevice:
    return SignedInDevice(row["device_id"], row["player"], row["label"], parse_timestamp(row["signed_in_at"]))


async def password_hash(snapshot: Reads, player: str) -> str | None:
    """The encoded password hash of the player (its name as stored), or None if it has none."""
    row = await snapshot.row(
        "SELECT a.password_hash FROM player_passwords a JOIN players p USING (player_id) WHERE p.name = ?", (player,)
    )
    return None if row is None else str(row["password_hash"])


async def devices(snapshot: Reads, player: str) -> list[SignedInDevice]:
    """The devices signed in to the player's account, the first signed in first."""
    rows = await snapshot.rows(f"{_DEVICES} WHERE p.name = ? ORDER BY d.signed_in_at, d.device_id", (player,))
    return [_device_from(row) for row in rows]


async def device_with_token(snapshot: Reads, token_hash: str) -> SignedInDevice | None:
    """The signed-in device whose token has this SHA-256 (hex), or None."""
    row = await snapshot.row(f"{_DEVICES} WHERE d.token_hash = ?", (token_hash,))
    return None if row is None else _device_from(row)


async def name_reserved_until(snapshot: Reads, name: str, now: datetime) -> datetime | None:
    """Until when a deleted account's name stays reserved, if it still is at `now` (ignoring case)."""
    rows = await snapshot.rows("SELECT name_free_at FROM deleted_accounts WHERE name_key = ?", (name.lower(),))
    until = [moment for row in rows if (moment := parse_timestamp(row["name_free_at"])) > now]
    return max(until, default=None)


async def refuse_deleting_a_player_at_play(transaction: Queries, deleted: AccountDeleted, for_update: str) -> None:
    """Refuse (`not_allowed`) the deletion of an account whose name holds a seat in an unfinished
    game, read in the deletion's own transaction (the record writer's) with the player's row locked
    (`for_update`, the driver's): a game stored before it, by another request or another node, is
    seen, and the deletion writes nothing."""
    await transaction.row(f"SELECT name FROM players WHERE name = ?{for_update}", (deleted.name,))
    if await unfinished_games_of(transaction, deleted.name):
        raise Refusal("not_allowed", STILL_PLAYING)
