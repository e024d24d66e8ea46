"""A Gomocup brain as an asyncio subprocess: our own gomoku-engine, and scripted brains that crash,
hang, print garbage or answer an occupied point, each of which ends killed with a clear reason."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from brains.process import STDERR_LOG_BURST_BYTES, STDERR_TAIL_BYTES, BrainFailure, BrainProcess, BrainTimeout
from engine.gomocup_manager import TimeLimits
from engine.openings import PlaceStones
from engine.types import Point, Rule

SCRIPTED = str(Path(__file__).with_name("scripted_brain.py"))
ENGINE = [sys.executable, "-m", "tools.brain", "--level", "greedy"]
QUICK = TimeLimits(turn_ms=300)
START_S = 30.0
"""Generous: a Python brain imports the engine first, on a busy machine."""


def scripted(*fault: str) -> list[str]:
    return [sys.executable, SCRIPTED, *fault]


async def started(command: list[str], name: str = "brain") -> BrainProcess:
    brain = await BrainProcess.start(command, name)
    await brain.new_game(15, Rule.FREESTYLE, START_S)
    return brain


async def test_our_own_engine_plays_its_moves_and_follows_the_game() -> None:
    brain = await started(ENGINE, "greedy")
    try:
        assert "gomoku-engine" in await brain.about(START_S)
        first = await brain.move([], QUICK, START_S)
        assert brain.holds([first, Point(0, 0)])
        second = await brain.move([first, Point(0, 0)], QUICK, START_S)
        assert second not in (first, Point(0, 0))
        assert any(line.startswith("MESSAGE depth") for line in brain.messages)
        decided = await brain.swap2([], QUICK, START_S)
        assert isinstance(decided.step, PlaceStones) and len(decided.step.points) == 3
    finally:
        await brain.close()
    assert not brain.running


async def test_a_brain_that_crashes_is_a_failure_naming_its_exit_code_and_stderr() -> None:
    brain = await started(scripted("crash", "2"))
    await brain.move([], QUICK, START_S)
    with pytest.raises(BrainFailure, match="exited with code 3"):
        await brain.move([Point(0, 0), Point(7, 7)], QUICK, START_S)
    assert not brain.running
    assert brain.stderr_tail().endswith("scripted brain: crashing on purpose")


@pytest.mark.parametrize(
    ("fault", "reason"), [("garbage", "'hello there', not a move"), ("occupied", "illegal: a15 is already taken")]
)
async def test_an_answer_that_is_not_a_legal_move_kills_the_brain(fault: str, reason: str) -> None:
    brain = await started(scripted(fault, "2"))
    await brain.move([], QUICK, START_S)
    with pytest.raises(BrainFailure, match=reason):
        await brain.move([Point(0, 0), Point(7, 7)], QUICK, START_S)
    assert not brain.running


async def test_a_brain_that_overruns_is_killed_when_its_time_is_up() -> None:
    brain = await started(scripted("slow", "1", "60000"))
    with pytest.raises(BrainTimeout, match="did not answer within 0.5 s"):
        await brain.move([], QUICK, 0.5)
    assert not brain.running


async def test_a_brain_that_never_answers_start_is_killed() -> None:
    brain = await BrainProcess.start(scripted("mute"), "mute")
    with pytest.raises(BrainTimeout, match="mute did not answer"):
        await brain.new_game(15, Rule.FREESTYLE, 1.0)
    assert not brain.running


async def test_a_command_that_cannot_be_started_is_a_failure() -> None:
    with pytest.raises(BrainFailure, match="ghost cannot be started"):
        await BrainProcess.start(["/nonexistent/brain"], "ghost")


@pytest.mark.parametrize("line_bytes", ["80", "300000"])  # short lines; lines longer than any buffer
async def test_a_brain_flooding_stderr_keeps_playing_and_what_the_log_cannot_take_is_dropped_and_counted(
    line_bytes: str,
) -> None:
    dropped: list[int] = []
    flooded = asyncio.Event()

    def count(size: int) -> None:
        dropped.append(size)
        flooded.set()

    brain = await BrainProcess.start(scripted("flood", line_bytes), "flooder", on_stderr_dropped=count)
    try:
        await brain.new_game(15, Rule.FREESTYLE, START_S)
        async with asyncio.timeout(START_S):
            await flooded.wait()
        moves: list[Point] = []
        for reply in (Point(0, 14), Point(1, 14), Point(2, 14)):
            moves.append(await brain.move(moves, QUICK, START_S))
            moves.append(reply)
        assert moves[::2] == [Point(0, 0), Point(1, 0), Point(2, 0)], "it plays on, the first empty point each time"
        tail = brain.stderr_tail()
        assert 0 < len(tail.encode()) <= STDERR_TAIL_BYTES
    finally:
        await brain.close()
    assert sum(dropped) > STDERR_LOG_BURST_BYTES, "past what the log may take, the flood is dropped and counted"


async def play_against_a_quick_opponent(brain: BrainProcess, moves: int) -> list[Point]:
    """The brain plays black; white answers each of its moves at once, along the bottom row."""
    played: list[Point] = []
    for x in range(moves):
        played.append(await brain.move(played, QUICK, START_S))
        played.append(Point(x, 14))
    return played[::2]


async def test_a_brain_that_reads_again_only_a_moment_after_its_move_hears_every_paced_command(
    caplog: pytest.LogCaptureFixture,
) -> None:
    brain = await started(scripted("early", "5"), "rapfi-like")
    try:
        assert await play_against_a_quick_opponent(brain, 4) == [Point(x, 0) for x in range(4)]
    finally:
        await brain.close()
    assert "slipped" not in caplog.text


async def test_a_command_the_brain_dropped_is_asked_again_whole_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    brain = await started(scripted("early", "300"), "slow-reader")  # the third retry is heard
    try:
        assert await play_against_a_quick_opponent(brain, 3) == [Point(x, 0) for x in range(3)]
        assert brain.running
    finally:
        await brain.close()
    slips = [record.getMessage() for record in caplog.records if "slipped" in record.getMessage()]
    assert slips and "slow-reader" in slips[0] and "ERROR Unknown command" in slips[0]


async def test_a_brain_that_never_hears_a_move_fails_after_the_retries_and_is_killed() -> None:
    brain = await started(scripted("early", "60000"), "deaf")
    await brain.move([], QUICK, START_S)
    with pytest.raises(BrainFailure, match="deaf answered 'ERROR Unknown command' to MOVE \\(asked 4 times\\)"):
        await brain.move([Point(0, 0), Point(7, 7)], QUICK, START_S)
    assert not brain.running
