"""Small helpers the server benchmarks share: percentiles, the table they print and its cells, progress notes.

A benchmark prints the command line that produced its figures and one
table on stdout, so that a run pasted into an issue says what was
measured and how; what it is doing meanwhile goes to stderr.
"""

from __future__ import annotations

import math
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spread:
    """The distribution of a set of durations, in seconds."""

    count: int
    p50: float
    p99: float
    maximum: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Spread | None:
        """The spread of `samples`, or None when there are none."""
        if not samples:
            return None
        ordered = sorted(samples)
        return cls(len(ordered), percentile(ordered, 50), percentile(ordered, 99), ordered[-1])


def percentile(ordered: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile of sorted samples: the smallest sample with at least
    `percent`% of the samples at or below it (so p99 of 100 samples is the 99th)."""
    if not ordered:
        raise ValueError("no samples")
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


def milliseconds(seconds: float | None) -> str:
    """A duration for the table: `12.3 ms`, or `-` when there is none."""
    return "-" if seconds is None else f"{seconds * 1000:.1f} ms"


def spread_rows(name: str, spread: Spread | None, p99_target_s: float | None = None) -> list[list[str]]:
    """Three table rows (p50, p99, max) of a spread of durations; the p99 row names its target."""
    target = "" if p99_target_s is None else f"< {p99_target_s * 1000:.0f} ms"
    if spread is None:
        return [[f"{name} p50", "-", ""], [f"{name} p99", "-", target], [f"{name} max", "-", ""]]
    return [
        [f"{name} p50", milliseconds(spread.p50), ""],
        [f"{name} p99", milliseconds(spread.p99), target],
        [f"{name} max", milliseconds(spread.maximum), ""],
    ]


def ratio(value: float | None, baseline: float | None) -> str:
    """`value / baseline` as `x1.23`, or `-` when either is missing or the baseline is zero."""
    if value is None or baseline is None or baseline == 0:
        return "-"
    return f"x{value / baseline:.2f}"


def cpu_share(cpu_s: float, window_s: float) -> str:
    """CPU time as a share of one core over a window: `37%`, or `-` for an empty window."""
    return f"{cpu_s / window_s * 100:.0f}%" if window_s else "-"


def counts(counted: Counter[str]) -> str:
    """What was counted, most first: `not_found 3, room_full 1`, or `none`."""
    return ", ".join(f"{what} {count}" for what, count in counted.most_common()) or "none"


def command_line(argv: Sequence[str] | None, module: str) -> str:
    """The command that reproduces a run: `python -m MODULE ARGS` (the arguments as given)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    return shlex.join(["python", "-m", module, *arguments])


def note(message: str) -> None:
    """A progress line on stderr (a full run takes minutes)."""
    print(message, file=sys.stderr, flush=True)


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as left-aligned columns under a header and a rule."""
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    return "\n".join([line(header), line(["-" * width for width in widths]), *(line(row) for row in rows)])
