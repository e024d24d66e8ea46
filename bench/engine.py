"""Engine benchmark: the compiled engine against the pure-Python one, on the same positions.

Run with `./dev run python -m bench.engine` (add `--quick` for a short run).
It measures each build of the engine (see `engine.build`) in a process of
its own, one after the other, the pure one with `GOMOKU_ENGINE=pure`, and
prints each figure for both builds and their ratio:

* Position.play/undo pairs per second, the hot path of every search;
* nodes per second (of CPU time, which a busy shared machine disturbs
  less than wall time) of the `hard` search on each middle-game position,
  to a fixed depth, and overall. Both builds must visit the same nodes and
  find the same moves and scores (`search_fingerprints`): the run stops if
  they do not;
* CPU seconds per bot move at each engine level on the first middle-game
  positions: the pure build at the level's default time per move (the
  time a bot seat gives it in an untimed game), and the compiled build
  searching the same number of nodes, move by move (the same strength);
  from those, the bot games one core can serve at two bot moves a minute.
  Also how many more nodes the compiled build searches in the level's
  time (what the same second buys instead);
* the VCF solver's solve rate and time on positions with a known win by
  fours. Each position's win was found once and checked independently by
  replaying it on a Board (every attacker move a four, every defender move
  the only block, ending in a five or an unstoppable four); its length is
  the number of moves in that line.

The yardstick of earlier figures, plain Board.push/pop (which checks for a
five after every move), is measured in the pure build, so that figures
from different machines and dates can still be compared through it.
`--this-build` measures only the build this process runs and prints its
figures as JSON (what the parent reads from each child; the pure build is
measured first, and hands its nodes per move to the compiled one through
`--level-nodes`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from engine import build_info, rules
from engine.board import Board
from engine.build import PURE_VARIABLE, is_compiled
from engine.limits import Budget, OutOfBudget, SearchLimits
from engine.notation import format_point, parse_pairs
from engine.registry import default_time_ms
from engine.search.levels import LEVELS, LevelSettings
from engine.search.position import Position
from engine.search.search import Searcher
from engine.search.threats import ThreatSolver
from engine.types import Point

MIDDLE_GAMES = (
    "jiggfghghighgfehiffhhhgihfgjgkjf",
    "iffggjggihhighhgigiihhfhjhkhieid",
    "hjfjfghieggiiigggfekdlighhgkehdi",
    "hggifggfghifhiefjkijhfhhigjgfhgg",
    "jihhgghfhgigihgfjfkjefijjhjjhjje",
    "iihfijhihjhhhejhjjkjkhgjhkjijgif",
    "hgifgiffigjghhjfgfhegdkhlikfekfj",
    "ghfijfhfhhfhgggiffiieeddhihjegij",
)
"""Letter-pair move lists of quiet positions (no forced win) 16 moves into games between engine levels."""

VCF_POSITIONS: tuple[tuple[str, int], ...] = (
    ("fhjfihjijghigihjigiigghghfkilihhhkiekhmjghgfgefdlhgkjhmhheifeidjfllghdkfni", 13),
    ("jggjjhjikghjmeiiighgkihfkhhhhihehdkf", 11),
    ("ggjfgihfhhiifjekfhifkfghhjffgfegfifkhkhg", 9),
    ("jiggfghghighgfehiffhhhgihfgjgkjfefffchdgfihjikdhdfgeegeeddhkdedjcdbcedckeididkfjejjjijfd", 9),
    ("highffjhhhhgiigggifiifigjgejdkegfgkihfgffefdgdhemkehefdggjekeiihibhcdekjjicfbechbccdceeebd", 9),
    ("fjjhhjjfgijgjiikjdijhhigekdliihiggjjfgffeghg", 9),
    ("gjhgjijjhkhhglijgkgifiilfkikiihjfh", 9),
    ("iihfijhihjhhhejhjjkjkhgjhkjijgifikihilimhgigki", 5),
    ("fjhiffjghhggfgfhgjigkghfeijhkiiejdjfjj", 5),
    ("hggifggfghifhiefjkijhfhhigjgfhggfffegejhfjfidhhdchehdggkdidj", 5),
    ("fghiggiigihjigjghhjfghgjihjh", 5),
    ("fhhfffgjeggighhhfgfedgggdhge", 5),
    ("fihgfhjhgihjfjfgflfkekhhhieidjgmejcjdkcl", 3),
    ("ggjifjigfhhfgegfffihfgfihgegeehh", 3),
    ("hjfjfghieggiiigggfekdlighhgkehdiidheeiefghihfefhgjjghkkghgkflefikhjfjilgmgieglijdcedhd", 3),
)
"""(letter-pair moves, length of a checked winning line by fours) with the side to move winning."""


def board_of(pairs: str) -> Board:
    return Board.from_moves(parse_pairs(pairs, 15))


def _pairs_per_second(play: Callable[[], None], points: int, seconds: float) -> float:
    """How many move/take-back pairs per CPU second `play` does; it does `points` per call."""
    done = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        play()
        done += points
    return done / (time.process_time() - started)


def baseline_pushes_per_second(seconds: float) -> float:
    """Board.push/pop pairs per second on a middle-game board: the machine-speed yardstick."""
    board = board_of(MIDDLE_GAMES[0])
    points = list(board.empty_points())[:40]

    def push_and_pop() -> None:
        for point in points:
            board.push(point)
            board.pop()

    return _pairs_per_second(push_and_pop, len(points), seconds)


def position_plays_per_second(seconds: float) -> float:
    """Position.play/undo pairs per second on the same board and points: the search's hot path."""
    board = board_of(MIDDLE_GAMES[0])
    position = Position.from_board(board)
    points = [point.y * 15 + point.x for point in board.empty_points()][:40]

    def play_and_undo() -> None:
        for point in points:
            position.play(point)
            position.undo()

    return _pairs_per_second(play_and_undo, len(points), seconds)


def search_speed(depth: int) -> tuple[int, float, list[str]]:
    """Total nodes and CPU seconds of the `hard` search to `depth` over the middle-game
    positions, and a line per position."""
    settings = next(level for level in LEVELS if level.name == "hard").search
    total_nodes = 0
    total_seconds = 0.0
    lines = []
    for pairs in MIDDLE_GAMES:
        board = board_of(pairs)
        budget = Budget()
        searcher = Searcher(board, settings, budget)
        started = time.process_time()
        last = None
        for result in searcher.iterate():
            last = result
            if result.depth >= depth:
                break
        seconds = time.process_time() - started
        total_nodes += budget.nodes
        total_seconds += seconds
        shown = "-" if last is None else f"{last.depth:>2}"
        lines.append(f"{pairs[:16]}..  depth {shown}  nodes {budget.nodes:>7}  {budget.nodes / seconds:>8.0f} nodes/s")
    return total_nodes, total_seconds, lines


def search_fingerprints(depth: int, level: str = "hard") -> list[tuple[str, int, int, int]]:
    """(move, score, depth, nodes) of `level`'s search to `depth` on each middle-game position:
    what must come out the same in both builds of the engine."""
    settings = next(settings for settings in LEVELS if settings.name == level).search
    found = []
    for pairs in MIDDLE_GAMES:
        budget = Budget()
        last = None
        for result in Searcher(board_of(pairs), settings, budget).iterate():
            last = result
            if result.depth >= depth:
                break
        assert last is not None, "a search without a depth limit always finishes a depth"
        found.append((format_point(last.move, 15), last.score, last.depth, budget.nodes))
    return found


LEVEL_POSITIONS = 4
"""Middle-game positions each level moves in for the CPU-per-move figures."""


def bot_move(level: LevelSettings, board: Board, limits: SearchLimits) -> tuple[float, int]:
    """CPU seconds and nodes of one bot move of `level` within `limits`, searched as a bot seat
    searches it (`EngineBot.think`)."""
    budget = Budget.from_limits(limits)
    searcher = Searcher(board, level.search, budget, full_root_window=level.tolerance > 0)
    started = time.process_time()
    for _ in searcher.iterate():
        pass
    return time.process_time() - started, budget.nodes


def cpu_per_move(same_nodes_as: dict[str, list[int]] | None) -> dict[str, dict[str, Any]]:
    """Per engine level, CPU seconds per move and the nodes of each move, over the first
    middle-game positions: at the level's default time per move, and if `same_nodes_as` gives
    each level's nodes per position, also with exactly those nodes as the limit of each move."""
    figures = {}
    for level in LEVELS:
        timed = [
            bot_move(level, board_of(pairs), SearchLimits(time_ms=default_time_ms(level.name)))
            for pairs in MIDDLE_GAMES[:LEVEL_POSITIONS]
        ]
        figures[level.name] = {
            "seconds": statistics.mean(seconds for seconds, _ in timed),
            "nodes": [nodes for _, nodes in timed],
        }
        if same_nodes_as is not None:
            counted = [
                bot_move(level, board_of(pairs), SearchLimits(nodes=nodes))
                for pairs, nodes in zip(MIDDLE_GAMES[:LEVEL_POSITIONS], same_nodes_as[level.name], strict=True)
            ]
            figures[level.name]["seconds_same_nodes"] = statistics.mean(seconds for seconds, _ in counted)
    return figures


def vcf_solving(time_ms: int) -> dict[str, Any]:
    """Solve count and times (ms) of the VCF solver within `time_ms` per position."""
    solved = 0
    times = []
    for pairs, _ in VCF_POSITIONS:
        board = board_of(pairs)
        position = Position.from_board(board)
        budget = Budget.from_limits(SearchLimits(time_ms=time_ms))
        started = time.perf_counter()
        try:
            line = ThreatSolver(position, budget).vcf(40)
        except OutOfBudget:
            line = None
        times.append((time.perf_counter() - started) * 1000)
        solved += line is not None and _wins_by_fours(board, [position.point(index) for index in line])
    return {"solved": solved, "median_ms": statistics.median(times), "max_ms": max(times)}


def _wins_by_fours(board: Board, line: list[Point]) -> bool:
    """Whether `line` is a checked win by fours: every attacker move a four, every defender move
    the only block, ending in a five or a four the defender cannot stop."""
    board = board.copy()
    attacker = board.to_move
    for step, point in enumerate(line):
        if not board.is_legal(point):
            return False
        if step % 2 and _completions(board, attacker) != [point]:
            return False
        board.play(point)
        if board.result is not None:
            return board.result.winner is attacker
        if step % 2 == 0 and not _completions(board, attacker):
            return False
    blocks = _completions(board, attacker)
    return len(blocks) >= 2 or (len(blocks) == 1 and board.is_forbidden(blocks[0]))


def _completions(board: Board, color: int) -> list[Point]:
    """The empty points where `color` would win at once."""
    found = []
    for point in board.empty_points():
        index = point.y * board.size + point.x
        board.cells[index] = color
        if rules.winning_run(board.cells, board.size, point.x, point.y, color, board.rule) is not None:
            found.append(point)
        board.cells[index] = rules.EMPTY
    return found


def measure_this_build(
    quick: bool, depth: int, levels: bool, level_nodes: dict[str, list[int]] | None
) -> dict[str, Any]:
    """Every figure of the build this process runs (bot moves with `level_nodes` as node limits too,
    if given)."""
    seconds = 0.5 if quick else 2.0
    nodes, search_seconds, lines = search_speed(depth)
    return {
        "build": build_info(),
        "compiled": is_compiled(),
        "baseline": baseline_pushes_per_second(seconds),
        "plays": position_plays_per_second(seconds),
        "nodes": nodes,
        "nodes_per_second": nodes / search_seconds,
        "positions": lines,
        "fingerprints": search_fingerprints(depth),
        "cpu_per_move": cpu_per_move(level_nodes) if levels else {},
        "vcf": vcf_solving(1000),
    }


def measure_in_child(pure: bool, arguments: list[str]) -> dict[str, Any]:
    """The figures of one build, measured in a process of its own."""
    environment = {key: value for key, value in os.environ.items() if key != PURE_VARIABLE}
    if pure:
        environment[PURE_VARIABLE] = "pure"
    command = [sys.executable, "-m", "bench.engine", "--this-build", *arguments]
    finished = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(finished.stdout)
    return figures


def report(compiled: dict[str, Any], pure: dict[str, Any], depth: int) -> None:
    """Both builds' figures side by side, with the compiled build's speed-up."""
    print(f"compiled: {compiled['build']}\npure:     {pure['build']}")
    baseline = pure["baseline"]
    print(f"yardstick (pure Board.push/pop): {baseline:,.0f} per second")
    print(f"{'figure':<44} {'pure':>12} {'compiled':>12} {'ratio':>7}")

    def row(name: str, slow: float, fast: float, ratio: float, decimals: int = 1) -> None:
        print(f"{name:<44} {slow:>12,.{decimals}f} {fast:>12,.{decimals}f} {ratio:>6.2f}x")

    row("Position.play/undo pairs per second", pure["plays"], compiled["plays"], compiled["plays"] / pure["plays"])
    print(f"{'  (pure as a ratio to the yardstick)':<44} {pure['plays'] / baseline:>12.3f}")
    speed_up = compiled["nodes_per_second"] / pure["nodes_per_second"]
    row(f"hard search to depth {depth}, nodes/s", pure["nodes_per_second"], compiled["nodes_per_second"], speed_up)
    print(f"{'  (pure as a ratio to the yardstick)':<44} {pure['nodes_per_second'] / baseline:>12.3f}")
    for slow_line, fast_line in zip(pure["positions"], compiled["positions"], strict=True):
        print(f"    pure {slow_line}\n    comp {fast_line}")
    same = pure["fingerprints"] == compiled["fingerprints"]
    print(f"same moves, scores and nodes ({pure['nodes']:,} nodes) in both builds: {'yes' if same else 'NO'}")
    for level, timed in pure["cpu_per_move"].items():
        slow = timed["seconds"]
        fast = compiled["cpu_per_move"][level]["seconds_same_nodes"]
        row(f"{level}: CPU s per move (pure at {default_time_ms(level)} ms)", slow, fast, slow / fast, decimals=3)
        print(f"{'    bot games per core at 2 moves a minute':<44} {30 / slow:>12,.1f} {30 / fast:>12,.1f}")
        more = sum(compiled["cpu_per_move"][level]["nodes"]) / max(1, sum(timed["nodes"]))
        print(f"{'    nodes per move at that time, compiled/pure':<44} {more:>33.2f}x")
    for build, figures in (("pure", pure), ("compiled", compiled)):
        vcf = figures["vcf"]
        print(
            f"VCF ({build}): {vcf['solved']}/{len(VCF_POSITIONS)} solved within 1000 ms, "
            f"median {vcf['median_ms']:.2f} ms, max {vcf['max_ms']:.2f} ms"
        )
    if not same:
        sys.exit("the two builds do not search alike: a bug in one of them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shallower search, shorter timings, no levels")
    parser.add_argument("--depth", type=int, default=None, help="search depth (default 5, quick 3)")
    parser.add_argument("--this-build", action="store_true", help="measure only this process's build, as JSON")
    parser.add_argument("--level-nodes", type=json.loads, default=None, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    depth = arguments.depth or (3 if arguments.quick else 5)
    levels = not arguments.quick
    if arguments.this_build:
        print(json.dumps(measure_this_build(arguments.quick, depth, levels, arguments.level_nodes)))
        return
    passed = ["--depth", str(depth), *(["--quick"] if arguments.quick else [])]
    pure = measure_in_child(True, passed)
    level_nodes = {level: figures["nodes"] for level, figures in pure["cpu_per_move"].items()}
    compiled = measure_in_child(False, [*passed, "--level-nodes", json.dumps(level_nodes)])
    if not compiled["compiled"]:
        print(f"warning: this install is not compiled ({compiled['build']}): both columns are pure Python")
    report(compiled, pure, depth)


if __name__ == "__main__":
    main()
