"""The events of game review and puzzles (docs/protocol.md, "Review" and "Puzzles"), and their parts.

`game_review` answers `review_game`; `puzzle` answers `next_puzzle` and
`get_puzzle`; `puzzle_progress` answers `try_puzzle`. The HTTP API serves
the same parts as JSON (`GET /api/games/{id}/review`: a `GameReviewModel`;
`/api/puzzles/next`, `/api/puzzles/{id}`: a `PuzzleModel`). The requests
are `wire.review_requests`.
"""

from __future__ import annotations

from typing import Literal

from engine.types import Rule
from wire.ids import GameId
from wire.messages import AnalysisMoveModel, ColorName, RatingChangeModel, ServerMessage, WireModel
from wire.review_requests import PuzzleId

MarkKindName = Literal["missed_win", "blunder"]
WinKindName = Literal["vcf", "vct"]
TryStatus = Literal["continue", "solved", "failed"]
"""Where a try at a puzzle stands: going on (the defender replied), or over."""


class PlyEvaluationModel(WireModel):
    """The evaluation before the move of one ply (0: the empty board), from black's side."""

    ply: int
    score: int
    """Within -1000..1000; the bound as well while a side has a forced win."""
    win_in: int | None = None
    """A forced win: black's in that many of its moves when positive, white's when negative."""


class MarkModel(WireModel):
    """A marked move and its line."""

    ply: int
    """The move's index (0: black's first)."""
    kind: MarkKindName
    player: ColorName
    """Who played the marked move."""
    win: WinKindName
    """How the line wins: by fours (vcf) or threes and fours (vct)."""
    line: list[AnalysisMoveModel]
    """A missed win: the winning line from this ply. A blunder: the opponent's win after the move."""


class GameReviewModel(WireModel):
    """A game's review."""

    game_id: GameId
    evaluations: list[PlyEvaluationModel]
    marks: list[MarkModel]
    turning_point: int | None
    """The ply of the last marked move; null without marks."""
    reviewed_at: str
    budget_nodes: int
    """The solver nodes each position was given."""


class GameReviewMessage(ServerMessage):
    type: Literal["game_review"] = "game_review"
    review: GameReviewModel


class PuzzleModel(WireModel):
    """A puzzle: the position (the game's moves), who is to move and wins, its themes and rating."""

    puzzle_id: PuzzleId
    game_id: GameId | None
    """The stored game it comes from; null for the starting set's."""
    source: str
    ply: int
    rule: Rule
    size: int
    moves: list[AnalysisMoveModel]
    to_move: ColorName
    """The attacker: the side to move, who has the forced win."""
    themes: list[str]
    """`vcf` or `vct`, `win_in_N`, and `forbidden` when renju's forbidden points decide it."""
    win_in: int
    rating: int


class PuzzleMessage(ServerMessage):
    type: Literal["puzzle"] = "puzzle"
    puzzle: PuzzleModel
    daily: bool = False
    rating: int | None = None
    """The asking player's puzzle rating, for a signed-in player."""


class PuzzleProgress(ServerMessage):
    """Where a try stands after the attacker's moves sent."""

    type: Literal["puzzle_progress"] = "puzzle_progress"
    puzzle_id: PuzzleId
    status: TryStatus
    reply: AnalysisMoveModel | None = None
    """`continue`: the defender's answer to the last move."""
    solution: list[AnalysisMoveModel] = []
    """`solved` or `failed`: the whole line, attacker first."""
    rated: bool = False
    """Whether this try changed ratings (a player's first finished try at the puzzle)."""
    player_rating: RatingChangeModel | None = None
    puzzle_rating: RatingChangeModel | None = None


ReviewEvent = GameReviewMessage | PuzzleMessage | PuzzleProgress
"""The events of this module, as `ServerEvent` takes them in."""
