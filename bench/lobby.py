"""Lobby benchmark: players watching the lobby while seeks come and go.

    ./dev run python -m bench.lobby                   # the issue's sizes: 1,000 watchers, 100 seeks a second
    ./dev run python -m bench.lobby --watchers 200 --rate 20 --duration 5

Starts `gomoku-server` as a process of its own on 127.0.0.1 (a free port,
a scratch database, no bot workers), connects and signs in `--watchers`
players from `--procs` watcher processes (see bench.lobby_worker) and
`--seekers` players in this one. Then two phases, with the same traffic:

1. baseline: `--baseline-watchers` of them watch the lobby;
2. full: all `--watchers` watch it.

In each phase, for `--duration` seconds, the seekers in turn send a seek
every 1/`--rate` seconds, and each seek's owner cancels it `--lifetime`
seconds later: `--rate` seeks come and go a second, two lobby events each
(`seek_added`, `seek_removed`) for every watcher. A delivery's delay runs
from the owner sending `seek` (or `cancel_seek`) to a watcher reading
`seek_added` (or `seek_removed`), or the `lobby_changes` batch that holds
it when the server offers batches (1.2, which the watchers then ask for);
all processes share one monotonic clock.
The full phase's figures are also given as ratios to the baseline's, since
the machine may be shared: the CPU of the server, of the generators and of
the rest of the machine is printed beside them. Traffic is bounded by the
options and stays on the loopback interface.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from bench.figures import Spread, command_line, counts, cpu_share, milliseconds, note, ratio, table
from bench.load import raise_file_limit, share
from bench.load_worker import bounded, close_all, sleep_until
from bench.lobby_worker import Close, Count, Open, Record, Report, Watch, WatcherReport, opener, run_watchers
from bench.server_process import BenchError, MachineTimes, ServerProcess, cores
from bench.wire import BenchClient, WireError, answer_of

TARGET_WATCHERS = 1_000
TARGET_RATE = 100.0
TARGET_DELIVERY_P99_S = 0.300
TARGET_SEEK_ANSWER_P99_S = 0.100
STEP_TIMEOUT_S = 600.0
"""The longest a watcher process may take over one step (connecting hundreds of players on a busy machine)."""
DRAIN_TIMEOUT_S = 60.0
"""How long, after the last seek is cancelled, the watchers may take to read the last events."""
START_DELAY_S = 1.0
"""Pause between telling the watchers to record and the first seek."""


@dataclass(frozen=True, slots=True)
class Options:
    watchers: int
    baseline_watchers: int
    rate: float
    lifetime: float
    duration: float
    seekers: int
    procs: int
    server_arguments: tuple[str, ...]


@dataclass(slots=True)
class Phase:
    """What one phase measured."""

    watching: int
    batches: bool
    """Whether the watchers got the lobby's changes in batches (the server offers them)."""
    caused: int = 0
    """Lobby events caused (a seek added or removed), whose delays are measured."""
    seek_round_trips: list[float] = field(default_factory=list)
    """Seconds from `seek` to its owner reading `seek_created`."""
    failures: Counter[str] = field(default_factory=Counter)
    """Seeks or cancellations that failed, by error code."""
    window_s: float = 0.0
    """Seconds during which seeks were sent; the CPU shares below are over this window."""
    server_cpu_s: float = 0.0
    machine_busy_s: float = 0.0
    seeker_cpu_s: float = 0.0
    phase_s: float = 0.0
    """Seconds from the first seek until every delivery was read (or DRAIN_TIMEOUT_S passed)."""
    phase_server_cpu_s: float = 0.0
    """The server's CPU time over `phase_s`: all the work the phase's traffic caused."""
    reports: list[WatcherReport] = field(default_factory=list)

    @property
    def delays(self) -> Spread | None:
        return Spread.of([delay for report in self.reports for delay in report.delays])

    @property
    def measured(self) -> int:
        return sum(len(report.delays) for report in self.reports)


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench.lobby", description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", "-W", type=int, default=TARGET_WATCHERS, help="players watching the lobby")
    parser.add_argument("--baseline-watchers", type=int, default=10, help="watchers in the baseline phase")
    parser.add_argument("--rate", "-R", type=float, default=TARGET_RATE, help="seeks a second (default 100)")
    parser.add_argument("--lifetime", type=float, default=1.0, help="seconds a seek waits before its owner cancels it")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of seeking per phase (default 20)")
    parser.add_argument("--seekers", type=int, default=100, help="players taking turns to seek (default 100)")
    parser.add_argument("--procs", type=int, default=2, help="watcher processes (default 2)")
    parser.add_argument("--server-arg", action="append", default=[], help="one more gomoku-server argument")
    arguments = parser.parse_args(argv)
    if not 1 <= arguments.baseline_watchers <= arguments.watchers:
        parser.error("--baseline-watchers must be 1 to --watchers")
    if arguments.rate <= 0 or arguments.duration <= 0 or arguments.lifetime <= 0:
        parser.error("--rate, --duration and --lifetime must be positive")
    if arguments.seekers < 1 or arguments.procs < 1:
        parser.error("--seekers and --procs must be at least 1")
    return Options(
        watchers=arguments.watchers,
        baseline_watchers=arguments.baseline_watchers,
        rate=arguments.rate,
        lifetime=arguments.lifetime,
        duration=arguments.duration,
        seekers=arguments.seekers,
        procs=arguments.procs,
        server_arguments=tuple(arguments.server_arg),
    )


class SteppedProcesses:
    """Generator processes stepped by commands on their pipes (the lobby's watchers, a game's spectators),
    each told the server's url first; always stopped on the way out."""

    def __init__(self, count: int, url: str, target: Callable[[Connection], None], name: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.name = name
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        for index in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=target, args=(theirs,), name=f"{name}-{index}")
            process.start()
            theirs.close()
            ours.send(url)
            self.pipes.append(ours)
            self.processes.append(process)

    async def ask(self, commands: Sequence[object]) -> list[object]:
        """Send each process its command; their answers, in order. BenchError if one dies or is too slow."""
        for pipe, command in zip(self.pipes, commands, strict=True):
            pipe.send(command)
        return list(await asyncio.gather(*(asyncio.to_thread(self._answer, index) for index in range(len(self.pipes)))))

    async def ask_all(self, command: object) -> list[object]:
        return await self.ask([command] * len(self.pipes))

    def _answer(self, index: int) -> object:
        deadline = time.monotonic() + STEP_TIMEOUT_S
        pipe, process = self.pipes[index], self.processes[index]
        while not pipe.poll(0.2):
            if not process.is_alive():
                raise BenchError(f"{self.name} process {index} stopped (exit code {process.exitcode})")
            if time.monotonic() > deadline:
                raise BenchError(f"{self.name} process {index} took over {STEP_TIMEOUT_S:.0f} s on one step")
        try:
            return pipe.recv()
        except EOFError:
            raise BenchError(f"{self.name} process {index} stopped; see its traceback above") from None

    def stop(self, finished: bool) -> None:
        """Let the processes close their connections and exit; terminate those that do not."""
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            if finished and process.is_alive():
                pipe.send(Close())
                process.join(STEP_TIMEOUT_S)
            if process.is_alive():
                process.terminate()
                process.join()
            pipe.close()


class SeekTraffic:
    """Seeks sent at a steady rate by players in turn, each cancelled by its owner after a while."""

    def __init__(self, seekers: Sequence[BenchClient], rate: float, lifetime: float, phase: Phase) -> None:
        self.seekers = seekers
        self.interval = 1 / rate
        self.lifetime = lifetime
        self.phase = phase
        self.caused_at: dict[str, float] = {}
        """When each lobby event was caused (time.monotonic), by its key (see bench.lobby_worker)."""

    async def run(self, start_at: float, stop_at: float) -> None:
        """Send seeks from `start_at` until `stop_at`; return once the last is cancelled."""
        sends = []
        next_at = start_at
        turn = 0
        while True:
            await sleep_until(next_at)
            if time.monotonic() >= stop_at:
                break
            seeker = self.seekers[turn % len(self.seekers)]
            turn += 1
            sends.append(asyncio.get_running_loop().create_task(self._seek(seeker)))
            next_at = max(next_at + self.interval, time.monotonic())  # late: the rate falls, no burst
        await asyncio.gather(*sends)
        self.phase.caused = len(self.caused_at)

    async def _seek(self, seeker: BenchClient) -> None:
        try:
            answer, sent_at = await seeker.send_request({"type": "seek", "rule": "freestyle", "size": 15})
            created = await answer_of(seeker.name, "seek", answer, expect="seek_created")
            seek_id = created.message["seek"]["seek_id"]
            self.caused_at["a" + seek_id] = sent_at
            self.phase.seek_round_trips.append(created.at - sent_at)
            await sleep_until(sent_at + self.lifetime)
            answer, cancelled_at = await seeker.send_request({"type": "cancel_seek", "seek_id": seek_id})
            self.caused_at["r" + seek_id] = cancelled_at
            await answer_of(seeker.name, "cancel_seek", answer, expect="seek_removed")
        except (WireError, ConnectionError) as failure:
            self.phase.failures[getattr(failure, "code", None) or "no answer"] += 1


async def measure(options: Options) -> list[Phase]:
    """Start the server and the watchers, run both phases, stop everything."""
    raise_file_limit()
    with tempfile.TemporaryDirectory(prefix="bench-lobby-") as scratch:
        with ServerProcess.start(Path(scratch) / "lobby.sqlite3", 0, options.server_arguments) as server:
            note(f"server pid {server.pid} listening on {server.url}")
            watchers = SteppedProcesses(options.procs, server.url, run_watchers, "lobby-watchers")
            seekers: list[BenchClient] = []
            finished = False
            try:
                seekers = await _connect(options, server.url, watchers)
                phases = []
                for watching in (options.baseline_watchers, options.watchers):
                    phases.append(await _run_phase(options, watching, server, watchers, seekers))
                finished = True
                return phases
            finally:
                await close_all(seekers)
                watchers.stop(finished)


async def _connect(options: Options, url: str, watchers: SteppedProcesses) -> list[BenchClient]:
    """Every player connects and signs in (nobody watches yet); the seekers are returned."""
    began = time.monotonic()
    procs = options.procs
    names = [
        Open(tuple(f"w{index}-{number}" for number in range(share(options.watchers, procs, index))))
        for index in range(procs)
    ]
    opened = await watchers.ask(names)
    seekers = await bounded([opener(url, f"seeker{number}") for number in range(options.seekers)])
    note(
        f"{sum(count for count in opened if isinstance(count, int))} watchers and {len(seekers)} seekers signed in "
        f"in {time.monotonic() - began:.1f} s"
    )
    return seekers


async def _run_phase(
    options: Options, watching: int, server: ServerProcess, watchers: SteppedProcesses, seekers: list[BenchClient]
) -> Phase:
    phase = Phase(watching, "lobby_batches" in seekers[0].features)
    procs = options.procs
    await watchers.ask([Watch(share(watching, procs, index)) for index in range(procs)])
    start_at = time.monotonic() + START_DELAY_S
    stop_at = start_at + options.duration
    await watchers.ask_all(Record(start_at, stop_at))
    note(f"{watching} watching the lobby; {options.rate:g} seeks a second for {options.duration:g} s")
    traffic = SeekTraffic(seekers, options.rate, options.lifetime, phase)
    window = asyncio.get_running_loop().create_task(_measure_window(phase, server, start_at, stop_at))
    await sleep_until(start_at)
    server_cpu = server.cpu_seconds()
    await traffic.run(start_at, stop_at)
    await window
    expected = watching * phase.caused
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    while time.monotonic() < deadline:
        counts = await watchers.ask_all(Count())
        if sum(count for count in counts if isinstance(count, int)) >= expected:
            break
        await asyncio.sleep(0.5)
    phase.phase_server_cpu_s = server.cpu_seconds() - server_cpu
    phase.phase_s = time.monotonic() - start_at
    reports = await watchers.ask_all(Report(traffic.caused_at))
    phase.reports = [report for report in reports if isinstance(report, WatcherReport)]
    return phase


async def _measure_window(phase: Phase, server: ServerProcess, start_at: float, stop_at: float) -> None:
    """The CPU the server, this process and the machine used while seeks were being sent."""
    await sleep_until(start_at)
    server_cpu, machine, own = server.cpu_seconds(), MachineTimes.now(), time.process_time()
    await sleep_until(stop_at)
    phase.server_cpu_s = server.cpu_seconds() - server_cpu
    phase.machine_busy_s = MachineTimes.now().busy - machine.busy
    phase.seeker_cpu_s = time.process_time() - own
    phase.window_s = stop_at - start_at


def report(options: Options, phases: Sequence[Phase], command: str) -> str:
    """Both phases side by side, the full one as a ratio to the baseline, under the command."""
    baseline, full = phases
    spreads = [phase.delays for phase in phases]
    rows = [["watchers", str(baseline.watching), str(full.watching), "", f">= {TARGET_WATCHERS}"]]
    rows.append(["lobby changes sent", *(_how_sent(phase) for phase in phases), "", ""])
    rows.append(["seeks a second (served)", *(_seek_rate(phase) for phase in phases), "", f"{options.rate:g}"])
    rows.append(["deliveries measured / expected", *(_deliveries(phase) for phase in phases), "", ""])
    for name in ("p50", "p99", "maximum"):
        before, after = (None if spread is None else getattr(spread, name) for spread in spreads)
        target = f"< {TARGET_DELIVERY_P99_S * 1000:.0f} ms" if name == "p99" else ""
        rows.append([f"delivery {name}", milliseconds(before), milliseconds(after), ratio(after, before), target])
    before, after = (Spread.of(phase.seek_round_trips) for phase in phases)
    trips = [None if spread is None else spread.p99 for spread in (before, after)]
    target = f"< {TARGET_SEEK_ANSWER_P99_S * 1000:.0f} ms"
    rows.append(["seek answered p99", *(milliseconds(trip) for trip in trips), ratio(trips[1], trips[0]), target])
    server_shares = [cpu_share(phase.server_cpu_s, phase.window_s) for phase in phases]
    rows.append(["server CPU", *server_shares, ratio(full.server_cpu_s, baseline.server_cpu_s), ""])
    rows.append(["server CPU per delivery", *(_per_delivery(phase) for phase in phases), "", ""])
    rows.append(["phase, to the last delivery", *(f"{phase.phase_s:.1f} s" for phase in phases), "", ""])
    rows.append(["seekers' process CPU", *(cpu_share(phase.seeker_cpu_s, phase.window_s) for phase in phases), "", ""])
    rows.append(["watcher processes' CPU", *(_watcher_cpu(phase) for phase in phases), "", ""])
    rows.append(["watcher loop lag p99", *(_loop_lag(phase) for phase in phases), "", ""])
    rows.append(["rest of the machine CPU", *(_rest(phase) for phase in phases), "", ""])
    rows.append(["seek failures", *(counts(phase.failures) for phase in phases), "", ""])
    rows.append(["errors received", *(counts(_merged(phase, "errors")) for phase in phases), "", ""])
    rows.append(["closed by the server", *(counts(_merged(phase, "closed_by_server")) for phase in phases), "", ""])
    return "\n".join(
        [
            f"$ {command}",
            f"{cores()} cores; {options.procs} watcher process(es); {options.seekers} seekers; seeks live "
            f"{options.lifetime:g} s; {options.duration:g} s per phase; CPU as a share of one core",
            table(["figure", "baseline", "full", "full/baseline", "target"], rows),
        ]
    )


def _how_sent(phase: Phase) -> str:
    return "in batches" if phase.batches else "per change"


def _seek_rate(phase: Phase) -> str:
    return f"{phase.caused / 2 / phase.window_s:.1f}" if phase.window_s else "-"


def _deliveries(phase: Phase) -> str:
    return f"{phase.measured:,} / {phase.watching * phase.caused:,}"


def _per_delivery(phase: Phase) -> str:
    """The server's CPU time over the whole phase divided by the deliveries measured: the cost of one
    lobby event sent to one watcher, plus a share of the seeks' own (which the baseline shows)."""
    return f"{phase.phase_server_cpu_s / phase.measured * 1e6:.1f} us" if phase.measured else "-"


def _watcher_cpu(phase: Phase) -> str:
    return " ".join(cpu_share(report.cpu_s, phase.window_s) for report in phase.reports)


def _loop_lag(phase: Phase) -> str:
    lags = Spread.of([lag for report in phase.reports for lag in report.loop_lags])
    return milliseconds(None if lags is None else lags.p99)


def _rest(phase: Phase) -> str:
    generators = phase.seeker_cpu_s + sum(report.cpu_s for report in phase.reports)
    return cpu_share(max(0.0, phase.machine_busy_s - phase.server_cpu_s - generators), phase.window_s)


def _merged(phase: Phase, name: str) -> Counter[str]:
    merged: Counter[str] = Counter()
    for report in phase.reports:
        merged.update(getattr(report, name))
    return merged


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        phases = asyncio.run(measure(options))
    except BenchError as error:
        print(f"bench.lobby: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench.lobby: interrupted; the server and the watchers are stopped", file=sys.stderr)
        return 130
    print(report(options, phases, command_line(argv, "bench.lobby")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
