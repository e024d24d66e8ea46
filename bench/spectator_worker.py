"""A spectator process of `bench.spectators`: many signed-in connections that join one game and note
when each move reaches them.

The process is stepped by commands on its pipe (see `run_spectators`): `Open`, `Count` and `Close` as
in bench.lobby_worker, then `Join` and `Deliveries`.
Every `moved` of the watched room a spectator reads is noted with
`time.monotonic()` the moment it is read, in one compact array of arrival
times per ply, so that hundreds of thousands of arrivals stay cheap. At the
end the main process sends the moment each ply was sent by its mover, and
the delays are worked out here.
"""

from __future__ import annotations

import asyncio
import signal
import time
from array import array
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from bench.load_worker import bounded
from bench.lobby_worker import Count, Open, SteppedConnections
from bench.wire import BenchClient, Message, answer_of


@dataclass(frozen=True, slots=True)
class Join:
    """Every spectator of this process joins `room_id`, all at once (a bounded number in flight)."""

    room_id: str


@dataclass(frozen=True, slots=True)
class Deliveries:
    """The delays of the plies sent at these moments (time.monotonic, by ply)."""

    sent_at: dict[int, float]


@dataclass(slots=True)
class JoinReport:
    """How this process's spectators joined."""

    began: float
    """When the first `join_room` was sent (time.monotonic)."""
    ended: float
    """When the last one was answered."""
    answers: list[float]
    """Seconds from each `join_room` to its `room`."""


@dataclass(slots=True)
class DeliveryReport:
    """What one process measured while the game was played."""

    delays: array[float] = field(default_factory=lambda: array("d"))
    """Seconds from a move's send to a spectator reading its `moved`, one per delivery."""
    last_arrival: dict[int, float] = field(default_factory=dict)
    """By ply: seconds from its send to the last of this process's spectators reading it."""
    errors: Counter[str] = field(default_factory=Counter)
    closed_by_server: Counter[str] = field(default_factory=Counter)
    """Connections the server closed, by close code (1013: too slow to read)."""


def run_spectators(pipe: Connection) -> None:
    """Process entry point. A Ctrl-C reaches the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(Spectators(pipe).serve())


class Spectators(SteppedConnections):
    """This process's spectator connections and what they have read."""

    def __init__(self, pipe: Connection) -> None:
        super().__init__(pipe)
        self.room_id = ""
        self.arrivals: dict[int, array[float]] = {}

    async def _do(self, command: object) -> object:
        match command:
            case Open(names):
                return await self._open(names)
            case Join(room_id):
                return await self._join(room_id)
            case Count():
                return sum(len(times) for times in self.arrivals.values())
            case Deliveries(sent_at):
                return self._finish(sent_at)
        raise ValueError(f"unknown command {command!r}")

    async def _join(self, room_id: str) -> JoinReport:
        self.room_id = room_id
        for client in self.clients:
            client.listener = self._note
        began = time.monotonic()
        answers = await bounded([_joiner(client, room_id) for client in self.clients])
        ended = time.monotonic()
        return JoinReport(began, ended, answers)

    def _note(self, message: Message, arrived: float) -> None:
        if message.get("type") == "moved" and message.get("room_id") == self.room_id:
            ply = int(message["ply"])
            times = self.arrivals.get(ply)
            if times is None:
                times = self.arrivals[ply] = array("d")
            times.append(arrived)

    def _finish(self, sent_at: dict[int, float]) -> DeliveryReport:
        report = DeliveryReport()
        for ply, times in self.arrivals.items():
            sent = sent_at.get(ply)
            if sent is not None:
                report.delays.extend(arrived - sent for arrived in times)
                report.last_arrival[ply] = max(times) - sent
        self.tally_connections(report.errors, report.closed_by_server)
        return report


def _joiner(client: BenchClient, room_id: str) -> Callable[[], Awaitable[float]]:
    """A call that makes `client` join `room_id` as a spectator, returning how long the answer took."""

    async def join() -> float:
        answer, sent_at = await client.send_request({"type": "join_room", "room_id": room_id, "as": "spectator"})
        joined = await answer_of(client.name, "join_room", answer, expect="room")
        return joined.at - sent_at

    return join
