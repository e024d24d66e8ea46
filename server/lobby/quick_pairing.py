"""Which waiting quick seeks a lobby tick pairs, in O(n log n) for n seeks.

The rule (`pair_quick_seeks`): two seeks may pair when their terms are the
same, their owners differ, and their ratings are at most the wider of their
two windows apart; among the pairs that may, the nearest in rating pairs
first (the older first seek, then the older seeks, on a tie), and so on
greedily until no pair is left that may.

Comparing every pair of seeks makes that quadratic. Here each bucket of
seeks of the same terms is put in rating order, and a seek is only compared
with the next few seeks that could be its best partner: a seek C between A
and B whose owner is neither A's nor B's is at least as near to one of
them, and pairs with it if they may (whichever window lets A and B pair
reaches C too), so A and B are not compared past C. The seeks between
any two compared ones thus belong to one of the two owners, and an owner
has at most a few seeks waiting. When a pair leaves, the seeks just before
the gap are compared again, now across it.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from server.lobby.seeks import GameTerms, Seek

PairKey = tuple[float, float, int, int]
"""How soon a pair is taken: rating difference, the first seek's wait, then the two seeks' order."""


def pair_quick_seeks(waiting: Sequence[Seek], now: float) -> list[tuple[Seek, Seek]]:
    """The pairs the waiting quick seeks make at `now`, the older seek of each first, in the order
    they are made. `waiting` is in the order the seeks arrived (which breaks ties of `since`)."""
    by_age = sorted(waiting, key=lambda seek: seek.since)
    order = {seek.seek_id: index for index, seek in enumerate(by_age)}
    buckets: dict[GameTerms, list[Seek]] = {}
    for seek in by_age:
        buckets.setdefault(seek.terms, []).append(seek)
    made: list[tuple[PairKey, Seek, Seek]] = []
    for bucket in buckets.values():
        made += _RatingLine(bucket, order, now).pair()
    return [(first, second) for _, first, second in sorted(made, key=lambda pair: pair[0])]


@dataclass
class _RatingLine:
    """One bucket's seeks in rating order, linked both ways through those not paired yet."""

    seeks: list[Seek]
    order: dict[str, int]
    """Each seek's place by age (its order of arrival on a tie)."""
    now: float
    _after: list[int] = field(init=False)
    _before: list[int] = field(init=False)
    _paired: list[bool] = field(init=False)
    _windows: list[float] = field(init=False)
    _candidates: list[tuple[PairKey, int, int]] = field(init=False, default_factory=list)
    _offered: set[tuple[int, int]] = field(init=False, default_factory=set)

    def __post_init__(self) -> None:
        self.seeks = sorted(self.seeks, key=lambda seek: (seek.rating, self.order[seek.seek_id]))
        count = len(self.seeks)
        self._after = list(range(1, count + 1))
        self._before = list(range(-1, count - 1))
        self._paired = [False] * count
        self._windows = [seek.window(self.now) for seek in self.seeks]

    def pair(self) -> list[tuple[PairKey, Seek, Seek]]:
        """Pair greedily, nearest first, until no candidate is left."""
        for position in range(len(self.seeks)):
            self._offer_from(position)
        made = []
        while self._candidates:
            key, left, right = heapq.heappop(self._candidates)
            if self._paired[left] or self._paired[right]:
                continue
            first, second = sorted((self.seeks[left], self.seeks[right]), key=lambda seek: self.order[seek.seek_id])
            made.append((key, first, second))
            gaps = [self._unlink(left), self._unlink(right)]
            for just_before in gaps:
                self._offer_across(just_before)
        return made

    def _offer_from(self, left: int) -> None:
        """Make candidates of `left` and each later seek it could be paired with best: up to the
        first seek of a third owner (the seeks of `left`'s owner are skipped)."""
        owner = self.seeks[left].owner
        partner_owner: str | None = None
        right = self._after[left]
        while right < len(self.seeks):
            candidate = self.seeks[right].owner
            if candidate != owner:
                if partner_owner is None:
                    partner_owner = candidate
                elif candidate != partner_owner:
                    return
                self._offer(left, right)
            right = self._after[right]

    def _offer(self, left: int, right: int) -> None:
        if (left, right) in self._offered:
            return
        low, high = self.seeks[left], self.seeks[right]
        difference = abs(high.rating - low.rating)
        if difference > max(self._windows[left], self._windows[right]):
            return
        self._offered.add((left, right))
        first, second = sorted((self.order[low.seek_id], self.order[high.seek_id]))
        since = min(low.since, high.since)
        heapq.heappush(self._candidates, ((difference, since, first, second), left, right))

    def _unlink(self, position: int) -> int:
        """Take a paired seek out of the line; the position of the seek before it (-1 if none)."""
        self._paired[position] = True
        before, after = self._before[position], self._after[position]
        if before >= 0:
            self._after[before] = after
        if after < len(self.seeks):
            self._before[after] = before
        return before

    def _offer_across(self, just_before: int) -> None:
        """Compare again the seeks before a gap that may now be compared past it: walking back,
        until a third owner appears."""
        owners: set[str] = set()
        position = just_before
        while position >= 0:
            owners.add(self.seeks[position].owner)
            if len(owners) > 2:
                return
            self._offer_from(position)
            position = self._before[position]
