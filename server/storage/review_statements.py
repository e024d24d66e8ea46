"""The SQL of the review's and the puzzles' records (`server.storage.statements` calls it).

A review is stored once per game: a second review of the same game (two
nodes, or a request racing the background reviewer) inserts nothing, and
the first one stays what everybody reads. A puzzle's id is made from its
position, so the same position mined twice is one puzzle.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.glicko2 import Rating
from engine.record import format_timestamp
from engine.types import Point
from server.domain import GameReviewed, PuzzlesMined, PuzzleTried

Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement and its parameters."""

ReviewRecord = GameReviewed | PuzzlesMined | PuzzleTried
"""The records this module writes."""

_INSERT_REVIEW = (
    "INSERT INTO game_reviews (game_id, reviewed_at, budget_nodes, turning_point) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (game_id) DO NOTHING"
)
_THIS_REVIEW = "WHERE EXISTS (SELECT 1 FROM game_reviews WHERE game_id = ? AND reviewed_at = ?)"
"""A review's plies and marks are stored only under its own head: when another review of the game
was stored first (the head's insert did nothing), none of this one's rows mix with it."""
_INSERT_PLY = f"INSERT INTO review_plies (game_id, ply, score, win_in) SELECT ?, ?, ?, ? {_THIS_REVIEW}"
_INSERT_MARK = (
    f"INSERT INTO review_marks (game_id, ply, kind, player, win, line) SELECT ?, ?, ?, ?, ?, ? {_THIS_REVIEW}"
)
_INSERT_PUZZLE = (
    "INSERT INTO puzzles (puzzle_id, game_id, source, ply, rule, size, moves, solution, theme, win_in, forbidden, "
    "rating, rd, volatility, attempts, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (puzzle_id) DO NOTHING"
)
_INSERT_MINED = "INSERT INTO mined_games (game_id, mined_at) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING"
_PLAYER_ID = "(SELECT player_id FROM players WHERE name = ? COLLATE NOCASE)"
"""The id of the player called the parameter now: puzzle tries and ratings are keyed by it."""
_INSERT_ATTEMPT = (
    "INSERT INTO player_puzzle_attempts (player_id, puzzle_id, solved, rated, at) "
    "SELECT player_id, ?, ?, ?, ? FROM players WHERE name = ? COLLATE NOCASE"
)
_RATE_PLAYER = (
    "UPDATE player_puzzle_ratings SET rating = ?, rd = ?, volatility = ?, attempts = attempts + 1 "
    f"WHERE player_id = {_PLAYER_ID}"
)
"""The player's row is there: the writer made it before rating the try (`storage.review.rate_try`)."""
_RATE_PUZZLE = "UPDATE puzzles SET rating = ?, rd = ?, volatility = ?, attempts = attempts + 1 WHERE puzzle_id = ?"


def points_text(points: Iterable[Point]) -> str:
    """Points as stored: JSON [[x, y], ...], as `results.line` is."""
    return json.dumps([[point.x, point.y] for point in points], separators=(",", ":"))


def review_rows(record: ReviewRecord) -> list[Statement]:
    """The row statements of one of this module's records."""
    if isinstance(record, GameReviewed):
        return _review_rows(record)
    if isinstance(record, PuzzlesMined):
        return _mined_rows(record)
    return _tried_rows(record)


def _review_rows(record: GameReviewed) -> list[Statement]:
    review, game_id = record.review, record.game_id
    head = (game_id, format_timestamp(record.reviewed_at))
    rows: list[Statement] = [(_INSERT_REVIEW, (*head, record.budget_nodes, review.turning_point))]
    rows += [(_INSERT_PLY, (game_id, ply.ply, ply.score, ply.win_in, *head)) for ply in review.evaluations]
    rows += [
        (
            _INSERT_MARK,
            (game_id, mark.ply, mark.kind.value, str(mark.player), mark.win.value, points_text(mark.line), *head),
        )
        for mark in review.marks
    ]
    return rows


def _mined_rows(record: PuzzlesMined) -> list[Statement]:
    at = format_timestamp(record.at)
    rows: list[Statement] = []
    for puzzle in record.puzzles:
        values = (
            puzzle.puzzle_id,
            puzzle.game_id,
            puzzle.source,
            puzzle.ply,
            puzzle.rule.value,
            puzzle.size,
            points_text(puzzle.moves),
            points_text(puzzle.solution),
            puzzle.theme.value,
            puzzle.win_in,
            int(puzzle.forbidden),
            *_rating_values(puzzle.rating),
            puzzle.attempts,
            at,
        )
        rows.append((_INSERT_PUZZLE, values))
    rows += [(_INSERT_MINED, (game_id, at)) for game_id in record.games]
    return rows


def _tried_rows(record: PuzzleTried) -> list[Statement]:
    rated = record.rated
    at = format_timestamp(record.at)
    attempt = (record.puzzle_id, int(record.solved), int(rated is not None), at, record.player)
    rows: list[Statement] = [(_INSERT_ATTEMPT, attempt)]
    if rated is not None:
        rows.append((_RATE_PLAYER, (*_rating_values(rated.player_after), record.player)))
        rows.append((_RATE_PUZZLE, (*_rating_values(rated.puzzle_after), record.puzzle_id)))
    return rows


def _rating_values(rating: Rating) -> tuple[float, float, float]:
    return rating.rating, rating.rd, rating.volatility
