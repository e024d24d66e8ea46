"""Failed password attempts, limited per name and per address within a window of time.

An attacker guessing one name's password from many addresses meets the name's throttle; one address
guessing many names meets its own limit. A name is throttled, not locked: past its free failures
within the window, each further attempt waits a pause after the last failure, doubling with each
one (5 s, 10 s, 20 s ...) up to `longest_pause_s`, so that guesses slow to a trickle while the name's
owner, whom anyone could otherwise lock out, waits at most that pause (a device already signed in
needs no password at all). An address past its limit waits until its oldest failure counted leaves
the window. Either way the answer is `rate_limited`, saying how long to wait. An attempt counts as failed from the
moment it is let in until its password proves right, so that many guesses sent at once cannot all
pass the check before the first is judged. Kept in memory: a restart forgets it.
"""

from __future__ import annotations

import math
from collections import deque

from server.domain import Refusal

FIRST_PAUSE_S = 5.0
"""A throttled name's first pause after a wrong password: longer than one check of a password takes."""


class _Failures:
    """When each key failed, within the window: the oldest first. A key whose failures have all left
    the window is forgotten at the next failure counted (of any key), so that names tried once and
    never again are not kept for ever."""

    def __init__(self, window_s: float) -> None:
        self._window_s = window_s
        self._times: dict[str, deque[float]] = {}
        self._added: deque[tuple[float, str]] = deque()
        """Every failure counted, oldest first: which keys may have gone stale."""

    def __len__(self) -> int:
        """How many keys are held (some may have no failure left in the window until the next add)."""
        return len(self._times)

    def recent(self, key: str, now: float) -> deque[float]:
        """The times `key` failed within the window ending at `now` (a key with none is forgotten)."""
        times = self._times.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self._window_s:
            times.popleft()
        if not times:
            del self._times[key]
        return times

    def add(self, key: str, now: float) -> None:
        while self._added and self._added[0][0] <= now - self._window_s:
            _, stale = self._added.popleft()
            self.recent(stale, now)
        self._times.setdefault(key, deque()).append(now)
        self._added.append((now, key))

    def discard(self, key: str, when: float) -> None:
        """Forget the failure counted for `key` at `when` (if it is still within the window)."""
        times = self._times.get(key)
        if times is not None and when in times:
            times.remove(when)
            if not times:
                del self._times[key]

    def pause_s(self, key: str, now: float, free: int, longest_s: float) -> float:
        """How long until `key` may try again when throttled: 0 while it has failed fewer than `free`
        times within the window, then a pause after its last failure of FIRST_PAUSE_S, doubled for
        each failure past `free`, at most `longest_s`."""
        times = self.recent(key, now)
        past = len(times) - free
        if past < 0:
            return 0.0
        return max(0.0, times[-1] + min(longest_s, FIRST_PAUSE_S * 2.0**past) - now)

    def wait_s(self, key: str, now: float, limit: int) -> float:
        """How long until `key` may try again: 0 while it has failed fewer than `limit` times."""
        times = self.recent(key, now)
        if len(times) < limit:
            return 0.0
        return times[len(times) - limit] + self._window_s - now


class SignInAttempts:
    """Counts failed password attempts per name (ignoring case), which throttle the name, and per
    address, which limit the address."""

    def __init__(self, per_name: int, per_address: int, window_s: float, longest_pause_s: float = 60.0) -> None:
        self._per_name = per_name
        self._longest_pause_s = longest_pause_s
        self._per_address = per_address
        self._by_name = _Failures(window_s)
        self._by_address = _Failures(window_s)

    def begin(self, name: str, address: str, now: float) -> None:
        """Let an attempt for `name` from `address` in, counted as failed until `succeeded`; refuse it
        (`rate_limited`, with the wait) past either limit."""
        self.check(name, address, now)
        self.failed(name, address, now)

    def succeeded(self, name: str, address: str, began: float) -> None:
        """The attempt let in at `began` had the right password: it is not a failure after all."""
        self._by_name.discard(name.lower(), began)
        self._by_address.discard(address, began)

    def check(self, name: str, address: str, now: float) -> None:
        """Refuse (`rate_limited`, with the wait) an attempt for `name` from `address` past either limit."""
        wait = max(
            self._by_name.pause_s(name.lower(), now, self._per_name, self._longest_pause_s),
            self._by_address.wait_s(address, now, self._per_address),
        )
        if wait > 0:
            raise Refusal("rate_limited", f"too many wrong passwords; try again in {math.ceil(wait)} s")

    @property
    def held(self) -> int:
        """How many names and addresses the counts hold in memory."""
        return len(self._by_name) + len(self._by_address)

    def failed(self, name: str, address: str, now: float) -> None:
        """Count a wrong password for `name` from `address`."""
        self._by_name.add(name.lower(), now)
        self._by_address.add(address, now)
