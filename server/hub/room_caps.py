"""The caps on rooms a player opens, checked and taken in one step.

A room counts towards the caps once the registry holds it, which is only
after it has been stored; a request that checked the caps and then waited
for the database would let every other request in flight pass the same
check. So a request reserves its place synchronously, counting the rooms
held and the reservations of the requests still opening theirs, and gives
it back once its room is held (or was not made).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from server.domain import Refusal
from server.hub.services import Limits
from server.rooms.actors import RoomRegistry

Cap = tuple[str | None, bool]
"""Whose rooms a cap counts (None: everyone's), and whether only games between two bots."""


def caps_of(player: str | None, bots_only: bool) -> list[Cap]:
    """The caps a room opened by `player` counts towards."""
    caps: list[Cap] = [(player, False)]
    if bots_only:
        caps += [(player, True), (None, True)]
    return caps


class RoomCaps:
    """Rooms per player, games between bots per player and on the server (`Limits`)."""

    def __init__(self, limits: Limits, rooms: RoomRegistry) -> None:
        self._limits = limits
        self._rooms = rooms
        self._reserved: Counter[Cap] = Counter()

    @contextmanager
    def reserve(self, player: str, bots_only: bool, elsewhere: Counter[Cap] | None = None) -> Iterator[None]:
        """Hold a place under every cap a new room of `player`'s counts towards, for as long as it
        is being opened, counting `elsewhere` the rooms other nodes hold (in a cluster: read before,
        so two nodes opening at the same moment may both pass). Raises Refusal (`limit_reached`)
        naming the cap that is full."""
        caps = caps_of(player, bots_only)
        for cap in caps:
            self._check(cap, (elsewhere or Counter())[cap])
        self._reserved.update(caps)
        try:
            yield
        finally:
            self._reserved.subtract(caps)
            self._reserved = +self._reserved

    def _check(self, cap: Cap, elsewhere: int) -> None:
        player, bots_only = cap
        taken = self._rooms.count_open(created_by=player, bots_only=bots_only) + self._reserved[cap] + elsewhere
        limits = self._limits
        if player is None:
            if taken >= limits.bot_games:
                raise Refusal(
                    "limit_reached", f"{limits.bot_games} games between bots are running, the most this server allows"
                )
        elif not bots_only:
            if taken >= limits.rooms_per_player:
                raise Refusal(
                    "limit_reached",
                    f"you have {limits.rooms_per_player} rooms open, the most per player: close one first",
                )
        elif taken >= limits.bot_games_per_player:
            most = limits.bot_games_per_player
            raise Refusal("limit_reached", f"you have {most} games between bots running, the most per player")
