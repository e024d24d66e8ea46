"""Build the bots' opening book: appraise every candidate opening with the engine, write the values.

    ./dev run python -m tools.opening_book                  # every rule, master, 30,000 nodes each
    ./dev run python -m tools.opening_book --rules renju --nodes 5000 --out /tmp/book.py

Each candidate of `engine.opening_book.candidate_openings` (about 120
three-stone openings) is searched under each rule, white to move, by the
same judge the bots use for their opening decisions
(`engine.opening_judge`: a full-window search, the mean of its last two
depths), limited by nodes alone so that the book comes out the same on
every machine. The values are written as the data module
`engine/opening_book_data.py`, most balanced first, with this command and
the date in its docstring. Runs in parallel worker processes (--jobs).
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board
from engine.limits import SearchLimits
from engine.notation import format_point
from engine.opening_book import BOOK_SIZE, candidate_openings
from engine.opening_judge import Judge
from engine.registry import level_names
from engine.types import Point, Rule

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "engine" / "opening_book_data.py"
"""Where the book's data module lives in the source tree."""


@dataclass(frozen=True, slots=True)
class Appraised:
    """One candidate opening as the engine judged it."""

    rule: Rule
    opening: str
    """The stones in notation, e.g. `h8 h9 d7`."""
    value: int
    """For white, to move."""
    depth: int
    """The deepest finished depth."""


@dataclass(frozen=True, slots=True)
class Task:
    """One candidate to appraise (picklable, for a worker process)."""

    rule: Rule
    stones: tuple[Point, Point, Point]
    level: str
    nodes: int


def appraise(task: Task) -> Appraised:
    """Search the opening with white to move, within the task's nodes."""
    board = Board.from_moves(task.stones, BOOK_SIZE, task.rule)
    appraisal = Judge.for_level(task.level, SearchLimits(nodes=task.nodes)).appraise(board)
    opening = " ".join(format_point(point, BOOK_SIZE) for point in task.stones)
    return Appraised(task.rule, opening, appraisal.value, appraisal.depth)


def appraise_all(tasks: Sequence[Task], jobs: int) -> Iterator[Appraised]:
    """The tasks' appraisals as they finish (in order when `jobs` is 1)."""
    if jobs == 1:
        yield from map(appraise, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(appraise, tasks, chunksize=4)


def module_text(results: Sequence[Appraised], rules: Sequence[Rule], command: str, level: str, nodes: int) -> str:
    """The source of the data module: every rule's openings, most balanced first."""
    lines = [
        '"""The values of the bots\' opening book (read through `engine.opening_book`): generated, do not edit.',
        "",
        f"Written on {datetime.date.today().isoformat()} by",
        "",
        f"    {command}",
        "",
        f"which searched each candidate opening with `{level}`'s settings, {nodes:,} nodes each, and",
        "kept the mean of the last two depths (engine.opening_judge). Each entry is",
        "(opening, value for white to move, deepest depth).",
        '"""',
        "",
        "from types import MappingProxyType",
        "",
        "BOOK_DATA = MappingProxyType(",
        "    {",
    ]
    for rule in rules:
        lines.append(f'        "{rule.value}": (')
        ranked = sorted((result for result in results if result.rule is rule), key=lambda result: abs(result.value))
        lines.extend(f'            ("{result.opening}", {result.value}, {result.depth}),' for result in ranked)
        lines.append("        ),")
    lines += ["    }", ")", '"""Rule name -> (opening, value, depth) for every candidate, most balanced first."""', ""]
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.opening_book", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rules",
        nargs="+",
        type=Rule.parse,
        default=list(Rule),
        help="the rules to appraise the openings under (default: all)",
    )
    parser.add_argument("--level", default="master", help="the engine level whose search judges (default: master)")
    parser.add_argument("--nodes", type=int, default=30_000, help="nodes per opening (default 30000)")
    parser.add_argument("--jobs", type=int, default=2, help="openings appraised at once (default 2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the module to write (default: the book's)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    arguments = parse_arguments(argv)
    if arguments.level not in level_names() or arguments.nodes < 1 or arguments.jobs < 1:
        print("opening_book: --level must be a bot level, --nodes and --jobs at least 1", file=sys.stderr)
        return 2
    rules: list[Rule] = list(dict.fromkeys(arguments.rules))
    tasks = [Task(rule, stones, arguments.level, arguments.nodes) for rule in rules for stones in candidate_openings()]
    began = time.monotonic()
    results: list[Appraised] = []
    for done, result in enumerate(appraise_all(tasks, arguments.jobs), start=1):
        results.append(result)
        print(f"[{done}/{len(tasks)}] {result.rule:9} {result.opening:10} {result.value:6} (depth {result.depth})")
    command = shlex.join(["./dev", "run", "python", "-m", "tools.opening_book", *argv])
    arguments.out.write_text(module_text(results, rules, command, arguments.level, arguments.nodes))
    print(f"{len(results)} openings appraised in {time.monotonic() - began:.0f} s; written to {arguments.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
