"""Who is in a room, as counts: connections per player, which seated players are away, what was told.

A `Presence` belongs to one `Room`. It keeps how many connections each
player has in the room (as the edge that holds them reports: the room names
no connection), since when each seated player has been away (the clock that
ends a game `abandoned`), since when the room has been empty and whether it
was left on purpose, and the pacing of the spectator-count messages. It
knows no seats: the room says which names are seated and which colour an
arrival or a departure concerns.
"""

from __future__ import annotations

import copy

from engine.types import Color

SPECTATOR_COUNT_EVERY_S = 1.0
"""The most often members are told how many spectators watch."""


class Presence:
    """One room's connection counts, absences and spectator-count pacing."""

    def __init__(self) -> None:
        self.connections: dict[str, int] = {}
        """Players with connections in the room, and how many each has."""
        self.total = 0
        """Connections in the room, all players together."""
        self.away_since: dict[Color, float] = {}
        """Seats of a playing game whose player is away, and since when it counts."""
        self.empty_since: float | None = None
        """When the room last had no connection left in it."""
        self.left_on_purpose = False
        """Whether the last connection left the room by asking to (rather than by dropping)."""
        self.count_due: float | None = None
        """When a changed spectator count is to be told, if one is waiting."""
        self._count_told = 0
        self._count_told_at = -SPECTATOR_COUNT_EVERY_S

    def copy(self) -> Presence:
        """An independent copy (for a room's checkpoint)."""
        twin = copy.copy(self)
        twin.connections = dict(self.connections)
        twin.away_since = dict(self.away_since)
        return twin

    def is_here(self, name: str) -> bool:
        """Whether the player has a connection in the room."""
        return name in self.connections

    @property
    def empty(self) -> bool:
        """Whether no connection is in the room."""
        return self.total == 0

    def count(self, name: str, connections: int, now: float, on_purpose: bool) -> None:
        """The edge counts `connections` of `name` in the room now; going empty, the room remembers
        when and whether the last one left on purpose."""
        self.total += connections - self.connections.pop(name, 0)
        if connections > 0:
            self.connections[name] = connections
            self.empty_since = None
            self.left_on_purpose = False
        elif self.total == 0:
            self.empty_since = now
            self.left_on_purpose = on_purpose

    def seat_back(self, color: Color, now: float) -> None:
        """The seat's player is here again; the opponent's absence, if any, counts from now
        (a game is abandoned only while the one who stays is connected)."""
        self.away_since.pop(color, None)
        if color.other in self.away_since:
            self.away_since[color.other] = now

    def seat_away(self, color: Color, now: float) -> None:
        """The seat's player has no connection in the room any more."""
        self.away_since[color] = now

    def swap_sides(self) -> None:
        """The players have changed colours (an opening's choice): each absence goes with its player."""
        self.away_since = {color.other: since for color, since in self.away_since.items()}

    def empty_for(self, seconds: float, now: float) -> bool:
        """Whether the room has had no connection for at least `seconds`."""
        return self.empty and self.empty_since is not None and now >= self.empty_since + seconds

    def told_count(self, count: int) -> None:
        """The members know the count already (they read it in a snapshot)."""
        self._count_told = count

    def count_to_tell(self, count: int, now: float) -> bool:
        """Whether to tell the members the spectator count `count` now: when it has changed, at most
        once every SPECTATOR_COUNT_EVERY_S (else `count_due` says when), so that a crowd joining
        costs a few messages, not one per join to each member."""
        if count == self._count_told:
            self.count_due = None
            return False
        next_allowed = self._count_told_at + SPECTATOR_COUNT_EVERY_S
        if now < next_allowed:
            self.count_due = next_allowed
            return False
        self._count_told = count
        self._count_told_at = now
        self.count_due = None
        return True
