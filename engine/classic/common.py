"""What the classic bots share: which points to consider and how to break ties.

They stop on the same `Budget` (engine.limits) as the engine's search.

Kept apart so that each bot module shows only its own algorithm.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.board import Board
from engine.types import Point

WIN_SCORE = 10_000_000
"""A score beyond any evaluation: the side to move has made five."""


def centre(board: Board) -> Point:
    """The middle point, where every bot opens."""
    return Point(board.size // 2, board.size // 2)


def nearby_points(board: Board, distance: int, playable_only: bool = True) -> list[Point]:
    """The empty points within `distance` (in both x and y) of a stone, row by
    row; the centre alone on an empty board.

    Renju forbidden points are left out, so no bot can ever choose one,
    unless `playable_only` is False: a caller that keeps only a few of the
    points then checks just those (the check is costly).
    """
    if board.ply == 0:
        return [centre(board)]
    size = board.size
    cells = board.cells
    near = [False] * (size * size)
    for stone in board.moves:
        for y in range(max(0, stone.y - distance), min(size, stone.y + distance + 1)):
            row = y * size
            for x in range(max(0, stone.x - distance), min(size, stone.x + distance + 1)):
                near[row + x] = True
    return [
        Point(index % size, index // size)
        for index in range(size * size)
        if near[index]
        and cells[index] == 0
        and not (playable_only and board.is_forbidden(Point(index % size, index // size)))
    ]


def rank(scored: Iterable[tuple[Point, int]], board: Board, seed: int | None) -> list[tuple[Point, int]]:
    """Scored points best first; equal scores ordered by distance to the centre,
    or shuffled by `seed` when one is given (same seed, same order)."""
    middle = centre(board)
    items = list(scored)
    if seed is None:
        items.sort(key=lambda item: (-item[1], abs(item[0].x - middle.x) + abs(item[0].y - middle.y), item[0]))
    else:
        shuffle_keys = {item[0]: random.Random(f"{seed}-{item[0].x}-{item[0].y}").random() for item in items}
        items.sort(key=lambda item: (-item[1], shuffle_keys[item[0]]))
    return items
