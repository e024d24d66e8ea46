"""bench.depth: how deep a level gets on fixed positions, at fixed nodes or time."""

import pytest

from bench.depth import POSITIONS, DepthFigures, main, search_position, summary, with_changes
from engine.limits import SearchLimits, counting_clock
from engine.search.levels import LEVELS

MASTER = next(level for level in LEVELS if level.name == "master")


def test_a_search_at_fixed_nodes_reports_the_depth_it_finished_and_its_branching() -> None:
    figures = search_position(POSITIONS[0], MASTER, SearchLimits(nodes=30_000), counting_clock())
    assert not figures.decided
    assert figures.depth >= 2
    assert 30_000 <= figures.nodes < 30_100
    assert figures.branching > 0, "measured over the finished iterations"


def test_a_setting_can_be_changed_for_a_run_in_its_own_type() -> None:
    changed = with_changes(MASTER, ["reduction=0", "width=7"])
    assert changed.search.reduction == 0.0 and changed.search.width == 7
    assert isinstance(changed.search.width, int)
    assert changed.search.vct_depth == MASTER.search.vct_depth


def test_positions_decided_before_the_limit_are_left_out_of_the_depth() -> None:
    searched = DepthFigures("a", depth=6, decided=False, nodes=100, seconds=1.0, branching=2.0, move="h8")
    decided = DepthFigures("b", depth=1, decided=True, nodes=10, seconds=0.1, branching=0.0, move="h8")
    totals = summary([searched, decided])
    assert totals["median_depth"] == 6 and totals["decided"] == 1
    assert totals["nodes"] == 110


def test_a_run_prints_a_line_per_position_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--level", "easy", "--nodes", "300"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("easy")
    assert len(lines) == 2 + len(POSITIONS) + 1
    assert lines[-1].startswith("median depth ")
