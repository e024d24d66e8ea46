"""Reviews of finished games, computed once, in the bot workers, after everything else.

A review looks at every position of the game (`engine.review.judge_position`
in a worker, `server.review.work`), one position at a time, each a request
of `Priority.REVIEW` in the analysis pool: a bot's move in a live game never
waits for it (the bots have a pool of their own, whose workers run at a
higher CPU priority), and a person's hint waits at most for the one position
being looked at (every waiting hint goes before the review's next position;
with two workers or more, reviews leave one free).

A game is reviewed once: while its review runs, everyone else who asks for
it waits for the same one; once stored (`GameReviewed`, inserted only if the
game has none yet), it is read back for everyone.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Protocol

from engine.record import GameRecord
from engine.review import DEFAULT_BUDGET, PositionVerdict, ReviewBudget, review_from_verdicts
from engine.types import Point, Rule
from server.bots.pool import BotError, BotPool, BotRequest, Priority
from server.domain import GameId, GameReviewed, RatingsChanged, Refusal, StoreRecord, utc_now
from server.review.work import judge_in_worker
from server.storage.writer import StorageUnavailable

logger = logging.getLogger(__name__)

REVIEW_LEVEL = "review"
"""What a review's requests name as their level (the pool names it in its errors); no bot plays."""

POSITION_MS = 10_000
"""The pool's deadline for one position (a node budget ends it far sooner; this is for a stuck worker)."""

POSITION_ATTEMPTS = 2
"""A position whose worker died is tried once more before the review fails `busy`."""

MAX_REVIEWS = 64
"""Reviews running or waiting at once; past it a request is answered `busy`."""


def position_request(
    rule: Rule, size: int, moves: tuple[Point, ...], time_ms: int = POSITION_MS, priority: Priority = Priority.REVIEW
) -> BotRequest:
    """The pool's request for work on one position of a review (or the miner's, or the trainer's:
    someone waits for that one, at ANALYSIS priority), killed past `time_ms` (and the pool's grace)."""
    return BotRequest(REVIEW_LEVEL, rule, size, moves, time_ms, priority=priority)


class ReviewRecords(Protocol):
    """What the reviewer reads and writes (the server's `Storage`)."""

    async def review(self, game_id: str) -> GameReviewed | None: ...

    async def game_record(self, game_id: str, viewer: str | None) -> GameRecord | None: ...

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]: ...


class GameReviewer:
    """Reviews finished games in the analysis pool and stores each review once."""

    def __init__(self, storage: ReviewRecords, pool: BotPool | None, budget: ReviewBudget = DEFAULT_BUDGET) -> None:
        self._storage = storage
        self._pool = pool
        """The analysis pool; None on a server that runs no bots (reviews are refused)."""
        self.budget = budget
        self._running: dict[str, asyncio.Task[GameReviewed]] = {}
        """The reviews being computed, by game: a second request for one waits for the same task."""
        self.positions_judged = 0
        """Positions looked at since the start (what a review costs, for tests and benchmarks)."""

    async def review(self, game_id: str, viewer: str | None) -> tuple[GameReviewed, GameRecord]:
        """The review of a finished game `viewer` may read (None: anyone, public games only),
        computed now if it has none yet, with the game. Raises Refusal: `not_found` for a game
        `viewer` may not read, `not_allowed` for an unfinished one or on a server without bots,
        `busy`."""
        stored = await self._storage.review(game_id)
        record = await self._storage.game_record(game_id, viewer)
        if record is None:
            raise Refusal("not_found", f"there is no game {game_id!r}")
        if stored is not None:
            return stored, record
        if record.result is None:
            raise Refusal("not_allowed", "the game is not over: it can be reviewed once it is")
        return await self._shared(GameId(game_id), record), record

    async def review_quietly(self, game_id: GameId) -> None:
        """Review a game nobody asked about (`--review-rated`), logging why it could not be."""
        try:
            await self.review(game_id, None)
        except Refusal as refusal:
            logger.info("game %s was not reviewed: %s", game_id, refusal.message)
        except StorageUnavailable as error:
            logger.warning("game %s was not reviewed: %s", game_id, error)

    async def close(self) -> None:
        """Stop the reviews still running (nothing half-done is stored)."""
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def _shared(self, game_id: GameId, record: GameRecord) -> GameReviewed:
        task = self._running.get(game_id)
        if task is None:
            if self._pool is None:
                raise Refusal("not_allowed", "this server runs no bots: it reviews no games")
            if len(self._running) >= MAX_REVIEWS:
                raise Refusal("busy", "too many reviews are running; try again soon")
            task = asyncio.get_running_loop().create_task(self._compute(self._pool, game_id, record))
            self._running[game_id] = task
            task.add_done_callback(lambda _: self._running.pop(game_id, None))
        # A caller that goes away does not cancel the review the others wait for.
        return await asyncio.shield(task)

    async def _compute(self, pool: BotPool, game_id: GameId, record: GameRecord) -> GameReviewed:
        """Judge every position in turn, store the review, and read back the one stored (another
        node's, had it stored one first)."""
        moves = tuple(move.point for move in record.moves)
        verdicts = [await self._judge(pool, record, moves[:ply]) for ply in range(len(moves) + 1)]
        reviewed = GameReviewed(game_id, review_from_verdicts(moves, verdicts), self.budget.nodes, utc_now())
        await self._storage.apply([reviewed])
        return await self._storage.review(game_id) or reviewed

    async def _judge(self, pool: BotPool, record: GameRecord, moves: tuple[Point, ...]) -> PositionVerdict:
        request = position_request(record.rule, record.size, moves)
        work = functools.partial(judge_in_worker, self.budget)
        for attempt in range(1, POSITION_ATTEMPTS + 1):
            try:
                verdict = await pool.run(work, request)
            except BotError as error:
                logger.warning("review position, attempt %d of %d failed: %s", attempt, POSITION_ATTEMPTS, error)
                continue
            self.positions_judged += 1
            return verdict
        raise Refusal("busy", "the review's workers failed; try again soon")
