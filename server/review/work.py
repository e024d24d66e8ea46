"""What a bot worker process runs for a review, the puzzle miner or the trainer: one position each.

Each function takes the position as a `BotRequest` (the pool's picklable request: rule, size,
moves) and the budget (and the move, for the trainer's) bound first with `functools.partial`, so
that the pool can send it to a worker as it sends a bot's search.
"""

from __future__ import annotations

from engine.board import Board
from engine.review import (
    ForcedWin,
    PositionVerdict,
    PuzzleFound,
    ReviewBudget,
    find_puzzle,
    judge_position,
    win_starting_with,
)
from engine.types import Point
from server.bots.pool import BotRequest


def judge_in_worker(budget: ReviewBudget, request: BotRequest) -> PositionVerdict:
    """The verdict on the request's position (see `engine.review.judge_position`)."""
    return judge_position(Board.from_moves(request.moves, request.size, request.rule), budget)


def puzzle_in_worker(budget: ReviewBudget, request: BotRequest) -> PuzzleFound | None:
    """The request's position as a puzzle, if it is one (see `engine.review.find_puzzle`)."""
    return find_puzzle(Board.from_moves(request.moves, request.size, request.rule), budget)


def win_in_worker(budget: ReviewBudget, move: Point, request: BotRequest) -> ForcedWin | None:
    """The forced win starting with `move` in the request's position (see `engine.review.win_starting_with`)."""
    return win_starting_with(Board.from_moves(request.moves, request.size, request.rule), move, budget)
