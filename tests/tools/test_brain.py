"""`gomoku-engine` as a real process: a short game through a pipe."""

import subprocess
import sys

from engine import build_info
from server.version import server_version


def run_brain(*arguments: str, script: str = "") -> subprocess.CompletedProcess[str]:
    """`gomoku-engine ARGUMENTS` with `script` on its input, to its end."""
    return subprocess.run(
        [sys.executable, "-m", "tools.brain", *arguments], input=script, capture_output=True, text=True, timeout=60
    )


def test_a_session_through_a_pipe() -> None:
    script = "\n".join(["ABOUT", "INFO timeout_turn 300", "INFO rule 1", "START 15", "BEGIN", "TURN 8,8", "END", ""])
    finished = run_brain("--level", "medium", script=script)
    finished.check_returncode()
    lines = finished.stdout.splitlines()
    assert lines[0].startswith('name="gomoku-engine"')
    assert lines[1] == "OK"
    moves = [line for line in lines if line[0].isdigit()]
    assert moves[0] == "7,7"
    assert len(moves) == 2
    assert any(line.startswith("MESSAGE depth ") for line in lines)
    assert finished.stderr == f"gomoku-engine: {build_info()}\n"


def test_the_version_says_which_build_of_the_engine_runs() -> None:
    finished = run_brain("--version")
    finished.check_returncode()
    assert finished.stdout.startswith(f"gomoku-engine {server_version()}; engine: ")
    assert finished.stdout.strip().endswith(build_info())


def test_an_unknown_level_is_refused_with_the_known_ones() -> None:
    finished = run_brain("--level", "grandmaster")
    assert finished.returncode == 2
    assert "master" in finished.stderr


def test_swap2_decisions_through_a_pipe() -> None:
    # The manager asks for the opening, then (a new game) for the choice after three stones
    # that leave black clearly winning, then after five stones that leave white better.
    script = "\n".join(
        [
            "INFO timeout_turn 1000",
            "INFO rule 1",
            "START 15",
            "SWAP2BOARD",
            "DONE",
            "RESTART",
            "SWAP2BOARD",
            "7,7",
            "0,0",
            "8,6",
            "DONE",
            "RESTART",
            "SWAP2BOARD",
            "0,0",
            "7,7",
            "14,14",
            "8,6",
            "0,14",
            "DONE",
            "END",
            "",
        ]
    )
    finished = run_brain("--level", "easy", script=script)
    finished.check_returncode()
    answers = [line for line in finished.stdout.splitlines() if not line.startswith("MESSAGE")]
    assert answers[0] == "OK"
    opening = answers[1].split()
    assert len(opening) == 3 and "7,7" in opening
    assert answers[2:5] == ["OK", "SWAP", "OK"]
    sixth = answers[5]
    x, y = (int(part) for part in sixth.split(","))
    assert (x, y) not in {(0, 0), (7, 7), (14, 14), (8, 6), (0, 14)}
    assert len(answers) == 6
    assert finished.stderr == f"gomoku-engine: {build_info()}\n"
