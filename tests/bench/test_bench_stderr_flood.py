"""bench.stderr_flood at a tiny size: a server with a flooding outside engine, measured."""

from __future__ import annotations

import re

import pytest
from printed_table import milliseconds, printed_rows

from bench.stderr_flood import main

TINY = ["--seconds", "0.5", "--line-bytes", "none", "80"]


def test_a_tiny_run_measures_the_server_beside_a_quiet_brain_and_a_flooding_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.stderr_flood " + " ".join(TINY) + "\n")
    rows = printed_rows(output)
    for brain in ("none", "80"):
        cpu, reply, dropped = rows[brain]
        assert re.fullmatch(r"\d+%", cpu) and milliseconds(reply) > 0, brain
    assert rows["none"][2] == "0.0 MB" and float(rows["80"][2].removesuffix(" MB")) > 0
