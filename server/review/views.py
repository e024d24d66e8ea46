"""Reviews and puzzles as the wire shows them (`wire.review`), for the websocket and HTTP alike."""

from __future__ import annotations

from collections.abc import Iterable

from engine.glicko2 import Rating
from engine.notation import format_point
from engine.record import format_timestamp
from engine.types import Color, Point
from server.domain import GameReviewed, Puzzle
from server.review.puzzles import TryResult
from wire.messages import AnalysisMoveModel, RatingChangeModel
from wire.review import GameReviewModel, MarkModel, PlyEvaluationModel, PuzzleModel, PuzzleProgress


def moves_model(points: Iterable[Point], size: int) -> list[AnalysisMoveModel]:
    """Points as `{"x", "y", "move"}`."""
    return [AnalysisMoveModel(x=point.x, y=point.y, move=format_point(point, size)) for point in points]


def review_model(reviewed: GameReviewed, size: int) -> GameReviewModel:
    """A game's review (`size`: its board's, for the moves' names)."""
    review = reviewed.review
    return GameReviewModel(
        game_id=reviewed.game_id,
        evaluations=[PlyEvaluationModel(ply=ply.ply, score=ply.score, win_in=ply.win_in) for ply in review.evaluations],
        marks=[
            MarkModel(
                ply=mark.ply,
                kind=mark.kind.value,
                player="black" if mark.player is Color.BLACK else "white",
                win=mark.win.value,
                line=moves_model(mark.line, size),
            )
            for mark in review.marks
        ],
        turning_point=review.turning_point,
        reviewed_at=format_timestamp(reviewed.reviewed_at),
        budget_nodes=reviewed.budget_nodes,
    )


def themes(puzzle: Puzzle) -> list[str]:
    """A puzzle's themes: how it wins, how long, and renju's forbidden points when they decide it."""
    found = [puzzle.theme.value, f"win_in_{puzzle.win_in}"]
    return found + ["forbidden"] if puzzle.forbidden else found


def puzzle_model(puzzle: Puzzle) -> PuzzleModel:
    """A puzzle as a player sees it (without its solution)."""
    return PuzzleModel(
        puzzle_id=puzzle.puzzle_id,
        game_id=puzzle.game_id,
        source=puzzle.source,
        ply=puzzle.ply,
        rule=puzzle.rule,
        size=puzzle.size,
        moves=moves_model(puzzle.moves, puzzle.size),
        to_move="black" if puzzle.ply % 2 == 0 else "white",
        themes=themes(puzzle),
        win_in=puzzle.win_in,
        rating=round(puzzle.rating.rating),
    )


def _change(ratings: tuple[Rating, Rating] | None) -> RatingChangeModel | None:
    if ratings is None:
        return None
    before, after = ratings
    return RatingChangeModel(before=round(before.rating), after=round(after.rating))


def progress_message(result: TryResult, request_id: str | int | None) -> PuzzleProgress:
    """The answer to a try: the defender's reply, or the end with the solution (and ratings)."""
    puzzle = result.puzzle
    reply = None if result.reply is None else moves_model([result.reply], puzzle.size)[0]
    finished = result.status != "continue"
    return PuzzleProgress(
        puzzle_id=puzzle.puzzle_id,
        status=result.status,
        reply=reply,
        solution=moves_model(puzzle.solution, puzzle.size) if finished else [],
        rated=result.rated,
        player_rating=_change(result.player_ratings),
        puzzle_rating=_change(result.puzzle_ratings),
        id=request_id,
    )
