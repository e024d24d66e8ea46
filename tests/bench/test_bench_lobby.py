"""bench.lobby at a tiny size: both phases are measured, every delivery is counted, and the full phase is
given as a ratio to the baseline."""

from __future__ import annotations

import re

import pytest
from printed_table import milliseconds, printed_rows

from bench.lobby import main

TINY = ["--watchers", "6", "--baseline-watchers", "2", "--rate", "5", "--duration", "2", "--seekers", "3"]


def test_a_tiny_run_delivers_every_seek_to_every_watcher_in_both_phases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.lobby " + " ".join(TINY) + "\n")
    rows = printed_rows(output)

    assert rows["watchers"][:2] == ["2", "6"]
    for phase, watching in enumerate((2, 6)):
        measured, expected = (
            int(count.replace(",", "")) for count in rows["deliveries measured / expected"][phase].split(" / ")
        )
        assert measured == expected > 0 and expected % (2 * watching) == 0  # each seek added then removed
        assert rows["lobby changes sent"][phase] == "in batches"
        assert 0 < float(rows["seeks a second (served)"][phase]) <= 5
        delays = [milliseconds(rows[f"delivery {name}"][phase]) for name in ("p50", "p99", "maximum")]
        assert 0 < delays[0] <= delays[1] <= delays[2]
        assert rows["seek failures"][phase] == "none" and rows["closed by the server"][phase] == "none"
        assert re.fullmatch(r"\d+\.\d us", rows["server CPU per delivery"][phase])
    assert re.fullmatch(r"x\d+\.\d\d", rows["delivery p99"][2])
    assert rows["delivery p99"][3] == "< 300 ms" and rows["seek answered p99"][3] == "< 100 ms"


def test_a_baseline_larger_than_the_crowd_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--watchers", "5", "--baseline-watchers", "10"])
    assert "--baseline-watchers must be 1 to --watchers" in capsys.readouterr().err
