"""Whether a player may sign in or chat: the checks `hello`, sign-in with a password and chat call.

A ban bars a name from signing in, a name retired by a rename is nobody's
to take, and a mute refuses chat lines until it ends; each refusal says
why (and until when) in words the player reads.
"""

from __future__ import annotations

from datetime import datetime

from engine.record import format_timestamp
from server.domain import ModerationReader, Refusal


async def check_may_sign_in(storage: ModerationReader, name: str) -> None:
    """Raise Refusal when `name` may not sign in: `not_allowed` for a banned player (with the ban's
    reason), `name_taken` for a name a rename retired (with the name its player has now)."""
    ban = await storage.ban_of(name)
    if ban is not None:
        raise Refusal("not_allowed", f"{ban.name!r} is banned from this server: {ban.reason}")
    new_name = await storage.renamed_to(name)
    if new_name is not None:
        raise Refusal("name_taken", f"a moderator renamed {name!r} to {new_name!r}: sign in as {new_name!r}")


async def check_may_chat(storage: ModerationReader, name: str, now: datetime) -> None:
    """Raise Refusal (`not_allowed`) when `name` is muted at `now`, saying until when and why."""
    mute = await storage.mute_of(name)
    if mute is not None and mute.until > now:
        raise Refusal("not_allowed", f"you are muted until {format_timestamp(mute.until)}: {mute.reason}")
