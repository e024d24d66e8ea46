"""How a room's changes reach every node's sockets: its owner publishes them to its own edge and,
over the bus, to each node whose connections the room's changes have named (`RoomFanOut`); each
edge counts only its own connections, so the owner adds up every node's count before the room
hears it (`PresenceTally`).
"""

from __future__ import annotations

from typing import Protocol

from server.cluster.bus_messages import BusMessage, ChangesMessage, encode_changes, nodes_named
from server.domain import Enter, PresenceReport, RoomId, node_of
from server.edge.subscriptions import Edge
from server.rooms.room import RoomChange


class Bus(Protocol):
    """What the hub sends through (the server's `RedisBus`)."""

    node: str

    def post(self, node: str, room_id: RoomId, message: BusMessage) -> None:
        """Send a message about a room to a node, with this tick's others."""

    async def deliver(self, node: str, room_id: RoomId, message: BusMessage) -> None:
        """Send, and return once the bus has taken it; raises BusUnavailable."""

    def broadcast(self, message: BusMessage) -> None:
        """Send a message to every node."""


class PresenceTally:
    """The owner's count of each room's connections per node: a room hears the sum of every
    node's edge, since each edge counts only its own connections."""

    def __init__(self) -> None:
        self._counts: dict[RoomId, dict[str, dict[str, int]]] = {}

    def add(self, room_id: RoomId, node: str, report: PresenceReport) -> PresenceReport:
        """Take in one node's report; the report the room hears (the same names, every node's sum)."""
        by_node = self._counts.setdefault(room_id, {})
        counts = by_node.setdefault(node, {})
        for name, connections in report.connections.items():
            if connections:
                counts[name] = connections
            else:
                counts.pop(name, None)
        if not counts:
            del by_node[node]
        if not by_node:
            del self._counts[room_id]
        totals = {name: sum(c.get(name, 0) for c in by_node.values()) for name in report.connections}
        return PresenceReport(totals, report.on_purpose)

    def entering(self, room_id: RoomId, node: str, name: str) -> None:
        """A connection of `name` on `node` enters the room: the node has at least one from now on,
        before its edge's report says how many (a connection closing elsewhere meanwhile must not
        make the player away)."""
        counts = self._counts.setdefault(room_id, {}).setdefault(node, {})
        counts[name] = max(counts.get(name, 0), 1)

    def forget(self, room_id: RoomId) -> None:
        """The room is no longer held here."""
        self._counts.pop(room_id, None)


class RoomFanOut:
    """Publishes the changes of the rooms held here: to this node's edge, and over the bus to the
    other nodes that a change of the room has named (a caller entering, one caller's answer) for as
    long as the room is held here. It is the `Publish` the room registry is given.

    A node joins a room's audience when a change names it, at once, not when its edge reports a
    count back: the room's next event may come before that report. It stays in it until the room
    is forgotten, since a report that its connections have gone may cross a change that brings one
    back; an edge with nobody in the room drops what it gets."""

    def __init__(self, edge: Edge, bus: Bus) -> None:
        self._edge = edge
        self._bus = bus
        self.node = edge.node
        self.tally = PresenceTally()
        self._nodes: dict[RoomId, set[str]] = {}

    def publish(self, room_id: RoomId, changes: list[RoomChange]) -> PresenceReport | None:
        """Deliver the changes everywhere; this node's new count of the room's connections, added
        to the other nodes' (theirs come back over the bus)."""
        report = self._edge.publish(room_id, changes)
        for change in changes:
            if isinstance(change, Enter) and node_of(change.ref) != self._edge.node:
                self.tally.entering(room_id, node_of(change.ref), change.name)
        nodes = self._nodes.setdefault(room_id, set())
        nodes |= nodes_named(changes) - {self._edge.node}
        if nodes:
            message = ChangesMessage(room_id, encode_changes(changes))
            for node in sorted(nodes):
                self._bus.post(node, room_id, message)
        return None if report is None else self.tally.add(room_id, self._edge.node, report)

    def nodes_in(self, room_id: RoomId) -> set[str]:
        """The other nodes that get the room's changes."""
        return set(self._nodes.get(room_id, ()))

    def forget(self, room_id: RoomId) -> None:
        """The room is no longer held here."""
        self._nodes.pop(room_id, None)
        self.tally.forget(room_id)
