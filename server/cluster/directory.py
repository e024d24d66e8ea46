"""Which node owns a room: the `RoomDirectory` port, kept in PostgreSQL or in Redis.

A room is owned by the node that opened it (or restored it). Any node asks the directory for a
room's owner before forwarding a command to it; the answer is cached, and dropped when a take-over
notice says the room has a new owner.

On PostgreSQL, `OwnershipDirectory` reads the owners the storage's fence goes by (`room_owners`,
`server.cluster.ownership`): the node that writes a room is the node commands go to, and a room
whose owner's lease has run out is taken over by the first node asked about it (or by the next
heartbeat's claim). On SQLite, `BusRoomDirectory` keeps each owner in a Redis key that expires
unless its node renews it: a node that dies stops renewing, and its rooms' keys go after
`OWNER_TTL_S`; it says who owns a room, not who may write it (one SQLite file has no fence).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from server.chores import pause
from server.cluster.bus_messages import BusUnavailable
from server.domain import RoomId

logger = logging.getLogger(__name__)

OWNER_TTL_S = 30.0
"""How long a room's owner key lasts unless its node renews it."""
RENEW_EVERY_S = OWNER_TTL_S / 3
"""How often a node renews the keys of the rooms it holds (twice more before they would expire)."""
OWNER_KEY = "gomoku:room-owner:"


class RoomDirectory(Protocol):
    """Who owns each room, as every node sees it (the cluster's hub asks it; `BusRoomDirectory`
    keeps it in Redis, PostgreSQL's ownership may back it instead)."""

    async def claim(self, room_id: RoomId) -> None:
        """This node owns the room from now on; raises BusUnavailable if that cannot be recorded."""

    async def claim_unowned(self, room_id: RoomId) -> bool:
        """Own the room unless another node does; whether this node owns it now. Raises BusUnavailable."""

    async def owner(self, room_id: RoomId) -> str | None:
        """The node that owns the room, or None if none does; raises BusUnavailable."""

    def forget(self, room_id: RoomId) -> None:
        """What was known of the room's owner is stale (a take-over notice)."""

    def forget_all(self) -> None:
        """Everything known of other nodes' rooms may be stale (the bus was away)."""

    async def announce(self) -> None:
        """Record again that this node owns the rooms it holds (the record may have been lost with
        Redis); a failure is logged, and the next renewal tries again."""


class OwnerKeys(Protocol):
    """Keys with an expiry (the bus's Redis)."""

    async def put(self, items: dict[str, str], ttl_s: float) -> None:
        """Set keys that expire after `ttl_s`; raises BusUnavailable."""

    async def put_new(self, key: str, value: str, ttl_s: float) -> bool:
        """Set a key unless it is set already; whether it was set. Raises BusUnavailable."""

    async def get(self, key: str) -> str | None:
        """A key's value, or None; raises BusUnavailable."""

    async def remove_if(self, key: str, value: str) -> bool:
        """Remove a key if it holds `value`; whether it was removed. Raises BusUnavailable."""

    async def renew_if(self, key: str, value: str, ttl_s: float) -> bool:
        """Keep a key that holds `value` for `ttl_s` more; whether it held it. Raises BusUnavailable."""


class CachedOwners:
    """What both directories share: the owners of other nodes' rooms as last read (`_read_owner`),
    kept until a notice (or a failed delivery) says they may have changed. This node's own rooms
    are never kept: it may lose one without a notice (fenced, or its lease lost)."""

    def __init__(self, node: str) -> None:
        self._node = node
        self._known: dict[RoomId, str] = {}

    async def owner(self, room_id: RoomId) -> str | None:
        known = self._known.get(room_id)
        if known is not None:
            return known
        owner = await self._read_owner(room_id)
        if owner is not None and owner != self._node:
            self._known[room_id] = owner
        return owner

    async def _read_owner(self, room_id: RoomId) -> str | None:
        """The room's owner where the directory keeps it, or None; raises BusUnavailable."""
        raise NotImplementedError

    def forget(self, room_id: RoomId) -> None:
        self._known.pop(room_id, None)

    def forget_all(self) -> None:
        """Everything known of other nodes' rooms may be stale (the bus was away)."""
        self._known.clear()


class BusRoomDirectory(CachedOwners):
    """Room owners in Redis keys that expire, renewed by their nodes, cached where they are read."""

    def __init__(self, keys: OwnerKeys, node: str, held: Callable[[], Iterable[RoomId]]) -> None:
        """The directory of `node`, which holds the rooms `held` names (and renews their keys)."""
        super().__init__(node)
        self._keys = keys
        self._held = held

    async def claim(self, room_id: RoomId) -> None:
        await self._keys.put({OWNER_KEY + room_id: self._node}, OWNER_TTL_S)

    async def claim_unowned(self, room_id: RoomId) -> bool:
        """Own the room unless another node does; whether this node owns it now. Raises BusUnavailable."""
        key = OWNER_KEY + room_id
        return await self._keys.put_new(key, self._node, OWNER_TTL_S) or await self._keys.get(key) == self._node

    async def _read_owner(self, room_id: RoomId) -> str | None:
        return await self._keys.get(OWNER_KEY + room_id)

    async def renew(self) -> None:
        """Every RENEW_EVERY_S, renew the keys of the rooms this node holds (the first time at once:
        rooms restored at start are announced then). A renewal that fails is tried at the next."""
        while True:
            await self.announce()
            await pause(RENEW_EVERY_S)

    async def announce(self) -> None:
        """Write the keys of the rooms this node holds (again: after Redis restarted, none is left)."""
        owned = {OWNER_KEY + room_id: self._node for room_id in self._held()}
        if owned:
            try:
                await self._keys.put(owned, OWNER_TTL_S)
            except BusUnavailable as error:
                logger.warning("directory: cannot write %d rooms' owner keys: %s", len(owned), error)


class RoomOwners(Protocol):
    """The rooms' owners in PostgreSQL, under leases (`server.cluster.ownership.Ownership`)."""

    node_id: str
    owned: dict[RoomId, int]

    async def owner(self, room_id: RoomId) -> str | None:
        """The live owner (this node once it has taken over a dead one's room), None if none ever
        did; raises Refusal (`unavailable`)."""
        ...

    async def claim_new(self, room_id: RoomId) -> None:
        """Own a room about to open here; raises Refusal (`unavailable`)."""
        ...


class OwnershipDirectory(CachedOwners):
    """Room owners as PostgreSQL records them (the owners every write is fenced by), cached where
    they are read: a node claims a room there when it opens it, and takes over a dead node's rooms
    there; `OwnerNotice` drops a cached owner."""

    def __init__(self, owners: RoomOwners) -> None:
        super().__init__(owners.node_id)
        self._owners = owners

    async def claim(self, room_id: RoomId) -> None:
        await self._owners.claim_new(room_id)

    async def claim_unowned(self, room_id: RoomId) -> bool:
        """Whether this node owns the room: rooms are claimed (and restored) only by the ownership's
        claims, at start and at every heartbeat, never by a node that merely starts."""
        return room_id in self._owners.owned

    async def _read_owner(self, room_id: RoomId) -> str | None:
        return await self._owners.owner(room_id)

    async def announce(self) -> None:
        """Nothing to write again: the owners are in PostgreSQL, not in the Redis that came back."""
