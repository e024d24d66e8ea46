"""Load benchmark: idle connections, human games at a steady pace and a crowd of spectators.

    ./dev run python -m bench.load                  # the issue's sizes, 60 s
    ./dev run python -m bench.load --connections 20 --games 2 --rate 2 --spectators 5 --duration 3
    ./dev run python -m bench.load --parts idle --no-compression

Starts `gomoku-server` as a process of its own on 127.0.0.1 (a scratch
database, `--bot-workers 0`), and the load generator in `--procs`
processes beside it. Then, in order:

1. idle: `--connections` clients connect and sign in, then do nothing; the
   server's resident memory with them, minus before them, divided by their
   number is the memory per idle connection. They stay connected for the
   rest of the run.
2. games: `--games` games between two clients each, `--rate` plies per
   second each, out of phase (see bench.load_worker), through the real
   protocol (create_room, join_room, move, resign, leave_room); plus, for
   `spectators`, one more such game watched by `--spectators` clients.
   Measured over `--duration` seconds: plies per second achieved; the
   round trip of a move (the mover sending `move` to the opponent reading
   `moved`); the spectators' delay (the mover reading `moved` to each
   spectator reading it); the server's CPU time per move; and the CPU
   used by the server, the generator and the machine as a whole, since
   the machine may be shared and two cores do not leave much room.

The generator connects from 127.0.0.1 only, so the server is started
without the per-address limits on connections and new names (see
bench.server_process); pass it any other option with `--server-arg`
(repeatable). The client offers permessage-deflate as browsers do
(`--no-compression` not to). `--profile` samples the server with py-spy
over the window and names the functions with the most self time (see
bench.profile).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from bench.figures import Spread, command_line, counts, cpu_share, milliseconds, note, spread_rows, table
from bench.load_worker import Go, WorkerPlan, WorkerResult, run_worker
from bench.profile import Profile, ServerProfiler
from bench.server_process import BenchError, MachineTimes, ServerProcess, cores, sleep_until

PARTS = ("idle", "games", "spectators")
SETTLE_S = 1.0
"""Pause before reading the server's memory, for its allocator to settle."""
STEP_TIMEOUT_S = 600.0
"""The longest any step of a generator process may take (connecting 5,000 clients on a busy machine)."""

TARGET_CONNECTIONS = 5_000
TARGET_GAMES = 500
TARGET_RATE = 2.0
TARGET_MOVE_P99_S = 0.050
TARGET_SPECTATORS = 1_000
TARGET_SPECTATOR_P99_S = 0.100
TARGET_BYTES_PER_CONNECTION = 50 * 1024


@dataclass(frozen=True, slots=True)
class Options:
    connections: int
    games: int
    rate: float
    spectators: int
    duration: float
    plies: int
    procs: int
    compression: bool
    server_arguments: tuple[str, ...]
    seed: int
    profile: bool


@dataclass(slots=True)
class Measurement:
    """Everything one run measured, from the server's side and the generator's."""

    options: Options
    idle_held: int = 0
    base_rss: int = 0
    idle_rss: int = 0
    server_cpu_s: float = 0.0
    generator_cpu_s: list[float] = field(default_factory=list)
    machine_busy_s: float = 0.0
    window_s: float = 0.0
    results: list[WorkerResult] = field(default_factory=list)
    server_warnings: int = 0
    profile: Profile | None = None
    """Where the server's CPU went in the window, when asked for."""

    def merged(self) -> WorkerResult:
        whole = WorkerResult()
        for part in self.results:
            whole.round_trips.extend(part.round_trips)
            whole.spectator_delays.extend(part.spectator_delays)
            whole.loop_lags.extend(part.loop_lags)
            whole.errors.update(part.errors)
            whole.closed_by_server.update(part.closed_by_server)
            whole.failures.extend(part.failures)
            whole.spectated_moves += part.spectated_moves
            whole.unanswered += part.unanswered
            whole.games_started += part.games_started
            whole.games_failed += part.games_failed
            whole.spectators_joined += part.spectators_joined
            whole.spectators_join_s = max(whole.spectators_join_s, part.spectators_join_s)
        return whole


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", "-C", type=int, default=TARGET_CONNECTIONS, help="idle connections held")
    parser.add_argument("--games", "-G", type=int, default=TARGET_GAMES, help="games played at once")
    parser.add_argument("--rate", "-R", type=float, default=TARGET_RATE, help="plies per second in each game")
    parser.add_argument("--spectators", "-S", type=int, default=TARGET_SPECTATORS, help="spectators of one game")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play measured (default 60)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"which parts to run, of {','.join(PARTS)}")
    parser.add_argument("--plies", type=int, default=120, help="games end after plies/2 to plies plies")
    parser.add_argument("--procs", type=int, default=1, help="load-generator processes (default 1)")
    parser.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument("--server-arg", action="append", default=[], help="one more gomoku-server argument")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the server in the window (needs py-spy)")
    arguments = parser.parse_args(argv)
    parts = {part.strip() for part in arguments.parts.split(",") if part.strip()}
    if not parts <= set(PARTS):
        parser.error(f"--parts takes {', '.join(PARTS)}, not {arguments.parts!r}")
    for name in ("connections", "games", "spectators"):
        if getattr(arguments, name) < 0:
            parser.error(f"--{name} must not be negative")
    if arguments.rate <= 0 or arguments.duration <= 0 or arguments.procs < 1 or arguments.plies < 2:
        parser.error("--rate and --duration must be positive, --procs at least 1 and --plies at least 2")
    return Options(
        connections=arguments.connections if "idle" in parts else 0,
        games=arguments.games if "games" in parts else 0,
        rate=arguments.rate,
        spectators=arguments.spectators if "spectators" in parts else 0,
        duration=arguments.duration,
        plies=arguments.plies,
        procs=arguments.procs,
        compression=not arguments.no_compression,
        server_arguments=tuple(arguments.server_arg),
        seed=arguments.seed,
        profile=arguments.profile,
    )


def share(total: int, parts: int, index: int) -> int:
    """Part `index` of `total` split as evenly as possible into `parts`."""
    return total // parts + (1 if index < total % parts else 0)


def plans(options: Options, url: str) -> list[WorkerPlan]:
    """What each generator process does; the first also warms up and plays the spectated game."""
    return [
        WorkerPlan(
            index=index,
            url=url,
            compression=options.compression,
            idle=share(options.connections, options.procs, index),
            games=share(options.games, options.procs, index),
            spectators=options.spectators if index == 0 else 0,
            rate=options.rate,
            plies=options.plies,
            seed=options.seed * 1000 + index,
            warm_up=index == 0,
        )
        for index in range(options.procs)
    ]


class Generators:
    """The load-generator processes and their pipes; always stopped on the way out."""

    def __init__(self, worker_plans: Sequence[WorkerPlan]) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        for plan in worker_plans:
            ours, theirs = context.Pipe()
            process = context.Process(target=run_worker, args=(plan, theirs), name=f"load-generator-{plan.index}")
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)

    def tell(self, command: object) -> None:
        for pipe in self.pipes:
            pipe.send(command)

    def gather(self) -> list[object]:
        """One answer from every process; BenchError if one dies or takes too long."""
        return [self._answer(index) for index in range(len(self.pipes))]

    def _answer(self, index: int) -> object:
        deadline = time.monotonic() + STEP_TIMEOUT_S
        pipe, process = self.pipes[index], self.processes[index]
        while not pipe.poll(0.2):
            if not process.is_alive():
                raise self._stopped(index)
            if time.monotonic() > deadline:
                raise BenchError(f"load generator {index} took over {STEP_TIMEOUT_S:.0f} s on one step")
        try:
            return pipe.recv()
        except EOFError:
            process.join(5.0)
            raise self._stopped(index) from None

    def _stopped(self, index: int) -> BenchError:
        exit_code = self.processes[index].exitcode
        return BenchError(f"load generator {index} stopped (exit code {exit_code}); see its traceback above")

    def stop(self, finished: bool) -> None:
        """Let finished processes close their connections and exit; terminate the others at once."""
        for process in self.processes:
            if finished:
                process.join(STEP_TIMEOUT_S)
            if process.is_alive():
                process.terminate()
                process.join()
        for pipe in self.pipes:
            pipe.close()


def raise_file_limit() -> None:
    """Allow as many open files as the system lets us (the server inherits it): one per connection."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def measure(options: Options) -> Measurement:
    """Start the server and the generators, run the parts, stop everything, return the figures."""
    raise_file_limit()
    measurement = Measurement(options)
    with tempfile.TemporaryDirectory(prefix="bench-load-") as scratch:
        with ServerProcess.start(Path(scratch) / "load.sqlite3", 0, options.server_arguments) as server:
            note(f"server pid {server.pid} listening on {server.url}")
            generators = Generators(plans(options, server.url))
            finished = False
            try:
                _run_steps(options, server, generators, measurement, Path(scratch) / "profile.txt")
                finished = True
            finally:
                generators.stop(finished)
                measurement.server_warnings = server.log_warnings()
    return measurement


def _run_steps(
    options: Options, server: ServerProcess, generators: Generators, measurement: Measurement, profile_path: Path
) -> None:
    began = time.monotonic()
    generators.gather()  # warmed up
    note(f"generators started and server warmed up in {time.monotonic() - began:.1f} s")
    time.sleep(SETTLE_S)
    measurement.base_rss = server.resident_bytes()
    began = time.monotonic()
    generators.tell("idle")
    measurement.idle_held = sum(held for held in generators.gather() if isinstance(held, int))
    note(f"{measurement.idle_held} idle connections signed in in {time.monotonic() - began:.1f} s")
    time.sleep(SETTLE_S)
    measurement.idle_rss = server.resident_bytes()
    began = time.monotonic()
    generators.tell("games")
    generators.gather()
    note(f"games and spectators set up in {time.monotonic() - began:.1f} s; playing for {options.duration:.0f} s")
    start_at = time.monotonic() + 1.0
    stop_at = start_at + options.duration
    generators.tell(Go(start_at, stop_at))
    sleep_until(start_at)
    server_cpu, machine = server.cpu_seconds(), MachineTimes.now()
    profiler = ServerProfiler(server.pid, options.duration, profile_path) if options.profile else None
    try:
        sleep_until(stop_at)
        measurement.server_cpu_s = server.cpu_seconds() - server_cpu
        measurement.machine_busy_s = MachineTimes.now().busy - machine.busy
        measurement.window_s = options.duration
        if profiler is not None:
            measurement.profile = profiler.finish()
    finally:
        if profiler is not None:
            profiler.stop()
    results = generators.gather()
    measurement.results = [result for result in results if isinstance(result, WorkerResult)]
    measurement.generator_cpu_s = [result.cpu_s for result in measurement.results]
    note("done; stopping")


def report(measurement: Measurement, command: str) -> str:
    """The figures as a table, under the command that produced them."""
    options = measurement.options
    whole = measurement.merged()
    window = measurement.window_s
    moves = len(whole.round_trips)
    asked = (options.games + (1 if options.spectators else 0)) * options.rate
    trips = Spread.of(whole.round_trips)
    delays = Spread.of(whole.spectator_delays)
    lag = Spread.of(whole.loop_lags)
    per_connection = (
        (measurement.idle_rss - measurement.base_rss) / measurement.idle_held if measurement.idle_held else None
    )
    generator_cpu = sum(measurement.generator_cpu_s)
    others = max(0.0, measurement.machine_busy_s - measurement.server_cpu_s - generator_cpu)
    rows = [
        ["idle connections held", f"{measurement.idle_held} of {options.connections}", f">= {TARGET_CONNECTIONS}"],
        [
            "memory per idle connection",
            "-" if per_connection is None else f"{per_connection / 1024:.1f} KB",
            f"< {TARGET_BYTES_PER_CONNECTION // 1024} KB",
        ],
        ["server RSS before / with idle", f"{_mb(measurement.base_rss)} / {_mb(measurement.idle_rss)}", ""],
        ["moves/s achieved (asked)", f"{moves / window:.1f} ({asked:.1f})" if window else "-", ""],
        ["moves measured / unanswered", f"{moves} / {whole.unanswered}", ""],
        *spread_rows("move round trip", trips, TARGET_MOVE_P99_S),
        ["spectators joined (in s)", f"{whole.spectators_joined} ({whole.spectators_join_s:.2f} s)", ""],
        ["spectator deliveries", f"{len(whole.spectator_delays)} ({whole.spectated_moves} moves)", ""],
        *spread_rows("spectator delivery", delays, TARGET_SPECTATOR_P99_S),
        ["server CPU per move", f"{measurement.server_cpu_s / moves * 1000:.3f} ms" if moves else "-", ""],
        ["server CPU", cpu_share(measurement.server_cpu_s, window), ""],
        ["generator CPU (per process)", " ".join(cpu_share(cpu, window) for cpu in measurement.generator_cpu_s), ""],
        ["generator loop lag p99", milliseconds(None if lag is None else lag.p99), ""],
        ["rest of the machine CPU", cpu_share(others, window), ""],
        ["games started / failed", f"{whole.games_started} / {whole.games_failed}", ""],
        ["errors received", counts(whole.errors), ""],
        ["connections closed by the server", counts(whole.closed_by_server), ""],
        ["server log warnings", str(measurement.server_warnings), ""],
    ]
    lines = [
        f"$ {command}",
        f"{cores()} cores; {options.procs} generator process(es); compression "
        f"{'on' if options.compression else 'off'}; {window:.0f} s window",
        table(["figure", "value", "target"], rows),
    ]
    lines.extend(f"failure: {failure}" for failure in whole.failures[:5])
    if measurement.profile is not None:
        lines.extend(["", *measurement.profile.lines()])
    return "\n".join(lines)


def _mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        measurement = measure(options)
    except BenchError as error:
        print(f"bench.load: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench.load: interrupted; the server and the generators are stopped", file=sys.stderr)
        return 130
    print(report(measurement, command_line(argv, "bench.load")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
