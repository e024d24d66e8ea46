"""Colour balance under an opening rule: a level against itself, every opening decision its own.

    ./dev run python -m bench.swap2                             # master, swap2, 48 + 48 games, 1 s per move
    ./dev run python -m bench.swap2 --opening none --games 16   # freestyle from an empty board alone
    ./dev run python -m bench.swap2 --opening swap --games 24 --time-ms 500 --no-comparison

An opening rule is fair when it leaves neither colour, nor the player who
starts it, better off. Here the first player places the opening stones,
the second chooses, and so on, every decision taken by `decide_opening`
(`engine.opening_bot`) within the level's default time, as the server
gives it in an untimed game (`--decision-ms` to change it); then the game
is played out from the position the opening left, with the time per move
(`tools.match`). Since both players are the same level, black's share of
the points says how much the colour is worth after the opening, and the
first player's share how much starting the opening is worth: about half
each for a fair rule. The comparison, played in the same run (the games
alternate, so both see the same load) unless `--no-comparison`, is the
same number of games with no opening rule: from an empty board, where
black (the first player) simply moves first.

`hard` and `master` choose their moves without chance: two games from the
same position differ only where the time per move let one search finish a
depth the other did not. So the run also counts the different games (up
to the board's symmetries), and the interval printed with each share
(1.96 standard errors of the mean points per game) is too narrow when
many games repeat one another.

Prints each game as it ends, then for each opening rule black's and the
first player's shares, how the decisions went (swap2: which option the
second player took), and the command line.
"""

from __future__ import annotations

import argparse
import math
import shlex
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from engine.limits import SearchLimits
from engine.notation import format_point
from engine.opening_bot import play_out_opening
from engine.openings import ChooseColor, OpeningRule, OpeningState, Player, start_opening
from engine.record import GameRecord
from engine.registry import default_time_ms, level_names
from engine.symmetry import SYMMETRIES
from engine.types import Rule
from tools.match import GameTask, PlayerSpec, black_points, play_game

SIZE = 15


@dataclass(frozen=True, slots=True)
class OpeningGameTask:
    """One game: the opening decided by the bots, then played out (picklable, for a worker)."""

    level: str
    opening: OpeningRule
    rule: Rule
    time_ms: int
    """Per move."""
    decision_ms: int
    """Per opening decision."""
    seed: int


@dataclass(frozen=True, slots=True)
class OpeningGame:
    """A finished game and the opening that began it."""

    task: OpeningGameTask
    opening: OpeningState
    record: GameRecord

    @property
    def black_points(self) -> float:
        return black_points(self.record)

    @property
    def first_points(self) -> float:
        """The first player's points (who started the opening: black in a game without one)."""
        return self.black_points if self.opening.black is Player.FIRST else 1 - self.black_points


def play(task: OpeningGameTask) -> OpeningGame:
    """Decide the opening with bots of the task's level, then play the game out."""
    limits = SearchLimits(time_ms=task.decision_ms)
    state = start_opening(task.opening, SIZE, task.rule)
    state = play_out_opening(state, {Player.FIRST: task.level, Player.SECOND: task.level}, limits, task.seed)
    first = PlayerSpec("first", level=task.level)
    second = PlayerSpec("second", level=task.level)
    black, white = (first, second) if state.black is Player.FIRST else (second, first)
    stones = " ".join(format_point(point, SIZE) for point in state.moves)
    record = play_game(GameTask(black, white, stones, task.time_ms, task.rule, SIZE, task.seed))
    return OpeningGame(task, state, record)


def play_all(tasks: Sequence[OpeningGameTask], jobs: int) -> Iterator[OpeningGame]:
    """The games as they finish (in order, in this process, when `jobs` is 1)."""
    if jobs == 1:
        yield from map(play, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures: list[Future[OpeningGame]] = [pool.submit(play, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()


def second_choice(state: OpeningState) -> str:
    """What the second player did at its first decision: took black, stayed white, or (swap2)
    placed two stones."""
    for taken in state.steps:
        if taken.player is Player.SECOND:
            if isinstance(taken.step, ChooseColor):
                return f"took {taken.step.color}"
            return "placed two stones"
    return "no decision"


def describe(game: OpeningGame) -> str:
    stones = " ".join(format_point(point, SIZE) for point in game.opening.moves) or "-"
    score = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[game.black_points]
    black = game.opening.black
    return f"{game.task.opening:5} {stones:20} black: {black:6} {score}  ({len(game.record.moves)} stones)"


def share(points: Sequence[float]) -> str:
    """Points out of games, with 1.96 standard errors of the mean either side (as if every game
    were independent of the others)."""
    count = len(points)
    mean = sum(points) / count
    spread = statistics.stdev(points) / math.sqrt(count) if count > 1 else 0.0
    return f"{sum(points):g}/{count} ({100 * mean:.0f}% ± {196 * spread:.0f})"


def different_games(games: Sequence[OpeningGame]) -> int:
    """How many of the games differ in their moves once the board's symmetries are set aside."""
    return len({canonical_moves(game.record) for game in games})


def canonical_moves(record: GameRecord) -> tuple[tuple[int, int], ...]:
    """The game's moves in the orientation that sorts first: the same for a game and its mirror images."""
    points = [move.point for move in record.moves]
    return min(tuple((point.x, point.y) for point in symmetry.apply_all(points, SIZE)) for symmetry in SYMMETRIES)


def summary(opening: OpeningRule, games: Sequence[OpeningGame]) -> Iterator[str]:
    """The lines that sum up one opening rule's games."""
    yield f"  {opening} opening: {len(games)} games, {different_games(games)} different up to symmetry"
    yield f"    black's points:            {share([game.black_points for game in games])}"
    if opening is OpeningRule.NONE:
        return
    yield f"    the first player's points: {share([game.first_points for game in games])}"
    choices = Counter(second_choice(game.opening) for game in games)
    yield "    the second player " + ", ".join(f"{what} {times}x" for what, times in sorted(choices.items()))
    black_first = sum(game.opening.black is Player.FIRST for game in games)
    yield f"    the first player ended black in {black_first} of {len(games)} games"


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.swap2", description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="master", help="the bot level playing both sides (default master)")
    parser.add_argument("--opening", type=OpeningRule.parse, default=OpeningRule.SWAP2, help="default swap2")
    parser.add_argument("--rule", type=Rule.parse, default=Rule.FREESTYLE, help="default freestyle")
    parser.add_argument("--games", type=int, default=48, help="games to play with the opening rule (default 48)")
    parser.add_argument(
        "--no-comparison", action="store_true", help="do not also play as many games with no opening rule"
    )
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (default 1000)")
    parser.add_argument("--decision-ms", type=int, help="time per opening decision (default: the level's default)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (game i has seed + 100 i)")
    arguments = parser.parse_args(argv)
    if arguments.level not in level_names():
        parser.error(f"unknown level {arguments.level!r}: expected one of {', '.join(level_names())}")
    decision_ms = arguments.decision_ms or default_time_ms(arguments.level)
    if min(arguments.games, arguments.time_ms, arguments.jobs, decision_ms) < 1:
        parser.error("--games, --time-ms, --decision-ms and --jobs must be positive")
    openings = [arguments.opening]
    if arguments.opening is not OpeningRule.NONE and not arguments.no_comparison:
        openings.append(OpeningRule.NONE)
    tasks = [
        OpeningGameTask(
            arguments.level, opening, arguments.rule, arguments.time_ms, decision_ms, arguments.seed + 100 * i
        )
        for i in range(arguments.games)
        for opening in openings
    ]
    began = time.monotonic()
    games: list[OpeningGame] = []
    for done, game in enumerate(play_all(tasks, arguments.jobs), start=1):
        games.append(game)
        print(f"[{done}/{len(tasks)}] {describe(game)}", flush=True)
    print(
        f"\n{arguments.level} against itself, {arguments.rule}, "
        f"{arguments.time_ms} ms per move, {decision_ms} ms per opening decision:"
    )
    for opening in openings:
        print("\n".join(summary(opening, [game for game in games if game.task.opening is opening])))
    print(f"  wall time {time.monotonic() - began:.0f} s")
    print("  " + shlex.join(["./dev", "run", "python", "-m", "bench.swap2", *argv]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
