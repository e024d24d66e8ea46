"""bench.opening_times: each kind of decision is timed, and a row per level is printed."""

import pytest

from bench.opening_times import COLUMNS, decision_times, main
from engine.openings import Stage


def test_every_decision_of_a_swap2_and_a_soosorv8_opening_is_timed_under_its_kind() -> None:
    times = decision_times("easy", openings=1)
    assert {stage for stage, _ in COLUMNS} >= set(times)
    for stage in (Stage.OPENING_STONES, Stage.SWAP2_OPTIONS, Stage.FIRST_SWAP, Stage.SELECT_FIFTH):
        assert len(times[stage]) >= 1
    assert all(0 <= value for values in times.values() for value in values)


def test_a_run_prints_a_row_per_level_and_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--levels", "easy", "--openings", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["level", "default", "stones"]
    row = lines[2].split()
    assert row[:2] == ["easy", "300"] and row[-1].endswith("%")
    assert lines[-1] == "./dev run python -m bench.opening_times --levels easy --openings 1"
