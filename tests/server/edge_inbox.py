"""A real edge whose connections are inboxes: what each caller reads of a room's events, as JSON."""

from __future__ import annotations

import json
from typing import Any

from server.domain import Caller, ConnectionId, Enter, PresenceReport, RoomId, connection_of
from server.edge.subscriptions import Edge
from server.rooms.room import Outcome, RoomChange


class Inbox:
    """One connection's side: the player signed in on it, and the messages it has read."""

    def __init__(self, player: str) -> None:
        self.player: str | None = player
        self.read: list[dict[str, Any]] = []

    def send_wire(self, frame: bytes) -> None:
        self.read.append(json.loads(frame))


class EdgeInbox:
    """An `Edge` over inboxes: connect callers, publish a room's changes, read what each received."""

    def __init__(self) -> None:
        self.inboxes: dict[ConnectionId, Inbox] = {}
        """The open connections."""
        self.closed: dict[ConnectionId, Inbox] = {}
        self.edge = Edge(self.inboxes)

    def connect(self, *callers: Caller) -> None:
        for caller in callers:
            self.inboxes[_connection(caller)] = Inbox(caller.name)

    def close(self, caller: Caller) -> list[tuple[RoomId, PresenceReport]]:
        """Close the caller's connection; the reports the edge makes of it at once."""
        self.closed[_connection(caller)] = self.inboxes.pop(_connection(caller))
        self.edge.connection_closed(_connection(caller))
        return self.edge.closed_reports()

    def publish(self, room_id: RoomId, changes: list[RoomChange]) -> PresenceReport | None:
        return self.edge.publish(room_id, changes)

    def of(self, caller: Caller) -> list[dict[str, Any]]:
        connection = _connection(caller)
        return (self.inboxes.get(connection) or self.closed[connection]).read

    def types(self, caller: Caller) -> list[str]:
        return [message["type"] for message in self.of(caller)]


def read_by(outcome: Outcome, caller: Caller, request_id: str | int | None = None) -> list[dict[str, Any]]:
    """What `caller`, in the room, reads of one outcome (its answer carrying `request_id`)."""
    inbox = EdgeInbox()
    inbox.connect(caller)
    room_id = RoomId("room")
    inbox.publish(room_id, [Enter(caller.ref, caller.name), *outcome.stamped(request_id)])
    return inbox.of(caller)


def _connection(caller: Caller) -> ConnectionId:
    connection = connection_of(caller.ref)
    assert connection is not None, "test callers are this node's"
    return connection
