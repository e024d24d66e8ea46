"""How a node keeps its lease (`--heartbeat-s`, `--lease-s`) and what it is called (`--node-id`).

Apart from `leases.py` so that the server's settings can name them without asyncpg, which only a
node on PostgreSQL (the `cluster` extra) needs.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass


def default_node_id() -> str:
    """This machine's name and this process's id: distinct for every node started by hand."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True, slots=True)
class LeaseSettings:
    """How a node keeps its lease (`--heartbeat-s`, `--lease-s`)."""

    heartbeat_s: float = 1.0
    """How often the lease is renewed (and expired leases looked for)."""
    expiry_s: float = 4.0
    """How long a lease lasts past its last renewal: a node silent that long is taken over."""

    def __post_init__(self) -> None:
        if not 0 < self.heartbeat_s < self.expiry_s:
            raise ValueError("a lease must outlast several heartbeats: 0 < heartbeat < expiry")
