"""bench.spectators at a tiny size: every spectator joins, every move reaches every spectator, and each
figure is printed."""

from __future__ import annotations

import re

import pytest
from printed_table import milliseconds, printed_rows

from bench.spectators import main

TINY = ["--spectators", "7", "--moves", "6", "--rate", "10", "--procs", "2"]


def test_a_tiny_run_lets_every_spectator_in_and_delivers_every_move_to_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.spectators " + " ".join(TINY) + "\n")
    rows = printed_rows(output)

    assert rows["spectators joined"][0] == "7 of 7"
    assert re.fullmatch(r"\d+\.\d\d s", rows["join time, all of them"][0])
    assert rows["moves played (asked)"][0] == "6 (6)"
    assert rows["deliveries measured / expected"][0] == "42 / 42"
    for figure in ("join answer", "delivery", "move reaches all", "move round trip"):
        spread = [milliseconds(rows[f"{figure} {name}"][0]) for name in ("p50", "p99", "max")]
        assert 0 < spread[0] <= spread[1] <= spread[2], figure
    assert milliseconds(rows["move reaches all max"][0]) == milliseconds(rows["delivery max"][0])
    assert rows["move reaches all p99"][1] == "< 100 ms"
    assert rows["errors received"][0] == "none" and rows["closed by the server"][0] == "none"


def test_more_moves_than_the_quiet_points_allow_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--moves", "1000"])
    assert "--moves must be 1 to" in capsys.readouterr().err
