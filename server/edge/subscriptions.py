"""The edge: which connection is in which room, and a room's events turned into text once for all.

Rooms name no connection: their events are for an audience (everyone in
the room, one caller), and an outcome says when a caller's connection
enters or leaves. The `Edge`, which holds the connections, keeps the book
of who is in each room (`Subscriptions`), serialises each event once (a
`room` snapshot at most once per role: black, white, spectators, as `you`
differs) and hands the one text to every recipient's send queue. It counts
each player's connections per room, and reports a changed count back to the
room (`PresenceReport`): that is how a room knows who is here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from server.domain import (
    LOCAL_NODE,
    CallerRef,
    ConnectionId,
    Enter,
    Everyone,
    Exit,
    OneCaller,
    PresenceReport,
    RoomId,
    connection_of,
    node_of,
)
from server.rooms.room import Role, RoomChange, RoomEvent


class Recipient(Protocol):
    """A connection as the edge sends to it (the server's `Connection`)."""

    @property
    def player(self) -> str | None:
        """The player signed in on it."""

    def send_wire(self, frame: bytes) -> None:
        """Queue a message already in its wire form (UTF-8 text)."""


class Subscriptions:
    """The rooms each connection is in, under its player's name, and each player's count per room."""

    def __init__(self) -> None:
        self._members: dict[RoomId, dict[ConnectionId, str]] = {}
        self._rooms_of: dict[ConnectionId, set[RoomId]] = {}
        self._counts: dict[tuple[RoomId, str], int] = {}

    def enter(self, room_id: RoomId, connection: ConnectionId, name: str) -> bool:
        """The connection is in the room from now on; whether it was not already."""
        members = self._members.setdefault(room_id, {})
        if connection in members:
            return False
        members[connection] = name
        self._rooms_of.setdefault(connection, set()).add(room_id)
        self._counts[room_id, name] = self._counts.get((room_id, name), 0) + 1
        return True

    def exit(self, room_id: RoomId, connection: ConnectionId) -> str | None:
        """The connection is no longer in the room; the player it was, if it was in."""
        members = self._members.get(room_id, {})
        name = members.pop(connection, None)
        if name is None:
            return None
        if not members:
            del self._members[room_id]
        rooms = self._rooms_of[connection]
        rooms.discard(room_id)
        if not rooms:
            del self._rooms_of[connection]
        left = self._counts.pop((room_id, name)) - 1
        if left:
            self._counts[room_id, name] = left
        return name

    def count(self, room_id: RoomId, name: str) -> int:
        """How many connections `name` has in the room."""
        return self._counts.get((room_id, name), 0)

    def members(self, room_id: RoomId) -> Mapping[ConnectionId, str]:
        """The connections in the room, with the player signed in on each."""
        return self._members.get(room_id, {})

    def rooms_of(self, connection: ConnectionId) -> list[RoomId]:
        """The rooms the connection is in."""
        return sorted(self._rooms_of.get(connection, ()))

    def rooms(self) -> list[RoomId]:
        """The rooms some connection is in."""
        return sorted(self._members)


class Edge:
    """The connections of this process, their rooms, and the fan-out of each room's events.

    Callers are named `<node>/<connection>`: the edge reads back only the references of its own
    `node`, and leaves another node's entering or leaving a room to that node's edge (in a cluster,
    a room's changes reach the edge of every node with connections in it)."""

    def __init__(self, connections: Mapping[ConnectionId, Recipient], node: str = LOCAL_NODE) -> None:
        self._connections = connections
        self.node = node
        self.book = Subscriptions()
        self._closed_in: dict[RoomId, set[str]] = {}
        """Rooms that connections left by closing since the last `closed_reports`, and whose."""

    def publish(self, room_id: RoomId, changes: list[RoomChange]) -> PresenceReport | None:
        """Deliver a room's changes in order: enter and leave the book, send each event once to its
        audience; the players whose count in the room this changed, if any, for the room to know."""
        counted: dict[str, int] = {}
        leaving = False
        for change in changes:
            match change:
                case Enter():
                    self._enter(room_id, change, counted)
                case Exit():
                    leaving = True
                    self._exit(room_id, change, counted)
                case RoomEvent():
                    self._send(room_id, change)
        return PresenceReport(counted, on_purpose=leaving) if counted else None

    def connection_closed(self, connection: ConnectionId) -> bool:
        """Take a closed connection out of every room (no event reaches it any more); whether this
        starts a batch of reports to make (`closed_reports`)."""
        starts = not self._closed_in
        for room_id in self.book.rooms_of(connection):
            name = self.book.exit(room_id, connection)
            assert name is not None, "the book lists only rooms the connection is in"
            self._closed_in.setdefault(room_id, set()).add(name)
        return starts and bool(self._closed_in)

    def closed_reports(self) -> list[tuple[RoomId, PresenceReport]]:
        """One report per room that connections left by closing since the last call (a crowd leaving
        at once is one change for its room), with the counts as they are now: a player who came
        back meanwhile is counted back."""
        closed_in, self._closed_in = self._closed_in, {}
        return [(room_id, self.recount(room_id, sorted(names))) for room_id, names in closed_in.items()]

    def recount(self, room_id: RoomId, names: list[str]) -> PresenceReport:
        """The players' counts in the room as the book has them (for a room that was not held yet
        while some of its connections closed)."""
        return PresenceReport({name: self.book.count(room_id, name) for name in names})

    def frames(self, room_id: RoomId, event: RoomEvent) -> Iterator[tuple[bytes, list[ConnectionId]]]:
        """The event's frame for each group of recipients who read the same: one frame for all of
        them, except a snapshot's `you` (one per role) and the request's answer (its `id`)."""
        targets = self._audience(room_id, event)
        answering = None if event.answers is None or event.request_id is None else self._connection_of(event.answers)
        if event.roles is None and answering not in targets:
            yield event.message.to_wire().encode(), list(targets)
            return
        groups: dict[tuple[Role | None, bool], list[ConnectionId]] = {}
        for connection, name in targets.items():
            role = None if event.roles is None else event.roles.get(name, "spectator")
            groups.setdefault((role, connection == answering), []).append(connection)
        for (role, answers), connections in groups.items():
            update: dict[str, object] = {} if role is None else {"you": role}
            if answers:
                update["id"] = event.request_id
            yield event.message.model_copy(update=update).to_wire().encode(), connections

    def _audience(self, room_id: RoomId, event: RoomEvent) -> Mapping[ConnectionId, str]:
        match event.audience:
            case Everyone():
                return self.book.members(room_id)
            case OneCaller(ref=ref):
                connection = self._connection_of(ref)
                recipient = None if connection is None else self._connections.get(connection)
                if connection is None or recipient is None or recipient.player is None:
                    return {}
                return {connection: recipient.player}

    def _send(self, room_id: RoomId, event: RoomEvent) -> None:
        for frame, connections in self.frames(room_id, event):
            for connection in connections:
                recipient = self._connections.get(connection)
                if recipient is not None:
                    recipient.send_wire(frame)

    def _enter(self, room_id: RoomId, change: Enter, counted: dict[str, int]) -> None:
        """Put the connection in the book; one that has closed meanwhile is not, and the room is
        told its player's count all the same (the room counted it in). Another node's connection is
        that node's edge's to count."""
        if node_of(change.ref) != self.node:
            return
        connection = self._connection_of(change.ref)
        is_open = connection is not None and connection in self._connections
        if connection is not None and is_open and not self.book.enter(room_id, connection, change.name):
            return
        counted[change.name] = self.book.count(room_id, change.name)

    def _exit(self, room_id: RoomId, change: Exit, counted: dict[str, int]) -> None:
        connection = self._connection_of(change.ref)
        if connection is not None and self.book.exit(room_id, connection) is not None:
            counted[change.name] = self.book.count(room_id, change.name)

    def _connection_of(self, ref: CallerRef) -> ConnectionId | None:
        """The connection of this node's that a reference names, if it is one of this node's."""
        return connection_of(ref, self.node)
