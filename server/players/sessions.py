"""Signing in: a name and a secret token, of which only a hash is ever stored.

The first `hello` with a new name creates the player and hands out a fresh
random token; every later `hello` with that name must bring the token back.
An address may make only so many new names an hour (`NewNames`): each is
kept for good.
Tokens are compared through their hashes in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from engine.record import PlayerKind
from engine.registry import level_names
from server.domain import Records, Refusal, StoredPlayer
from server.lobby.pacing import RecentCounts

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh random token (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> bytes:
    """The SHA-256 digest stored in place of the token."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def token_matches(token: str, stored_hash: bytes) -> bool:
    """Whether `token` is the one whose hash was stored (constant-time comparison)."""
    return hmac.compare_digest(hash_token(token), stored_hash)


class NewNames:
    """How many new players each address has signed up within the last hour: at most `per_hour`."""

    def __init__(self, per_hour: int) -> None:
        self._per_hour = per_hour
        self._made: RecentCounts[str] = RecentCounts(3600.0)

    def admit(self, address: str, now: float) -> None:
        """Count one new name for `address`; raise Refusal (`limit_reached`) when its hour's are used."""
        if self._made.count(address, now) >= self._per_hour:
            raise Refusal(
                "limit_reached", f"{self._per_hour} new names an hour may come from one address; sign in with yours"
            )
        self._made.add(address, now)


RESERVED_NAMES = frozenset(
    {"admin", "administrator", "moderator", "operator", "root", "system", "server", "staff", "support"}
    | {"official", "gomoku", "bot", "anonymous", "guest", "nobody", "everyone"}
)
"""Names nobody may take, ignoring case: a player called "admin" or "system" would speak with an
authority it does not have. One who held such a name before it was reserved keeps it."""


async def sign_in(
    storage: Records,
    name: str,
    token: str | None,
    kind: PlayerKind | None = None,
    is_level: Callable[[str], bool] = lambda name: name in level_names(),
    admit_new: Callable[[], None] = lambda: None,
) -> tuple[StoredPlayer, str]:
    """The player and the token to hand back, for a `hello`.

    Names are compared ignoring case. A new name creates the player with a
    fresh token (a token sent along with a name nobody has is ignored), as a
    person or, with `kind` "bot", as a bot account; a bot level's name (one
    `is_level` knows, or a level's stored row) is not free. A known name
    needs its token: without one the answer is `name_taken`, with a wrong
    one `unauthorized`; a `kind` other than the account's is `not_allowed`
    (an account is a person's or a bot's for good). `admit_new` is asked
    before a new name is made, and refuses it by raising Refusal.
    """
    player = await storage.find_player(name)
    if (player is None and is_level(name.lower())) or (player is not None and player.is_level):
        raise Refusal("name_taken", f"the name {name!r} belongs to a bot; choose another")
    if player is None and name.lower() in RESERVED_NAMES:
        raise Refusal("name_taken", f"the name {name!r} is reserved; choose another")
    if player is None:
        admit_new()
        fresh = new_token()
        created = await storage.add_player(name, hash_token(fresh), kind or "human")
        if created is not None:
            return created, fresh
        player = await storage.find_player(name)
        assert player is not None, "a name that was just taken exists"
    if token is None:
        raise Refusal("name_taken", f"the name {name!r} is taken; send its token to sign in")
    if not token_matches(token, player.token_hash):
        raise Refusal("unauthorized", f"that is not the token of {name!r}")
    check_kind(player, kind)
    return player, token


def check_kind(player: StoredPlayer, kind: PlayerKind | None) -> None:
    """Refuse (`not_allowed`) a sign-in as a `kind` other than the account's: an account is a
    person's or a bot's for good."""
    if kind is not None and kind != player.kind:
        account = "a bot account" if player.kind == "bot" else "a person's account"
        raise Refusal("not_allowed", f"{player.name!r} is {account}: sign in without kind, or as {player.kind!r}")
