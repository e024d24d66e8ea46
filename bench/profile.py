"""Where the server spends its CPU while a benchmark measures it: py-spy, sampling from outside.

py-spy reads the server's stacks from another process (`--nonblocking`:
without pausing it), so the same profile is taken of any checkout's server
(see bench.compare) and the server's own CPU figures are left as they are.
It samples only the thread that holds the GIL (`--gil`): here py-spy's
other way of leaving out idle threads counts the event loop waiting in
epoll and aiosqlite's thread waiting for work as busy. So the samples are
the server's Python work (the event loop's and the SQLite thread's); C
code that runs with the GIL released (SQLite's own work, zlib) is in the
server's CPU time but not in the profile. py-spy must be installed beside
this Python (`.venv/bin/pip install py-spy`); it is needed only when a
profile is asked for.

The profile's entries are functions (`name (file)`, every line of one
function together): their self time (samples with the function on top of
the stack) and their total time (samples with it anywhere on the stack),
each as a share of all samples.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.server_process import BenchError

PY_SPY = Path(sys.executable).parent / "py-spy"
SAMPLES_PER_S = 100
FINISH_TIMEOUT_S = 60.0
"""How long py-spy may take, past its duration, to write its samples."""
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")
LIBRARY_FOLDER = re.compile(r"^.*/(?:site-packages|lib/python3\.\d+)/")
CHECKOUT_FOLDER = re.compile(r"^.*?/(?=(?:server|engine)/)")


@dataclass(frozen=True, slots=True)
class Entry:
    """One function of the profile."""

    function: str
    """`name (file)`."""
    self_share: float
    total_share: float


@dataclass(frozen=True, slots=True)
class Profile:
    """What the samples say: the functions with the most self time, most first."""

    samples: int
    seconds: float
    entries: list[Entry]

    def lines(self, count: int = 12) -> list[str]:
        """The top `count` entries as lines under a heading, for a benchmark's report."""
        heading = (
            f"server profile (py-spy, {self.samples:,} samples over {self.seconds:.0f} s): "
            f"top {count} functions by self time, share of the samples self / total"
        )
        return [heading] + [
            f"  {entry.self_share * 100:5.1f}% {entry.total_share * 100:5.1f}%  {entry.function}"
            for entry in self.entries[:count]
        ]


class ServerProfiler:
    """py-spy recording a process for a given time, from now."""

    def __init__(self, pid: int, seconds: float, output: Path) -> None:
        if not PY_SPY.exists():
            raise BenchError(f"a profile needs py-spy: {Path(sys.executable).parent / 'pip'} install py-spy")
        self.seconds = seconds
        self.output = output
        command = [str(PY_SPY), "record", "--pid", str(pid), "--duration", str(max(1, round(seconds)))]
        command += ["--rate", str(SAMPLES_PER_S), "--nonblocking", "--gil", "--format", "raw", "--output", str(output)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def finish(self) -> Profile:
        """Wait for py-spy to write its samples; what they say."""
        try:
            _, errors = self.process.communicate(timeout=self.seconds + FINISH_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise BenchError("py-spy did not finish its profile in time") from None
        if self.process.returncode != 0 or not self.output.exists():
            raise BenchError(f"py-spy failed (exit code {self.process.returncode}): {errors.strip()}")
        return profile_of(self.output.read_text(), self.seconds)

    def stop(self) -> None:
        """End py-spy if it still runs (the benchmark failed before `finish`)."""
        if self.process.returncode is None:
            self.process.kill()
            self.process.wait()


def profile_of(raw: str, seconds: float) -> Profile:
    """Read py-spy's raw output (one stack a line, root first, frames split by `;`, then its count)."""
    self_samples: Counter[str] = Counter()
    total_samples: Counter[str] = Counter()
    samples = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        functions = [function_of(frame) for frame in stack.split(";")]
        samples += count
        self_samples[functions[-1]] += count
        for function in set(functions):
            total_samples[function] += count
    entries = [
        Entry(function, self_count / samples, total_samples[function] / samples)
        for function, self_count in self_samples.most_common()
    ]
    return Profile(samples, seconds, entries)


def function_of(frame: str) -> str:
    """`name (file)` of a py-spy frame `name (path/file.py:line)`, the path cut after site-packages or
    the standard library's folder, or to the checkout's own `server/` or `engine/` (either checkout's)."""
    match = FRAME.match(frame.strip())
    if match is None:
        return frame.strip()
    path = match["file"]
    shorter = LIBRARY_FOLDER.sub("", path)
    if shorter == path:
        shorter = CHECKOUT_FOLDER.sub("", path)
    return f"{match['function']} ({shorter})"
