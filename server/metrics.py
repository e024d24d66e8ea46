"""What the server measures of itself, served at `/metrics` in Prometheus's text format.

One `Metrics` object per server holds its own registry (so that two servers
in one process, as in the tests, count apart). The parts that do the work
report to it: the bot pool its waits and searches, the storage writer its
transactions, the server its connections; the room counts are read from
the registry at scrape time; `watch_event_loop` measures how late the event
loop wakes a short sleep, the best sign that something blocks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

LAG_PROBE_EVERY_S = 0.1
"""How often the event loop's lag is measured."""

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Metrics:
    """The server's measurements, and the text `/metrics` serves."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.connections = Gauge("gomoku_connections", "Open websocket connections.", registry=registry)
        self.moves = Counter("gomoku_moves", "Moves stored.", registry=registry)
        self.bot_queue = Gauge("gomoku_bot_queue_length", "Bot searches waiting for a worker.", registry=registry)
        self.bot_wait = Histogram(
            "gomoku_bot_wait_seconds", "Time a bot search waited for a worker.", buckets=_SLOW, registry=registry
        )
        self.bot_search = Histogram(
            "gomoku_bot_search_seconds", "Time a bot search ran on its worker.", buckets=_SLOW, registry=registry
        )
        self.db_write = Histogram(
            "gomoku_db_write_seconds", "Time one storage transaction took.", buckets=_FAST, registry=registry
        )
        self.db_write_changes = Histogram(
            "gomoku_db_write_changes",
            "Changes (requests) committed together in one transaction.",
            buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
            registry=registry,
        )
        self.engine_stderr_dropped = Counter(
            "gomoku_engine_stderr_dropped_bytes",
            "Bytes an outside engine printed on stderr past what the log takes (read and dropped).",
            ["engine"],
            registry=registry,
        )
        self.tournament_pairing = Histogram(
            "gomoku_tournament_pairing_seconds",
            "Time to pair one round of a tournament (an arena's wave), its storing not included.",
            buckets=_FAST,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "gomoku_event_loop_lag_seconds",
            f"How late the event loop woke a sleep (probed every {LAG_PROBE_EVERY_S} s).",
            buckets=_FAST,
            registry=registry,
        )

    def count_rooms(self, rooms_by_status: Callable[[], dict[str, int]]) -> None:
        """Report the rooms by status, read from `rooms_by_status` at each scrape."""
        self.registry.register(_RoomCollector(rooms_by_status))

    def render(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)

    async def watch_event_loop(self) -> None:
        """Measure the event loop's lag for as long as the task runs: how much later than asked a
        short sleep ends (a blocked loop wakes it late)."""
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_PROBE_EVERY_S)
            self.loop_lag.observe(max(0.0, loop.time() - asked - LAG_PROBE_EVERY_S))


class _RoomCollector(Collector):
    def __init__(self, rooms_by_status: Callable[[], dict[str, int]]) -> None:
        self._rooms_by_status = rooms_by_status

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("gomoku_rooms", "Live rooms by status.", labels=["status"])
        counts = self._rooms_by_status()
        for status in ("waiting", "playing", "finished"):
            family.add_metric([status], counts.get(status, 0))
        yield family
