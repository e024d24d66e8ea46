"""Are the arena's openings balanced? The engine plays each one against itself.

    ./dev run python -m bench.openings                       # hard and master, 1 s per move
    ./dev run python -m bench.openings --levels master --openings 12 --time-ms 500
    ./dev run python -m bench.openings --from-file candidates.txt --levels master --time-ms 300

The engine's strength target (99% of the points against every classic bot,
both colours) is measured from the arena's openings, and it is a fair test
only if those openings are balanced: if black's first move and the three
opening stones already decide most games, then losing some games as white
says as much about the openings as about the engine. Here every ordered
pairing of the given engine levels (a level against itself included)
plays each opening once, so that the players are equal on average and
only the opening and the colour differ. Black's share of the points is
printed per opening and in total: about half for a balanced set.

`--from-file` screens candidate openings instead (one per line, e.g.
`h8 h9 l11`; `#` starts a comment), which is how a new set is chosen.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import defaultdict
from pathlib import Path

from engine.board import Board
from engine.registry import level_names
from tools.arena import run_games
from tools.match import OPENINGS, GameTask, PlayerSpec, black_points, opening_moves


def opening_games(levels: list[str], openings: tuple[str, ...], time_ms: int) -> list[GameTask]:
    """One game per opening and ordered pairing of `levels` (black, white)."""
    pairings = list(itertools.product(levels, repeat=2))
    return [
        GameTask(PlayerSpec(black, level=black), PlayerSpec(white, level=white), opening, time_ms, seed=index)
        for index, (opening, (black, white)) in enumerate(itertools.product(openings, pairings))
    ]


def read_openings(path: Path, size: int = 15) -> tuple[str, ...]:
    """The openings listed in a file, one per line, each checked by playing it out.

    Raises ValueError naming the line of an opening that is unreadable,
    illegal, already finished or listed twice.
    """
    openings: list[str] = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        opening = " ".join(line.split("#", 1)[0].split())
        if not opening:
            continue
        try:
            board = Board.from_moves(opening_moves(opening, size), size)
        except ValueError as error:  # unreadable point or illegal move
            raise ValueError(f"{path}:{number}: {opening!r}: {error}") from error
        if board.result is not None:
            raise ValueError(f"{path}:{number}: {opening!r} already ends the game")
        if opening in openings:
            raise ValueError(f"{path}:{number}: {opening!r} is listed twice")
        openings.append(opening)
    if not openings:
        raise ValueError(f"{path}: no openings")
    return tuple(openings)


def main() -> int:
    parser = argparse.ArgumentParser(description="Black's score from each arena opening, engine against engine.")
    parser.add_argument("--levels", nargs="+", default=["hard", "master"], help="engine levels (default hard master)")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (default 1000)")
    parser.add_argument("--openings", type=int, help="only the first N openings (default all)")
    parser.add_argument("--from-file", type=Path, help="candidate openings instead, one per line")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    arguments = parser.parse_args()
    unknown = [level for level in arguments.levels if level not in level_names()]
    if unknown:
        parser.error(f"unknown level {', '.join(unknown)}: expected some of {', '.join(level_names())}")
    if arguments.time_ms < 1 or arguments.jobs < 1:
        parser.error("--time-ms and --jobs must be positive")
    openings = OPENINGS
    if arguments.from_file is not None:
        try:
            openings = read_openings(arguments.from_file)
        except (OSError, ValueError) as error:
            parser.error(str(error))
    if arguments.openings is not None:
        if not 1 <= arguments.openings <= len(openings):
            parser.error(f"--openings must be between 1 and {len(openings)}")
        openings = openings[: arguments.openings]
    tasks = opening_games(arguments.levels, openings, arguments.time_ms)
    black_score: dict[str, float] = defaultdict(float)
    began = time.monotonic()
    for done, (index, record) in enumerate(run_games(tasks, arguments.jobs), start=1):
        task = tasks[index]
        points = black_points(record)
        black_score[task.opening] += points
        print(
            f"[{done}/{len(tasks)}] {task.opening:10} {task.black.name} - {task.white.name}  black {points:g}"
            f"  ({len(record.moves)} stones)",
            flush=True,
        )
    games_per_opening = len(tasks) // len(openings)
    print(
        f"\nblack's points per opening, of {games_per_opening} ({', '.join(arguments.levels)}; "
        f"{arguments.time_ms} ms per move):"
    )
    for opening in openings:
        print(f"  {opening:10} {black_score[opening]:g}/{games_per_opening}")
    total = sum(black_score.values())
    swept = sum(score == games_per_opening for score in black_score.values())
    print(
        f"black: {total:g}/{len(tasks)} ({100 * total / len(tasks):.0f}%); black won every game from {swept} "
        f"of {len(openings)} openings; wall time {time.monotonic() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
