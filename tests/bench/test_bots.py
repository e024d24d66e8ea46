"""bench.bots at a tiny size: both phases are measured and compared."""

from __future__ import annotations

import re

import pytest
from printed_table import last_line, milliseconds, printed_rows

from bench.bots import main

TINY = ["--bot-games", "2", "--human-games", "1", "--duration", "5", "--warmup", "1"]


def test_a_tiny_run_measures_the_bot_replies_and_the_lag_alone_and_beside_bot_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.bots " + " ".join(TINY) + "\n")
    rows = printed_rows(output)

    for figure in ("bot reply time", "loop lag probe"):
        alone = [milliseconds(rows[f"{figure} {name}"][0]) for name in ("p50", "p99", "max")]
        loaded = [milliseconds(rows[f"{figure} {name}"][1]) for name in ("p50", "p99", "max")]
        assert 0 < alone[0] <= alone[1] <= alone[2]
        assert 0 < loaded[0] <= loaded[1] <= loaded[2]
        assert re.fullmatch(r"x\d+\.\d\d", rows[f"{figure} p99"][2])
    replies_alone, replies_loaded = map(int, rows["bot replies measured"][:2])
    assert replies_alone > 0 and replies_loaded > 0
    probes_alone, probes_loaded = map(int, rows["lag probes measured"][:2])
    assert 0 < probes_alone <= 51 and 0 < probes_loaded <= 51  # one every 100 ms for 5 s

    assert rows["bot-game moves/s"][0] == "0.0"  # no bot games in the alone phase
    assert float(rows["bot-game moves/s"][1]) > 0
    assert last_line(output, "errors received: ") == "none"
