"""Depth benchmark: how deep a level's search gets, and at what cost, on fixed middle-game positions.

Run with `./dev run python -m bench.depth` (options: `--level`, `--nodes`,
`--cpu-ms`, `--time-ms`, `--set`, `--json`). `--set NAME=VALUE` changes one of
the level's `SearchSettings` for the run (`--set reduction=0.8`), to try a
setting before changing the level.

Strong engines win by depth, and depth comes from searching few moves:
this benchmark says how deep a level gets on the same 24 positions (the 8
quiet middle games of `bench.engine` and the 16 sharp positions of
`bench.defence`) within a limit, and what each finished depth cost. Per
position it prints the deepest finished iteration, the nodes, the nodes
per second, the time used, and the effective branching factor: the ratio
of the nodes of the last finished iteration to those of the one before,
averaged geometrically (a search that prunes well has a small one). A
position the root threat search decides (a VCF or VCT found at once) has
no iterations, and a position whose search proves a win or a loss stops
before its limit: both are counted apart, as decided.

Two kinds of limit:

* `--nodes N` (the default, 100,000): the search stops after N nodes, on
  `counting_clock`, so that the figures are the same on every machine and
  every run. Use it to compare two versions of the search.
* `--cpu-ms T`: the search runs T ms on this process's CPU clock
  (`time.process_time`), which other work on a busy machine disturbs far
  less than the wall clock: depth in a given time, the figure that
  matters in play, measured on a shared machine.
* `--time-ms T`: the search runs on the wall clock, as a bot seat does.
  Its figures depend on the machine and its load, which is printed beside
  them (the one-minute load average before and after).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bench.defence import POSITIONS as DEFENCE_POSITIONS
from bench.engine import MIDDLE_GAMES, board_of
from engine.limits import Budget, Clock, SearchLimits, counting_clock
from engine.notation import format_point
from engine.search.levels import LEVELS, LevelSettings
from engine.search.position import WON
from engine.search.search import Searcher, SearchResult

POSITIONS: tuple[str, ...] = MIDDLE_GAMES + tuple(pairs for pairs, _, _ in DEFENCE_POSITIONS)
"""Letter-pair move lists of the positions searched: quiet middle games, then sharp ones."""

DEFAULT_NODES = 100_000
"""About a second and a half of `master`'s compiled search on a quiet machine."""


@dataclass(frozen=True, slots=True)
class DepthFigures:
    """What one search of one position reached."""

    position: str
    depth: int
    """The deepest finished iteration (0 when the root threat search decided the move)."""
    decided: bool
    """Whether the outcome was settled before the limit: the root threat search found a win
    (a VCF or VCT, with no iterations), or an iteration proved a win or a loss."""
    nodes: int
    seconds: float
    branching: float
    """Effective branching factor: the geometric mean of each iteration's nodes over the one
    before, over the last three iterations (0.0 with fewer than two)."""
    move: str
    root_threat_nodes: int
    """Nodes of the root VCF and VCT (see `NodeCounts`)."""
    safety_nodes: int
    """Nodes of the safety checks."""
    leaf_vcf_nodes: int
    """Nodes of the VCF at the leaves."""
    fours_first_nodes: int
    """Nodes of the own VCF looked for before defending an open three."""
    tree_at_ply: tuple[int, ...]
    """Tree positions by ply from the root."""
    cutoffs_at: tuple[int, ...]
    """Beta cut-offs by the index of the move that made them."""


def search_position(pairs: str, level: LevelSettings, limits: SearchLimits, clock: Clock) -> DepthFigures:
    """Search one position with `level`'s settings within `limits` on `clock` and record how far it
    got (its time on the same clock)."""
    board = board_of(pairs)
    budget = Budget.from_limits(limits, clock)
    searcher = Searcher(board, level.search, budget, full_root_window=level.tolerance > 0)
    started = clock()
    results: list[SearchResult] = []
    iteration_nodes: list[int] = []
    for result in searcher.iterate():
        results.append(result)
        iteration_nodes.append(result.nodes)
    seconds = clock() - started
    last = results[-1] if results else None
    by_threats = last is not None and not last.root_scores and len(results) == 1
    return DepthFigures(
        position=pairs,
        depth=0 if last is None or by_threats else last.depth,
        decided=last is not None and (by_threats or abs(last.score) > WON),
        nodes=budget.nodes,
        seconds=seconds,
        branching=_branching(iteration_nodes),
        move="-" if last is None else format_point(last.move, board.size),
        root_threat_nodes=searcher.counts.root_threats,
        safety_nodes=searcher.counts.safety,
        leaf_vcf_nodes=searcher.counts.leaf_vcf,
        fours_first_nodes=searcher.counts.fours_first,
        tree_at_ply=tuple(searcher.counts.tree_at_ply),
        cutoffs_at=tuple(searcher.counts.cutoffs_at),
    )


def _branching(cumulative_nodes: list[int]) -> float:
    """The effective branching factor from the node counts after each iteration."""
    per_iteration = [after - before for before, after in zip([0, *cumulative_nodes], cumulative_nodes, strict=False)]
    pairs = zip(per_iteration, per_iteration[1:], strict=False)
    ratios = [after / before for before, after in pairs if before > 0 and after > 0]
    ratios = ratios[-3:]
    if not ratios:
        return 0.0
    return math.exp(sum(math.log(ratio) for ratio in ratios) / len(ratios))


def with_changes(level: LevelSettings, changes: list[str]) -> LevelSettings:
    """`level` with the `SearchSettings` fields named in `changes` (each `NAME=VALUE`) set, each
    value read as the field's type."""
    search = level.search
    for change in changes:
        name, _, text = change.partition("=")
        current = getattr(search, name)
        value: Any = type(current)(float(text)) if isinstance(current, (int, float)) else type(current)(text)
        search = dataclasses.replace(search, **{name: value})
    return dataclasses.replace(level, search=search)


def summary(figures: list[DepthFigures]) -> dict[str, float]:
    """Median and mean depth over the positions not decided before the limit, and overall speed."""
    searched = [figure for figure in figures if not figure.decided]
    depths = [figure.depth for figure in searched]
    nodes = sum(figure.nodes for figure in figures)
    seconds = sum(figure.seconds for figure in figures)
    branching = [figure.branching for figure in searched if figure.branching > 0]
    return {
        "positions": len(figures),
        "decided": len(figures) - len(searched),
        "median_depth": statistics.median(depths) if depths else 0.0,
        "mean_depth": statistics.fmean(depths) if depths else 0.0,
        "median_branching": statistics.median(branching) if branching else 0.0,
        "nodes": nodes,
        "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
    }


PLIES_SHOWN = 12
"""Plies of the tree whose branching factor `where_nodes_go` shows."""


def where_nodes_go(figures: list[DepthFigures]) -> list[str]:
    """Lines saying where the nodes of every search went, summed over the positions: each threat
    search's share, the tree's, the tree's branching factor per ply (its positions at a ply over
    those at the ply before), and how often a cut-off came from the first, second... move."""
    total = sum(figure.nodes for figure in figures) or 1
    parts = {
        "root VCF/VCT": sum(figure.root_threat_nodes for figure in figures),
        "safety checks": sum(figure.safety_nodes for figure in figures),
        "leaf VCF": sum(figure.leaf_vcf_nodes for figure in figures),
        "own VCF before defending": sum(figure.fours_first_nodes for figure in figures),
    }
    parts["tree"] = total - sum(parts.values())
    lines = ["nodes: " + ", ".join(f"{name} {count / total:.1%}" for name, count in parts.items())]
    at_ply = [sum(column) for column in zip(*(figure.tree_at_ply for figure in figures), strict=True)]
    shown = zip(at_ply[1 : PLIES_SHOWN + 1], at_ply[2 : PLIES_SHOWN + 2], strict=True)
    ratios = [f"{ply + 1}:{after / before:.2f}" for ply, (before, after) in enumerate(shown) if before]
    lines.append("tree branching, ply over the ply before: " + " ".join(ratios))
    cutoffs = [sum(column) for column in zip(*(figure.cutoffs_at for figure in figures), strict=True)]
    cut_total = sum(cutoffs) or 1
    firsts = ", ".join(f"move {index + 1} {count / cut_total:.1%}" for index, count in enumerate(cutoffs[:4]))
    lines.append(f"cut-offs ({sum(cutoffs):,}): {firsts}, later {sum(cutoffs[4:]) / cut_total:.1%}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.depth", description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="master", help="engine level (default: master)")
    parser.add_argument("--time-ms", type=int, help="search each position this long on the wall clock")
    parser.add_argument("--cpu-ms", type=int, help="search each position this long on this process's CPU clock")
    parser.add_argument("--nodes", type=int, help=f"search each position this many nodes (default {DEFAULT_NODES:,})")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="change a search setting")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    time_ms = arguments.time_ms or arguments.cpu_ms
    limits = SearchLimits(time_ms=time_ms, nodes=arguments.nodes or (None if time_ms else DEFAULT_NODES))
    clock_name, clock = (
        ("wall clock", time.monotonic)
        if arguments.time_ms
        else ("CPU clock", time.process_time)
        if arguments.cpu_ms
        else ("counting clock", counting_clock())
    )
    load_before = os.getloadavg()[0]
    level = with_changes(next(level for level in LEVELS if level.name == arguments.level), arguments.set)
    figures = [search_position(pairs, level, limits, clock) for pairs in POSITIONS]
    load_after = os.getloadavg()[0]
    totals = summary(figures)
    if arguments.json:
        print(json.dumps({"figures": [asdict(figure) for figure in figures], "summary": totals}, indent=1))
        return 0
    print(f"{arguments.level} {' '.join(arguments.set)}, {limits}, {clock_name}")
    if time_ms:
        print(f"one-minute load average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")
    print(f"{'position':<24} {'depth':>5} {'nodes':>8} {'nodes/s':>8} {'seconds':>7} {'branching':>9}  move")
    for figure in figures:
        depth = f"{figure.depth}*" if figure.decided else str(figure.depth)
        speed = figure.nodes / figure.seconds if figure.seconds > 0 else 0.0
        print(
            f"{figure.position[:22]:<24} {depth:>5} {figure.nodes:>8} {speed:>8.0f} {figure.seconds:>7.2f}"
            f" {figure.branching:>9.2f}  {figure.move}"
        )
    print(
        f"median depth {totals['median_depth']:.1f}, mean {totals['mean_depth']:.2f} over"
        f" {totals['positions'] - totals['decided']} positions ({totals['decided']} decided, marked *);"
        f" median branching {totals['median_branching']:.2f}; {totals['nodes']:,} nodes,"
        f" {totals['nodes_per_second']:,.0f} nodes/s"
    )
    for line in where_nodes_go(figures):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
