"""Reading the values that commands take (pure): points, clocks, rules, openings, board sizes, colours,
names, numbers.

Each reader raises `CommandError` with a message saying what was expected,
and refuses what the server would refuse, so that the player hears of a
mistake before anything is sent. `GameTerms` are the options that `create`,
`seek` and `pair` share.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import get_args

from engine.errors import NotationError
from engine.notation import looks_like_point, parse_point
from engine.types import Color, Point, Rule
from wire.messages import OpeningName


class CommandError(ValueError):
    """A line that is not a command; the message says what was expected."""


PLAYER_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A player's name as the server allows it (a bot's is its level)."""

MAX_INITIAL_MS = 24 * 3600 * 1000
MAX_INCREMENT_MS = 3600 * 1000
"""The longest time control the server accepts."""

_XY_POINT = re.compile(r"(\d{1,2})\s*,\s*(\d{1,2})")
OPENINGS: tuple[OpeningName, ...] = get_args(OpeningName)
"""The opening rules: `none`, `swap`, `swap2`, and `soosorv8` (renju's)."""

_CLOCK = re.compile(r"(?:(\d+):([0-5]\d(?:\.\d+)?)|(\d+(?:\.\d+)?))(?:\+(\d+(?:\.\d+)?))?")
"""`MINUTES[+SECONDS]` or `MINUTES:SS[+SECONDS]`, as `client.render.format_clock_setting` writes them."""


@dataclass(frozen=True, slots=True)
class TypedPoint:
    """A point as the player typed it: `7,7` (wire coordinates, which need no board size) or `h8`
    (notation, read once the board size is known)."""

    point: Point | None
    """The point, when it was typed as x,y."""
    text: str | None
    """The point in human notation, lower case."""

    def resolve(self, size: int) -> Point:
        """The point on a board of `size`. Raises CommandError when it is off the board."""
        if self.point is not None:
            if not (0 <= self.point.x < size and 0 <= self.point.y < size):
                raise CommandError(f"{self.point.x},{self.point.y} is outside the {size}x{size} board")
            return self.point
        assert self.text is not None
        try:
            return parse_point(self.text, size)
        except NotationError as error:
            raise CommandError(str(error)) from None


def read_point(text: str) -> TypedPoint | None:
    """The point `text` names (`h8` or `7,7`), or None when it names none."""
    if looks_like_point(text):
        return TypedPoint(None, text.lower())
    xy = _XY_POINT.fullmatch(text)
    if xy:
        return TypedPoint(Point(int(xy.group(1)), int(xy.group(2))), None)
    return None


def read_points(words: list[str], what: str) -> tuple[TypedPoint, ...]:
    """The points named by `words` (`h8 j9` or `7,7 8,8`). Raises CommandError for a word that names none."""
    points = []
    for word in words:
        point = read_point(word)
        if point is None:
            raise CommandError(f"{what} takes points like h8 or 7,7, not {word!r}")
        points.append(point)
    return tuple(points)


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What game a player asks for: the options `create`, `seek` and `pair` share."""

    rule: Rule = Rule.FREESTYLE
    size: int = 15
    clock: tuple[int, int] | None = None
    """(initial_ms, increment_ms), or None for an untimed game."""
    rated: bool = False
    opening: OpeningName = "none"
    """How the first stones and the colours are decided (1.1 openings): `none`, `swap`, `swap2` or,
    in renju, `soosorv8`."""

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
            case "opening":
                return replace(self, opening=read_opening(value_of(option, words)))
        return None

    def checked(self) -> GameTerms:
        """These terms, if the server can play them. Raises CommandError."""
        if self.rule is Rule.RENJU and self.size != 15:
            raise CommandError("renju is played on 15x15 only")
        if self.opening == "soosorv8" and self.rule is not Rule.RENJU:
            raise CommandError("soosorv8 is an opening of renju: add 'rule renju'")
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


def read_opening(text: str) -> OpeningName:
    for opening in OPENINGS:
        if text.lower() == opening:
            return opening
    raise CommandError(f"unknown opening {text!r}: {', '.join(OPENINGS)}")


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


def read_whole(text: str, what: str) -> int:
    """A whole number of at least 1 (for a bot's search depth or width: the server knows each
    level's bounds and refuses a value outside them, saying them)."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise CommandError(f"{what} must be a whole number of at least 1, not {text!r}")
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
