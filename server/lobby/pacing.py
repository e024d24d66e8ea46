"""Counting what each player or address did lately, in memory that lasts only as long as the window.

`RecentCounts` keeps one queue of events for all keys, oldest first, and a
count per key: counting expires the events that have left the window, and
a key whose count falls to zero is forgotten, so that a player or an
address that has gone quiet costs nothing.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Generic, TypeVar

Key = TypeVar("Key")


class RecentCounts(Generic[Key]):
    """How many times each key has done something within the last `window_s` seconds."""

    def __init__(self, window_s: float) -> None:
        self._window_s = window_s
        self._events: deque[tuple[float, Key]] = deque()
        self._counts: Counter[Key] = Counter()

    def count(self, key: Key, now: float) -> int:
        """How many times `key` did it within the window ending at `now`."""
        self._expire(now)
        return self._counts[key]

    def add(self, key: Key, now: float) -> None:
        """Count one more for `key` at `now` (not earlier than the times counted before)."""
        self._events.append((now, key))
        self._counts[key] += 1

    def __len__(self) -> int:
        """How many keys have done something within the window, as of the last count."""
        return len(self._counts)

    def _expire(self, now: float) -> None:
        while self._events and self._events[0][0] <= now - self._window_s:
            _, key = self._events.popleft()
            self._counts[key] -= 1
            if not self._counts[key]:
                del self._counts[key]
