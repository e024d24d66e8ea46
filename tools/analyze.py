"""`gomoku-analyze`: what each bot would play in each of many positions.

    gomoku-analyze games.txt --bot greedy --bot alphabeta --bot hard
    gomoku-analyze game.psq game.sgf record.json --ply 20 --json

Positions come from PSQ, SGF and JSON game records (a record object or a
list of them), chosen by the file's extension, or from any other text
file holding one letter-pair game per line (`hhjhiijgghjjjkjijfkjig`;
blank lines and `#` comments are skipped). A record gives the position
after its moves, or after the first --ply moves. For each position and
each bot the tool prints the chosen move, its score, depth and nodes, the
line it expects (for searching bots), and the scores the bot gave its best
points: a table for people, or JSON for
programs with --json. A position that cannot be read is reported and
skipped; the others are still analysed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.board import Board
from engine.bots import Decision
from engine.limits import SearchLimits
from engine.notation import format_pairs, format_point, parse_pairs
from engine.psq import read_psq
from engine.record import GameRecord, record_from_dict
from engine.registry import level_names, make_bot
from engine.sgf import read_sgf
from engine.types import Point, Rule


@dataclass(frozen=True, slots=True)
class Position:
    """A position to analyse and where it came from."""

    label: str
    """File and line or game number."""
    board: Board


def record_board(record: GameRecord, ply: int | None) -> Board:
    """The board after the record's moves, or after its first `ply` moves."""
    moves = [move.point for move in record.moves][:ply]
    return Board.from_moves(moves, record.size, record.rule)


def read_positions(path: Path, rule: Rule, size: int, ply: int | None) -> Iterator[Position]:
    """Every position in the file. Raises ValueError (or OSError) for a file that cannot be read."""
    text = path.read_text()
    suffix = path.suffix.lower()
    if suffix == ".psq":
        yield Position(str(path), record_board(read_psq(text, rule), ply))
    elif suffix == ".sgf":
        yield Position(str(path), record_board(read_sgf(text, rule), ply))
    elif suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON: {error}") from None
        records = data if isinstance(data, list) else [data]
        for number, item in enumerate(records, start=1):
            label = f"{path}#{number}" if isinstance(data, list) else str(path)
            yield Position(label, record_board(record_from_dict(item), ply))
    else:
        for number, line in enumerate(text.splitlines(), start=1):
            pairs = line.split("#", 1)[0].strip()
            if pairs:
                yield Position(f"{path}:{number}", Board.from_moves(parse_pairs(pairs, size)[:ply], size, rule))


def top_points(decision: Decision, count: int) -> list[tuple[Point, int]]:
    """The `count` best-scored candidate points, best first."""
    return sorted(decision.candidates, key=lambda item: -item[1])[:count]


def analyse(position: Position, bots: Sequence[str], limits: SearchLimits, top: int, seed: int) -> dict[str, Any]:
    """Every bot's decision on the position, as a JSON-ready dict."""
    board = position.board
    entry: dict[str, Any] = {
        "position": position.label,
        "moves": format_pairs(board.moves),
        "ply": board.ply,
        "to_move": str(board.to_move),
        "rule": str(board.rule),
        "analyses": [],
    }
    if board.result is not None:
        entry["game_over"] = True
        return entry
    for level in bots:
        decision = make_bot(level).choose(board, limits, seed)
        entry["analyses"].append(
            {
                "bot": level,
                "move": format_point(decision.move, board.size),
                "score": decision.score,
                "depth": decision.depth,
                "nodes": decision.nodes,
                "pv": [format_point(point, board.size) for point in decision.pv],
                "top": [
                    {"move": format_point(point, board.size), "score": score}
                    for point, score in top_points(decision, top)
                ],
            }
        )
    return entry


def table_lines(entry: dict[str, Any]) -> Iterator[str]:
    """A position's analyses as lines of a table."""
    heading = f"{entry['position']}  ply {entry['ply']}, {entry['to_move']} to move"
    if entry.get("game_over"):
        yield f"{heading}: the game is over"
        return
    yield heading
    for analysis in entry["analyses"]:
        best = ", ".join(f"{point['move']} {point['score']}" for point in analysis["top"])
        yield (
            f"  {analysis['bot']:<10} {analysis['move']:>4} {analysis['score']:>10}"
            f"  depth {analysis['depth']:<2} nodes {analysis['nodes']:<8} {best}"
        )
        if len(analysis["pv"]) > 1:
            yield f"  {'':<10} pv {' '.join(analysis['pv'])}"


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gomoku-analyze", description="What bots play in many positions.")
    parser.add_argument("files", nargs="+", type=Path, help=".psq, .sgf, .json records or letter-pair text files")
    parser.add_argument("--bot", action="append", help="a bot level (repeat for several; default: greedy)")
    parser.add_argument("--time-ms", type=int, default=1000, help="thinking time per position (default 1000)")
    parser.add_argument("--top", type=int, default=5, help="how many best points to show (default 5)")
    parser.add_argument("--ply", type=int, help="analyse the position after this many moves of each game")
    parser.add_argument("--rule", type=Rule.parse, default=Rule.FREESTYLE, help="rule for files that do not say")
    parser.add_argument("--size", type=int, default=15, help="board size for letter-pair files (default 15)")
    parser.add_argument("--seed", type=int, default=0, help="seed handed to the bots")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of a table")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    bots = arguments.bot or ["greedy"]
    unknown = [level for level in bots if level not in level_names()]
    if unknown:
        print(f"gomoku-analyze: unknown bot level {unknown[0]!r}: expected one of {', '.join(level_names())}")
        return 2
    limits = SearchLimits(time_ms=arguments.time_ms)
    entries = []
    failures = 0
    for path in arguments.files:
        try:
            for position in read_positions(path, arguments.rule, arguments.size, arguments.ply):
                entry = analyse(position, bots, limits, arguments.top, arguments.seed)
                entries.append(entry)
                if not arguments.json:
                    print("\n".join(table_lines(entry)), flush=True)
        except (OSError, ValueError) as error:
            failures += 1
            print(f"gomoku-analyze: {path}: {error}", file=sys.stderr)
    if arguments.json:
        print(json.dumps(entries, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
