"""Bots thinking in worker processes, so that no search ever runs on the event loop.

The server asks `BotPool.choose` for a move; the request (level, rule, size,
moves) travels to a worker process, which rebuilds the board, asks the
level's bot and sends back its `Decision`. Three promises keep a busy or
broken bot from hurting the server:

* capacity: at most `workers` searches run and `queue_limit` wait; a request
  beyond that fails at once with `BotBusyError` (the wire's `busy`);
* people first: a bot's move against a person goes ahead of every waiting
  search of a game between two bots, and with two workers or more, bot
  games never take the last free one;
* analyses apart: the server runs analyses in a pool of their own (their
  requests say `Priority.ANALYSIS`, see `server.bots.players.BotPlayers`), so that no
  analysis, queued or running, ever holds up a bot's move in a live game;
* reviews last: a game review's positions (`Priority.REVIEW`, `server.review`) run in the
  analysis pool behind every waiting analysis, and with two workers or more never take the
  last free one;
* no charge for waiting: a caller that passes a `WaitWatcher` is told when
  its search has to wait for a worker and when it gets one (a bot's clock
  is held meanwhile);
* a deadline: the caller waits at most the search's time plus a grace
  margin; a bot that overruns is killed and the request fails;
* recovery: a worker that dies (killed, out of memory) breaks the process
  pool; the pool is replaced, the request fails with `BotError`, and the
  next request runs on the fresh pool.

Outside engines (`server.bots.outside_engines`) run in processes of their own,
but their searches take the same slots (`run_outside`): one capacity for
every search, and the same order, people first.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Protocol, TypeVar

from engine.board import Board
from engine.bots import Decision
from engine.limits import SearchLimits
from engine.opening_bot import decide_opening
from engine.openings import OpeningState, Player, Step, apply
from engine.registry import make_bot
from engine.types import Point, Rule
from server.metrics import Metrics

_T = TypeVar("_T")

DEFAULT_TIME_MS = 5_000
"""The thinking time of a request that names none: every search has a deadline."""

GRACE_MS = 3_000
"""How long past its thinking time a bot may take before it is declared stuck
(covers a loaded machine)."""

STARTUP_GRACE_MS = 30_000
"""More grace while the workers of a fresh executor may still be starting: a worker process
imports the engine before its first search, which on a busy machine takes seconds."""

QUEUE_PER_WORKER = 4
"""Waiting requests allowed per worker when no `queue_limit` is given."""

CLOSE_TIMEOUT_S = 5.0
"""How long `close` waits for the killed workers to be reaped."""


class Priority(enum.IntEnum):
    """Who is waiting for a search; lower goes first."""

    PERSON = 0
    """A person waits: a bot's move against a human."""
    BOT_GAME = 1
    """Only spectators wait: a move in a game between two bots."""
    ANALYSIS = 2
    """Someone asked for an analysis: it runs in the analysis pool, never in the games' workers."""
    REVIEW = 3
    """A position of a game review: in the analysis pool, after every analysis."""

    @property
    def admitted(self) -> bool:
        """Whether searches of this priority count against the pool's capacity (and are refused
        `busy` past it): those someone waits for; bot games' are limited by their rooms' number,
        reviews' by the reviewer, which sends one position at a time."""
        return not self.background

    @property
    def background(self) -> bool:
        """Whether nobody waits for each search itself (bot games, reviews): such searches never take
        the last free worker of a pool of two or more."""
        return self in (Priority.BOT_GAME, Priority.REVIEW)


class WaitWatcher(Protocol):
    """Who wants to know when a search waits for a worker (a bot, whose clock is then held)."""

    async def waiting(self) -> None:
        """The search found every worker it may take busy: it waits in line from now."""

    async def started(self) -> None:
        """The search has a worker now (at once, or after waiting): its thinking time starts."""


class BotError(Exception):
    """A bot could not produce a move: it failed, overran its deadline, or its worker died."""


class BotBusyError(BotError):
    """Every worker is busy and the waiting line is full; try again later."""


class BotGaveUp(BotError):
    """The bot cannot go on in this game (it was already given a second chance); its message is
    the reason, for the game's record."""


@dataclass(frozen=True, slots=True)
class BotRequest:
    """Everything a worker needs to choose a move; small and picklable."""

    level: str
    """A level name from `engine.registry`."""
    rule: Rule
    """The rule of the game."""
    size: int
    """Board width and height."""
    moves: tuple[Point, ...]
    """The moves so far, black's first."""
    time_ms: int | None = None
    """Thinking time; None means `DEFAULT_TIME_MS`."""
    seed: int | None = None
    """Seed for bots that randomise, so that a game can be replayed."""
    priority: Priority = Priority.PERSON
    """Who waits for the answer (see Priority)."""
    opening: OpeningState | None = None
    """For an opening decision: the opening's state (the bot decides one step of it, see
    `BotPool.decide_opening`)."""
    game_id: str | None = None
    """The game the move is for (an outside engine keeps one game in each of its processes)."""
    time_left_ms: int | None = None
    """In a timed game, the bot's time left on its clock."""
    match_ms: int | None = None
    """In a timed game, each side's time at the start (an outside engine is told both)."""
    most_time_ms: int | None = None
    """In a timed game, the most the search may take while its best move keeps changing
    (`SearchLimits.most_time_ms`); None: `time_ms` is also the most."""
    depth: int | None = None
    """The search depth the bot's seat set (`engine.registry.make_bot`); None: the level's own."""
    width: int | None = None
    """The candidates per ply the bot's seat set; None: the level's own."""

    @property
    def thinking_ms(self) -> int:
        """The thinking time this request actually gets."""
        return DEFAULT_TIME_MS if self.time_ms is None else self.time_ms

    @property
    def longest_ms(self) -> int:
        """The longest this request's search may run: its thinking time, or more while unsettled."""
        return max(self.thinking_ms, self.most_time_ms or 0)

    def limits(self) -> SearchLimits:
        """The limits the bot searches within."""
        return SearchLimits(time_ms=self.thinking_ms, most_time_ms=self.most_time_ms)


def decide_in_worker(request: BotRequest) -> Step:
    """Decide one step of an opening; what a worker process executes for `decide_opening`.

    Raises ValueError for an unknown level or an opening that is over, and
    an OpeningError if the bot's step is not legal, so that the server never
    takes one.
    """
    assert request.opening is not None, "an opening decision needs the opening"
    limits = SearchLimits(time_ms=request.thinking_ms)
    step = decide_opening(request.opening, request.level, limits, request.seed or 0)
    apply(request.opening, request.opening.to_decide or Player.FIRST, step)
    return step


def choose_in_worker(request: BotRequest) -> Decision:
    """Run one bot search; this is what a worker process executes.

    Raises ValueError for an unknown level or moves that are not a legal
    game, and IllegalMoveError if the bot answers with an illegal move, so
    that the server never plays one.
    """
    board = Board.from_moves(request.moves, request.size, request.rule)
    decision = make_bot(request.level, request.depth, request.width).choose(board, request.limits(), request.seed)
    board.check_move(decision.move)
    return decision


class _WorkerSlots:
    """The workers' slots, handed out by priority, then in the order asked.

    Background searches (bot games, reviews) may hold at most `workers - 1`
    slots (all of them with one worker), so that a person's search waits at
    most for a search already running when every slot is taken.
    """

    def __init__(self, workers: int) -> None:
        self._free = workers
        self._background_limit = max(1, workers - 1)
        self._background = 0
        self._waiting: list[tuple[Priority, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def acquire(self, priority: Priority, on_wait: Callable[[], Awaitable[None]] | None = None) -> None:
        """Wait for a slot, awaiting `on_wait()` first when none is free at once. Cancelling the wait
        (or `on_wait` failing) gives up the place in line, or the slot if it was granted meanwhile."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), granted))
        self._grant()
        try:
            if not granted.done() and on_wait is not None:
                await on_wait()
            await granted
        except BaseException:
            if granted.done() and not granted.cancelled():
                self.release(priority)
            else:
                granted.cancel()
            raise

    @property
    def waiting(self) -> int:
        """Requests in line for a slot."""
        return sum(1 for _, _, granted in self._waiting if not granted.done())

    def release(self, priority: Priority) -> None:
        """Give a slot back, and hand it to whoever should have it next."""
        self._free += 1
        if priority.background:
            self._background -= 1
        self._grant()

    def _grant(self) -> None:
        """Hand free slots to the first in line, for as long as they may take one."""
        while self._waiting:
            waiting_priority, _, granted = self._waiting[0]
            if granted.cancelled():
                heapq.heappop(self._waiting)
                continue
            if not self._may_take(waiting_priority):
                return
            heapq.heappop(self._waiting)
            self._take(waiting_priority)
            granted.set_result(None)

    def _may_take(self, priority: Priority) -> bool:
        return self._free > 0 and (not priority.background or self._background < self._background_limit)

    def _take(self, priority: Priority) -> None:
        self._free -= 1
        if priority.background:
            self._background += 1


class BotPool:
    """A bounded, self-healing process pool of bot searches."""

    def __init__(
        self, workers: int, queue_limit: int | None = None, metrics: Metrics | None = None, niceness: int = 0
    ) -> None:
        """Up to `workers` searches at once and `queue_limit` of people's searches waiting (default 4
        per worker); bot games' searches wait without limit (their rooms are limited in number).
        Waits and searches are reported to `metrics`. The workers run `niceness` steps below the
        server's CPU priority (the analysis pool's do, so that bots' searches get the CPU first)."""
        if workers < 1:
            raise ValueError(f"a bot pool needs at least one worker, not {workers}")
        if queue_limit is not None and queue_limit < 0:
            raise ValueError(f"queue_limit must not be negative, not {queue_limit}")
        self._workers = workers
        self._niceness = niceness
        self._capacity = workers + (QUEUE_PER_WORKER * workers if queue_limit is None else queue_limit)
        self._admitted = 0
        """People's searches running or waiting."""
        self._slots = _WorkerSlots(workers)
        self._metrics = metrics
        self._executor = self._new_executor()
        self._answers: dict[ProcessPoolExecutor, int] = {}
        self._warm: set[ProcessPoolExecutor] = set()
        """Executors that have answered once per worker: their workers have all started."""
        self._closed = False

    @property
    def waiting(self) -> int:
        """Searches waiting for a worker."""
        return self._slots.waiting

    @property
    def saturated(self) -> bool:
        """Whether a person's search asked now would be refused as busy."""
        return self._admitted >= self._capacity

    def _new_executor(self) -> ProcessPoolExecutor:
        # forkserver: workers start from a clean process, not a fork of a
        # server holding threads, sockets and locks.
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self._workers, mp_context=context, initializer=os.nice, initargs=(self._niceness,))

    async def choose(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Decision:
        """The bot's decision for the request's position; `watcher` is told if the search has to
        wait for a worker, and when it gets one.

        Raises BotBusyError at once when capacity for people's searches is
        exhausted, and BotError when the bot fails, overruns its deadline, its
        worker dies, or the pool is closed.
        """
        return await self._search(choose_in_worker, request, watcher)

    async def decide_opening(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Step:
        """The bot's step in the request's opening (its `opening`); raises as `choose` does."""
        return await self._search(decide_in_worker, request, watcher)

    async def run(self, work: Callable[[BotRequest], _T], request: BotRequest) -> _T:
        """Await `work(request)` run in a worker as a search is, for work other than a move (a review's
        position): the request's priority, thinking time and deadline, the same capacity and order.
        `work` must be picklable (a module's function, or a `functools.partial` of one)."""
        return await self._search(work, request, None)

    async def run_outside(
        self, priority: Priority, work: Callable[[], Awaitable[_T]], watcher: WaitWatcher | None = None
    ) -> _T:
        """Await `work()`, a search run outside the pool's workers (an outside engine's process), in
        one of the pool's slots: it counts against the same capacity and waits its turn in the same
        order (`watcher` as for `choose`). Raises BotBusyError as `choose` does; the deadline is the
        caller's."""

        async def run_in_slot() -> _T:
            try:
                return await work()
            finally:
                self._slots.release(priority)

        return await self._scheduled(priority, run_in_slot, watcher)

    async def _search(self, work: Callable[[BotRequest], _T], request: BotRequest, watcher: WaitWatcher | None) -> _T:
        """Run `work(request)` in a worker, with the pool's capacity, priority and deadline."""
        return await self._scheduled(request.priority, lambda: self._run(work, request), watcher)

    async def _scheduled(self, priority: Priority, run: Callable[[], Awaitable[_T]], watcher: WaitWatcher | None) -> _T:
        """Admit a search (or refuse it as busy), wait for a slot (telling `watcher`), then await
        `run()`, which releases the slot."""
        if self._closed:
            raise BotError("the bot pool is closed")
        admitted = priority.admitted
        if admitted and self.saturated:
            raise BotBusyError(f"all {self._workers} bot workers are busy and the queue is full")
        self._admitted += admitted
        loop = asyncio.get_running_loop()
        asked = loop.time()
        try:
            await self._slots.acquire(priority, None if watcher is None else watcher.waiting)
            if watcher is not None:
                await self._tell_started(watcher, priority)
            if self._metrics is not None:
                self._metrics.bot_wait.observe(loop.time() - asked)
            started = loop.time()
            answer = await run()
            if self._metrics is not None:
                self._metrics.bot_search.observe(loop.time() - started)
            return answer
        finally:
            self._admitted -= admitted

    async def _tell_started(self, watcher: WaitWatcher, priority: Priority) -> None:
        """Tell the watcher its search has a worker; the slot goes back if that fails."""
        try:
            await watcher.started()
        except BaseException:
            self._slots.release(priority)
            raise

    async def _run(self, work: Callable[[BotRequest], _T], request: BotRequest) -> _T:
        """Run the request on a free worker (the caller holds a worker slot, released here)."""
        try:
            executor, future = self._submit(work, request)
        except BaseException:
            self._slots.release(request.priority)
            raise
        self._release_slot_when_done(future, request.priority)
        grace_ms = GRACE_MS if executor in self._warm else GRACE_MS + STARTUP_GRACE_MS
        deadline_s = (request.longest_ms + grace_ms) / 1000
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), deadline_s)
            self._count_answer(executor)
            return answer
        except TimeoutError:
            self._replace_executor(executor)
            raise BotError(f"bot {request.level!r} did not answer within {deadline_s:.1f} s") from None
        except BrokenProcessPool:
            self._replace_executor(executor)
            raise BotError(f"the worker running bot {request.level!r} died") from None
        except Exception as error:  # raised in the worker: an unknown level, a bad position, a bot's bug
            raise BotError(f"bot {request.level!r} failed: {error}") from error

    def _submit(self, work: Callable[[BotRequest], _T], request: BotRequest) -> tuple[ProcessPoolExecutor, Future[_T]]:
        """Hand the request to the executor, replacing it first if it broke while idle."""
        if self._closed:
            raise BotError("the bot pool is closed")
        executor = self._executor
        try:
            return executor, executor.submit(work, request)
        except BrokenProcessPool:
            self._replace_executor(executor)
            return self._executor, self._executor.submit(work, request)

    def _count_answer(self, executor: ProcessPoolExecutor) -> None:
        if executor in self._warm:
            return
        self._answers[executor] = self._answers.get(executor, 0) + 1
        if self._answers[executor] >= self._workers:
            self._warm.add(executor)
            del self._answers[executor]

    def _release_slot_when_done(self, future: Future[_T], priority: Priority) -> None:
        """Free the worker slot when the worker is really done, not when the caller stops waiting,
        so that a cancelled caller cannot make the pool run more searches than it has workers."""
        loop = asyncio.get_running_loop()

        def release(_: Future[_T]) -> None:
            # After close() the loop may be gone; then nobody waits for the slot.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._slots.release, priority)

        future.add_done_callback(release)

    def _replace_executor(self, broken: ProcessPoolExecutor) -> None:
        """Kill the workers of `broken` and start a fresh executor, once per breakage."""
        _kill_workers(broken)
        self._warm.discard(broken)
        self._answers.pop(broken, None)
        if self._executor is broken and not self._closed:
            self._executor = self._new_executor()

    async def close(self) -> None:
        """Stop every worker now (running searches are abandoned); later requests fail."""
        if self._closed:
            return
        self._closed = True
        killed = _kill_workers(self._executor)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.to_thread(_reap, killed), CLOSE_TIMEOUT_S)


def _kill_workers(executor: ProcessPoolExecutor) -> list[BaseProcess]:
    """Stop the executor taking work, kill its worker processes and return them.

    Python 3.14 has `ProcessPoolExecutor.kill_workers`; on older versions the
    executor's process table is the only handle on its workers (it is None
    once the executor has been shut down).
    """
    processes: list[BaseProcess] = list((executor._processes or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    return processes


def _reap(processes: list[BaseProcess]) -> None:
    """Wait for killed processes to exit, so that none is left as a zombie."""
    for process in processes:
        with contextlib.suppress(ValueError, AssertionError):
            process.join()
