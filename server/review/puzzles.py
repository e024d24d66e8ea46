"""Puzzles: mined from the games played here, solved in the trainer, rated as players are.

The miner reviews finished public games (`GameReviewer`, so that every mined
game has its review stored too) and, where a side first gets a forced win of
`MIN_PUZZLE_MOVES` moves or more, asks a worker whether that win's first move
is the only one (`engine.review.find_puzzle`: every other move is tried and
must fail), at the review's priority. Each game is mined once
(`PuzzlesMined` names it), found puzzle or not.

The trainer is stateless: a try sends the attacker's moves from the first,
and the answer is the defender's reply, or the end of the try: solved when
the win is played out (or a move makes five at once), failed at a move that
does not win. The first move must be the solution's (it is the only one that
wins); after it, a move off the solution that also wins by force (the threat
solvers prove it against every defence in a worker of the analysis pool,
`engine.review.win_starting_with`) is accepted, and the try goes on along
that win: the defender's replies then come from its line, found again the
same way (the solvers count nodes, not time) at each later try. A server
without bot workers accepts only the solution's moves. A player's first finished try at a
puzzle is rated, one Glicko-2 game between player and puzzle
(`engine.glicko2.rate_game`), in the try's transaction from both ratings as
stored then (`server.storage.review.rate_try`), so that tries on several
nodes at once lose nothing; later tries are stored unrated.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from engine.board import Board
from engine.errors import IllegalMoveError
from engine.glicko2 import Rating
from engine.notation import format_point
from engine.record import GameRecord
from engine.review import DEFAULT_BUDGET, MIN_PUZZLE_MOVES, PuzzleFound, ReviewBudget, puzzle_candidates
from engine.types import Point, Rule
from server.bots.pool import BotError, BotPool, Priority
from server.domain import (
    GameId,
    GameReviewed,
    Puzzle,
    PuzzlesMined,
    PuzzleTried,
    RatingsChanged,
    Refusal,
    StoreRecord,
    utc_now,
)
from server.review.reviewer import GameReviewer, position_request
from server.review.work import puzzle_in_worker, win_in_worker
from wire.review import TryStatus

logger = logging.getLogger(__name__)

PUZZLE_ID_HEX = 16
"""Hex digits of a puzzle's id (a hash of its position)."""

MINE_BATCH = 20
"""Games the miner takes from storage at a time."""

PUZZLE_CHECK_MS = 60_000
"""The pool's deadline for checking one position as a puzzle: every other first move is solved
against up to four defences, each within the node budget, so it takes far longer than a review's
position (`bench.review` measures it); past it the worker is taken for stuck."""

WIN_CHECK_MS = 30_000
"""The pool's deadline for proving that a trainer's move off the solution wins (a node budget ends it
far sooner; this is for a stuck worker)."""

PUZZLE_START_RD = 250.0
"""A new puzzle's rating deviation: below a newcomer's 350, as the length of its win already says
something of how hard it is (see `starting_rating`)."""

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""Day 0 of the puzzle of the day."""


def puzzle_id(rule: Rule, size: int, moves: Sequence[Point]) -> str:
    """A puzzle's id, made from its position: the same position is always the same puzzle."""
    text = f"{rule.value}:{size}:" + " ".join(format_point(point, size) for point in moves)
    return hashlib.sha256(text.encode()).hexdigest()[:PUZZLE_ID_HEX]


def starting_rating(win_in: int) -> Rating:
    """A new puzzle's rating: longer wins are harder to find (1200 for a win in 2, +150 per move)."""
    return Rating(1200.0 + 150.0 * (win_in - MIN_PUZZLE_MOVES), PUZZLE_START_RD)


def new_puzzle(
    found: PuzzleFound, rule: Rule, size: int, moves: tuple[Point, ...], game_id: GameId | None, source: str
) -> Puzzle:
    """The puzzle a position makes, before anyone has tried it."""
    return Puzzle(
        puzzle_id=puzzle_id(rule, size, moves),
        game_id=game_id,
        source=source,
        ply=len(moves),
        rule=rule,
        size=size,
        moves=moves,
        solution=found.win.line,
        theme=found.win.kind,
        forbidden=found.forbidden,
        rating=starting_rating(found.win.win_in),
        attempts=0,
    )


class PuzzleRecords(Protocol):
    """What the puzzles read and write (the server's `Storage`)."""

    async def puzzle(self, puzzle_id: str) -> Puzzle | None: ...

    async def puzzle_near(self, player: str | None, rating: float) -> Puzzle | None: ...

    async def puzzle_at(self, index: int) -> Puzzle | None: ...

    async def puzzle_rating(self, player: str) -> tuple[Rating, int]: ...

    async def store_try(self, tried: PuzzleTried) -> PuzzleTried: ...

    async def games_to_mine(self, limit: int) -> list[GameId]: ...

    async def game_record(self, game_id: str, viewer: str | None) -> GameRecord | None: ...

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]: ...


class PuzzleMiner:
    """Finds puzzles in finished games, in the background, at the review's priority."""

    def __init__(self, storage: PuzzleRecords, reviewer: GameReviewer, pool: BotPool, budget: ReviewBudget) -> None:
        self._storage = storage
        self._reviewer = reviewer
        self._pool = pool
        self._budget = budget

    async def mine_waiting_games(self) -> int:
        """Mine every finished game not mined yet, a batch at a time; the number of puzzles found.
        Stops early when a whole batch is put off (the workers busy): the next call goes on."""
        found = 0
        while games := await self._storage.games_to_mine(MINE_BATCH):
            mined = [await self.mine(game_id) for game_id in games]
            found += sum(len(puzzles) for puzzles in mined if puzzles is not None)
            if all(puzzles is None for puzzles in mined):
                break
        return found

    async def mine(self, game_id: GameId) -> tuple[Puzzle, ...] | None:
        """Review one game, look for puzzles where a side has a forced win, and store them with the
        game marked as mined (a game that cannot be reviewed is marked all the same); None, and
        nothing stored, when the review is put off (`busy`). Raises StorageUnavailable."""
        try:
            reviewed, record = await self._reviewer.review(game_id, None)
        except Refusal as refusal:
            if refusal.code == "busy":
                return None
            logger.info("game %s is not mined: %s", game_id, refusal.message)
            puzzles: list[Puzzle] = []
        else:
            puzzles = await self._puzzles_of(reviewed, record)
        await self._storage.apply([PuzzlesMined(tuple(puzzles), (game_id,), utc_now())])
        return tuple(puzzles)

    async def _puzzles_of(self, reviewed: GameReviewed, record: GameRecord) -> list[Puzzle]:
        moves = tuple(move.point for move in record.moves)
        source = f"{record.black.name} - {record.white.name}, {record.rule.value}"
        work = functools.partial(puzzle_in_worker, self._budget)
        puzzles = []
        for ply in puzzle_candidates(reviewed.review):
            position = moves[:ply]
            request = position_request(record.rule, record.size, position, PUZZLE_CHECK_MS)
            try:
                found = await self._pool.run(work, request)
            except BotError as error:
                logger.warning("puzzle check of game %s at ply %d failed: %s", reviewed.game_id, ply, error)
                continue
            if found is not None:
                puzzles.append(new_puzzle(found, record.rule, record.size, position, reviewed.game_id, source))
        return puzzles


@dataclass(frozen=True, slots=True)
class TryResult:
    """Where a try stands after the attacker's moves."""

    puzzle: Puzzle
    status: TryStatus
    reply: Point | None = None
    """`continue`: the defender's answer to the last move."""
    player_ratings: tuple[Rating, Rating] | None = None
    """A rated try: the player's puzzle rating before and after."""
    puzzle_ratings: tuple[Rating, Rating] | None = None
    """A rated try: the puzzle's rating before and after."""

    @property
    def rated(self) -> bool:
        """Whether the try was rated (the player's first finished try at the puzzle)."""
        return self.player_ratings is not None


WinFinder = Callable[[Puzzle, tuple[Point, ...], Point], Awaitable[tuple[Point, ...] | None]]
"""The attacker's forced win in a puzzle's position after the moves played since its start, starting
with the given move: its line (the move, the defender's reply, ...), or None."""


class PuzzleTrainer:
    """Serves puzzles and judges tries."""

    def __init__(
        self, storage: PuzzleRecords, pool: BotPool | None = None, budget: ReviewBudget = DEFAULT_BUDGET
    ) -> None:
        self._storage = storage
        self._pool = pool
        """The analysis pool, where a move off the solution is checked; None: only the solution's count."""
        self._budget = budget

    async def rating(self, player: str) -> Rating:
        """The player's puzzle rating."""
        rating, _ = await self._storage.puzzle_rating(player)
        return rating

    async def next(self, player: str | None, daily: bool, today: datetime | None = None) -> Puzzle:
        """The puzzle of the day, or the one rated nearest to the player's rating that they have not
        tried. Raises Refusal `not_found` when there is none."""
        if daily:
            day = ((today or utc_now()) - EPOCH).days
            found = await self._storage.puzzle_at(day)
        else:
            rating = Rating() if player is None else await self.rating(player)
            found = await self._storage.puzzle_near(player, rating.rating)
        if found is None:
            raise Refusal("not_found", "there is no puzzle left to try here yet")
        return found

    async def get(self, puzzle_id_: str) -> Puzzle:
        """The puzzle with this id; raises Refusal `not_found`."""
        found = await self._storage.puzzle(puzzle_id_)
        if found is None:
            raise Refusal("not_found", f"there is no puzzle {puzzle_id_!r}")
        return found

    async def attempt(self, player: str, puzzle_id_: str, moves: Sequence[Point]) -> TryResult:
        """Judge the attacker's `moves` from the puzzle's first; a finished try is stored (and rated,
        if it is the player's first). Raises Refusal `not_found`, or `bad_request` for moves that
        cannot be played or that go on past the end of the try."""
        puzzle = await self.get(puzzle_id_)
        status, reply = await judge_try(puzzle, moves, self._win_starting_with)
        if status == "continue":
            return TryResult(puzzle, status, reply)
        stored = await self._storage.store_try(PuzzleTried(player, puzzle.puzzle_id, status == "solved", utc_now()))
        rated = stored.rated
        if rated is None:
            return TryResult(puzzle, status)
        players, puzzles = (rated.player_before, rated.player_after), (rated.puzzle_before, rated.puzzle_after)
        return TryResult(puzzle, status, player_ratings=players, puzzle_ratings=puzzles)

    async def _win_starting_with(
        self, puzzle: Puzzle, played: tuple[Point, ...], move: Point
    ) -> tuple[Point, ...] | None:
        """The forced win starting with `move` after `played`, proved in the analysis pool; None
        without a pool. Raises Refusal `busy` when the pool cannot take it or its worker fails (the
        move is neither accepted nor counted against the player)."""
        if self._pool is None:
            return None
        request = position_request(puzzle.rule, puzzle.size, puzzle.moves + played, WIN_CHECK_MS, Priority.ANALYSIS)
        try:
            found = await self._pool.run(functools.partial(win_in_worker, self._budget, move), request)
        except BotError as error:
            raise Refusal("busy", f"the move cannot be checked now ({error}); try again") from None
        return None if found is None else found.line


async def judge_try(
    puzzle: Puzzle, moves: Sequence[Point], win_starting_with: WinFinder
) -> tuple[TryStatus, Point | None]:
    """Judge the attacker's moves: `continue` with the defender's reply, `solved` or `failed`. The
    first move must be the solution's; a later one off the win being followed must win by force
    (`win_starting_with`), and its win is followed from then on. Raises Refusal `bad_request` for a
    move that cannot be played, or moves past the end of the try (after a wrong move, or after the
    last)."""
    board = Board.from_moves(puzzle.moves, puzzle.size, puzzle.rule)
    played: list[Point] = []
    line = puzzle.solution  # the win being followed, from the attacker's next move
    for index, move in enumerate(moves):
        last = index == len(moves) - 1
        _play(board, move, index)
        if board.result is not None and board.result.winner is not None:
            return _ended("solved", last)
        if not line or move != line[0]:
            other = None if index == 0 else await win_starting_with(puzzle, tuple(played), move)
            if other is None:
                return _ended("failed", last)
            line = other
        if len(line) == 1:
            return _ended("solved", last)
        reply = line[1]
        if last:
            return "continue", reply
        _play(board, reply, index)
        played += (move, reply)
        line = line[2:]
    raise AssertionError("a try has at least one move")


def _play(board: Board, point: Point, index: int) -> None:
    try:
        board.play(point)
    except (IllegalMoveError, ValueError) as error:
        raise Refusal("bad_request", f"move {index + 1} cannot be played: {error}") from None


def _ended(status: TryStatus, last: bool) -> tuple[TryStatus, None]:
    if not last:
        raise Refusal("bad_request", "the try ended before the last move sent")
    return status, None
