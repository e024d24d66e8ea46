"""The hub between the edge and the rooms: commands in, by room id; events out, once per room.

A room command is a value: which room, who asks (a caller reference, never
a connection) and the validated request. In one process the hub is a dict
lookup to the room's actor (`RoomRegistry`), and a room's events go
straight to the edge's `publish`, once per outcome however many watch. The
cluster's hub (`server.cluster.bus_hub`) is this one with a bus behind it:
the same values go to the room's owner node, and its events come back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from server.domain import AuditEntry, Caller, CallerRef, PresenceReport, Refusal, RoomId, Standing
from server.players.ratings import RatingBook
from server.rooms import views
from server.rooms.actors import RoomActor, RoomRegistry
from server.rooms.room import Outcome, Room, RoomEvent, RoomRequest
from wire.messages import Analyze, ClientRequest, JoinRoom, RoomSummaryModel

if TYPE_CHECKING:
    from server.hub.room_caps import Cap  # which stands on the services, which stand on this module


@dataclass(frozen=True, slots=True)
class RoomCommand:
    """One request for one room, from one caller."""

    room_id: RoomId
    caller: Caller
    request: RoomRequest
    sent_again: bool = False
    """Sent again after its answer was lost while the room changed nodes (`Room.apply_again`)."""


class Hub:
    """Hands each command to its room's actor, and the edge's presence reports to theirs."""

    def __init__(self, rooms: RoomRegistry, ratings: RatingBook) -> None:
        self._rooms = rooms
        self._ratings = ratings
        self.find_elsewhere: Callable[[RoomId], Awaitable[None]] | None = None
        """Asked about a room not served here, when this is one of several nodes: it takes the room
        over if its node is dead, or refuses (`unavailable`) if another node serves it."""
        self.confirm_lease: Callable[[], None] | None = None
        """Asked before a room served here answers, when this is one of several nodes: it refuses
        (`unavailable`) while the node cannot be sure it still holds its lease (a node paused past
        it must not answer from rooms another node has taken over, not even a read)."""

    async def claim(self, room_id: RoomId) -> None:
        """Make this node the owner of a room about to open here (in one process it is already)."""

    async def may_restore(self, room_id: RoomId) -> bool:
        """Whether this node is to bring back a room of the stored games at its start (in one
        process, every one)."""
        return True

    async def listed_rooms(self, limit: int, after: str | None) -> tuple[list[RoomSummaryModel], RoomId | None]:
        """A page of the room list (`list_rooms`) and the next page's cursor (None on the last)."""
        page, cursor = self._rooms.listed(limit, after)
        return [views.room_summary(facts) for facts in page], cursor

    async def seated(self, name: str) -> list[RoomId]:
        """The unfinished rooms where `name` holds a seat (`welcome`'s rooms)."""
        return self._rooms.seated(name)

    async def open_elsewhere(self) -> Counter[Cap]:
        """The unfinished rooms other nodes hold, under each cap they count towards (none in one
        process)."""
        return Counter()

    async def playing_names(self) -> set[str]:
        """The people seated in an unfinished game (their status is `playing`)."""
        return self._rooms.playing_names()

    def hold(self, actor: RoomActor) -> None:
        """Hold a room opened or restored here, and start its timers."""
        self._rooms.add(actor)

    async def command(self, command: RoomCommand) -> None:
        """Serve a command in its room (raising Refusal as the room does); `not_found` if no such room."""
        actor = self._actor(command.room_id)
        if actor is None and self.find_elsewhere is not None:
            await self.find_elsewhere(command.room_id)
            actor = self._actor(command.room_id)
        if actor is None:
            raise Refusal("not_found", f"there is no room {command.room_id!r}")
        if self.confirm_lease is not None:
            self.confirm_lease()
        standings = await self._standings(command)
        await actor.apply(command.caller, command.request, standings, command.sent_again)

    async def held_elsewhere(self, room_id: RoomId) -> bool:
        """Whether another node holds the room (in one process, none does)."""
        return False

    async def analyse_elsewhere(self, room_id: RoomId, caller: Caller, request: Analyze) -> bool:
        """Hand the `analyze` of a room not held here to the node that holds it, which answers the
        caller; whether it was handed on. In one process it never is: on one of several nodes
        without a bus, a dead node's room is taken over (held here then), and another live node's
        refused (`unavailable`)."""
        if self._actor(room_id) is None and self.find_elsewhere is not None:
            await self.find_elsewhere(room_id)
        return False

    async def room_playing_elsewhere(self, game_id: str) -> RoomId | None:
        """The room another node holds where the game `game_id` is going on (in one process, none)."""
        return None

    async def relay(self, room_id: RoomId, event: RoomEvent) -> None:
        """Publish an event that stores nothing (a chat line) to everyone in a room, in the room's
        order (`not_found` if there is no such room)."""
        actor = self._actor(room_id)
        if actor is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        await actor.run(lambda room, now: Outcome(events=[event]))

    async def take_out(self, room_id: RoomId, name: str, refs: list[CallerRef], forfeit: str | None) -> None:
        """A player's connections (`refs`) leave a room at a moderator's word, as if they had asked
        to; a banned player's game in it is first lost by forfeit (the result saying `forfeit`), and a
        seat of theirs waiting for a game is open again. Nothing if the room is gone."""
        actor = self._actor(room_id)
        if actor is None:
            return
        callers = [Caller(ref, name) for ref in refs]

        def forfeit_and_leave(room: Room, now: float) -> Outcome:
            outcome = Outcome() if forfeit is None else room.forfeit(name, forfeit, now)
            for caller in callers:
                left = room.leave(caller, now)
                outcome.events += left.events
                outcome.records += left.records
            return outcome

        await actor.run(forfeit_and_leave)

    def announce_sanction(self, entry: AuditEntry) -> None:
        """Tell the other nodes of a ban or a rename stored here, for each to carry out its part (in
        one process there are none)."""

    def announce_kick(self, room_id: RoomId, name: str, reason: str) -> None:
        """Tell the other nodes that `name` is kicked out of a room held here, for each to keep them
        out and take their connections out (in one process there are none)."""

    def announce_signed_out(self, name: str, device_ids: tuple[str, ...]) -> None:
        """Tell the other nodes that devices of `name`'s account were signed out here, for each to
        close its connections signed in as them (in one process there are none)."""

    def announce_deleted(self, name: str, name_free_at: str) -> None:
        """Tell the other nodes that `name`'s account was deleted here, for each to close its
        connections of it (in one process there are none)."""

    def announce_first_device(self, name: str, device_id: str) -> None:
        """Tell the other nodes that the name's own token became its account's first device here:
        their connections signed in with it are that device (in one process there are none)."""

    async def moderate_in_room(self, room_id: RoomId, caller: CallerRef, name: str, request: ClientRequest) -> None:
        """Hand a moderator's request about a room another node holds to that node, whose answer
        comes back over the bus; in one process there is none (`not_found`)."""
        raise Refusal("not_found", f"there is no room {room_id!r}")

    async def moderate_on_node(self, node: str, caller: CallerRef, name: str, request: ClientRequest) -> None:
        """Hand a moderator's request about what another node keeps (a chat line it heard) to that
        node, whose answer comes back over the bus; in one process there is none (`not_found`)."""
        raise Refusal("not_found", f"there is no node {node!r}")

    async def report(self, room_id: RoomId, report: PresenceReport) -> None:
        """Tell a room what the edge now counts of its connections (nothing if it is gone)."""
        actor = self._actor(room_id)
        if actor is not None:
            await actor.report_presence(report)

    def _actor(self, room_id: RoomId) -> RoomActor | None:
        return self._rooms.get(room_id)

    async def _standings(self, command: RoomCommand) -> tuple[Standing, ...]:
        """One who asks for a seat brings its standing (the rating book's, as stored), for the seat's
        rating in the room's snapshots: a room learns ratings when a seat is taken and from the rated
        results it stores, not before each request. Read where the room is, so that a command carries
        only the request."""
        request = command.request
        if isinstance(request, JoinRoom) and request.as_ == "player":
            return (await self._ratings.standing(command.caller.name),)
        return ()
