"""Make the starting set of puzzles (`server/review/starting_puzzles.json`) from the project's own
bots' games: play them (`tools.match`), review each (`engine.review.review_game`) and keep the
positions where a forced win starts whose first move is the only one (`engine.review.find_puzzle`).

    python -m tools.make_puzzles --games 40 --out server/review/starting_puzzles.json
    python -m tools.make_puzzles --rule renju --games 12 --append --out server/review/starting_puzzles.json

The games are seeded and their thinking time fixed, so the same arguments give much the same set
(bots that run out of time may choose differently on another machine).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.board import Board
from engine.notation import format_point
from engine.record import GameRecord
from engine.review import DEFAULT_BUDGET, find_puzzle, puzzle_candidates, review_game
from engine.types import Rule
from tools.arena import run_games, schedule
from tools.match import OPENINGS, parse_player

DEFAULT_PLAYERS = ("easy", "medium", "alphabeta")
"""Bots of different strength: their games have wins missed and found, as people's do."""


def puzzles_of(record: GameRecord) -> list[dict[str, object]]:
    """The puzzles found in one game, as the starting set's entries."""
    moves = tuple(move.point for move in record.moves)
    review, _ = review_game(moves, record.size, record.rule)
    size = record.size
    found: list[dict[str, object]] = []
    for ply in puzzle_candidates(review):
        puzzle = find_puzzle(Board.from_moves(moves[:ply], size, record.rule), DEFAULT_BUDGET)
        if puzzle is None:
            continue
        found.append(
            {
                "rule": record.rule.value,
                "size": size,
                "moves": " ".join(format_point(point, size) for point in moves[:ply]),
                "solution": " ".join(format_point(point, size) for point in puzzle.win.line),
                "theme": puzzle.win.kind.value,
                "forbidden": puzzle.forbidden,
                "source": f"{record.black.name} - {record.white.name}, {record.rule.value}, move {ply + 1}",
            }
        )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_puzzles", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="bot games to play (default 24)")
    parser.add_argument("--players", nargs="+", default=list(DEFAULT_PLAYERS), help="bot levels that play")
    parser.add_argument("--time-ms", type=int, default=200, help="thinking time per move (default 200)")
    parser.add_argument("--rule", type=Rule, default=Rule.FREESTYLE, help="the rule of the games")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    parser.add_argument("--append", action="store_true", help="add to the puzzles already in --out")
    arguments = parser.parse_args(argv)
    players = [parse_player(name) for name in arguments.players]
    tasks = schedule(players, None, OPENINGS, arguments.time_ms, arguments.rule, seed=1)[: arguments.games]
    puzzles: list[dict[str, object]] = []
    for index, record in run_games(tasks, arguments.jobs):
        found = puzzles_of(record)
        print(f"game {index + 1}: {len(record.moves)} moves, {len(found)} puzzles", file=sys.stderr)
        puzzles += found
    command = "python -m tools.make_puzzles " + " ".join(argv if argv is not None else sys.argv[1:])
    document: dict[str, list[object]] = {"made_by": [command], "puzzles": list(puzzles)}
    if arguments.append:
        before = json.loads(arguments.out.read_text(encoding="utf-8"))
        document = {"made_by": [*before["made_by"], command], "puzzles": [*before["puzzles"], *puzzles]}
    arguments.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"{len(puzzles)} puzzles from {len(tasks)} games in {arguments.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
