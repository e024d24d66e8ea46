"""The hub between the edge and the rooms: commands in, by room id; events out, once per room.

A room command is a value: which room, who asks (a caller reference, never
a connection) and the validated request. In one process the hub is a dict
lookup to the room's actor (`RoomRegistry`), and a room's events go
straight to the edge's `publish`, once per outcome however many watch; a
hub across processes would carry the same values over a stream.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.domain import Caller, PresenceReport, Refusal, RoomId, Standing
from server.rooms.actors import RoomActor, RoomRegistry
from server.rooms.room import RoomRequest


@dataclass(frozen=True, slots=True)
class RoomCommand:
    """One request for one room, from one caller."""

    room_id: RoomId
    caller: Caller
    request: RoomRequest
    standings: tuple[Standing, ...] = ()
    """Standings the room is to show in its seats (the caller's rating)."""


class Hub:
    """Hands each command to its room's actor, and the edge's presence reports to theirs."""

    def __init__(self, rooms: RoomRegistry) -> None:
        self._rooms = rooms
        self.find_elsewhere: Callable[[RoomId], Awaitable[None]] | None = None
        """Asked about a room not served here, when this is one of several nodes: it takes the room
        over if its node is dead, or refuses (`unavailable`) if another node serves it."""

    async def command(self, command: RoomCommand) -> None:
        """Serve a command in its room (raising Refusal as the room does); `not_found` if no such room."""
        actor = self._actor(command.room_id)
        if actor is None and self.find_elsewhere is not None:
            await self.find_elsewhere(command.room_id)
            actor = self._actor(command.room_id)
        if actor is None:
            raise Refusal("not_found", f"there is no room {command.room_id!r}")
        await actor.apply(command.caller, command.request, command.standings)

    async def report(self, room_id: RoomId, report: PresenceReport) -> None:
        """Tell a room what the edge now counts of its connections (nothing if it is gone)."""
        actor = self._actor(room_id)
        if actor is not None:
            await actor.report_presence(report)

    def _actor(self, room_id: RoomId) -> RoomActor | None:
        return self._rooms.get(room_id)
