"""Engine benchmark: search speed on fixed middle-game positions, and VCF solving.

Run with `./dev run python -m bench.engine` (add `--quick` for a short run).
Prints:

* Position.play/undo pairs per second, the hot path of every search
  (about 60% of its time), also as a ratio to the baseline below;
* nodes per second (of CPU time, which a busy shared machine disturbs
  less than wall time) of the `hard` search on each middle-game position, to a
  fixed depth, and overall; also as a ratio to a baseline measured in the
  same run (plain Board.push/pop, which checks for a five after every
  move), so that figures from different machines can be compared;
* the VCF solver's solve rate and time on positions with a known win by
  fours. Each position's win was found once and checked independently by
  replaying it on a Board (every attacker move a four, every defender move
  the only block, ending in a five or an unstoppable four); its length is
  the number of moves in that line.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from engine import rules
from engine.board import Board
from engine.limits import Budget, OutOfBudget, SearchLimits
from engine.notation import parse_pairs
from engine.search.levels import LEVELS
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


def search_speed(depth: int) -> tuple[int, float]:
    """Total nodes and seconds of the `hard` search to `depth` over the middle-game positions."""
    settings = next(level for level in LEVELS if level.name == "hard").search
    total_nodes = 0
    total_seconds = 0.0
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
        print(f"  {pairs[:16]}..  depth {shown}  nodes {budget.nodes:>7}  {budget.nodes / seconds:>8.0f} nodes/s")
    return total_nodes, total_seconds


def vcf_solving(time_ms: int) -> None:
    """Solve rate and times of the VCF solver within `time_ms` per position."""
    solved = 0
    times = []
    for pairs, length in VCF_POSITIONS:
        board = board_of(pairs)
        position = Position.from_board(board)
        budget = Budget.from_limits(SearchLimits(time_ms=time_ms))
        started = time.perf_counter()
        try:
            line = ThreatSolver(position, budget).vcf(40)
        except OutOfBudget:
            line = None
        seconds = time.perf_counter() - started
        times.append(seconds)
        found = line is not None and _wins_by_fours(board, [position.point(index) for index in line])
        solved += found
        print(f"  length {length:>2}: {'solved' if found else 'NOT solved'} in {seconds * 1000:7.1f} ms")
    count = len(VCF_POSITIONS)
    print(
        f"VCF solve rate {solved}/{count} ({100 * solved / count:.0f}%) within {time_ms} ms, "
        f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shallower search, shorter baseline")
    parser.add_argument("--depth", type=int, default=None, help="search depth (default 5, quick 3)")
    arguments = parser.parse_args()
    depth = arguments.depth or (3 if arguments.quick else 5)
    baseline = baseline_pushes_per_second(0.5 if arguments.quick else 2.0)
    print(f"baseline: Board.push/pop {baseline:,.0f} per second")
    plays = position_plays_per_second(0.5 if arguments.quick else 2.0)
    print(f"Position.play/undo: {plays:,.0f} per second ({plays / baseline:.3f} x baseline)")
    print(f"search speed, hard settings to depth {depth}:")
    nodes, seconds = search_speed(depth)
    speed = nodes / seconds
    print(f"search: {nodes} nodes in {seconds:.2f} s = {speed:,.0f} nodes/s ({speed / baseline:.3f} x baseline)")
    print("VCF solving:")
    vcf_solving(1000)


if __name__ == "__main__":
    main()
