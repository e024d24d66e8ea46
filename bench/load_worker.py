"""One load-generator process of `bench.load`: idle connections, games at a steady pace, spectators.

The benchmark's main process starts one or more of these (two cores may
need the load spread over processes) and steps them through the run over
a pipe: warm up, hold the idle connections, set up the games, play them
from `start_at` to `stop_at`, hand back the figures.

Games are played on a 19x19 freestyle board, untimed, from a fixed list
of points that never makes five in a row for either colour (see
`QUIET_SCHEDULE`), so that a game lasts as long as the benchmark wants:
after a random number of plies (between half of `plies` and `plies`, so
that games do not all restart at once) black resigns, both players leave
and a new room is made. The spectated game is played to the end of the
list, so that its spectators do not have to join again within a short run.

Each game moves at `rate` plies per second, its first move at a random
moment within the first 1/rate seconds so that games are out of phase. A
move is sent at its slot or, when the previous one came back late, as
soon as it did (no burst to catch up).
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TypeVar

from websockets.exceptions import ConnectionClosed

from bench.wire import REPLY_TIMEOUT_S, BenchClient, Message, WireError, answer_of, game_over, moved

T = TypeVar("T")

BOARD_SIZE = 19
OPEN_AT_ONCE = 50
"""Connections being opened (or requests being sent to set games up) at the same time, per process."""
LAG_TICK_S = 0.05
"""How often the generator checks its own event loop's lag."""


def quiet_schedule(size: int) -> list[tuple[int, int]]:
    """Alternating black and white points that never make five in a row for either colour.

    A point is black when (x + 2y) mod 4 is 0 or 1: along a row the colours
    go in pairs, down a column they alternate, and along either diagonal
    they go in pairs, so no line ever holds more than two stones of a
    colour in a row. Points are taken row by row; the list stops when one
    colour runs out.
    """
    black = [(x, y) for y in range(size) for x in range(size) if (x + 2 * y) % 4 < 2]
    white = [(x, y) for y in range(size) for x in range(size) if (x + 2 * y) % 4 >= 2]
    return [point for pair in zip(black, white, strict=False) for point in pair]


QUIET_SCHEDULE = quiet_schedule(BOARD_SIZE)


@dataclass(frozen=True, slots=True)
class WorkerPlan:
    """What one generator process does."""

    index: int
    url: str
    compression: bool
    idle: int
    """Idle connections to hold (signed in, doing nothing)."""
    games: int
    """Games to play, two connections each."""
    spectators: int
    """Spectators of one more game played here (0: no spectated game)."""
    rate: float
    """Plies per second in each game."""
    plies: int
    """A game ends after a random number of plies between plies/2 and plies."""
    seed: int
    warm_up: bool
    """Whether this process first warms the server up (a few connections and a short game)."""


@dataclass(frozen=True, slots=True)
class Go:
    """Play from `start_at` to `stop_at` (time.monotonic, which all processes share on Linux)."""

    start_at: float
    stop_at: float


@dataclass(slots=True)
class WorkerResult:
    """What one generator process measured in the window."""

    idle_held: int = 0
    round_trips: list[float] = field(default_factory=list)
    """Seconds from a move's send to the opponent reading its `moved`, for moves sent in the window."""
    spectator_delays: list[float] = field(default_factory=list)
    """Seconds from the mover reading `moved` to each spectator reading it."""
    spectated_moves: int = 0
    unanswered: int = 0
    """Moves that failed or whose `moved` never reached the opponent."""
    games_started: int = 0
    games_failed: int = 0
    spectators_joined: int = 0
    spectators_join_s: float = 0.0
    """How long the spectators took to join the spectated game, all at once."""
    cpu_s: float = 0.0
    """CPU time of this process in the window."""
    loop_lags: list[float] = field(default_factory=list)
    """This process's own event-loop lag, sampled every LAG_TICK_S in the window."""
    errors: Counter[str] = field(default_factory=Counter)
    closed_by_server: Counter[str] = field(default_factory=Counter)
    """Connections the server closed, by close code (1013: too slow to read)."""
    failures: list[str] = field(default_factory=list)
    """The first few failures, for the report."""


def run_worker(plan: WorkerPlan, pipe: Connection) -> None:
    """Process entry point: run the plan, stepped by commands on `pipe`.

    A Ctrl-C in the terminal reaches every process of the group; the main
    process handles it (and terminates this one), so it is ignored here.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(_run(plan, pipe))


async def _run(plan: WorkerPlan, pipe: Connection) -> None:
    result = WorkerResult()
    clients: list[BenchClient] = []
    try:
        if plan.warm_up:
            await warm_up(plan)
        pipe.send("warm")
        await _expect(pipe, "idle")
        idle = await open_clients(plan, [f"idle{plan.index}-{number}" for number in range(plan.idle)])
        clients.extend(idle)
        result.idle_held = len(idle)
        pipe.send(result.idle_held)
        await _expect(pipe, "games")
        games = await set_up_games(plan, result, clients)
        pipe.send("ready")
        go = await asyncio.to_thread(pipe.recv)
        assert isinstance(go, Go), go
        await play(games, go, result)
        for client in clients:
            result.errors.update(client.errors)
            if client.closed_by_server is not None:
                result.closed_by_server[str(client.closed_by_server)] += 1
        pipe.send(result)
    finally:
        await close_all(clients)


async def _expect(pipe: Connection, command: str) -> None:
    received = await asyncio.to_thread(pipe.recv)
    if received != command:
        raise RuntimeError(f"expected the command {command!r}, got {received!r}")


async def bounded(calls: Sequence[Callable[[], Awaitable[T]]], at_once: int = OPEN_AT_ONCE) -> list[T]:
    """Run the calls, at most `at_once` at a time; results in order."""
    gate = asyncio.Semaphore(at_once)

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await call()

    return list(await asyncio.gather(*(one(call) for call in calls)))


async def open_clients(plan: WorkerPlan, names: Sequence[str]) -> list[BenchClient]:
    """Connect and sign in one client per name."""

    def opener(name: str) -> Callable[[], Awaitable[BenchClient]]:
        return lambda: BenchClient.open(plan.url, name, plan.compression)

    return await bounded([opener(name) for name in names])


async def close_all(clients: Sequence[BenchClient]) -> None:
    await bounded([client.close for client in clients])


async def warm_up(plan: WorkerPlan) -> None:
    """Sign in a few players and play a short game, so that the server's first-use costs
    (imports, caches, the database's first pages) are not counted per idle connection."""
    clients = await open_clients(plan, [f"warm{number}" for number in range(10)])
    try:
        black, white = clients[:2]
        game = PairedGame(black, white, [], plan.rate, (10, 10), random.Random(plan.seed), WorkerResult())
        room_id = await game.new_room()
        for ply in range(1, 11):
            await game.move(room_id, ply, in_window=False)
        await game.finish(room_id)
    finally:
        await close_all(clients)


async def set_up_games(plan: WorkerPlan, result: WorkerResult, clients: list[BenchClient]) -> list[PairedGame]:
    """Connect the players (and spectators) of this process's games."""
    rng = random.Random(plan.seed)
    names = [f"g{plan.index}-{number}{color}" for number in range(plan.games) for color in "bw"]
    players = await open_clients(plan, names)
    clients.extend(players)
    shortest = max(1, plan.plies // 2)
    games = [
        PairedGame(players[2 * number], players[2 * number + 1], [], plan.rate, (shortest, plan.plies), rng, result)
        for number in range(plan.games)
    ]
    if plan.spectators > 0:
        pair = await open_clients(plan, [f"sg{plan.index}b", f"sg{plan.index}w"])
        watchers = await open_clients(plan, [f"s{plan.index}-{number}" for number in range(plan.spectators)])
        clients.extend([*pair, *watchers])
        whole = (len(QUIET_SCHEDULE), len(QUIET_SCHEDULE))
        games.append(PairedGame(pair[0], pair[1], watchers, plan.rate, whole, rng, result))
    await bounded([game.set_up for game in games])
    return games


async def play(games: Sequence[PairedGame], go: Go, result: WorkerResult) -> None:
    """Play every game from go.start_at to go.stop_at, and measure this process meanwhile."""
    lag = asyncio.get_running_loop().create_task(_watch_loop_lag(go, result))
    cpu = asyncio.get_running_loop().create_task(_measure_cpu(go, result))
    await asyncio.gather(*(game.play(go) for game in games))
    await asyncio.gather(lag, cpu)
    for game in games:
        await game.collect_spectator_delays()


async def _watch_loop_lag(go: Go, result: WorkerResult) -> None:
    await sleep_until(go.start_at)
    while time.monotonic() < go.stop_at:
        asked = time.monotonic()
        await asyncio.sleep(LAG_TICK_S)
        result.loop_lags.append(time.monotonic() - asked - LAG_TICK_S)


async def _measure_cpu(go: Go, result: WorkerResult) -> None:
    await sleep_until(go.start_at)
    began = time.process_time()
    await sleep_until(go.stop_at)
    result.cpu_s = time.process_time() - began


async def sleep_until(moment: float) -> None:
    """Wait until time.monotonic() reaches `moment` (the asyncio twin of `server_process.sleep_until`)."""
    delay = moment - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


class PairedGame:
    """Two clients playing one game after another at a steady pace, watched by some spectators."""

    def __init__(
        self,
        black: BenchClient,
        white: BenchClient,
        spectators: Sequence[BenchClient],
        rate: float,
        plies: tuple[int, int],
        rng: random.Random,
        result: WorkerResult,
    ) -> None:
        self.black = black
        self.white = white
        self.spectators = spectators
        self.interval = 1 / rate
        self.plies = plies
        self.rng = rng
        self.result = result
        self._echoes: dict[tuple[str, int], float] = {}
        """When the mover read each of its `moved` in the window, by (room, ply)."""
        self._arrivals: list[tuple[str, int, float]] = []
        """(room, ply, when) of every `moved` a spectator read."""
        self._first_room: str | None = None
        """The room opened before the window, for the first game."""
        for spectator in spectators:
            spectator.listener = self._on_spectator_message

    def _on_spectator_message(self, message: Message, arrived: float) -> None:
        if message.get("type") == "moved":
            self._arrivals.append((message["room_id"], message["ply"], arrived))

    async def set_up(self) -> None:
        """Open the first game's room (and let its spectators in) before the window opens."""
        self._first_room = await self.new_room()

    async def play(self, go: Go) -> None:
        """Play games until go.stop_at; a failure ends this pair's play (and is counted)."""
        next_at = go.start_at + self.rng.uniform(0, self.interval)
        try:
            while time.monotonic() < go.stop_at:
                room_id = self._first_room or await self.new_room()
                self._first_room = None
                length = self.rng.randint(*self.plies)
                for ply in range(1, length + 1):
                    await sleep_until(next_at)
                    if time.monotonic() >= go.stop_at:
                        return
                    next_at = max(next_at + self.interval, time.monotonic())
                    await self.move(room_id, ply, in_window=True)
                await self.finish(room_id)
        except (WireError, ConnectionError, ConnectionClosed, TimeoutError) as failure:
            self.result.games_failed += 1
            self.result.unanswered += 1
            if len(self.result.failures) < 5:
                self.result.failures.append(str(failure) or "the opponent never read a move's `moved`")

    async def new_room(self) -> str:
        """Black opens a room, white takes the other seat, the spectators come in."""
        created = await self.black.request(
            {"type": "create_room", "rule": "freestyle", "size": BOARD_SIZE, "black": "me", "white": "open"},
            expect="room",
        )
        room_id: str = created.message["room"]["room_id"]
        await self.white.request({"type": "join_room", "room_id": room_id, "as": "player"}, expect="room")
        self.result.games_started += 1
        if self.spectators:
            began = time.monotonic()
            await bounded([self._joiner(spectator, room_id) for spectator in self.spectators])
            self.result.spectators_joined += len(self.spectators)
            self.result.spectators_join_s += time.monotonic() - began
        return room_id

    @staticmethod
    def _joiner(spectator: BenchClient, room_id: str) -> Callable[[], Awaitable[object]]:
        return lambda: spectator.request({"type": "join_room", "room_id": room_id, "as": "spectator"}, expect="room")

    async def move(self, room_id: str, ply: int, *, in_window: bool) -> float:
        """Play ply `ply`; record the round trip to the opponent (and the echo, for spectators).
        Returns when the move was sent (time.monotonic), from which others time its delivery."""
        mover, opponent = (self.black, self.white) if ply % 2 else (self.white, self.black)
        x, y = QUIET_SCHEDULE[ply - 1]
        seen = opponent.wait_for(moved(room_id, ply))
        answer, sent_at = await mover.send_request({"type": "move", "room_id": room_id, "x": x, "y": y})
        try:
            echo = await answer_of(mover.name, "move", answer, expect="moved")
            arrived = (await asyncio.wait_for(seen, REPLY_TIMEOUT_S)).at
        finally:
            seen.cancel()
        if in_window:
            self.result.round_trips.append(arrived - sent_at)
            if self.spectators:
                self._echoes[(room_id, ply)] = echo.at
                self.result.spectated_moves += 1
        return sent_at

    async def finish(self, room_id: str) -> None:
        """Black resigns; both players and the spectators leave the room."""
        opponent_told = self.white.wait_for(game_over(room_id))
        try:
            await self.black.request({"type": "resign", "room_id": room_id}, expect="game_over")
            await asyncio.wait_for(opponent_told, REPLY_TIMEOUT_S)
        finally:
            opponent_told.cancel()
        leavers = [self.black, self.white, *self.spectators]
        await bounded([self._leaver(client, room_id) for client in leavers], at_once=len(leavers))

    @staticmethod
    def _leaver(client: BenchClient, room_id: str) -> Callable[[], Awaitable[object]]:
        return lambda: client.request({"type": "leave_room", "room_id": room_id}, expect="left")

    async def collect_spectator_delays(self) -> None:
        """Turn the spectators' arrival times into delays after the mover's, for moves in the window
        (after waiting, up to REPLY_TIMEOUT_S, for the last moves to reach every spectator)."""
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        expected = len(self.spectators) * len(self._echoes)
        while self._delivered() < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for room_id, ply, arrived in self._arrivals:
            echoed = self._echoes.get((room_id, ply))
            if echoed is not None:
                self.result.spectator_delays.append(arrived - echoed)

    def _delivered(self) -> int:
        return sum(1 for room_id, ply, _ in self._arrivals if (room_id, ply) in self._echoes)
