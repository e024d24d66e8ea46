"""Bot benchmark: do bot-vs-bot games slow down the bots that people are playing?

    ./dev run python -m bench.bots                  # 5 human games, then with 50 bot games; 60 s each
    ./dev run python -m bench.bots --bot-games 2 --human-games 1 --duration 5 --warmup 1

Starts `gomoku-server --bot-workers 2` as a process of its own on
127.0.0.1 (a scratch database) and plays, in one run:

1. alone: `--human-games` scripted humans, each against a bot
   (`--human-opponent`, default greedy). A human thinks `--think-ms`, then
   plays a random free point near the stones; a finished game is left and
   a new one opened. The bot's reply time is from the human reading its own
   `moved` to reading the bot's `moved`.
2. loaded: the same, while `--bot-games` bot-vs-bot games
   (`--bot-level` on both seats, each watched by the client that made it,
   which opens a new one when it ends) compete for the same bot workers.

Each phase is measured over `--duration` seconds after `--warmup` seconds
(the workers starting, the bot games filling the queue). Throughout, one
more client sends `list_bots` every 100 ms and times the answer: that
round trip, measured from outside, stands for the server's event-loop lag
(it also holds the socket and both sides' JSON: a floor of a few tenths
of a millisecond); the server has no lag gauge of its own to read.

Prints each figure alone, loaded, and loaded/alone.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.figures import Spread, command_line, counts, cpu_share, milliseconds, note, ratio, table
from bench.server_process import BenchError, MachineTimes, ServerProcess, cores
from bench.wire import BenchClient, Message, Received, WireError, answer_of, game_over, moved

BOARD_SIZE = 15
PROBE_INTERVAL_S = 0.1
TARGET_LAG_P99_S = 0.010
NEAR = 2
"""A scripted human plays within this many points of a stone already on the board."""


@dataclass(frozen=True, slots=True)
class Options:
    bot_games: int
    human_games: int
    bot_level: str
    human_opponent: str
    bot_workers: int
    duration: float
    warmup: float
    think_s: float
    server_arguments: tuple[str, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class Window:
    """A measured stretch of time (time.monotonic)."""

    start: float
    stop: float

    def holds(self, moment: float) -> bool:
        return self.start <= moment < self.stop


@dataclass(slots=True)
class Phase:
    """What was measured in one window."""

    name: str
    window: Window
    replies: list[float] = field(default_factory=list)
    """Seconds from a human reading its `moved` to reading the bot's."""
    probes: list[float] = field(default_factory=list)
    """Round trips of `list_bots`."""
    bot_game_moves: int = 0
    human_games_started: int = 0
    server_cpu_s: float = 0.0
    workers_cpu_s: float = 0.0
    generator_cpu_s: float = 0.0
    machine_busy_s: float = 0.0


class Phases:
    """The alone and loaded windows; a sample belongs to the one that holds its moment, if any."""

    def __init__(self, alone: Phase, loaded: Phase) -> None:
        self.alone = alone
        self.loaded = loaded

    def at(self, moment: float) -> Phase | None:
        for phase in (self.alone, self.loaded):
            if phase.window.holds(moment):
                return phase
        return None


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-games", type=int, default=50, help="bot-vs-bot games in the loaded phase")
    parser.add_argument("--human-games", type=int, default=5, help="scripted humans, each against a bot")
    parser.add_argument("--bot-level", default="greedy", help="the level on both seats of the bot games")
    parser.add_argument("--human-opponent", default="greedy", help="the level the humans play against")
    parser.add_argument("--bot-workers", type=int, default=2, help="the server's --bot-workers (default 2)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured per phase (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before each phase's window")
    parser.add_argument("--think-ms", type=float, default=300.0, help="a scripted human's thinking time")
    parser.add_argument("--server-arg", action="append", default=[], help="one more gomoku-server argument")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    if arguments.bot_games < 0 or arguments.human_games < 1 or arguments.bot_workers < 1:
        parser.error("--bot-games must not be negative; --human-games and --bot-workers must be at least 1")
    if arguments.duration <= 0 or arguments.warmup < 0 or arguments.think_ms < 0:
        parser.error("--duration must be positive; --warmup and --think-ms must not be negative")
    return Options(
        bot_games=arguments.bot_games,
        human_games=arguments.human_games,
        bot_level=arguments.bot_level,
        human_opponent=arguments.human_opponent,
        bot_workers=arguments.bot_workers,
        duration=arguments.duration,
        warmup=arguments.warmup,
        think_s=arguments.think_ms / 1000,
        server_arguments=tuple(arguments.server_arg),
        seed=arguments.seed,
    )


# ------------------------------------------------------------------ players


async def _within(future: asyncio.Future[Received], deadline: float) -> bool:
    """Wait for `future` until `deadline` (time.monotonic); whether it finished in time."""
    try:
        await asyncio.wait_for(asyncio.shield(future), max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        return False
    return True


class ScriptedHuman:
    """A human playing black against a bot, one game after another, until `stop_at`."""

    def __init__(self, client: BenchClient, opponent: str, think_s: float, rng: random.Random, phases: Phases) -> None:
        self.client = client
        self.opponent = opponent
        self.think_s = think_s
        self.rng = rng
        self.phases = phases
        self.stones: set[tuple[int, int]] = set()

    async def play(self, stop_at: float) -> None:
        while time.monotonic() < stop_at:
            room = await self.client.request(
                {
                    "type": "create_room",
                    "rule": "freestyle",
                    "size": BOARD_SIZE,
                    "black": "me",
                    "white": {"bot": self.opponent},
                },
                expect="room",
            )
            room_id: str = room.message["room"]["room_id"]
            phase = self.phases.at(room.at)
            if phase is not None:
                phase.human_games_started += 1
            self.stones = set()
            await self._play_game(room_id, stop_at)
            await self.client.request({"type": "leave_room", "room_id": room_id}, expect="left")

    async def _play_game(self, room_id: str, stop_at: float) -> None:
        """Move and wait for the bot's reply until the game ends or time is up."""
        over = self.client.wait_for(game_over(room_id))
        try:
            ply = 1
            while time.monotonic() < stop_at:
                await asyncio.sleep(self.think_s)
                if over.done() or not await self._move_and_wait(room_id, ply, over, stop_at):
                    return
                ply += 2
        finally:
            over.cancel()

    async def _move_and_wait(self, room_id: str, ply: int, over: asyncio.Future[Received], stop_at: float) -> bool:
        """Play ply `ply` and wait for the bot's answer; whether the game goes on."""
        x, y = self._choose()
        reply = self.client.wait_for(moved(room_id, ply + 1))
        try:
            try:
                echo = await self.client.request({"type": "move", "room_id": room_id, "x": x, "y": y}, expect="moved")
            except WireError as refusal:
                if refusal.code == "game_over":  # the bot's last move ended it; its game_over is on its way
                    return False
                raise
            self.stones.add((x, y))
            remaining = max(0.0, stop_at - time.monotonic())
            await asyncio.wait({over, reply}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            if not reply.done():
                return False
            bot_move = reply.result()
            self.stones.add((bot_move.message["x"], bot_move.message["y"]))
            phase = self.phases.at(echo.at)
            if phase is not None:
                phase.replies.append(bot_move.at - echo.at)
            return True
        finally:
            reply.cancel()

    def _choose(self) -> tuple[int, int]:
        """A random free point near the stones (the centre first)."""
        if not self.stones:
            return BOARD_SIZE // 2, BOARD_SIZE // 2
        near = {
            (x + dx, y + dy)
            for x, y in self.stones
            for dx in range(-NEAR, NEAR + 1)
            for dy in range(-NEAR, NEAR + 1)
            if 0 <= x + dx < BOARD_SIZE and 0 <= y + dy < BOARD_SIZE
        }
        free = sorted(near - self.stones)
        return self.rng.choice(free)


class BotGameWatcher:
    """Opens a bot-vs-bot game, watches it to the end, and opens another, until `stop_at`."""

    def __init__(self, client: BenchClient, level: str, phases: Phases) -> None:
        self.client = client
        self.level = level
        self.phases = phases
        self.results: Counter[str] = Counter()
        """How the watched games ended, by reason."""
        client.listener = self._on_message

    def _on_message(self, message: Message, arrived: float) -> None:
        if message.get("type") == "moved":
            phase = self.phases.at(arrived)
            if phase is not None:
                phase.bot_game_moves += 1

    async def play(self, stop_at: float) -> None:
        seat = {"bot": self.level}
        while time.monotonic() < stop_at:
            room = await self.client.request(
                {"type": "create_room", "rule": "freestyle", "size": BOARD_SIZE, "black": seat, "white": seat},
                expect="room",
            )
            room_id: str = room.message["room"]["room_id"]
            over = self.client.wait_for(game_over(room_id))
            if await _within(over, stop_at):
                self.results[over.result().message["result"]["reason"]] += 1
            over.cancel()
            await self.client.request({"type": "leave_room", "room_id": room_id}, expect="left")


async def probe(client: BenchClient, phases: Phases, stop_at: float) -> None:
    """Time a `list_bots` round trip every PROBE_INTERVAL_S (the next one waits for a late answer)."""
    next_at = time.monotonic()
    while next_at < stop_at:
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        answer, sent_at = await client.send_request({"type": "list_bots"})
        received = await answer_of(client.name, "list_bots", answer, expect="bots")
        phase = phases.at(sent_at)
        if phase is not None:
            phase.probes.append(received.at - sent_at)
        next_at = max(next_at + PROBE_INTERVAL_S, time.monotonic())


# -------------------------------------------------------------------- run


async def play_phases(options: Options, server: ServerProcess) -> tuple[Phases, Counter[str], Counter[str]]:
    """Run the alone phase, then the loaded one; return them, how the bot games ended and the errors."""
    rng = random.Random(options.seed)
    humans = [await BenchClient.open(server.url, f"human{number}") for number in range(options.human_games)]
    watchers = [await BenchClient.open(server.url, f"watch{number}") for number in range(options.bot_games)]
    prober = await BenchClient.open(server.url, "probe")
    clients = [*humans, *watchers, prober]
    try:
        began = time.monotonic()
        note(f"alone for {options.warmup + options.duration:.0f} s, then with the bot games as long")
        alone = Window(began + options.warmup, began + options.warmup + options.duration)
        loaded = Window(alone.stop + options.warmup, alone.stop + options.warmup + options.duration)
        phases = Phases(Phase("alone", alone), Phase("loaded", loaded))
        players = [ScriptedHuman(client, options.human_opponent, options.think_s, rng, phases) for client in humans]
        bot_games = [BotGameWatcher(client, options.bot_level, phases) for client in watchers]
        tasks = [
            *(player.play(loaded.stop) for player in players),
            probe(prober, phases, loaded.stop),
            _start_later(bot_games, alone.stop, loaded.stop),
            _measure(phases.alone, server),
            _measure(phases.loaded, server),
        ]
        await asyncio.gather(*tasks)
        ended: Counter[str] = Counter()
        for game in bot_games:
            ended.update(game.results)
        errors: Counter[str] = Counter()
        for client in clients:
            errors.update(client.errors)
        return phases, ended, errors
    finally:
        await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


async def _start_later(bot_games: Sequence[BotGameWatcher], start_at: float, stop_at: float) -> None:
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    await asyncio.gather(*(game.play(stop_at) for game in bot_games))


async def _measure(phase: Phase, server: ServerProcess) -> None:
    """CPU of the server, its bot workers, this process and the machine over the phase's window."""
    await asyncio.sleep(max(0.0, phase.window.start - time.monotonic()))
    server_cpu, workers_cpu = server.cpu_seconds(), server.worker_cpu_seconds()
    generator_cpu, machine = time.process_time(), MachineTimes.now()
    await asyncio.sleep(max(0.0, phase.window.stop - time.monotonic()))
    phase.server_cpu_s = server.cpu_seconds() - server_cpu
    phase.workers_cpu_s = server.worker_cpu_seconds() - workers_cpu
    phase.generator_cpu_s = time.process_time() - generator_cpu
    phase.machine_busy_s = MachineTimes.now().busy - machine.busy


def measure(options: Options) -> tuple[Phases, Counter[str], Counter[str], int]:
    """Start the server, run both phases, stop the server; the phases, bot-game endings, errors
    and the number of warnings in the server's log."""
    with tempfile.TemporaryDirectory(prefix="bench-bots-") as scratch:
        db_path = Path(scratch) / "bots.sqlite3"
        with ServerProcess.start(db_path, options.bot_workers, options.server_arguments) as server:
            note(f"server pid {server.pid} listening on {server.url}")
            try:
                phases, ended, errors = asyncio.run(play_phases(options, server))
            except (WireError, ConnectionError) as failure:
                raise BenchError(f"{failure}\nserver log:\n{server.log_tail()}") from failure
            return phases, ended, errors, server.log_warnings()


def report(
    options: Options, phases: Phases, ended: Counter[str], errors: Counter[str], warnings: int, command: str
) -> str:
    alone, loaded = phases.alone, phases.loaded
    rows: list[list[str]] = []
    for label, pick in PICKS:
        target = "close to alone" if label == "p99" else ""
        rows.append(_spread_row(f"bot reply time {label}", alone.replies, loaded.replies, pick, target))
    rows.append(["bot replies measured", str(len(alone.replies)), str(len(loaded.replies)), "", ""])
    rows.append(["human games started", str(alone.human_games_started), str(loaded.human_games_started), "", ""])
    for label, pick in PICKS:
        target = f"< {TARGET_LAG_P99_S * 1000:.0f} ms" if label == "p99" else ""
        rows.append(_spread_row(f"loop lag probe {label}", alone.probes, loaded.probes, pick, target))
    rows.append(["lag probes measured", str(len(alone.probes)), str(len(loaded.probes)), "", ""])
    rows.append(
        [
            "bot-game moves/s",
            f"{alone.bot_game_moves / options.duration:.1f}",
            f"{loaded.bot_game_moves / options.duration:.1f}",
            "",
            "",
        ]
    )
    cpu: tuple[tuple[str, Callable[[Phase], float]], ...] = (
        ("server CPU (main process)", lambda phase: phase.server_cpu_s),
        ("bot workers CPU", lambda phase: phase.workers_cpu_s),
        ("generator CPU", lambda phase: phase.generator_cpu_s),
        ("rest of the machine CPU", _others),
    )
    for label, used in cpu:
        shares = (cpu_share(used(phase), options.duration) for phase in (alone, loaded))
        rows.append([label, *shares, "", ""])
    lines = [
        f"$ {command}",
        f"{cores()} cores; {options.bot_workers} bot workers; humans against {options.human_opponent}, "
        f"{options.bot_games} {options.bot_level}-vs-{options.bot_level} games in the loaded phase; "
        f"{options.duration:.0f} s per phase",
        table(["figure", "alone", f"with {options.bot_games} bot games", "ratio", "target"], rows),
        f"bot games ended: {counts(ended)}",
        f"errors received: {counts(errors)}",
        f"server log warnings: {warnings}",
    ]
    return "\n".join(lines)


PICKS: tuple[tuple[str, Callable[[Spread], float]], ...] = (
    ("p50", lambda spread: spread.p50),
    ("p99", lambda spread: spread.p99),
    ("max", lambda spread: spread.maximum),
)


def _spread_row(
    name: str, alone: list[float], loaded: list[float], pick: Callable[[Spread], float], target: str
) -> list[str]:
    before, after = Spread.of(alone), Spread.of(loaded)
    value_before = None if before is None else pick(before)
    value_after = None if after is None else pick(after)
    return [name, milliseconds(value_before), milliseconds(value_after), ratio(value_after, value_before), target]


def _others(phase: Phase) -> float:
    return max(0.0, phase.machine_busy_s - phase.server_cpu_s - phase.workers_cpu_s - phase.generator_cpu_s)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        phases, ended, errors, warnings = measure(options)
    except BenchError as error:
        print(f"bench.bots: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench.bots: interrupted; the server is stopped", file=sys.stderr)
        return 130
    print(report(options, phases, ended, errors, warnings, command_line(argv, "bench.bots")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
