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
of each other (`server.lobby.quick_pairing`, nearest first).

Watchers hear of the lobby in one of two ways. A 1.1 watcher gets a message
per change (`seek_added`, `seek_removed`, `online` at most once a second).
A watcher of batches (1.2) gets, every tick, one `lobby_changes` holding
every change since the previous tick: one message object for all of them,
so that it is serialised once. Batches are numbered by the lobby
(`seq`), and the snapshot a watcher starts from tells the number of the
last batch it includes. The batch is kept as a net change per seek: a seek
added and removed within one tick appears in neither list, and one taken
and put back (a game that could not start) in neither.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from server.domain import ConnectionId, Refusal
from server.lobby.quick_pairing import pair_quick_seeks
from server.lobby.seeks import GameTerms, Seek
from server.rooms.views import seek_model
from wire.messages import Lobby as LobbyMessage
from wire.messages import LobbyChanges, OnlineCount, SeekAdded, SeekModel, SeekRemoved, ServerMessage

Deliveries = list[tuple[ConnectionId, ServerMessage]]
Key = TypeVar("Key")

LOBBY_SEEKS_SHOWN = 100
"""The most seeks a `lobby` message lists (the newest), so that it fits in a frame."""
ONLINE_COUNT_EVERY_S = 1.0
"""The most often 1.1 lobby watchers are told how many players are online."""
LOBBY_CHANGES = (SeekAdded, SeekRemoved, OnlineCount)
"""The messages that tell a 1.1 watcher of a change: a fresh `lobby` snapshot may replace them."""


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
class PendingChanges:
    """The lobby's changes since the last batch, as a net change per seek, in the order they came."""

    _added: dict[str, SeekModel] = field(default_factory=dict)
    _removed: dict[str, None] = field(default_factory=dict)
    """The ids of the seeks gone (a dict keeps their order and drops repeats)."""

    def added(self, seek: SeekModel) -> None:
        """A seek came in; one gone earlier in this batch comes back as it was (a pairing that failed)."""
        if seek.seek_id in self._removed:
            del self._removed[seek.seek_id]
        else:
            self._added[seek.seek_id] = seek

    def removed(self, seek_id: str) -> None:
        """A seek left; one that came in this batch leaves no trace."""
        if self._added.pop(seek_id, None) is None:
            self._removed[seek_id] = None

    def take(self) -> tuple[list[SeekModel], list[str]]:
        """The seeks added and the ids removed since the last call, in order; and start afresh."""
        added, removed = list(self._added.values()), list(self._removed)
        self._added.clear()
        self._removed.clear()
        return added, removed


@dataclass(slots=True)
class Lobby:
    """The lobby's state and rules."""

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
    _per_event: set[ConnectionId] = field(default_factory=set)
    """The 1.1 watchers: a message per change."""
    _batched: set[ConnectionId] = field(default_factory=set)
    """The watchers of batches (1.2): one `lobby_changes` a tick."""
    _changes: PendingChanges = field(default_factory=PendingChanges)
    """What the next batch tells."""
    _batches_sent: int = 0
    """The `seq` of the last batch."""
    _count_batched: int = 0
    """The online count the last batch told (or the watchers started from)."""
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
        self.unwatch(connection)
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

    @property
    def watchers(self) -> set[ConnectionId]:
        """Every connection watching the lobby, either way."""
        return self._per_event | self._batched

    def watch(self, connection: ConnectionId, batches: bool = False) -> LobbyMessage:
        """Start streaming the lobby to a connection, a message per change or (`batches`) a batch a
        tick; what it sees first (to a watcher of batches, with the `seq` of the last batch)."""
        self.unwatch(connection)
        if batches:
            self._batched.add(connection)
            return self.snapshot().model_copy(update={"seq": self._batches_sent})
        self._per_event.add(connection)
        return self.snapshot()

    def snapshot(self) -> LobbyMessage:
        """The lobby as it is: how many are online and the newest seeks."""
        newest = sorted(self.seeks.values(), key=lambda seek: seek.since)[-LOBBY_SEEKS_SHOWN:]
        return LobbyMessage(online=len(self.online), seeks=[seek_model(seek) for seek in newest])

    def watches_per_event(self, connection: ConnectionId) -> bool:
        """Whether a connection watches the lobby a message per change (1.1)."""
        return connection in self._per_event

    def unwatch(self, connection: ConnectionId) -> None:
        """Stop streaming the lobby to a connection."""
        self._per_event.discard(connection)
        self._batched.discard(connection)

    # --------------------------------------------------------------- seeks

    def seeks_of(self, name: str) -> int:
        """How many seeks a player has waiting."""
        return len(self._seeks_of.get(name, ()))

    def quick_seeks_from(self, address: str) -> int:
        """How many quick seeks wait from an address."""
        return self._quick_from[address]

    def add(self, seek: Seek) -> Deliveries:
        """Put a seek in the lobby; what tells the 1.1 watchers of it (the next batch tells the others)."""
        model = self._put(seek)
        added = SeekAdded(seek=model)
        return [(watcher, added) for watcher in self._per_event]

    def _put(self, seek: Seek) -> SeekModel:
        """Put a seek in the lobby and its indexes, and in the next batch; its wire form."""
        self.seeks[seek.seek_id] = seek
        self._seeks_of.setdefault(seek.owner, {})[seek.seek_id] = seek
        if seek.quick:
            self._quick.setdefault(seek.terms, {})[seek.seek_id] = seek
            self._quick_from[seek.address] += 1
        model = seek_model(seek)
        self._changes.added(model)
        return model

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
        """Tell the 1.1 watchers (and each owner) that seeks have left the lobby (the watchers of
        batches heard of it in the batch of the tick it left in)."""
        deliveries: Deliveries = []
        for seek in seeks:
            gone = SeekRemoved(seek_id=seek.seek_id)
            audience = self._per_event | self.connections_of(seek.owner)
            deliveries += [(connection, gone) for connection in audience]
        return deliveries

    def restore(self, seeks: Iterable[Seek]) -> Deliveries:
        """Put back taken seeks whose game could not start, unannounced to the 1.1 watchers (nobody
        told them they had gone; a batch that did tells it is back); those of a player who has
        left meanwhile are gone for good, and that is told."""
        gone = []
        for seek in seeks:
            if seek.owner in self.online:
                self._put(seek)
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
        self._changes.removed(seek.seek_id)
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
        when it has changed (at most once a second) to the 1.1 watchers, and every change of the tick
        (the pairs' seeks gone among them) to the watchers of batches, in one batch."""
        waiting = [seek for bucket in self._quick.values() for seek in bucket.values()]
        pairs = pair_quick_seeks(waiting, now)
        for first, second in pairs:
            self._forget(first)
            self._forget(second)
        deliveries = self._online_count(now) + self._batch()
        pairings = [Pairing(first, second.owner, second.connection, second.rating, second) for first, second in pairs]
        return pairings, deliveries

    def _online_count(self, now: float) -> Deliveries:
        """The online count to the 1.1 watchers, if it has changed and they have not been told for a while."""
        count = len(self.online)
        if count == self._count_told or now < self._count_told_at + ONLINE_COUNT_EVERY_S:
            return []
        self._count_told, self._count_told_at = count, now
        message = OnlineCount(count=count)
        return [(watcher, message) for watcher in self._per_event]

    def _batch(self) -> Deliveries:
        """The tick's batch, one message for every watcher of batches; none if nothing changed (or
        nobody watches: the changes are then dropped, since every new watcher starts from a snapshot)."""
        count = len(self.online)
        online = None if count == self._count_batched else count
        self._count_batched = count
        added, removed = self._changes.take()
        if not self._batched or (not added and not removed and online is None):
            return []
        self._batches_sent += 1
        batch = LobbyChanges(added=added, removed=removed, online=online, seq=self._batches_sent)
        return [(watcher, batch) for watcher in self._batched]


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
