"""bench.lobby_tick at a tiny size: each size and shape is timed, and the pairs made are as the shape says."""

from __future__ import annotations

import re

import pytest

from bench.lobby_tick import main


def test_a_tiny_run_times_both_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seeks", "30", "--repeat", "1"]) == 0
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| 30 |")]
    assert [(row[1], row[2]) for row in rows] == [("apart", "0"), ("alike", "15")]
    assert all(re.fullmatch(r"\d+\.\d ms \|", row[3]) for row in rows)
