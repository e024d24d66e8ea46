"""The requests of game review and puzzles (docs/protocol.md, "Review" and "Puzzles").

They stand on the request base of `wire.messages`, which imports them into
`ClientRequest` (the events are `wire.review`, imported into `ServerEvent`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from wire.ids import GameId
from wire.messages import ClientMessage, PointModel

PuzzleId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{1,64}$")]
"""A puzzle's id: hex digits, made from its position."""

MAX_PUZZLE_MOVES = 30
"""The most attacker moves a try may send (a puzzle's line is shorter)."""


class ReviewGame(ClientMessage):
    """The review of a finished game: computed once (in the background, the answer waits for it),
    then shared by everyone who asks."""

    type: Literal["review_game"] = "review_game"
    game_id: GameId


class NextPuzzle(ClientMessage):
    """A puzzle to solve: the puzzle of the day, or one near the player's puzzle rating that they have
    not tried."""

    type: Literal["next_puzzle"] = "next_puzzle"
    daily: bool = False


class GetPuzzle(ClientMessage):
    """One puzzle by its id."""

    type: Literal["get_puzzle"] = "get_puzzle"
    puzzle_id: PuzzleId


class TryPuzzle(ClientMessage):
    """The attacker's moves so far in a try at a puzzle, from its first: the server answers with the
    defender's reply, or ends the try (solved, or the first wrong move)."""

    type: Literal["try_puzzle"] = "try_puzzle"
    puzzle_id: PuzzleId
    moves: list[PointModel] = Field(min_length=1, max_length=MAX_PUZZLE_MOVES)


ReviewRequest = ReviewGame | NextPuzzle | GetPuzzle | TryPuzzle
"""The requests of this module, as `ClientRequest` takes them in."""
