"""Arena ratings of the bot levels, shown as `rating` in `list_bots`.

This module is written by `gomoku-arena --update-ratings` (do not edit the
table by hand: run the arena). It is plain Python so that the server reads
it without the engine doing any I/O. Ratings are Elo, anchored so that the
levels in the last arena run average 1500.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

RATINGS: Mapping[str, int] = MappingProxyType(
    {
        "greedy": 1141,
        "astar": 1304,
        "easy": 1389,
        "static": 1412,
        "minimax": 1435,
        "alphabeta": 1537,
        "medium": 1633,
        "hard": 1707,
        "master": 1941,
    }
)
"""Rating of each bot level measured in the arena; a level not yet rated is absent."""


def rating_of(level: str) -> int | None:
    """The arena rating of `level`, or None if the arena has not rated it."""
    return RATINGS.get(level)
