"""How long each level's opening decisions take at the level's default time.

    ./dev run python -m bench.opening_times                        # every level, 3 openings of each rule
    ./dev run python -m bench.opening_times --levels hard master --openings 5

A bot deciding an opening step gets the time a move would get: in an
untimed game the level's default time (`engine.registry.default_time_ms`).
The judge (`engine.opening_judge`) turns that time into a node budget and
keeps a tenth of it back, so a decision should end before its time even
on a busy machine, and often well before it when the level's search ends
at its maximum depth first. This bench checks that: for each level, bots
of that level take every decision of a swap2 opening (freestyle) and of a
Soosõrv-8 opening (renju), several openings each, and it prints the
longest wall time each kind of decision took, and the longest of all as a
share of the level's default time (below 100% means within it).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import defaultdict
from collections.abc import Sequence

from engine.limits import SearchLimits
from engine.opening_bot import decide_opening
from engine.openings import OpeningRule, Stage, apply, start_opening
from engine.registry import default_time_ms, level_names
from engine.types import Rule

RULES: tuple[tuple[OpeningRule, Rule], ...] = ((OpeningRule.SWAP2, Rule.FREESTYLE), (OpeningRule.SOOSORV8, Rule.RENJU))
"""The openings played: between them they have every kind of decision (swap's two are swap2's first
and Soosõrv-8's first swap)."""

COLUMNS: tuple[tuple[Stage, str], ...] = (
    (Stage.OPENING_STONES, "stones"),
    (Stage.SWAP2_OPTIONS, "swap2 2nd"),
    (Stage.SWAP2_LAST_CHOICE, "swap2 1st"),
    (Stage.FIRST_SWAP, "swap"),
    (Stage.FOURTH_STONE, "4th"),
    (Stage.DECLARE_OFFERS, "declare"),
    (Stage.SECOND_SWAP, "swap 2"),
    (Stage.OFFER_FIFTHS, "offer"),
    (Stage.SELECT_FIFTH, "select"),
)
"""Each kind of decision and its column heading: swap2's second player's options and the first
player's last choice, then Soosõrv-8's steps in order."""


def decision_times(level: str, openings: int) -> dict[Stage, list[float]]:
    """The wall time in ms of each decision, by kind, when bots of `level` play out `openings`
    openings of each rule at the level's default time."""
    limits = SearchLimits(time_ms=default_time_ms(level))
    times: dict[Stage, list[float]] = defaultdict(list)
    for opening_rule, rule in RULES:
        for seed in range(openings):
            state = start_opening(opening_rule, 15, rule)
            while (player := state.to_decide) is not None:
                began = time.monotonic()
                step = decide_opening(state, level, limits, seed=100 * seed + len(state.steps))
                times[state.stage].append(1000 * (time.monotonic() - began))
                state = apply(state, player, step)
    return times


def table_row(level: str, times: dict[Stage, list[float]]) -> str:
    cells = [f"{max(times[stage]):>9.0f}" if times.get(stage) else f"{'-':>9}" for stage, _ in COLUMNS]
    longest = max(max(values) for values in times.values())
    default = default_time_ms(level)
    return f"{level:10} {default:>7} " + " ".join(cells) + f" {100 * longest / default:>7.0f}%"


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.opening_times", description=__doc__.split("\n")[0])
    parser.add_argument("--levels", nargs="+", default=level_names(), help="the levels to time (default: all)")
    parser.add_argument("--openings", type=int, default=3, help="openings of each rule per level (default 3)")
    arguments = parser.parse_args(argv)
    unknown = [level for level in arguments.levels if level not in level_names()]
    if unknown:
        parser.error(f"unknown level {unknown[0]!r}: expected one of {', '.join(level_names())}")
    if arguments.openings < 1:
        parser.error("--openings must be positive")
    began = time.monotonic()
    print("The longest wall time of each kind of decision, in ms, at the level's default time:")
    print(f"{'level':10} {'default':>7} " + " ".join(f"{heading:>9}" for _, heading in COLUMNS) + " longest")
    for level in arguments.levels:
        print(table_row(level, decision_times(level, arguments.openings)), flush=True)
    print(f"wall time {time.monotonic() - began:.0f} s")
    print(shlex.join(["./dev", "run", "python", "-m", "bench.opening_times", *argv]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
