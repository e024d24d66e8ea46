"""bench.outside_engines at a tiny size: an outside engine's moves timed through a server and alone."""

from __future__ import annotations

import re

import pytest
from printed_table import milliseconds, printed_rows

from bench.outside_engines import main

TINY = ["--moves", "3", "--openings", "0"]


def test_a_tiny_run_times_the_engine_through_the_server_and_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.outside_engines " + " ".join(TINY) + "\n")
    rows = printed_rows(output)
    alone = [milliseconds(cell) for cell in rows["the engine alone, over its pipes"]]
    through = [milliseconds(cell) for cell in rows["through the server, move to reply"]]
    assert 0 < alone[0] <= alone[1] <= alone[2] and 0 < through[0] <= through[1] <= through[2]
    assert re.fullmatch(r"x\d+\.\d\d", rows["through the server / alone (p50)"][0])
    assert milliseconds(rows["first move, process started"][0]) > 0
