"""The arena ratings of the bot levels, the `rating` that `list_bots` shows.

They are data, kept in `bot_ratings.json` beside this module and written
by `gomoku-arena --update-ratings` (do not edit them by hand: run the
arena). The file holds the ratings and how they were measured:

    {"ratings": {"greedy": 1141, ..., "master": 1941},
     "measured": {"date": "2026-11-23", "command": "...", "games": 288, ...}}

Ratings are Elo, anchored so that the levels of the run that rated them
average 1500; a level the arena has not rated is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RATINGS_FILE = Path(__file__).with_name("bot_ratings.json")
"""The ratings file, installed with this package (the arena rewrites it in place)."""


def read_ratings(path: Path = RATINGS_FILE) -> dict[str, int]:
    """Level -> arena rating, from the ratings file at `path`.

    Raises OSError if the file cannot be read and ValueError, naming the
    file, if it is not a ratings file.
    """
    return dict(read_ratings_file(path)["ratings"])


def read_ratings_file(path: Path) -> dict[str, Any]:
    """The whole ratings file at `path`: the ratings and how they were measured, checked.

    Raises as `read_ratings` does.
    """
    try:
        document: object = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    if not isinstance(document, dict) or not _is_ratings(document.get("ratings")):
        raise ValueError(f'{path} is not a ratings file: expected {{"ratings": {{level: integer, ...}}, ...}}')
    return document


def _is_ratings(value: object) -> bool:
    """Whether `value` is a table of level -> integer rating."""
    return isinstance(value, dict) and all(
        isinstance(level, str) and type(rating) is int for level, rating in value.items()
    )


def write_ratings_file(path: Path, ratings: dict[str, int], measured: dict[str, Any]) -> None:
    """Write `ratings` (level -> Elo) and `measured` (how: date, command, games...) to `path`."""
    document = {"ratings": ratings, "measured": measured}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
