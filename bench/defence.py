"""Defence benchmark: does the engine avoid the moves that let the opponent win by threats?

Run with `./dev run python -m bench.defence` (options: `--level`, `--time-ms`,
`--wall-clock`).

Arena games against the classic bots are too noisy to tell one version of
the engine from the next (a 48-game run moves by two or three games), and
nearly every game the engine loses, it loses the same way: one move lets the
opponent win by threes and fours. This benchmark replays such moments. Each
position comes from a game an engine level lost at 1 s per move: the move
it played there let the opponent win by a VCT, although another move did
not (both proved with the VCT solver at large node budgets). The level
searches each position again and its choice is judged by the same solver:
safe (no VCT for the opponent), refuted (a VCT), or unknown (the solver ran
out of nodes).

By default the level runs on `counting_clock`, a millisecond every 32
nodes, which is about the engine's real speed: the result is the same on
every machine and every run. The baseline, measured in the same run, is the move the
search's move ordering puts first (what the engine would play without
searching).
"""

from __future__ import annotations

import argparse
import sys

from engine.board import Board
from engine.limits import Budget, OutOfBudget, SearchLimits, counting_clock
from engine.notation import format_point, parse_pairs
from engine.search.levels import LEVELS, EngineBot
from engine.search.movegen import ordered_moves
from engine.search.position import Position
from engine.search.threats import ThreatSolver
from engine.types import Point

POSITIONS: tuple[tuple[str, str, str], ...] = (
    ("hhghgkhifjfgij", "i9", "e12"),
    ("hhghijhgiiiffi", "f9", "d5"),
    ("hhgiehgggffghg", "h10", "f8"),
    ("hhghfjhigiigij", "g10", "j9"),
    ("hhghffhgggiifi", "f7", "g10"),
    ("hhgihfiihghijiih", "g5", "d8"),
    ("hhgiehgggfghhggjgk", "i8", "e8"),
    ("hhghjgijhihgjifiif", "f9", "j11"),
    ("hhgijffihihjfhghggeihg", "g10", "i13"),
    ("hhgijfhjfhiijhjikiihighf", "h4", "e5"),
    ("hhghifhiiiijjkgggfhffghefh", "e7", "j10"),
    ("hhgifkgjgkhjfjfhikegdfhkfieiggehej", "m10", "e11"),
    ("hhgifghgefghgjfiifggeiejdkgfgeiifejihi", "e8", "h7"),
    ("hhgifkgjghfiehfhfghieiiijieghjdfcegfdi", "h7", "f10"),
    ("hhgiglijghfhhjhfhihkgkiiihkhgjfkgmgnfijilglijgkfkiieggifjf", "g7", "g8"),
    ("hhghfjgihjhiiiijfggggfgkgjjkklhkfkkkikglfmflehdififhheidhfhlhdhgdjejileldlemhchbekdncoifdgcf", "c7", "n14"),
)
"""(letter-pair moves, the move played in the lost game, a move proved safe), side to move defending."""

JUDGE_NODES = 300_000
"""Nodes the solver may use to judge one choice."""
JUDGE_DEPTH = 16
"""Most threats in the opponent's VCT the judge looks for."""


def judge(board: Board, move: Point) -> str:
    """'safe', 'refuted' or 'unknown': whether the opponent wins by threats after `move`."""
    position = Position.from_board(board)
    position.play(move.y * board.size + move.x)
    try:
        line = ThreatSolver(position, Budget(max_nodes=JUDGE_NODES)).vct_deepening(JUDGE_DEPTH)
    except OutOfBudget:
        return "unknown"
    return "safe" if line is None else "refuted"


def level_choice(board: Board, level: str, time_ms: int, wall_clock: bool) -> Point:
    """The move `level` chooses in `board` within `time_ms`."""
    settings = next(candidate for candidate in LEVELS if candidate.name == level)
    bot = EngineBot(settings) if wall_clock else EngineBot(settings, clock=counting_clock())
    return bot.choose(board, SearchLimits(time_ms=time_ms), seed=0).move


def ordering_choice(board: Board) -> Point:
    """The first move of the search's move ordering: the baseline."""
    position = Position.from_board(board)
    return position.point(ordered_moves(position, 1)[0])


def main() -> int:
    parser = argparse.ArgumentParser(description="Does the engine avoid moves that lose to a VCT?")
    parser.add_argument("--level", default="master", choices=[level.name for level in LEVELS])
    parser.add_argument("--time-ms", type=int, default=1000, help="thinking time per position (default 1000)")
    parser.add_argument("--wall-clock", action="store_true", help="real time instead of the node-driven clock")
    arguments = parser.parse_args()
    totals = {"level": 0, "ordering": 0}
    for pairs, played, safe in POSITIONS:
        board = Board.from_moves(parse_pairs(pairs, 15))
        chosen = level_choice(board, arguments.level, arguments.time_ms, arguments.wall_clock)
        baseline = ordering_choice(board)
        verdict, baseline_verdict = judge(board, chosen), judge(board, baseline)
        totals["level"] += verdict == "safe"
        totals["ordering"] += baseline_verdict == "safe"
        print(
            f"  {board.ply:>2} stones, played {played:>3} (safe: {safe:>3}):"
            f"  {arguments.level} {format_point(chosen, 15):>3} {verdict:<8}"
            f"  ordering {format_point(baseline, 15):>3} {baseline_verdict}"
        )
    count = len(POSITIONS)
    print(
        f"safe choices: {arguments.level} {totals['level']}/{count},"
        f" move ordering alone (baseline) {totals['ordering']}/{count}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
