"""Reading the values that commands take (pure): clocks, rules, board sizes, colours, names, numbers.

Each reader raises `CommandError` with a message saying what was expected,
and refuses what the server would refuse, so that the player hears of a
mistake before anything is sent. `GameTerms` are the options that `create`,
`seek` and `pair` share.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.types import Color, Rule


class CommandError(ValueError):
    """A line that is not a command; the message says what was expected."""


PLAYER_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A player's name as the server allows it (a bot's is its level)."""

MAX_INITIAL_MS = 24 * 3600 * 1000
MAX_INCREMENT_MS = 3600 * 1000
"""The longest time control the server accepts."""

_CLOCK = re.compile(r"(?:(\d+):([0-5]\d(?:\.\d+)?)|(\d+(?:\.\d+)?))(?:\+(\d+(?:\.\d+)?))?")
"""`MINUTES[+SECONDS]` or `MINUTES:SS[+SECONDS]`, as `client.render.format_clock_setting` writes them."""


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What game a player asks for: the options `create`, `seek` and `pair` share."""

    rule: Rule = Rule.FREESTYLE
    size: int = 15
    clock: tuple[int, int] | None = None
    """(initial_ms, increment_ms), or None for an untimed game."""
    rated: bool = False

    def with_option(self, option: str, words: Iterator[str]) -> GameTerms | None:
        """These terms changed by `option` (reading its value from `words`), or None when `option`
        is not one of them. Raises CommandError for a bad value."""
        match option:
            case "rule":
                return replace(self, rule=read_rule(value_of(option, words)))
            case "size":
                return replace(self, size=read_size(value_of(option, words)))
            case "clock":
                return replace(self, clock=parse_clock(value_of(option, words)))
            case "rated":
                return replace(self, rated=True)
        return None

    def checked(self) -> GameTerms:
        """These terms, if the server can play them. Raises CommandError."""
        if self.rule is Rule.RENJU and self.size != 15:
            raise CommandError("renju is played on 15x15 only")
        return self


def value_of(option: str, words: Iterator[str]) -> str:
    """The word after `option`. Raises CommandError when there is none."""
    value = next(words, None)
    if value is None:
        raise CommandError(
            f"'{option}' needs a value" + (": two levels, black's then white's" if option == "bots" else "")
        )
    return value


def read_colour(text: str) -> Color:
    try:
        return Color.parse(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


def read_rule(text: str) -> Rule:
    try:
        return Rule.parse(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


def read_size(text: str) -> int:
    if not text.isdigit() or not 5 <= int(text) <= 26:
        raise CommandError(f"size must be a number from 5 to 26, not {text!r}")
    return int(text)


def read_player_name(text: str) -> str:
    if not PLAYER_NAME.fullmatch(text):
        raise CommandError(f"{text!r} is not a player name (1 to 32 of A-Z a-z 0-9 _ -)")
    return text


def read_count(text: str, what: str, most: int) -> int:
    """A whole number from 1 to `most`."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:
        raise CommandError(f"{what} must be a number from 1 to {most}, not {text!r}")
    return int(text)


def positive_number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"{what} must be a number, not {text!r}") from None
    if value <= 0:
        raise CommandError(f"{what} must be more than zero")
    return value


def parse_clock(text: str) -> tuple[int, int]:
    """(initial_ms, increment_ms) from `5+3` (five minutes, three seconds added per move), `10` (ten
    minutes, no increment) or `0:30+1` (thirty seconds). Raises CommandError, also for a time control
    the server would refuse."""
    match = _CLOCK.fullmatch(text)
    if match is None:
        raise CommandError(f"clock is MINUTES+SECONDS, like '5+3' (or '0:30+1' under a minute), not {text!r}")
    minutes, seconds, decimal_minutes, increment = match.groups()
    if decimal_minutes is not None:
        initial_ms = round(float(decimal_minutes) * 60_000)
    else:
        initial_ms = int(minutes) * 60_000 + round(float(seconds) * 1000)
    increment_ms = round(float(increment or 0) * 1000)
    if initial_ms <= 0:
        raise CommandError("a clock needs some time to start with")
    if initial_ms > MAX_INITIAL_MS:
        raise CommandError("a clock starts with 24 hours at most")
    if increment_ms > MAX_INCREMENT_MS:
        raise CommandError("the increment is an hour at most")
    return initial_ms, increment_ms
