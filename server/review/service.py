"""The review and puzzles of one server: its requests, its background work, its settings.

`ReviewService` is what the hub and the HTTP API call: `review_game` runs in
a task of its own (a review takes seconds; the connection goes on meanwhile)
and is answered when done, the puzzle requests are answered at once. In the
background it loads the starting set of puzzles, mines finished games for
more every `mine_every_s` (`--no-puzzle-mining` turns it off), and, with
`--review-rated`, reviews each rated game as soon as its result is stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine.review import ReviewBudget
from engine.types import Point
from server.bots.pool import BotPool
from server.chores import pause
from server.domain import Puzzle, RatingsChanged, Refusal, utc_now
from server.review import views
from server.review.puzzles import PuzzleMiner, PuzzleRecords, PuzzleTrainer
from server.review.reviewer import GameReviewer, ReviewRecords
from server.review.starting_set import STARTING_SET, load_starting_set
from server.storage.writer import StorageUnavailable
from wire.messages import ServerMessage, error_message
from wire.review import GameReviewMessage, PuzzleMessage
from wire.review_requests import GetPuzzle, NextPuzzle, ReviewGame, ReviewRequest, TryPuzzle

logger = logging.getLogger(__name__)

Reply = Callable[[ServerMessage], None]
"""Sends an answer to whoever asked (the connection's send)."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How hard reviews look, and what the server does on its own (`server.main`'s flags)."""

    budget_nodes: int = 20_000
    """Solver nodes per position of a review or a puzzle check (`--review-nodes`)."""
    review_rated: bool = False
    """Review every rated game once its result is stored (`--review-rated`)."""
    mine_puzzles: bool = False
    """Look for puzzles in finished games in the background: `gomoku-server` does unless
    `--no-puzzle-mining`; a server a test or a benchmark builds does only if it asks."""
    mine_every_s: float = 60.0
    """How often the miner looks for games finished since."""
    starting_set: Path | None = STARTING_SET
    """The puzzles that ship with the project, stored at start (None: none)."""


class ReviewStorage(ReviewRecords, PuzzleRecords, Protocol):
    """What reviews and puzzles read and write (the server's `Storage`)."""

    def watch_ratings(self, watcher: Callable[[RatingsChanged], None]) -> None: ...


class ReviewService:
    """Reviews and puzzles: requests from the wire and HTTP, and work in the background."""

    def __init__(self, storage: ReviewStorage, pool: BotPool | None, settings: ReviewSettings) -> None:
        self._storage = storage
        self._settings = settings
        budget = ReviewBudget(nodes=settings.budget_nodes)
        self.reviewer = GameReviewer(storage, pool, budget)
        self.trainer = PuzzleTrainer(storage, pool, budget)
        self.miner = None if pool is None else PuzzleMiner(storage, self.reviewer, pool, budget)
        """None on a server without bots: nothing is mined."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._rated_reviews: set[asyncio.Task[None]] = set()
        """The reviews of rated games started on the server's own (`--review-rated`), still running."""

    async def start(self) -> None:
        """Store the starting set, then start the background work the settings ask for."""
        if self._settings.starting_set is not None:
            await self._storage.apply([load_starting_set(self._settings.starting_set, utc_now())])
        if self._settings.mine_puzzles and self.miner is not None:
            self._spawn(self._mine_now_and_then(self.miner))
        if self._settings.review_rated:
            self._storage.watch_ratings(self._game_rated)

    async def close(self) -> None:
        """Stop the background work and the reviews running."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.reviewer.close()

    async def rated_games_reviewed(self) -> None:
        """Wait until the reviews of rated games started so far on the server's own (`--review-rated`:
        each starts once the game's result is committed) are done, stored or given up."""
        await asyncio.gather(*self._rated_reviews, return_exceptions=True)

    async def handle(self, player: str, request: ReviewRequest, reply: Reply) -> None:
        """Serve a request of the signed-in `player`; raise Refusal to answer it with an error."""
        match request:
            case ReviewGame():
                self._spawn(self._answer_review(player, request, reply))
            case NextPuzzle():
                puzzle = await self.trainer.next(player, request.daily)
                reply(await self._puzzle_message(player, puzzle, request.daily, request.id))
            case GetPuzzle():
                puzzle = await self.trainer.get(request.puzzle_id)
                reply(await self._puzzle_message(player, puzzle, False, request.id))
            case TryPuzzle():
                moves = [Point(move.x, move.y) for move in request.moves]
                result = await self.trainer.attempt(player, request.puzzle_id, moves)
                reply(views.progress_message(result, request.id))

    async def review_json(self, game_id: str, viewer: str | None) -> str:
        """A game's review as the HTTP API serves it (raises Refusal as `GameReviewer.review` does)."""
        reviewed, record = await self.reviewer.review(game_id, viewer)
        return views.review_model(reviewed, record.size).model_dump_json()

    async def _answer_review(self, player: str, request: ReviewGame, reply: Reply) -> None:
        try:
            reviewed, record = await self.reviewer.review(request.game_id, player)
        except Refusal as refusal:
            reply(error_message(refusal, request.id))
            return
        except StorageUnavailable:
            unavailable = Refusal("unavailable", "the database cannot take the review now; try again")
            reply(error_message(unavailable, request.id))
            return
        reply(GameReviewMessage(review=views.review_model(reviewed, record.size), id=request.id))

    async def _puzzle_message(
        self, player: str, puzzle: Puzzle, daily: bool, request_id: str | int | None
    ) -> PuzzleMessage:
        rating = await self.trainer.rating(player)
        return PuzzleMessage(puzzle=views.puzzle_model(puzzle), daily=daily, rating=round(rating.rating), id=request_id)

    def _game_rated(self, change: RatingsChanged) -> None:
        task = self._spawn(self.reviewer.review_quietly(change.game_id))
        self._rated_reviews.add(task)
        task.add_done_callback(self._rated_reviews.discard)

    async def _mine_now_and_then(self, miner: PuzzleMiner) -> None:
        while True:
            try:
                found = await miner.mine_waiting_games()
            except StorageUnavailable as error:
                logger.warning("the puzzle miner waits for the database: %s", error)
            else:
                if found:
                    logger.info("the puzzle miner found %d puzzles", found)
            await pause(self._settings.mine_every_s)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
