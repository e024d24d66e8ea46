"""The Gomocup client against real brain processes: gomoku-engine itself, a brain that never
answers (which must be killed), and a scripted brain that drops commands arriving too early."""

import sys
import time
from pathlib import Path

import pytest

from engine.board import Board
from engine.limits import SearchLimits
from engine.types import Point
from tools.gomocup_client import EngineError, EngineTimeout, GomocupEngine

BRAIN = [sys.executable, "-m", "tools.brain", "--level", "greedy"]
SCRIPTED = str(Path(__file__).parents[1] / "brains" / "scripted_brain.py")
SECOND = SearchLimits(time_ms=1000)


def play_against_a_quick_opponent(engine: GomocupEngine, moves: int) -> list[list[str]]:
    """The brain plays black; white answers each of its moves at once, along the bottom row. The
    messages (and slips) of each of the brain's moves."""
    board = Board()
    messages = []
    for x in range(moves):
        board.play(engine.choose(board, SECOND).move)
        messages.append(list(engine.messages))
        board.play(Point(x, 14))
    return messages


def test_a_brain_that_reads_again_only_a_moment_after_its_move_hears_every_paced_command() -> None:
    with GomocupEngine([sys.executable, SCRIPTED, "early", "5"], "rapfi-like") as engine:
        messages = play_against_a_quick_opponent(engine, 4)
    assert not [line for lines in messages for line in lines if "slipped" in line]


def test_a_command_the_brain_dropped_is_asked_again_whole_and_the_game_goes_on() -> None:
    # It drops what comes within 300 ms of its move: the paced TURN and the first two retries (after
    # 50 and 100 ms of quiet); the third, 200 ms later, is heard. A loaded machine only delays.
    with GomocupEngine([sys.executable, SCRIPTED, "early", "300"], "slow-reader") as engine:
        messages = play_against_a_quick_opponent(engine, 3)
    assert messages[0] == ["MESSAGE scripted brain thinking"], "the first move (BEGIN) came long after START"
    slip = "slow-reader slipped ('ERROR Unknown command'): asked again"
    assert any(slip in lines for lines in messages[1:])
    assert all(lines[-1] == "MESSAGE scripted brain thinking" for lines in messages)


def test_a_brain_that_never_hears_a_move_fails_after_the_retries() -> None:
    with GomocupEngine([sys.executable, SCRIPTED, "early", "60000"], "deaf") as engine:
        board = Board()
        board.play(engine.choose(board, SECOND).move)
        board.play(Point(7, 7))
        with pytest.raises(EngineError, match="deaf answered 'ERROR Unknown command' to MOVE \\(asked 4 times\\)"):
            engine.choose(board, SECOND)


def test_plays_a_whole_game_against_itself_over_the_protocol() -> None:
    board = Board()
    with GomocupEngine(BRAIN, "first") as first, GomocupEngine(BRAIN, "second") as second:
        assert "gomoku-engine" in first.about()
        while board.result is None:
            engine = first if board.ply % 2 == 0 else second
            board.play(engine.choose(board, SearchLimits(time_ms=2000)).move)
    assert board.result.winner is not None


def test_a_position_it_did_not_follow_is_sent_whole() -> None:
    board = Board.from_moves([Point(7, 7), Point(8, 7), Point(7, 8), Point(8, 8), Point(7, 9), Point(8, 9)])
    board.play(Point(7, 10))
    with GomocupEngine(BRAIN, "greedy") as engine:
        assert engine.choose(board, SearchLimits(time_ms=2000)).move in (Point(7, 6), Point(7, 11))


def test_a_brain_that_does_not_answer_is_killed_in_time(tmp_path: Path) -> None:
    script = tmp_path / "sleepy_brain.py"
    script.write_text(
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        print('OK', flush=True)\n"
        "    elif line.startswith(('BEGIN', 'TURN', 'DONE')):\n"
        "        time.sleep(60)\n"
    )
    engine = GomocupEngine([sys.executable, str(script)], "sleepy", grace_ms=200)
    began = time.monotonic()
    with pytest.raises(EngineTimeout, match="sleepy"):
        engine.choose(Board(), SearchLimits(time_ms=100))
    assert time.monotonic() - began < 30
    engine.close()


def test_a_brain_that_cannot_start_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        GomocupEngine(["/nonexistent/brain"], "ghost")
