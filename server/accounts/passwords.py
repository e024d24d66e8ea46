"""Hashing and checking passwords: argon2id through `argon2-cffi`, never a hash of our own.

Each hash or check costs tens of milliseconds of CPU and 64 MiB (argon2-cffi's RFC 9106 profile): it
runs in a thread (argon2 releases the GIL), a few at a time, so that the event loop never waits on it
and a flood of sign-ins cannot take every core. Checking a name that has no password costs the same
as checking a wrong one: it is checked against a hash of a random password.
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

DEFAULT_CONCURRENCY = 2
"""Hashes or checks running at once (the others wait their turn)."""


class Passwords:
    """Hashes passwords and checks them against stored hashes, off the event loop."""

    def __init__(self, hasher: PasswordHasher | None = None, concurrency: int = DEFAULT_CONCURRENCY) -> None:
        self._hasher = hasher or PasswordHasher()
        self._turns = asyncio.Semaphore(concurrency)
        self._decoy: str | None = None
        """The hash of a random password, for checking a name that has none (made at first need)."""

    async def hash(self, password: str) -> str:
        """The argon2id hash of `password`, encoded with its parameters and salt."""
        async with self._turns:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def matches(self, stored: str | None, password: str) -> bool:
        """Whether `password` is the one `stored` is the hash of; with no stored hash, False after the
        same work as a wrong password."""
        if stored is None:
            if self._decoy is None:
                self._decoy = await self.hash(secrets.token_urlsafe(16))
            await self._check(self._decoy, password)
            return False
        return await self._check(stored, password)

    def outdated(self, stored: str) -> bool:
        """Whether a hash was made with other parameters than this hasher's (weaker ones, from an
        older release): it is made again from the password the next time it proves right."""
        return self._hasher.check_needs_rehash(stored)

    async def _check(self, stored: str, password: str) -> bool:
        async with self._turns:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
