"""A `gomoku-server` child process for the server benchmarks, and what /proc says about it.

The benchmarks run the server as a process of its own, so that its CPU
time and memory are measured apart from the load generator's: CPU from
`/proc/PID/stat` (user + system time of all its threads, the SQLite
thread included), memory from `VmRSS` in `/proc/PID/status`. Linux only.

The server is this tree's, or that of the checkout BENCH_SERVER_TREE names
(run by that checkout's own virtualenv), so that `bench.compare` can drive
two commits' servers with one load generator.

The server is started in a session of its own, so that a Ctrl-C in the
terminal reaches the benchmark and not the server: the benchmark stops it
itself (SIGTERM, then SIGKILL to its whole process group, bot workers
included, if it does not exit in time), on success, error or Ctrl-C alike.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parent.parent
SERVER_TREE_VARIABLE = "BENCH_SERVER_TREE"
"""Names a checkout (with the `.venv` its ./dev makes) whose server the benchmarks start instead of this
tree's; the load generator stays this tree's (see bench.compare)."""
LISTENING = re.compile(r"listening on (ws://\S+/ws)")
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
CLOCK_TICKS_PER_S = os.sysconf("SC_CLK_TCK")


class BenchError(Exception):
    """The benchmark could not run as asked (the server did not start, a generator died...)."""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far, all its threads included."""
    text = Path(f"/proc/{pid}/stat").read_text()
    # The command name (field 2) is in parentheses and may hold spaces; fields after it are plain.
    fields = text[text.rindex(")") + 2 :].split()
    user_ticks, system_ticks = int(fields[11]), int(fields[12])
    return (user_ticks + system_ticks) / CLOCK_TICKS_PER_S


def resident_bytes(pid: int) -> int:
    """The process's resident set size (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise BenchError(f"no VmRSS for process {pid}")


def descendants(pid: int) -> list[int]:
    """Every living process below `pid` (children, their children...)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(text[text.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    waiting = [pid]
    while waiting:
        below = children.get(waiting.pop(), [])
        found.extend(below)
        waiting.extend(below)
    return found


def tree_cpu_seconds(pids: Sequence[int]) -> float:
    """CPU time of the given processes, skipping any that have gone."""
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except (OSError, ValueError):
            continue
    return total


@dataclass(frozen=True, slots=True)
class MachineTimes:
    """The whole machine's CPU time so far (all cores), from /proc/stat, in seconds."""

    busy: float
    total: float

    @classmethod
    def now(cls) -> MachineTimes:
        values = [int(value) for value in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        idle = values[3] + values[4]  # idle and iowait
        total = sum(values[:8])  # user..steal; guest time is already counted in user
        return cls((total - idle) / CLOCK_TICKS_PER_S, total / CLOCK_TICKS_PER_S)


def cores() -> int:
    """CPU cores this process may run on."""
    return len(os.sched_getaffinity(0))


BENCH_ARGUMENTS = ("--max-new-names-per-address-per-hour", "1000000", "--max-connections-per-address", "1000000")
"""What every benchmark's server needs: its players all connect and sign up from 127.0.0.1."""


def server_tree() -> tuple[Path, str]:
    """The checkout whose server to start, and its Python: this tree's, or the one SERVER_TREE_VARIABLE
    names."""
    named = os.environ.get(SERVER_TREE_VARIABLE)
    if not named:
        return REPO, sys.executable
    tree = Path(named).resolve()
    python = tree / ".venv" / "bin" / "python"
    if not python.exists():
        raise BenchError(f"{SERVER_TREE_VARIABLE}={named} has no .venv/bin/python: run its ./dev once")
    return tree, str(python)


class ServerProcess:
    """A running `gomoku-server`; use it as a context manager so that it is always stopped."""

    def __init__(self, process: subprocess.Popen[str], url: str, log_path: Path) -> None:
        self.process = process
        self.url = url
        """The websocket endpoint, `ws://127.0.0.1:PORT/ws`."""
        self.log_path = log_path
        """Where the server's log (its stderr) goes."""

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    def start(cls, db_path: Path, bot_workers: int, extra_arguments: Sequence[str] = ()) -> ServerProcess:
        """Start the server on 127.0.0.1, a free port and `db_path`; return once it listens.

        `extra_arguments` go at the end of its command line (for limits and
        other options the benchmark does not know about).
        """
        log_path = db_path.with_suffix(".log")
        tree, python = server_tree()
        command = [
            python,
            "-m",
            "server.main",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(db_path),
            "--bot-workers",
            str(bot_workers),
            *BENCH_ARGUMENTS,
            *extra_arguments,
        ]
        with log_path.open("w") as log:
            process = subprocess.Popen(
                command,
                cwd=tree,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        server = cls(process, "", log_path)
        try:
            server.url = server._wait_until_listening()
        except BaseException:
            server.stop()
            raise
        return server

    def _wait_until_listening(self) -> str:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(START_TIMEOUT_S):
                raise BenchError(f"the server did not start within {START_TIMEOUT_S:.0f} s")
        line = self.process.stdout.readline().strip()
        match = LISTENING.fullmatch(line)
        if match is None:
            self.process.wait(STOP_TIMEOUT_S)
            raise BenchError(f"the server did not start: {line!r}\n{self.log_tail()}")
        return match.group(1)

    def cpu_seconds(self) -> float:
        """CPU time of the server process itself (not its bot workers)."""
        return cpu_seconds(self.pid)

    def worker_cpu_seconds(self) -> float:
        """CPU time of every process below the server (bot workers and their forkserver)."""
        return tree_cpu_seconds(descendants(self.pid))

    def resident_bytes(self) -> int:
        """Resident memory of the server process."""
        return resident_bytes(self.pid)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log."""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def log_warnings(self) -> int:
        """How many WARNING or ERROR lines the server has logged (slow clients closed, failed bots...)."""
        text = self.log_path.read_text(errors="replace")
        return sum(1 for line in text.splitlines() if " WARNING " in line or " ERROR " in line)

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL to the whole process group if it is still there after a while.

        The group is killed while the server is still unreaped (a zombie at
        worst), so that its id cannot have been reused by anyone else.
        Returns the exit status (None if it could not be reaped).
        """
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
            self._wait_for_exit(STOP_TIMEOUT_S)
            # Bot workers live in the server's process group; none may outlive the benchmark.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        try:
            status = self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None
        if self.process.stdout is not None:
            self.process.stdout.close()
        return status

    def _wait_for_exit(self, timeout_s: float) -> None:
        """Wait until the server has exited (without reaping it) or `timeout_s` has passed."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                text = Path(f"/proc/{self.pid}/stat").read_text()
            except OSError:
                return
            if text[text.rindex(")") + 2] == "Z":
                return
            time.sleep(0.05)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


def sleep_until(moment: float) -> None:
    """Block until time.monotonic() reaches `moment`."""
    delay = moment - time.monotonic()
    if delay > 0:
        time.sleep(delay)
