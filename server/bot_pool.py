"""Bots thinking in worker processes, so that no search ever runs on the event loop.

The server asks `BotPool.choose` for a move; the request (level, rule, size,
moves) travels to a worker process, which rebuilds the board, asks the
level's bot and sends back its `Decision`. Three promises keep a busy or
broken bot from hurting the server:

* capacity: at most `workers` searches run and `queue_limit` wait; a request
  beyond that fails at once with `BotBusyError` (the wire's `busy`);
* a deadline: the caller waits at most the search's time plus a grace
  margin; a bot that overruns is killed and the request fails;
* recovery: a worker that dies (killed, out of memory) breaks the process
  pool; the pool is replaced, the request fails with `BotError`, and the
  next request runs on the fresh pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.process import BaseProcess

from engine.board import Board
from engine.bots import Decision
from engine.limits import SearchLimits
from engine.registry import make_bot
from engine.types import Point, Rule

DEFAULT_TIME_MS = 5_000
"""The thinking time of a request that names none: every search has a deadline."""

GRACE_MS = 3_000
"""How long past its thinking time a bot may take before it is declared stuck
(covers starting a worker process and a loaded machine)."""

QUEUE_PER_WORKER = 4
"""Waiting requests allowed per worker when no `queue_limit` is given."""

CLOSE_TIMEOUT_S = 5.0
"""How long `close` waits for the killed workers to be reaped."""


class BotError(Exception):
    """A bot could not produce a move: it failed, overran its deadline, or its worker died."""


class BotBusyError(BotError):
    """Every worker is busy and the waiting line is full; try again later."""


@dataclass(frozen=True, slots=True)
class BotRequest:
    """Everything a worker needs to choose a move; small and picklable."""

    level: str
    """A level name from `engine.levels`."""
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

    @property
    def thinking_ms(self) -> int:
        """The thinking time this request actually gets."""
        return DEFAULT_TIME_MS if self.time_ms is None else self.time_ms


def choose_in_worker(request: BotRequest) -> Decision:
    """Run one bot search; this is what a worker process executes.

    Raises ValueError for an unknown level or moves that are not a legal
    game, and IllegalMoveError if the bot answers with an illegal move, so
    that the server never plays one.
    """
    board = Board.from_moves(request.moves, request.size, request.rule)
    decision = make_bot(request.level).choose(board, SearchLimits(time_ms=request.thinking_ms), request.seed)
    board.check_move(decision.move)
    return decision


class BotPool:
    """A bounded, self-healing process pool of bot searches."""

    def __init__(self, workers: int, queue_limit: int | None = None) -> None:
        """Up to `workers` searches at once and `queue_limit` waiting (default 4 per worker)."""
        if workers < 1:
            raise ValueError(f"a bot pool needs at least one worker, not {workers}")
        if queue_limit is not None and queue_limit < 0:
            raise ValueError(f"queue_limit must not be negative, not {queue_limit}")
        self._workers = workers
        self._capacity = workers + (QUEUE_PER_WORKER * workers if queue_limit is None else queue_limit)
        self._admitted = 0
        self._free_workers = asyncio.Semaphore(workers)
        self._executor = self._new_executor()
        self._closed = False

    def _new_executor(self) -> ProcessPoolExecutor:
        # forkserver: workers start from a clean process, not a fork of a
        # server holding threads, sockets and locks.
        return ProcessPoolExecutor(self._workers, mp_context=multiprocessing.get_context("forkserver"))

    async def choose(self, request: BotRequest) -> Decision:
        """The bot's decision for the request's position.

        Raises BotBusyError at once when capacity is exhausted, and BotError
        when the bot fails, overruns its deadline, its worker dies, or the
        pool is closed.
        """
        if self._closed:
            raise BotError("the bot pool is closed")
        if self._admitted >= self._capacity:
            raise BotBusyError(f"all {self._workers} bot workers are busy and the queue is full")
        self._admitted += 1
        try:
            await self._free_workers.acquire()
            return await self._run(request)
        finally:
            self._admitted -= 1

    async def _run(self, request: BotRequest) -> Decision:
        """Run the request on a free worker (the caller holds a worker slot, released here)."""
        try:
            executor, future = self._submit(request)
        except BaseException:
            self._free_workers.release()
            raise
        self._release_slot_when_done(future)
        deadline_s = (request.thinking_ms + GRACE_MS) / 1000
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), deadline_s)
        except TimeoutError:
            self._replace_executor(executor)
            raise BotError(f"bot {request.level!r} did not answer within {deadline_s:.1f} s") from None
        except BrokenProcessPool:
            self._replace_executor(executor)
            raise BotError(f"the worker running bot {request.level!r} died") from None
        except Exception as error:  # raised in the worker: an unknown level, a bad position, a bot's bug
            raise BotError(f"bot {request.level!r} failed: {error}") from error

    def _submit(self, request: BotRequest) -> tuple[ProcessPoolExecutor, Future[Decision]]:
        """Hand the request to the executor, replacing it first if it broke while idle."""
        if self._closed:
            raise BotError("the bot pool is closed")
        executor = self._executor
        try:
            return executor, executor.submit(choose_in_worker, request)
        except BrokenProcessPool:
            self._replace_executor(executor)
            return self._executor, self._executor.submit(choose_in_worker, request)

    def _release_slot_when_done(self, future: Future[Decision]) -> None:
        """Free the worker slot when the worker is really done, not when the caller stops waiting,
        so that a cancelled caller cannot make the pool run more searches than it has workers."""
        loop = asyncio.get_running_loop()

        def release(_: Future[Decision]) -> None:
            # After close() the loop may be gone; then nobody waits for the slot.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._free_workers.release)

        future.add_done_callback(release)

    def _replace_executor(self, broken: ProcessPoolExecutor) -> None:
        """Kill the workers of `broken` and start a fresh executor, once per breakage."""
        _kill_workers(broken)
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
