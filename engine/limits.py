"""How much a bot may think: the limits a caller gives, and the budget that enforces them.

`SearchLimits` is what a caller asks for (time, nodes, depth); every bot,
the engine levels and the classic bots alike, takes one. Inside a search,
a `Budget` enforces the time and node limits: the search counts every
position it visits with `tick()`; every few dozen nodes that also reads
the clock, and past the deadline or the node limit it raises OutOfBudget,
which unwinds the search to whoever holds the last finished result. The
clock is injectable so that tests and benchmarks can drive time by hand.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr


# Plain Python even when this module is compiled: a compiled frozen dataclass cannot be unpickled,
# and every bot move's limits crosses to the server's worker processes.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SearchLimits:
    """How much a bot may think. None means no limit of that kind."""

    time_ms: int | None = None
    """Wall-clock budget for this move, in milliseconds."""
    nodes: int | None = None
    """Maximum number of positions to visit."""
    depth: int | None = None
    """Maximum search depth in plies."""
    most_time_ms: int | None = None
    """The most this move may take while it is critical (the opponent threatens to win, or the
    search is unsettled: its best move changed or its score fell in the last finished depth, see
    `engine.search.search.critical`), when a running clock leaves time to spare; `time_ms` is then
    what it plans to take. None: `time_ms` is also the most."""


Clock = Callable[[], float]
"""Seconds from an arbitrary start, like time.monotonic."""

CHECK_EVERY: Final = 32
"""Nodes between clock reads: a few milliseconds of the engine's search at most (a search whose
nodes cost far more, like the classic `alphabeta`'s, reads the clock at every node)."""
RESERVE_MS: Final = 15
"""Kept back from a time limit for what follows the search (choosing, answering)."""


def counting_clock(step: float = 0.001) -> Clock:
    """A clock that advances `step` seconds each time it is read.

    A budget reads its clock every CHECK_EVERY nodes, so on this clock time
    is a count of nodes (a millisecond per reading is about the engine's
    real speed): searches with a deadline become deterministic, for tests
    and benchmarks.
    """
    readings = itertools.count()
    return lambda: next(readings) * step


class OutOfBudget(Exception):
    """The deadline passed or the node limit was reached."""


class Budget:
    """A deadline (seconds on `clock`) and a node limit, either of them optional, checked
    every `check_every` nodes."""

    def __init__(
        self,
        deadline: float | None = None,
        max_nodes: int | None = None,
        clock: Clock = time.monotonic,
        check_every: int = CHECK_EVERY,
    ) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.clock = clock
        self.check_every = check_every
        self.nodes = 0
        """Positions visited so far."""
        self._next_check = check_every
        self.planned = deadline
        """The deadline the move plans for (`deadline` may move out from it, see `settle`)."""
        self.latest: float | None = None
        """The furthest `deadline` may move while the search is unsettled (None: it stays put)."""

    @classmethod
    def from_limits(cls, limits: SearchLimits, clock: Clock = time.monotonic, check_every: int = CHECK_EVERY) -> Budget:
        """A budget that ends `limits.time_ms` (less a small reserve) from now and after
        `limits.nodes` nodes (None: no such limit; the depth limit is the search's own), whose
        deadline may move out to `limits.most_time_ms` while the search is unsettled (`settle`)."""
        now = clock()
        time_ms = limits.time_ms
        budget = cls(_deadline(now, time_ms), limits.nodes, clock, check_every)
        if time_ms is not None and limits.most_time_ms is not None:
            budget.latest = _deadline(now, max(time_ms, limits.most_time_ms))
        return budget

    def settle(self, unsettled: bool) -> None:
        """Say whether the move is still unsettled (critical, `engine.search.search.critical`): the deadline
        moves out to the latest the limits allow while it is, and back to the planned one once
        it is not (no change without a `most_time_ms`)."""
        if self.latest is not None:
            self.deadline = self.latest if unsettled else self.planned

    def tick(self) -> None:
        """Count one node; raise OutOfBudget when a limit is passed."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.check_every
            self.check()

    def check(self) -> None:
        """Raise OutOfBudget if the deadline or the node limit has passed."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfBudget
        if self.deadline is not None and self.clock() >= self.deadline:
            raise OutOfBudget

    def exhausted(self) -> bool:
        """Whether the deadline or the node limit has passed (what `check` raises for)."""
        try:
            self.check()
        except OutOfBudget:
            return True
        return False

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without one)."""
        return None if self.deadline is None else self.deadline - self.clock()

    def sub_budget(self, fraction: float, max_nodes: int | None = None) -> Budget:
        """A budget sharing this one's clock and count, ending after `fraction` of the time left
        or after `max_nodes` more nodes, whichever comes first (and never after this one)."""
        remaining = self.remaining()
        deadline = None if remaining is None else self.clock() + max(0.0, remaining) * fraction
        limits = [limit for limit in (self.max_nodes, None if max_nodes is None else self.nodes + max_nodes) if limit]
        child = Budget(deadline, min(limits) if limits else None, self.clock, self.check_every)
        child.nodes = self.nodes
        child._next_check = self._next_check
        return child

    def absorb(self, child: Budget) -> None:
        """Take over the nodes a sub-budget counted."""
        self.nodes = child.nodes
        self._next_check = child._next_check


def _deadline(now: float, time_ms: int | None) -> float | None:
    """The clock's reading `time_ms` after `now`, less RESERVE_MS (None without a time)."""
    return None if time_ms is None else now + max(1, time_ms - RESERVE_MS) / 1000


MOVES_TO_PLAN_FOR: Final = 20
"""A running clock is spread over this many further moves."""


def move_time_ms(
    left_ms: int | None, increment_ms: int = 0, cap_ms: int | None = None, reserve_ms: int = 0
) -> int | None:
    """Thinking time for the next move: the share of a running clock one move may use.

    With a clock (`left_ms` left, `increment_ms` added after each move), a
    move may use a MOVES_TO_PLAN_FOR-th of the time left plus half the
    increment, but never more than `cap_ms` (a per-move limit) nor half the
    time left, so that a bot low on time still has some for the moves after.
    Without a clock (`left_ms` None), the move gets `cap_ms`. `reserve_ms`
    is kept back from the result for what happens after the search (an
    answer travelling to a tournament manager). The result is at least 1 ms;
    it is None only when there is neither a clock nor a cap, and then the
    caller uses the level's default time (`engine.registry.default_time_ms`).
    """
    if left_ms is None:
        if cap_ms is None:
            return None
        share = cap_ms
    else:
        share = left_ms // MOVES_TO_PLAN_FOR + increment_ms // 2
        if cap_ms is not None:
            share = min(share, cap_ms)
        share = min(share, left_ms // 2)
    return max(1, share - reserve_ms)


UNSETTLED_SHARES: Final = 3
"""A move whose search is unsettled may take up to this many times its share of a running clock."""
UNSETTLED_PART_OF_LEFT: Final = 8
"""...but never more than this part of the time left (a 1/8 against the 1/MOVES_TO_PLAN_FOR share)."""


def most_move_time_ms(share_ms: int, left_ms: int | None, cap_ms: int | None = None) -> int | None:
    """The most a move given `share_ms` of a running clock (`left_ms` left) may take while its
    search is unsettled (`SearchLimits.most_time_ms`): UNSETTLED_SHARES times its share, never
    more than `cap_ms` nor a UNSETTLED_PART_OF_LEFT-th of the time left, nor less than the
    share. None without a clock: a move with only a per-move limit already uses all of it."""
    if left_ms is None:
        return None
    most = min(share_ms * UNSETTLED_SHARES, left_ms // UNSETTLED_PART_OF_LEFT)
    if cap_ms is not None:
        most = min(most, cap_ms)
    return max(share_ms, most)
