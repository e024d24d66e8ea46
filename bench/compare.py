"""One server benchmark against two servers in one run: another commit's and this tree's, alternately.

    ./dev run python -m bench.compare --base COMMIT -- lobby -W 1000
    ./dev run python -m bench.compare --base COMMIT --rounds 3 -- spectators -S 2000
    ./dev run python -m bench.compare --base-tree /path/to/checkout -- load --duration 30
    ./dev run python -m bench.compare --base COMMIT --keep --current-tree /tmp/bench-base-COMMIT -- lobby

The machine is shared, so a figure measured an hour ago says little about
one measured now. This checks COMMIT out into a scratch worktree under
/tmp (with a virtualenv of its own, made by its `./dev`), then runs the
benchmark `--rounds` times against each server in turn, base then current
(A B A B...), so that a change of load on the machine hits both, and
removes the worktree at the end (`--keep` leaves it, and a later run for
the same commit uses it again). The load generator is this tree's in both
runs; only the server differs: the benchmark starts the server from the
tree named by BENCH_SERVER_TREE (see bench.server_process).

Prints each run's own output, then one table: every figure of the
benchmark's table, run by run, and the current server's mean over the
base's (`x0.50`: half the base's). `--current-tree` puts another
checkout's server on the current side: with the base's own worktree there
(kept by an earlier run), both sides run the same server, and the ratios
show the run-to-run noise.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.figures import note, table
from bench.server_process import REPO, SERVER_TREE_VARIABLE, BenchError

SERVER_BENCHMARKS = ("lobby", "load", "spectators")
"""The benchmarks that start a server of their own (and so can start another tree's)."""
RUN_TIMEOUT_S = 1800.0
"""The longest one run of a benchmark may take before the comparison gives up."""
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class Options:
    base: str | None
    base_tree: Path | None
    current_tree: Path
    rounds: int
    keep: bool
    benchmark: str
    arguments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """One run of the benchmark against one server: its output and its table's cells."""

    side: str
    """`base` or `current`."""
    output: str
    cells: dict[str, str]
    """Each figure's value, by `figure` or `figure [column]` where the table has several value columns."""


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    base = parser.add_mutually_exclusive_group(required=True)
    base.add_argument("--base", metavar="COMMIT", help="the commit whose server is the base")
    base.add_argument("--base-tree", metavar="PATH", type=Path, help="a checkout with its .venv made by ./dev")
    parser.add_argument("--current-tree", metavar="PATH", type=Path, default=REPO, help="the current side's checkout")
    parser.add_argument("--rounds", type=int, default=2, help="runs against each server (default 2: A B A B)")
    parser.add_argument("--keep", action="store_true", help="leave the base's scratch worktree for a later run")
    parser.add_argument("benchmark", choices=SERVER_BENCHMARKS, help="which benchmark (bench.NAME)")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the benchmark's own options")
    arguments = parser.parse_args(argv)
    if arguments.rounds < 1:
        parser.error("--rounds must be at least 1")
    for option, tree in (("--base-tree", arguments.base_tree), ("--current-tree", arguments.current_tree)):
        if tree is not None and not (tree / ".venv" / "bin" / "python").exists():
            parser.error(f"{option} {tree} has no .venv/bin/python: run its ./dev once")
    return Options(
        base=arguments.base,
        base_tree=arguments.base_tree,
        current_tree=arguments.current_tree.resolve(),
        rounds=arguments.rounds,
        keep=arguments.keep,
        benchmark=arguments.benchmark,
        arguments=tuple(argument for argument in arguments.arguments if argument != "--"),
    )


def git(*arguments: str) -> str:
    """Run git on this repository; its output, stripped. BenchError if it fails."""
    done = subprocess.run(["git", "-C", str(REPO), *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout.strip()


def head_of(tree: Path) -> str:
    """The short commit a checkout is at, `+` when its work tree has changes."""
    changed = bool(git("-C", str(tree), "status", "--porcelain", "--untracked-files=no"))
    return git("-C", str(tree), "rev-parse", "--short=12", "HEAD") + ("+" if changed else "")


class BaseCheckout:
    """COMMIT checked out into a scratch worktree with its own virtualenv; removed on the way out
    unless kept."""

    def __init__(self, commit: str, keep: bool) -> None:
        self.commit = git("rev-parse", "--verify", f"{commit}^{{commit}}")
        self.path = Path("/tmp") / f"bench-base-{self.commit[:12]}"
        self.keep = keep

    def __enter__(self) -> Path:
        if not (self.path / ".git").exists():
            note(f"checking {self.commit[:12]} out into {self.path}")
            git("worktree", "add", "--detach", str(self.path), self.commit)
        note(f"making its virtualenv ({self.path}/.venv)")
        built = subprocess.run(["./dev", "run", "python", "-c", "1"], cwd=self.path, stdout=sys.stderr)
        if built.returncode != 0:
            self._remove()
            raise BenchError(f"./dev in {self.path} failed (exit code {built.returncode})")
        return self.path

    def __exit__(self, *_: object) -> None:
        if self.keep:
            note(f"kept {self.path}; `git worktree remove --force {self.path}` removes it")
        else:
            self._remove()

    def _remove(self) -> None:
        git("worktree", "remove", "--force", str(self.path))


def run_once(options: Options, side: str, tree: Path) -> Run:
    """One run of the benchmark with its server started from `tree`."""
    command = [sys.executable, "-m", f"bench.{options.benchmark}", *options.arguments]
    note(f"{side}: {' '.join(command[1:])} (server from {tree})")
    try:
        done = subprocess.run(
            command,
            cwd=REPO,
            env={**os.environ, SERVER_TREE_VARIABLE: str(tree)},
            stdout=subprocess.PIPE,
            text=True,
            timeout=RUN_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise BenchError(f"the {side} run took over {RUN_TIMEOUT_S:.0f} s") from None
    if done.returncode != 0:
        raise BenchError(f"the {side} run failed (exit code {done.returncode}); its error is above")
    return Run(side, done.stdout, table_cells(done.stdout))


def table_cells(output: str) -> dict[str, str]:
    """The value cells of the table a benchmark printed (see bench.figures.table), by figure name; a
    table with several value columns names each cell `figure [column]`. Target and ratio columns
    (`full/baseline`) are left out, and so is what follows the table's first blank line."""
    lines = output.splitlines()
    starts = [index for index, line in enumerate(lines) if line.startswith("figure  ")]
    if not starts:
        raise BenchError(f"no table in the benchmark's output:\n{output}")
    header = re.split(r"\s{2,}", lines[starts[0]].strip())
    values = [index for index, name in enumerate(header) if index > 0 and name != "target" and "/" not in name]
    cells: dict[str, str] = {}
    for line in lines[starts[0] + 2 :]:
        if not line.strip():
            break  # the table ends; what follows (a profile) is not figures
        row = re.split(r"\s{2,}", line.strip())
        if len(row) < 2 or line.startswith("failure: "):
            continue
        for index in values:
            name = row[0] if len(values) == 1 else f"{row[0]} [{header[index]}]"
            cells[name] = row[index] if index < len(row) else ""
    return cells


def number(cell: str) -> float | None:
    """The first number in a cell (`1,234 / 1,300` gives 1234), or None."""
    match = NUMBER.search(cell)
    return None if match is None else float(match.group().replace(",", ""))


def ratio_of_means(runs: Sequence[Run], figure: str) -> str:
    """The current runs' mean of a figure over the base runs' mean, as `x0.50`, or `-`."""
    means = []
    for side in ("base", "current"):
        numbers = [number(run.cells.get(figure, "")) for run in runs if run.side == side]
        if not numbers or any(value is None for value in numbers):
            return "-"
        means.append(sum(value for value in numbers if value is not None) / len(numbers))
    base, current = means
    return f"x{current / base:.2f}" if base else "-"


def comparison(options: Options, base_name: str, runs: Sequence[Run], loads: Sequence[float]) -> str:
    """Both sides' figures run by run, and their ratio, under the command that produced them."""
    header = ["figure", *(f"{run.side} {index // 2 + 1}" for index, run in enumerate(runs)), "current/base"]
    figures = list(runs[0].cells)
    rows = [[figure, *(run.cells.get(figure, "") for run in runs), ratio_of_means(runs, figure)] for figure in figures]
    command = " ".join(
        [
            "python -m bench.compare",
            base_name,
            *([] if options.current_tree == REPO else [f"--current-tree {options.current_tree}"]),
            f"--rounds {options.rounds}",
            "--",
            options.benchmark,
            *options.arguments,
        ]
    )
    return "\n".join(
        [
            f"$ {command}",
            f"base: {base_name}; current: {options.current_tree} at {head_of(options.current_tree)}; "
            f"load average {loads[0]:.1f} before, {loads[1]:.1f} after",
            table(header, rows),
        ]
    )


def compare(options: Options) -> str:
    """Run the benchmark against both servers in turn; the runs' outputs and the comparison."""
    loads = [os.getloadavg()[0]]
    if options.base_tree is not None:
        base_name = f"--base-tree {options.base_tree}"
        runs = _alternate(options, options.base_tree)
    else:
        assert options.base is not None
        with BaseCheckout(options.base, options.keep) as tree:
            base_name = f"--base {tree.name.removeprefix('bench-base-')}"
            runs = _alternate(options, tree)
    loads.append(os.getloadavg()[0])
    outputs = [f"## {run.side} {index // 2 + 1}\n{run.output}" for index, run in enumerate(runs)]
    return "\n".join([*outputs, comparison(options, base_name, runs, loads)])


def _alternate(options: Options, base_tree: Path) -> list[Run]:
    runs = []
    for _ in range(options.rounds):
        runs.append(run_once(options, "base", base_tree))
        runs.append(run_once(options, "current", options.current_tree))
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        print(compare(options))
    except BenchError as error:
        print(f"bench.compare: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench.compare: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
