"""A node stops cleanly on SIGTERM, whatever it is doing then: its chores are cancelled even when a
cancel lands as one of their Redis or PostgreSQL calls returns (Python 3.11's `asyncio.wait_for`,
which redis-py sends with, drops such a cancel), so that `systemctl stop` or `docker stop` does not
hang until it kills the node, and the node's leases are given up rather than left to lapse.

Real processes: a throw-away PostgreSQL, a `redis-server` and `gomoku-server` nodes, stopped by
their pids.
"""

from __future__ import annotations

import os
import signal

from tests.cluster.conftest import StartClusterNode

STOPS = 3
"""Nodes started and stopped in turn: each stop lands in the first heartbeat's writes, where a
cancel was dropped in most stops."""
STOP_WITHIN_S = 10.0
"""Far more than a clean stop takes (well under a second), far less than the harness's SIGKILL."""


def test_a_node_stopped_as_soon_as_it_listens_exits_cleanly_at_once(start_cluster_node: StartClusterNode) -> None:
    long_lease = ["--heartbeat-s", "1", "--lease-s", "30"]
    for _ in range(STOPS):
        node = start_cluster_node("n1", arguments=long_lease)
        os.kill(node.pid, signal.SIGTERM)
        assert node.process.wait(STOP_WITHIN_S) == 0
