"""Spectators benchmark: one game between two scripted players, watched by a crowd.

    ./dev run python -m bench.spectators                  # the issue's size: 2,000 spectators
    ./dev run python -m bench.spectators --spectators 50 --moves 10

Starts `gomoku-server` as a process of its own on 127.0.0.1 (a scratch
database, no bot workers). Two players in this process open a room and
take its seats; `--spectators` players in `--procs` processes of their own
(see bench.spectator_worker) sign in, then all join the room as spectators
at once (a bounded number of requests in flight per process): the join
time runs from the first `join_room` sent to the last answered. Then the
players play `--moves` plies at `--rate` plies a second, on points that
never make five. A delivery's delay runs from the mover sending `move` to
a spectator reading its `moved`; a move "reaches all" when the last
spectator has read it. All processes share one monotonic clock. Traffic is
bounded by the options and stays on the loopback interface.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.figures import Spread, command_line, counts, cpu_share, note, spread_rows, table
from bench.load import raise_file_limit, share
from bench.load_worker import QUIET_SCHEDULE, PairedGame, WorkerResult, close_all, sleep_until
from bench.lobby import SteppedProcesses
from bench.lobby_worker import Count, Open
from bench.server_process import BenchError, MachineTimes, ServerProcess, cores
from bench.spectator_worker import Deliveries, DeliveryReport, Join, JoinReport, run_spectators
from bench.wire import BenchClient

TARGET_SPECTATORS = 2_000
TARGET_DELIVERY_P99_S = 0.100
TARGET_JOIN_S = 5.0
DRAIN_TIMEOUT_S = 60.0
"""How long, after the last move, the spectators may take to read the last `moved`."""
START_DELAY_S = 1.0
"""Pause between the spectators having joined and the first move."""


@dataclass(frozen=True, slots=True)
class Options:
    spectators: int
    moves: int
    rate: float
    procs: int
    server_arguments: tuple[str, ...]


@dataclass(slots=True)
class Measurement:
    """What one run measured."""

    options: Options
    joins: list[JoinReport] = field(default_factory=list)
    deliveries: list[DeliveryReport] = field(default_factory=list)
    players: WorkerResult = field(default_factory=WorkerResult)
    """The two players' side: their moves' round trips."""
    window_s: float = 0.0
    """Seconds from the first move to the last; the CPU figures are over this window."""
    server_cpu_s: float = 0.0
    machine_busy_s: float = 0.0
    own_cpu_s: float = 0.0

    @property
    def join_s(self) -> float:
        return max(join.ended for join in self.joins) - min(join.began for join in self.joins)

    def reached_all(self) -> Spread | None:
        """Per move, from its send to the last spectator (of every process) reading it."""
        last: dict[int, float] = {}
        for report in self.deliveries:
            for ply, delay in report.last_arrival.items():
                last[ply] = max(delay, last.get(ply, 0.0))
        return Spread.of(list(last.values()))

    def merged(self, name: str) -> Counter[str]:
        whole: Counter[str] = Counter()
        for report in self.deliveries:
            whole.update(getattr(report, name))
        return whole


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench.spectators", description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", "-S", type=int, default=TARGET_SPECTATORS, help="spectators of the game")
    parser.add_argument("--moves", type=int, default=60, help="plies played while they watch (default 60)")
    parser.add_argument("--rate", "-R", type=float, default=2.0, help="plies a second (default 2)")
    parser.add_argument("--procs", type=int, default=2, help="spectator processes (default 2)")
    parser.add_argument("--server-arg", action="append", default=[], help="one more gomoku-server argument")
    arguments = parser.parse_args(argv)
    if arguments.spectators < 1 or arguments.procs < 1:
        parser.error("--spectators and --procs must be at least 1")
    if not 1 <= arguments.moves <= len(QUIET_SCHEDULE):
        parser.error(f"--moves must be 1 to {len(QUIET_SCHEDULE)}")
    if arguments.rate <= 0:
        parser.error("--rate must be positive")
    return Options(
        spectators=arguments.spectators,
        moves=arguments.moves,
        rate=arguments.rate,
        procs=min(arguments.procs, arguments.spectators),
        server_arguments=tuple(arguments.server_arg),
    )


async def measure(options: Options) -> Measurement:
    """Start the server, the players and the spectators; play the game; stop everything."""
    raise_file_limit()
    measurement = Measurement(options)
    with tempfile.TemporaryDirectory(prefix="bench-spectators-") as scratch:
        with ServerProcess.start(Path(scratch) / "spectators.sqlite3", 0, options.server_arguments) as server:
            note(f"server pid {server.pid} listening on {server.url}")
            crowd = SteppedProcesses(options.procs, server.url, run_spectators, "spectators")
            players: list[BenchClient] = []
            finished = False
            try:
                players = [await BenchClient.open(server.url, name, compression=False) for name in ("black", "white")]
                black, white = players
                game = PairedGame(black, white, [], options.rate, (1, 1), random.Random(), measurement.players)
                room_id = await game.new_room()
                await _gather_the_crowd(options, crowd, room_id, measurement)
                sent_at = await _play(options, server, game, room_id, measurement)
                await _wait_for_deliveries(options, crowd, len(sent_at))
                reports = await crowd.ask_all(Deliveries(sent_at))
                measurement.deliveries = [report for report in reports if isinstance(report, DeliveryReport)]
                await game.finish(room_id)
                finished = True
            finally:
                await close_all(players)
                crowd.stop(finished)
    return measurement


async def _gather_the_crowd(options: Options, crowd: SteppedProcesses, room_id: str, measurement: Measurement) -> None:
    """Every spectator signs in, then all join the room at once."""
    began = time.monotonic()
    procs = options.procs
    names = [
        Open(tuple(f"s{index}-{number}" for number in range(share(options.spectators, procs, index))))
        for index in range(procs)
    ]
    await crowd.ask(names)
    note(f"{options.spectators} spectators signed in in {time.monotonic() - began:.1f} s")
    joins = await crowd.ask_all(Join(room_id))
    measurement.joins = [join for join in joins if isinstance(join, JoinReport)]
    note(f"they joined the game in {measurement.join_s:.1f} s")


async def _play(
    options: Options, server: ServerProcess, game: PairedGame, room_id: str, measurement: Measurement
) -> dict[int, float]:
    """Play the plies at the asked pace; when each was sent, by ply."""
    start_at = time.monotonic() + START_DELAY_S
    next_at = start_at
    sent_at: dict[int, float] = {}
    await sleep_until(start_at)
    server_cpu, machine, own = server.cpu_seconds(), MachineTimes.now(), time.process_time()
    for ply in range(1, options.moves + 1):
        await sleep_until(next_at)
        next_at = max(next_at + 1 / options.rate, time.monotonic())  # late: the rate falls, no burst
        sent_at[ply] = await game.move(room_id, ply, in_window=True)
    await sleep_until(next_at)  # the last move's share of the window
    measurement.window_s = time.monotonic() - start_at
    measurement.server_cpu_s = server.cpu_seconds() - server_cpu
    measurement.machine_busy_s = MachineTimes.now().busy - machine.busy
    measurement.own_cpu_s = time.process_time() - own
    return sent_at


async def _wait_for_deliveries(options: Options, crowd: SteppedProcesses, moves: int) -> None:
    """Until every spectator has read every move, or DRAIN_TIMEOUT_S has passed."""
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    while time.monotonic() < deadline:
        read = await crowd.ask_all(Count())
        if sum(count for count in read if isinstance(count, int)) >= options.spectators * moves:
            return
        await asyncio.sleep(0.2)


def report(measurement: Measurement, command: str) -> str:
    """The figures as a table, under the command that produced them."""
    options = measurement.options
    window = measurement.window_s
    delays = Spread.of([delay for report in measurement.deliveries for delay in report.delays])
    answers = Spread.of([answer for join in measurement.joins for answer in join.answers])
    moves = len(measurement.players.round_trips)
    joined = sum(len(join.answers) for join in measurement.joins)
    rows = [
        ["spectators joined", f"{joined} of {options.spectators}", ""],
        ["join time, all of them", f"{measurement.join_s:.2f} s", f"< {TARGET_JOIN_S:g} s"],
        *spread_rows("join answer", answers),
        ["moves played (asked)", f"{moves} ({options.moves})", ""],
        ["moves/s achieved (asked)", f"{moves / window:.2f} ({options.rate:g})" if window else "-", ""],
        ["deliveries measured / expected", f"{delays.count if delays else 0:,} / {joined * moves:,}", ""],
        *spread_rows("delivery", delays),
        *spread_rows("move reaches all", measurement.reached_all(), TARGET_DELIVERY_P99_S),
        *spread_rows("move round trip", Spread.of(measurement.players.round_trips)),
        ["server CPU", cpu_share(measurement.server_cpu_s, window), ""],
        ["server CPU per move", f"{measurement.server_cpu_s / moves * 1000:.2f} ms" if moves else "-", ""],
        ["rest of the machine CPU, spectators' included", cpu_share(_rest(measurement), window), ""],
        ["errors received", counts(measurement.merged("errors")), ""],
        ["closed by the server", counts(measurement.merged("closed_by_server")), ""],
    ]
    return "\n".join(
        [
            f"$ {command}",
            f"{cores()} cores; {options.procs} spectator process(es); {window:.0f} s of play; "
            "CPU as a share of one core",
            table(["figure", "value", "target"], rows),
        ]
    )


def _rest(measurement: Measurement) -> float:
    """The machine's CPU time that was neither the server's nor this process's (the spectator processes,
    whose own time is not sampled, are in it)."""
    return max(0.0, measurement.machine_busy_s - measurement.server_cpu_s - measurement.own_cpu_s)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        measurement = asyncio.run(measure(options))
    except BenchError as error:
        print(f"bench.spectators: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench.spectators: interrupted; the server and the spectators are stopped", file=sys.stderr)
        return 130
    print(report(measurement, command_line(argv, "bench.spectators")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
