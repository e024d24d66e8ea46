"""bench.depth: how deep a level gets on fixed positions, at fixed nodes or time."""

import pytest

from bench.depth import POSITIONS, DepthFigures, main, search_position, summary, where_nodes_go, with_changes
from engine.limits import SearchLimits, counting_clock
from engine.search.levels import LEVELS

MASTER = next(level for level in LEVELS if level.name == "master")


def test_a_search_at_fixed_nodes_reports_the_depth_it_finished_and_its_branching() -> None:
    figures = search_position(POSITIONS[0], MASTER, SearchLimits(nodes=30_000), counting_clock())
    assert not figures.decided
    assert figures.depth >= 2
    assert 30_000 <= figures.nodes < 30_100
    assert figures.branching > 0, "measured over the finished iterations"


def test_a_search_says_where_its_nodes_went() -> None:
    figures = search_position(POSITIONS[0], MASTER, SearchLimits(nodes=30_000), counting_clock())
    threats = figures.root_threat_nodes + figures.safety_nodes + figures.leaf_vcf_nodes + figures.fours_first_nodes
    assert 0 < threats < figures.nodes and figures.leaf_vcf_nodes > 0
    assert figures.tree_at_ply[1] > 0 and figures.tree_at_ply[0] == 0, "the root's moves are at ply 1"
    assert sum(figures.tree_at_ply) + threats <= figures.nodes
    assert figures.cutoffs_at[0] > figures.cutoffs_at[1] > 0, "the first move cuts off most often"
    shares, branching, cutoffs = where_nodes_go([figures])
    assert shares.startswith("nodes: root VCF/VCT") and shares.endswith("%")
    assert branching.split(": ")[1].startswith("1:")
    assert cutoffs.startswith(f"cut-offs ({sum(figures.cutoffs_at):,}): move 1 ")


def searched_figures(position: str, depth: int, decided: bool, nodes: int) -> DepthFigures:
    return DepthFigures(
        position,
        depth,
        decided,
        nodes,
        seconds=1.0,
        branching=2.0,
        move="h8",
        root_threat_nodes=0,
        safety_nodes=0,
        leaf_vcf_nodes=0,
        fours_first_nodes=0,
        tree_at_ply=(0, nodes),
        cutoffs_at=(1,),
    )


def test_a_setting_can_be_changed_for_a_run_in_its_own_type() -> None:
    changed = with_changes(MASTER, ["reduction=0", "width=7"])
    assert changed.search.reduction == 0.0 and changed.search.width == 7
    assert isinstance(changed.search.width, int)
    assert changed.search.vct_depth == MASTER.search.vct_depth


def test_positions_decided_before_the_limit_are_left_out_of_the_depth() -> None:
    searched = searched_figures("a", depth=6, decided=False, nodes=100)
    decided = searched_figures("b", depth=1, decided=True, nodes=10)
    totals = summary([searched, decided])
    assert totals["median_depth"] == 6 and totals["decided"] == 1
    assert totals["nodes"] == 110


def test_a_run_prints_a_line_per_position_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--level", "easy", "--nodes", "300"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("easy")
    assert len(lines) == 2 + len(POSITIONS) + 1 + 3
    assert lines[-4].startswith("median depth ")
    assert lines[-1].startswith("cut-offs")
