"""The bot pool: real bots searching in real worker processes, with limits that hold."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest
from server_harness import wait_for_worker, worker_pids

from engine.board import Board
from engine.registry import level_names
from engine.types import Point, Rule
from server.bots import pool as bot_pool
from server.bots.players import BotRoster
from server.bots.pool import BotBusyError, BotError, BotPool, BotRequest, Priority
from server.players.bot_ratings import read_ratings

OPENING = (Point(7, 7), Point(8, 8), Point(8, 7), Point(6, 7), Point(7, 8), Point(7, 6))
"""A few moves of a real game, black to move: every bot has something to think about."""

LONG_THINK_MS = 60_000
"""Far longer than any test waits: a search of this length is still running when the test acts."""

STRONGEST = level_names()[-1]
"""The registry lists engine levels last, strongest last: the one that uses all its time."""


def long_search() -> BotRequest:
    return BotRequest(STRONGEST, Rule.FREESTYLE, 15, OPENING, time_ms=LONG_THINK_MS)


@pytest.fixture
async def pool() -> AsyncIterator[BotPool]:
    bots = BotPool(workers=1, queue_limit=1)
    yield bots
    await bots.close()


async def test_every_level_answers_with_a_legal_move() -> None:
    board = Board.from_moves(OPENING)
    bots = BotPool(workers=2)
    try:
        requests = [BotRequest(level, Rule.FREESTYLE, 15, OPENING, time_ms=200, seed=1) for level in level_names()]
        decisions = await asyncio.gather(*(bots.choose(request) for request in requests))
    finally:
        await bots.close()
    for level, decision in zip(level_names(), decisions, strict=True):
        assert board.is_legal(decision.move), f"{level} chose {decision.move}"


async def test_a_renju_bot_never_answers_a_forbidden_point(pool: BotPool) -> None:
    # Black to move; h8 would make a double three for black.
    picture = """
        . . . . . . . . . . . . . . .
        . O . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . O .
        . . . . . . . . . . . . . . .
    """
    board = Board.from_picture(picture, Rule.RENJU)
    assert board.is_forbidden(Point(7, 7))
    for level in level_names():
        decision = await pool.choose(BotRequest(level, Rule.RENJU, 15, board.moves, time_ms=200, seed=3))
        assert board.is_legal(decision.move), f"{level} chose {decision.move}"


async def test_an_unknown_level_is_a_bot_error(pool: BotPool) -> None:
    with pytest.raises(BotError, match="unknown bot level"):
        await pool.choose(BotRequest("no-such-level", Rule.FREESTYLE, 15, OPENING, time_ms=100))


async def test_moves_that_are_not_a_game_are_a_bot_error(pool: BotPool) -> None:
    with pytest.raises(BotError, match="already taken"):
        await pool.choose(BotRequest(level_names()[0], Rule.FREESTYLE, 15, (Point(7, 7), Point(7, 7))))


async def test_requests_beyond_workers_and_queue_are_refused_at_once(pool: BotPool) -> None:
    running = asyncio.create_task(pool.choose(long_search()))
    waiting = asyncio.create_task(pool.choose(long_search()))
    await asyncio.sleep(0)  # both tasks run up to their first wait: one searching, one queued
    with pytest.raises(BotBusyError):
        await pool.choose(long_search())
    await pool.close()
    for task in (running, waiting):
        with pytest.raises(BotError):
            await asyncio.wait_for(task, 10)


async def test_close_abandons_a_running_search_promptly() -> None:
    bots = BotPool(workers=1)
    search = asyncio.create_task(bots.choose(long_search()))
    worker = await wait_for_worker()
    started = time.monotonic()
    await bots.close()
    with pytest.raises(BotError):
        await asyncio.wait_for(search, 10)
    assert time.monotonic() - started < LONG_THINK_MS / 1000 / 4
    assert worker not in worker_pids()


async def test_a_worker_killed_mid_search_fails_that_request_only(pool: BotPool) -> None:
    search = asyncio.create_task(pool.choose(long_search()))
    os.kill(await wait_for_worker(), signal.SIGKILL)
    with pytest.raises(BotError, match="died"):
        await asyncio.wait_for(search, 30)
    decision = await pool.choose(BotRequest(level_names()[0], Rule.FREESTYLE, 15, OPENING, time_ms=200))
    assert Board.from_moves(OPENING).is_legal(decision.move)


async def test_a_bot_past_its_deadline_is_stopped_and_the_pool_recovers(
    pool: BotPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_pool, "GRACE_MS", 500 - LONG_THINK_MS)  # the caller waits 0.5 s in all
    monkeypatch.setattr(bot_pool, "STARTUP_GRACE_MS", 0)
    with pytest.raises(BotError, match="did not answer"):
        await pool.choose(long_search())
    monkeypatch.undo()
    decision = await pool.choose(BotRequest(level_names()[0], Rule.FREESTYLE, 15, OPENING, time_ms=200))
    assert Board.from_moves(OPENING).is_legal(decision.move)


def test_the_catalogue_describes_every_level() -> None:
    catalogue = BotRoster(arena_ratings=read_ratings()).catalogue()
    assert [info.level for info in catalogue] == level_names()
    for info in catalogue:
        assert info.description.strip()
        assert info.rating == read_ratings().get(info.level)
    assert any(info.rating is not None for info in catalogue), "the arena has rated no level"


async def test_a_search_outside_the_pool_takes_a_slot_like_any_other(pool: BotPool) -> None:
    """An outside engine's search counts against the same capacity: while it holds the only slot,
    a person's search waits in the queue, and one more is refused as busy."""
    release = asyncio.Event()

    async def outside_search() -> str:
        await release.wait()
        return "engine's move"

    running = asyncio.create_task(pool.run_outside(Priority.PERSON, outside_search))
    await asyncio.sleep(0.05)
    waiting = asyncio.create_task(pool.choose(BotRequest("greedy", Rule.FREESTYLE, 15, OPENING, time_ms=100)))
    await asyncio.sleep(0.05)
    assert pool.saturated
    with pytest.raises(BotBusyError):
        await pool.choose(BotRequest("greedy", Rule.FREESTYLE, 15, OPENING, time_ms=100))
    assert not waiting.done(), "the person's search waits for the slot the outside engine holds"
    release.set()
    assert await running == "engine's move"
    assert Board.from_moves(OPENING).is_legal((await waiting).move)


async def test_the_workers_of_a_nice_pool_run_below_the_servers_cpu_priority() -> None:
    bots = BotPool(workers=1, niceness=5)
    try:
        await bots.choose(BotRequest("greedy", Rule.FREESTYLE, 15, OPENING, time_ms=100))
        worker = await wait_for_worker()
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)
    finally:
        await bots.close()
