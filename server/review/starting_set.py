"""The puzzles that ship with the project (`starting_puzzles.json`), stored at the server's start.

The file is made by `python -m tools.make_puzzles` from games between the
project's own bots; its puzzles have no game here (`game_id` NULL) and say
in `source` which bots played. Storing them again at each start changes
nothing: a puzzle's id is made from its position.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.notation import parse_point
from engine.review import WinKind
from engine.types import Point, Rule
from server.domain import Puzzle, PuzzlesMined
from server.review.puzzles import puzzle_id, starting_rating

STARTING_SET = Path(__file__).with_name("starting_puzzles.json")
"""Where the starting set ships."""


def load_starting_set(path: Path, at: datetime) -> PuzzlesMined:
    """The puzzles of the file at `path`, as a record to store. Raises ValueError naming the file
    and the puzzle when it is not a starting set (OSError when it cannot be read)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    puzzles = []
    for index, entry in enumerate(document["puzzles"]):
        try:
            puzzles.append(_puzzle(entry))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path}: puzzle {index + 1} is not a puzzle: {error}") from error
    return PuzzlesMined(tuple(puzzles), (), at)


def _points(text: str, size: int) -> tuple[Point, ...]:
    return tuple(parse_point(word, size) for word in text.split())


def _puzzle(entry: dict[str, Any]) -> Puzzle:
    rule, size = Rule(entry["rule"]), int(entry["size"])
    moves = _points(entry["moves"], size)
    solution = _points(entry["solution"], size)
    return Puzzle(
        puzzle_id=puzzle_id(rule, size, moves),
        game_id=None,
        source=str(entry["source"]),
        ply=len(moves),
        rule=rule,
        size=size,
        moves=moves,
        solution=solution,
        theme=WinKind(entry["theme"]),
        forbidden=bool(entry["forbidden"]),
        rating=starting_rating((len(solution) + 1) // 2),
        attempts=0,
    )
