"""What the accounts' requests do: sign in with a password, set or change it, list and sign out
devices, delete an account; and `reset_password`, for the operator's `gomoku-admin`.

Every change is a record (`server.domain.AccountRecord`) committed before it is answered. Wrong
passwords count against the name and the address (`SignInAttempts`); a name unknown, or without a
password, costs the same check as a wrong password and gets the same answer.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from engine.record import PlayerKind
from server.accounts.attempts import SignInAttempts
from server.accounts.passwords import Passwords
from server.domain import (
    AccountDeleted,
    DeviceSignedIn,
    DevicesSignedOut,
    PasswordSet,
    Records,
    Refusal,
    SignedInDevice,
    StoredPlayer,
    StoreRecord,
    utc_now,
)
from server.players.sessions import check_kind, hash_token, new_token

DEVICE_ID_BYTES = 9
"""A device id is 12 characters of URL-safe text."""
PLACEHOLDER_PREFIX = "deleted-"
"""A deleted account's games and ratings carry this and a random suffix in place of its name."""
WRONG_PASSWORD = "wrong name or password"
"""The one answer to a name unknown, without a password, or with another password: a guesser learns nothing."""


@dataclass(frozen=True, slots=True)
class AccountSettings:
    """How accounts are kept: the limits on wrong passwords and how long a deleted name waits."""

    failures_per_name: int = 5
    """Wrong passwords for one name within `failure_window_s` before its attempts are throttled
    (`--max-password-failures-per-name`)."""
    longest_name_pause_s: float = 60.0
    """The longest a throttled name's next attempt waits after its last wrong password."""
    failures_per_address: int = 20
    """Wrong passwords from one address within `failure_window_s` (`--max-password-failures-per-address`)."""
    failure_window_s: float = 900.0
    name_reserved_days: float = 30.0
    """How long a deleted account's name waits before anyone may take it (`--deleted-name-reserved-days`)."""


class AccountStore(Records, Protocol):
    """The storage accounts read and write (the server's `Storage`)."""

    async def password_hash(self, player: str) -> str | None:
        """The encoded password hash of the player (its name as stored), or None if it has none."""

    async def devices(self, player: str) -> list[SignedInDevice]:
        """The devices signed in to the player's account, the first signed in first."""

    async def device_with_token(self, token_hash: bytes) -> SignedInDevice | None:
        """The signed-in device whose token has this SHA-256, or None."""

    async def name_reserved_until(self, name: str, now: datetime) -> datetime | None:
        """Until when a deleted account's name stays reserved, if it still is at `now`."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A player signed in: the token to hand back, and the device of the account it is (None for a
    name without a password, whose token is the name's own)."""

    player: StoredPlayer
    token: str
    device_id: str | None


def _new_device(player: str, label: str) -> tuple[DeviceSignedIn, str]:
    """A device record for a fresh token, and the token."""
    token = new_token()
    device = DeviceSignedIn(secrets.token_urlsafe(DEVICE_ID_BYTES), player, hash_token(token).hex(), label, utc_now())
    return device, token


class Accounts:
    """The accounts of one server: its store, its password hasher and its count of wrong passwords."""

    def __init__(self, store: AccountStore, settings: AccountSettings, passwords: Passwords | None = None) -> None:
        self._store = store
        self._settings = settings
        self._passwords = passwords or Passwords()
        self._attempts = SignInAttempts(
            settings.failures_per_name,
            settings.failures_per_address,
            settings.failure_window_s,
            settings.longest_name_pause_s,
        )

    async def refuse_reserved_name(self, name: str) -> None:
        """Refuse (`name_taken`) a name a deleted account left, until its waiting period ends."""
        until = await self._store.name_reserved_until(name, utc_now())
        if until is not None:
            raise Refusal("name_taken", f"the name {name!r} was given up; it is free from {until:%Y-%m-%d %H:%M} UTC")

    async def sign_in_with_device(self, name: str, token: str, kind: PlayerKind | None) -> SignedIn | None:
        """The account `name` signed in by the token of one of its devices; None when the token is
        no device's of that name (it may still be the name's own token)."""
        device = await self._store.device_with_token(hash_token(token))
        if device is None or device.player.lower() != name.lower():
            return None
        player = await self._store.find_player(device.player)
        assert player is not None, "a device's account has its player row"
        check_kind(player, kind)
        return SignedIn(player, token, device.device_id)

    async def sign_in_with_password(
        self, name: str, password: str, kind: PlayerKind | None, address: str, label: str, now: float
    ) -> SignedIn:
        """Sign a new device in to the account `name`: a fresh token for it.

        Refused with `rate_limited` past the limits of wrong passwords, and `unauthorized` for a wrong
        password, an unknown name or one without a password alike, after the same work."""
        self._attempts.begin(name, address, now)
        player = await self._store.find_player(name)
        stored = None if player is None else await self._store.password_hash(player.name)
        # The check runs first, whatever is missing: an unknown name costs what a wrong password does.
        if not await self._passwords.matches(stored, password) or player is None:
            raise Refusal("unauthorized", WRONG_PASSWORD)
        self._attempts.succeeded(name, address, now)
        check_kind(player, kind)
        device, token = _new_device(player.name, label)
        assert stored is not None, "a password matched a stored hash"
        rehashed = [PasswordSet(player.name, await self._passwords.hash(password), utc_now())]
        await self._store.apply([*(rehashed if self._passwords.outdated(stored) else []), device])
        return SignedIn(player, token, device.device_id)

    async def has_password(self, player: str) -> bool:
        return await self._store.password_hash(player) is not None

    async def set_password(
        self, player: str, password: str, old_password: str | None, label: str, address: str, now: float
    ) -> str | None:
        """Keep the name with `password`, or change it (knowing `old_password`); return the id of the
        account's first device when this sets the first password (the device that asked becomes it).

        A wrong `old_password` counts as a wrong password (`unauthorized`, and the limits)."""
        stored = await self._store.password_hash(player)
        if stored is not None:
            if old_password is None:
                raise Refusal("not_allowed", "the name has a password: send it as old_password to change it")
            self._attempts.begin(player, address, now)
            if not await self._passwords.matches(stored, old_password):
                raise Refusal("unauthorized", "that is not the current password")
            self._attempts.succeeded(player, address, now)
            await self._store.apply([PasswordSet(player, await self._passwords.hash(password), utc_now())])
            return None
        row = await self._store.find_player(player)
        assert row is not None, "a signed-in player has a row"
        first = DeviceSignedIn(secrets.token_urlsafe(DEVICE_ID_BYTES), player, row.token_hash.hex(), label, utc_now())
        hashed = await self._passwords.hash(password)
        await self._store.apply([PasswordSet(player, hashed, utc_now(), first, hash_token(new_token()))])
        return first.device_id

    async def devices(self, player: str) -> list[SignedInDevice]:
        """The devices signed in to the account; `not_allowed` for a name without a password."""
        await self._require_password(player)
        return await self._store.devices(player)

    async def sign_out_others(self, player: str, keep: str | None) -> tuple[str, ...]:
        """Sign out every device of the account but `keep` (the one asking); return the ids signed out."""
        chosen = tuple(device.device_id for device in await self.devices(player) if device.device_id != keep)
        if chosen:
            await self._store.apply([DevicesSignedOut(player, chosen)])
        return chosen

    async def sign_out(self, player: str, device_id: str | None, every: bool) -> tuple[str, ...]:
        """Sign out one device of the account, or every one; return the ids signed out."""
        devices = await self.devices(player)
        if every:
            chosen = tuple(device.device_id for device in devices)
        elif device_id is None:
            raise Refusal("bad_request", "sign_out needs a device_id, or all: true")
        elif device_id not in {device.device_id for device in devices}:
            raise Refusal("not_found", f"no device {device_id!r} is signed in to your account")
        else:
            chosen = (device_id,)
        await self._store.apply([DevicesSignedOut(player, chosen)])
        return chosen

    async def delete(self, player: str, password: str | None, address: str, now: float) -> datetime:
        """Delete the account (its password first, if it has one); return from when its name is free.

        Its games and ratings stay under a placeholder name, off the leaderboard."""
        stored = await self._store.password_hash(player)
        if stored is not None:
            self._attempts.begin(player, address, now)
            if password is None or not await self._passwords.matches(stored, password):
                raise Refusal("unauthorized", "deleting the account needs its password")
            self._attempts.succeeded(player, address, now)
        at = utc_now()
        free_at = at + timedelta(days=self._settings.name_reserved_days)
        placeholder = PLACEHOLDER_PREFIX + secrets.token_hex(6)
        await self._store.apply([AccountDeleted(player, placeholder, at, free_at, hash_token(new_token()))])
        return free_at

    async def _require_password(self, player: str) -> None:
        if not await self.has_password(player):
            raise Refusal("not_allowed", "devices are kept for names with a password: set one first")


async def reset_password(
    store: AccountStore, name: str, new_password: str, passwords: Passwords | None = None
) -> StoredPlayer:
    """Give the account `name` a new password, on the operator's word: every device is signed out,
    and the name's own token stops signing in. Raises LookupError for an unknown name."""
    player, records = await password_reset_records(store, name, new_password, passwords)
    await store.apply(records)
    return player


async def password_reset_records(
    store: AccountStore, name: str, new_password: str, passwords: Passwords | None = None
) -> tuple[StoredPlayer, list[StoreRecord]]:
    """The player and the records of `reset_password`, for a caller that stores them together with
    records of its own (`gomoku-admin reset-password` adds its audit entry). Raises LookupError for
    an unknown name."""
    player = await store.find_player(name)
    if player is None:
        raise LookupError(f"there is no player {name!r}")
    hashed = await (passwords or Passwords()).hash(new_password)
    signed_in = tuple(device.device_id for device in await store.devices(player.name))
    reset = PasswordSet(player.name, hashed, utc_now(), None, hash_token(new_token()))
    return player, [reset, DevicesSignedOut(player.name, signed_in)]
