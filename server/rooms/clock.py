"""The Fischer clock of one game, kept by the server.

Times are read from a monotonic clock given by the caller (seconds, as
`loop.time()` returns them), so the room that owns the clock can be tested
without waiting: a test simply passes a later `now`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.record import ClockSetting
from engine.types import Color


def elapsed_ms(since: float, now: float) -> int:
    """Whole milliseconds from `since` to `now` (never negative)."""
    return max(0, int((now - since) * 1000))


@dataclass(slots=True)
class GameClock:
    """Time left for each colour; at most one colour's time runs."""

    setting: ClockSetting
    """Initial time and increment."""
    black_ms: int
    """Black's time left when its time last stopped (or at the start)."""
    white_ms: int
    """White's time left when its time last stopped (or at the start)."""
    running: Color | None = None
    """The colour whose time is running, or None when stopped."""
    since: float = 0.0
    """When the running colour's time started to run."""

    @classmethod
    def fresh(cls, setting: ClockSetting) -> GameClock:
        """A stopped clock with the initial time on both sides."""
        return cls(setting, setting.initial_ms, setting.initial_ms)

    def stored_ms(self, color: Color) -> int:
        """The colour's time left as of the last stop, not counting time running now."""
        return self.black_ms if color is Color.BLACK else self.white_ms

    def left_ms(self, color: Color, now: float) -> int:
        """The colour's time left at `now` (zero or more)."""
        stored = self.stored_ms(color)
        if color is self.running:
            stored -= elapsed_ms(self.since, now)
        return max(0, stored)

    def flag_at(self) -> float | None:
        """When the running colour's time runs out, or None when stopped."""
        if self.running is None:
            return None
        return self.since + self.stored_ms(self.running) / 1000

    def has_flagged(self, now: float) -> bool:
        """Whether the running colour's time has run out at `now`."""
        flag = self.flag_at()
        return flag is not None and now >= flag

    def start(self, color: Color, now: float) -> None:
        """Stop whatever runs (charging it) and run `color`'s time from `now`."""
        self.stop(now)
        self.running = color
        self.since = now

    def stop(self, now: float) -> None:
        """Charge the running colour the time since it started, and stop."""
        if self.running is not None:
            self._set(self.running, self.left_ms(self.running, now))
        self.running = None

    def after_move(self, mover: Color, now: float) -> None:
        """The mover's time stops, gets the increment, and the opponent's time runs."""
        self.stop(now)
        self._set(mover, self.stored_ms(mover) + self.setting.increment_ms)
        self.running = mover.other
        self.since = now

    def swap_sides(self, now: float) -> None:
        """The players have swapped colours (an opening's choice): each keeps their own time left,
        now under their new colour. The clock is stopped, charging the running side first."""
        self.stop(now)
        self.black_ms, self.white_ms = self.white_ms, self.black_ms

    def _set(self, color: Color, value: int) -> None:
        if color is Color.BLACK:
            self.black_ms = value
        else:
            self.white_ms = value
