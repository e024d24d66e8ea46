"""The lobby: who is online, seeks waiting for an opponent, quick pairing, and who watches.

Like a room, the `Lobby` is a plain object with no socket, no database and
no timer: each method takes a request (or a tick of time, `now` in
monotonic seconds) and returns the messages to send. Nothing in it is
stored: a seek lives only as long as any connection of its owner.

Quick pairing: a `quick_pair` is paired at once with the waiting quick
seek of the same rule, size, clock and rated flag whose owner's rating is
nearest, if the difference is within the waiting seek's window; otherwise
it waits as a seek itself. A window starts at QUICK_WINDOW_START rating
points and widens by QUICK_WINDOW_GROWTH points a second while its seek
waits, and every tick pairs the waiting seeks that have come within reach
of each other (`server.quick_pairing`, nearest first).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from server.domain import ConnectionId, Refusal
from server.quick_pairing import pair_quick_seeks
from server.seeks import GameTerms, Seek
from server.views import seek_model
from wire.messages import Lobby as LobbyMessage
from wire.messages import OnlineCount, SeekAdded, SeekRemoved, ServerMessage

Deliveries = list[tuple[ConnectionId, ServerMessage]]
Key = TypeVar("Key")

LOBBY_SEEKS_SHOWN = 100
"""The most seeks a `lobby` message lists (the newest), so that it fits in a frame."""
ONLINE_COUNT_EVERY_S = 1.0
"""The most often lobby watchers are told how many players are online."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to seat in a new game: the seek that waited, and who takes it."""

    seek: Seek
    taker: str
    taker_connection: ConnectionId
    """The connection the taker asked from."""
    taker_rating: int
    taker_seek: Seek | None = None
    """The taker's own quick seek, when a tick paired two waiting seeks."""

    @property
    def seeks(self) -> list[Seek]:
        """The seeks the pairing took out of the lobby."""
        return [self.seek] if self.taker_seek is None else [self.seek, self.taker_seek]


@dataclass(slots=True)
class Lobby:
    """The lobby's state and rules."""

    watchers: set[ConnectionId] = field(default_factory=set)
    seeks: dict[str, Seek] = field(default_factory=dict)
    online: dict[str, set[ConnectionId]] = field(default_factory=dict)
    """Player name -> its open connections (several tabs count once)."""
    _open: set[ConnectionId] = field(default_factory=set)
    """Every signed-in connection still open."""
    _seeks_of: dict[str, dict[str, Seek]] = field(default_factory=dict)
    """Player name -> its seeks, by id."""
    _quick: dict[GameTerms, dict[str, Seek]] = field(default_factory=dict)
    """The quick seeks by terms, in the order they came."""
    _quick_from: Counter[str] = field(default_factory=Counter)
    """How many quick seeks wait from each address."""
    _count_told: int = 0
    _count_told_at: float = -ONLINE_COUNT_EVERY_S

    # ------------------------------------------------------------ presence

    def signed_in(self, connection: ConnectionId, name: str) -> None:
        """A connection is now signed in as `name`."""
        self.online.setdefault(name, set()).add(connection)
        self._open.add(connection)

    def connection_closed(self, connection: ConnectionId, name: str | None) -> Deliveries:
        """A connection closed: it stops watching, and the seeks of a player with no connection left
        are withdrawn."""
        self.watchers.discard(connection)
        self._open.discard(connection)
        if name is None or name not in self.online:
            return []
        self.online[name].discard(connection)
        if self.online[name]:
            return []
        del self.online[name]
        return self._remove(list(self._seeks_of.get(name, {}).values()))

    def connections_of(self, name: str) -> set[ConnectionId]:
        """The open connections of a player."""
        return set(self.online.get(name, ()))

    def is_open(self, connection: ConnectionId) -> bool:
        """Whether a signed-in connection is still open."""
        return connection in self._open

    # ------------------------------------------------------------ watching

    def watch(self, connection: ConnectionId) -> LobbyMessage:
        """Start streaming the lobby to a connection; what it sees first."""
        self.watchers.add(connection)
        newest = sorted(self.seeks.values(), key=lambda seek: seek.since)[-LOBBY_SEEKS_SHOWN:]
        return LobbyMessage(online=len(self.online), seeks=[seek_model(seek) for seek in newest])

    def unwatch(self, connection: ConnectionId) -> None:
        """Stop streaming the lobby to a connection."""
        self.watchers.discard(connection)

    # --------------------------------------------------------------- seeks

    def seeks_of(self, name: str) -> int:
        """How many seeks a player has waiting."""
        return len(self._seeks_of.get(name, ()))

    def quick_seeks_from(self, address: str) -> int:
        """How many quick seeks wait from an address."""
        return self._quick_from[address]

    def add(self, seek: Seek) -> Deliveries:
        """Put a seek in the lobby; what tells the watchers of it."""
        self.seeks[seek.seek_id] = seek
        self._seeks_of.setdefault(seek.owner, {})[seek.seek_id] = seek
        if seek.quick:
            self._quick.setdefault(seek.terms, {})[seek.seek_id] = seek
            self._quick_from[seek.address] += 1
        added = SeekAdded(seek=seek_model(seek))
        return [(watcher, added) for watcher in self.watchers]

    def cancel(self, seek_id: str, name: str) -> Deliveries:
        """Withdraw one's own seek. Raises Refusal when there is no such seek of theirs."""
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise Refusal("not_found", f"there is no seek {seek_id!r}")
        if seek.owner != name:
            raise Refusal("not_allowed", "that seek is not yours to cancel")
        return self._remove([seek])

    def take(self, seek_id: str, name: str, rating: int) -> Seek:
        """Accept a seek: it leaves the lobby (the caller then tells the watchers with `removed`,
        or puts it back with `restore`).
        Raises Refusal for an unknown seek, one's own, or a rating outside its range."""
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise Refusal("not_found", f"there is no seek {seek_id!r}")
        if seek.owner == name:
            raise Refusal("not_allowed", "you cannot accept your own seek")
        if not seek.accepts(rating):
            raise Refusal("not_allowed", f"this seek is for ratings {_range(seek)}; yours is {rating}")
        self._forget(seek)
        return seek

    def removed(self, seeks: Iterable[Seek]) -> Deliveries:
        """Tell the watchers (and each owner) that seeks have left the lobby."""
        deliveries: Deliveries = []
        for seek in seeks:
            gone = SeekRemoved(seek_id=seek.seek_id)
            audience = self.watchers | self.connections_of(seek.owner)
            deliveries += [(connection, gone) for connection in audience]
        return deliveries

    def restore(self, seeks: Iterable[Seek]) -> Deliveries:
        """Put back taken seeks whose game could not start, unannounced (nobody was told they had
        gone); those of a player who has left meanwhile are gone for good, and that is told."""
        gone = []
        for seek in seeks:
            if seek.owner in self.online:
                self.add(seek)
            else:
                gone.append(seek)
        return self.removed(gone)

    def _remove(self, seeks: list[Seek]) -> Deliveries:
        for seek in seeks:
            self._forget(seek)
        return self.removed(seeks)

    def _forget(self, seek: Seek) -> None:
        """Take a seek out of the lobby and its indexes."""
        if self.seeks.pop(seek.seek_id, None) is None:
            return
        _pop_from(self._seeks_of, seek.owner, seek.seek_id)
        if seek.quick:
            _pop_from(self._quick, seek.terms, seek.seek_id)
            self._quick_from[seek.address] -= 1
            if not self._quick_from[seek.address]:
                del self._quick_from[seek.address]

    # -------------------------------------------------------- quick pairing

    def quick_match(self, name: str, rating: int, terms: GameTerms, now: float) -> Seek | None:
        """The waiting quick seek a new quick pairing takes at once: same terms, not one's own,
        nearest in rating among those whose window reaches it; it leaves the lobby. None if none."""
        reachable = [
            seek
            for seek in self._quick.get(terms, {}).values()
            if seek.owner != name and abs(seek.rating - rating) <= seek.window(now)
        ]
        if not reachable:
            return None
        nearest = min(reachable, key=lambda seek: (abs(seek.rating - rating), seek.since))
        self._forget(nearest)
        return nearest

    def tick(self, now: float) -> tuple[list[Pairing], Deliveries]:
        """What time does: pair the waiting quick seeks that have come within each other's reach
        (both seeks of each pair leave the lobby; the caller tells the watchers with `removed` as
        the game starts, or puts them back with `restore`), and tell the watchers the online count
        when it has changed (at most once a second)."""
        waiting = [seek for bucket in self._quick.values() for seek in bucket.values()]
        pairs = pair_quick_seeks(waiting, now)
        for first, second in pairs:
            self._forget(first)
            self._forget(second)
        deliveries: Deliveries = []
        count = len(self.online)
        if count != self._count_told and now >= self._count_told_at + ONLINE_COUNT_EVERY_S:
            self._count_told, self._count_told_at = count, now
            message = OnlineCount(count=count)
            deliveries += [(watcher, message) for watcher in self.watchers]
        pairings = [Pairing(first, second.owner, second.connection, second.rating, second) for first, second in pairs]
        return pairings, deliveries


def _pop_from(index: dict[Key, dict[str, Seek]], key: Key, seek_id: str) -> None:
    """Drop a seek from an index of seeks by `key`, and the key once it has none."""
    seeks = index.get(key)
    if seeks is not None:
        seeks.pop(seek_id, None)
        if not seeks:
            del index[key]


def new_seek_id() -> str:
    """A random seek id."""
    return "s" + secrets.token_urlsafe(8)


def _range(seek: Seek) -> str:
    low = "any" if seek.rating_min is None else str(seek.rating_min)
    high = "any" if seek.rating_max is None else str(seek.rating_max)
    return f"{low} to {high}"
