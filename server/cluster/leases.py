"""A node's lease: the right to own rooms, held while the node renews it, timed by the database's clock.

A node joins by writing its row of `cluster_nodes` with a new epoch and an
expiry a few seconds ahead; it renews the expiry about every second, but
only while it has not passed (`renew` says False once it has: the lease is
lost, and the node must join again, as a new epoch that owns nothing). All
times are the database's (`clock_timestamp()`), so that nodes' clocks never
disagree about who is alive.
"""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from engine.record import format_timestamp
from server.cluster.lease_settings import LeaseSettings

NOW_MS = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
"""SQL: the database's clock now, in milliseconds since 1970 (PostgreSQL)."""

DATABASE_UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)
"""What asyncpg raises when the database cannot be reached or its connection is lost (or left in a
state it cannot go on from: `InternalClientError`)."""


class NodeLease:
    """This node's row of `cluster_nodes`, through a connection of its own (so that a busy writer never
    delays a renewal)."""

    def __init__(self, connection: asyncpg.Connection, node_id: str, settings: LeaseSettings) -> None:
        self.connection = connection
        self.node_id = node_id
        self.settings = settings
        self.epoch: int | None = None
        """The epoch of the lease held, None before joining."""

    async def join(self) -> int:
        """Take a new lease (a new epoch, owning nothing yet) and return its epoch."""
        epoch: int = await self.connection.fetchval(
            "INSERT INTO cluster_nodes (node_id, epoch, lease_expires_ms, joined_at) "
            f"VALUES ($1, 1, {NOW_MS} + $2, $3) ON CONFLICT (node_id) DO UPDATE "
            "SET epoch = cluster_nodes.epoch + 1, lease_expires_ms = EXCLUDED.lease_expires_ms, "
            "joined_at = EXCLUDED.joined_at RETURNING epoch",
            self.node_id,
            self._expiry_ms,
            format_timestamp(datetime.now(UTC)),
        )
        self.epoch = epoch
        return epoch

    async def renew(self) -> bool:
        """Push the expiry ahead, if the lease has not expired yet; False if it has (it is lost)."""
        renewed = await self.connection.fetchval(
            f"UPDATE cluster_nodes SET lease_expires_ms = {NOW_MS} + $3 "
            f"WHERE node_id = $1 AND epoch = $2 AND lease_expires_ms > {NOW_MS} RETURNING epoch",
            self.node_id,
            self.epoch,
            self._expiry_ms,
        )
        return renewed is not None

    async def release(self) -> None:
        """End the lease now (a clean stop): the other nodes may take this node's rooms at once."""
        await self.connection.execute(
            f"UPDATE cluster_nodes SET lease_expires_ms = {NOW_MS} WHERE node_id = $1 AND epoch = $2",
            self.node_id,
            self.epoch,
        )

    @property
    def _expiry_ms(self) -> int:
        return round(self.settings.expiry_s * 1000)
