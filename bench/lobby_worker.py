"""A watcher process of `bench.lobby`: many signed-in connections that watch the lobby and note when
each seek's news reaches them.

The process is stepped by commands on its pipe (see `run_watchers`). A
watcher asks for the lobby's changes in batches (1.2) when the server
offers them, else a message per change (1.1). While it records, every seek
added or removed that a watcher reads of (in a `seek_added`, a
`seek_removed` or a `lobby_changes`) is noted with `time.monotonic()` the
moment it is read. Every watcher of the process reads the same message
object for the same text (`bench.wire.parse_frame`), so the arrivals are
kept per message: its events' keys (`a` or `r`, then the seek id) once, and
one compact array of arrival times, so that millions of arrivals stay
cheap and the process keeps up with the server. At the end the
main process sends the moment each event was caused (its owner sending
`seek` or `cancel_seek`), and the delays are worked out here.
"""

from __future__ import annotations

import asyncio
import signal
import time
from array import array
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from bench.load_worker import bounded, close_all, sleep_until
from bench.wire import BenchClient, Message, Received

LAG_TICK_S = 0.05
"""How often the process checks its own event loop's lag."""


def event_keys(message: Message) -> list[str]:
    """The keys of the lobby events a message tells (`a` + seek id for a seek added, `r` + seek id for
    one removed): one for `seek_added` or `seek_removed`, any number for a batch, none for the rest."""
    match message.get("type"):
        case "seek_added":
            return ["a" + str(message["seek"]["seek_id"])]
        case "seek_removed":
            return ["r" + str(message["seek_id"])]
        case "lobby_changes":
            added = ["a" + str(seek["seek_id"]) for seek in message["added"]]
            return added + ["r" + str(seek_id) for seek_id in message["removed"]]
    return []


@dataclass(frozen=True, slots=True)
class Open:
    """Connect and sign in these watchers (not watching yet)."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Watch:
    """Make the first `count` connections of this process watch the lobby."""

    count: int


@dataclass(frozen=True, slots=True)
class Record:
    """Forget what was noted so far; measure this process between `start_at` and `stop_at`."""

    start_at: float
    stop_at: float


@dataclass(frozen=True, slots=True)
class Count:
    """How many arrivals have been noted since `Record`."""


@dataclass(frozen=True, slots=True)
class Report:
    """The delays of the events caused at these moments (time.monotonic, by event key)."""

    caused_at: dict[str, float]


@dataclass(frozen=True, slots=True)
class Close:
    """Close every connection and end the process."""


@dataclass(slots=True)
class WatcherReport:
    """What one process measured in one phase."""

    delays: array[float] = field(default_factory=lambda: array("d"))
    """Seconds from an event's cause to a watcher reading it, one per delivery."""
    arrivals: int = 0
    """Lobby events read (a watcher's copy of an event caused before the phase is not among the delays)."""
    cpu_s: float = 0.0
    loop_lags: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    closed_by_server: Counter[str] = field(default_factory=Counter)
    """Connections the server closed, by close code (1013: too slow to read)."""


@dataclass(slots=True)
class Arrivals:
    """When watchers read one message, and the lobby events it tells."""

    message: Message
    """Held, so that its id (the key it is noted under) is not reused."""
    keys: list[str]
    times: array[float] = field(default_factory=lambda: array("d"))

    @property
    def count(self) -> int:
        """Events read: each of its events, by each watcher that read it."""
        return len(self.keys) * len(self.times)


def run_watchers(pipe: Connection) -> None:
    """Process entry point. A Ctrl-C reaches the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(Watchers(pipe).serve())


class SteppedConnections:
    """A generator process's signed-in connections, stepped by the main process: the server's url comes
    first on the pipe, then one command at a time, each answered, until `Close`."""

    def __init__(self, pipe: Connection) -> None:
        self.pipe = pipe
        self.url = ""
        self.clients: list[BenchClient] = []

    async def serve(self) -> None:
        self.url = await asyncio.to_thread(self.pipe.recv)
        try:
            while True:
                command = await asyncio.to_thread(self.pipe.recv)
                if isinstance(command, Close):
                    break
                self.pipe.send(await self._do(command))
        finally:
            await close_all(self.clients)

    async def _do(self, command: object) -> object:
        """The answer to one command."""
        raise NotImplementedError

    async def _open(self, names: Sequence[str]) -> int:
        """Connect and sign in these players; how many connections the process holds now."""
        self.clients += await bounded([opener(self.url, name) for name in names])
        return len(self.clients)

    def tally_connections(self, errors: Counter[str], closed_by_server: Counter[str]) -> None:
        """Add up the error codes every connection received, and the close codes of those the server closed."""
        for client in self.clients:
            errors.update(client.errors)
            if client.closed_by_server is not None:
                closed_by_server[str(client.closed_by_server)] += 1


class Watchers(SteppedConnections):
    """This process's watcher connections and what they have read."""

    def __init__(self, pipe: Connection) -> None:
        super().__init__(pipe)
        self.watching = 0
        self.arrivals: dict[int, Arrivals] = {}
        """What was read, by the id of the message object."""
        self.report = WatcherReport()

    async def _do(self, command: object) -> object:
        match command:
            case Open(names):
                return await self._open(names)
            case Watch(count):
                newcomers = self.clients[self.watching : count]
                await bounded([client_watch(client) for client in newcomers])
                for client in newcomers:
                    client.listener = self._note
                self.watching = max(self.watching, count)
                return self.watching
            case Record(start_at, stop_at):
                self.arrivals.clear()
                self.report = WatcherReport()
                asyncio.get_running_loop().create_task(self._measure(start_at, stop_at))
                return "recording"
            case Count():
                return sum(arrivals.count for arrivals in self.arrivals.values())
            case Report(caused_at):
                return self._finish(caused_at)
        raise ValueError(f"unknown command {command!r}")

    def _note(self, message: Message, arrived: float) -> None:
        arrivals = self.arrivals.get(id(message))
        if arrivals is None:
            keys = event_keys(message)
            if not keys:
                return
            arrivals = self.arrivals[id(message)] = Arrivals(message, keys)
        arrivals.times.append(arrived)

    async def _measure(self, start_at: float, stop_at: float) -> None:
        """This process's CPU time and event-loop lag between the two moments."""
        await sleep_until(start_at)
        began = time.process_time()
        while time.monotonic() < stop_at:
            asked = time.monotonic()
            await asyncio.sleep(LAG_TICK_S)
            self.report.loop_lags.append(time.monotonic() - asked - LAG_TICK_S)
        self.report.cpu_s = time.process_time() - began

    def _finish(self, caused_at: dict[str, float]) -> WatcherReport:
        report = self.report
        for arrivals in self.arrivals.values():
            report.arrivals += arrivals.count
            for key in arrivals.keys:
                cause = caused_at.get(key)
                if cause is not None:
                    report.delays.extend(arrived - cause for arrived in arrivals.times)
        self.tally_connections(report.errors, report.closed_by_server)
        return report


def opener(url: str, name: str) -> Callable[[], Awaitable[BenchClient]]:
    """A call that connects and signs in `name` (for `bounded`)."""
    return lambda: BenchClient.open(url, name, compression=False)


def client_watch(client: BenchClient) -> Callable[[], Awaitable[Received]]:
    """A call that makes `client` watch the lobby, in batches if the server offers them (for `bounded`)."""
    request: Message = {"type": "watch_lobby"}
    if "lobby_batches" in client.features:
        request["batches"] = True
    return lambda: client.request(request, expect="lobby")
