"""The open connections per address over every node, for `--max-connections-per-address`.

Each node keeps its own counts (`AddressCounts.here`) and writes them into a Redis hash of its own
(address -> count): a change at the end of the tick that made it, and the whole hash every
heartbeat, which also renews its expiry of one lease. A new connection is admitted if this node's
count and every other node's as read from Redis (one set read, then one pipeline of one field per
node) stay within the cap. A dead node's hash expires with its lease, and its addresses' connections
stop counting; after a restart of Redis the counts are whole again within a heartbeat. Two
connections from one address arriving at the same moment on two nodes may both pass. While Redis
cannot be reached, each node caps an address by its own count alone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from server.chores import pause
from server.cluster.bus_messages import BusUnavailable
from server.cluster.lease_settings import LeaseSettings
from server.edge.connections import AddressCounts

logger = logging.getLogger(__name__)


class AddressBook(Protocol):
    """Where the nodes' counts are kept (the bus's Redis)."""

    node: str

    async def write_address_counts(self, counts: dict[str, int], ttl_s: float, replace: bool = False) -> None:
        """Write this node's counts (0 drops one; `replace` drops the others); raises BusUnavailable."""

    async def address_counts(self, address: str) -> dict[str, int]:
        """Each node's count of `address`; raises BusUnavailable."""


class SharedAddressCounts(AddressCounts):
    """This node's open connections per address, shared with the other nodes through Redis."""

    def __init__(self, book: AddressBook, lease: LeaseSettings) -> None:
        super().__init__()
        self._book = book
        self._lease = lease
        self._pending: dict[str, int] = {}
        self._writing = asyncio.Lock()
        """Writes go in the order of their ticks."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._unreachable = False
        """Whether the last write or read failed (said once in the log, not at every try)."""

    async def elsewhere(self, address: str) -> int:
        """The connections from `address` open on the other nodes; none if Redis cannot be read (the
        cap is then this node's alone)."""
        try:
            counts = await self._book.address_counts(address)
        except BusUnavailable as error:
            self._failed(error)
            return 0
        return sum(count for node, count in counts.items() if node != self._book.node)

    def changed(self, address: str) -> None:
        """Write the address's count at the end of this tick, with the tick's other changes."""
        if not self._pending:
            task = asyncio.get_running_loop().create_task(self._write())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._pending[address] = self.here[address]

    async def keep(self) -> None:
        """Every heartbeat, write all of this node's counts anew (which renews their expiry)."""
        while True:
            await self._written(None)
            await pause(self._lease.heartbeat_s)

    async def _write(self) -> None:
        await asyncio.sleep(0)  # the rest of the tick's changes join this write
        pending, self._pending = self._pending, {}
        await self._written(pending)

    async def _written(self, changes: dict[str, int] | None) -> None:
        """Write the changes, or (None) all the counts anew, read once the writes before are done."""
        async with self._writing:
            counts = dict(self.here) if changes is None else changes
            try:
                await self._book.write_address_counts(counts, self._lease.expiry_s, replace=changes is None)
            except BusUnavailable as error:
                self._failed(error)
                return
        if self._unreachable:
            logger.info("connections per address: shared with the other nodes again")
            self._unreachable = False

    def _failed(self, error: BusUnavailable) -> None:
        if not self._unreachable:
            logger.warning("connections per address: Redis cannot be reached (%s); counting this node's alone", error)
            self._unreachable = True
