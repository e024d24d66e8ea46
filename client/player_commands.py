"""The commands about other players (pure: words in, a command or a CommandError out).

The lobby (seeks and quick pairing), who is online, chat, the leaderboard
and profiles: the 1.1 additions outside a game. `client.commands` reads
the first word of a line and hands the rest to the parser here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from client.values import (
    CommandError,
    GameTerms,
    read_colour,
    read_count,
    read_player_name,
    value_of,
)
from engine.types import Color

SeekColour = Literal["black", "white", "random"]

MAX_RATING = 5000
"""The highest rating a seek's range may name (the server's limit)."""
MAX_CHAT_LENGTH = 500
DEFAULT_TOP_LIMIT = 20
MAX_TOP_LIMIT = 100
_RATING_RANGE = re.compile(r"(\d{1,4})?-(\d{1,4})?")
_CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""What the server refuses in a chat line."""


@dataclass(frozen=True, slots=True)
class SeekCommand:
    terms: GameTerms
    colour: SeekColour
    """The colour the seeker plays."""
    rating_min: int | None
    rating_max: int | None


@dataclass(frozen=True, slots=True)
class QuickPairCommand:
    terms: GameTerms


@dataclass(frozen=True, slots=True)
class WatchLobbyCommand:
    pass


@dataclass(frozen=True, slots=True)
class UnwatchLobbyCommand:
    pass


@dataclass(frozen=True, slots=True)
class CancelSeekCommand:
    seek: str | None
    """The seek's id, or None for every seek of the player's."""


@dataclass(frozen=True, slots=True)
class AcceptSeekCommand:
    seek: str
    """The seek's id, or the name of the player whose seek it is."""


@dataclass(frozen=True, slots=True)
class OnlineCommand:
    pass


@dataclass(frozen=True, slots=True)
class SayCommand:
    text: str


@dataclass(frozen=True, slots=True)
class LeaderboardCommand:
    kind: Literal["human", "bot"] | None
    limit: int


@dataclass(frozen=True, slots=True)
class ProfileCommand:
    name: str | None
    """Whose profile; None for the player's own."""


PlayerCommand = (
    SeekCommand
    | QuickPairCommand
    | WatchLobbyCommand
    | UnwatchLobbyCommand
    | CancelSeekCommand
    | AcceptSeekCommand
    | OnlineCommand
    | SayCommand
    | LeaderboardCommand
    | ProfileCommand
)

_KINDS: dict[str, Literal["human", "bot"] | None] = {
    "humans": "human",
    "human": "human",
    "people": "human",
    "bots": "bot",
    "bot": "bot",
    "all": None,
}


def parse_seek(arguments: list[str]) -> SeekCommand:
    """`seek [rule R] [size N] [clock M+S] [rated] [as black|white] [rating MIN-MAX] [opening O]`."""
    terms = GameTerms()
    colour: SeekColour = "random"
    rating_min: int | None = None
    rating_max: int | None = None
    words = iter(arguments)
    for word in words:
        option = word.lower()
        changed = terms.with_option(option, words)
        if changed is not None:
            terms = changed
        elif option == "as":
            colour = "black" if read_colour(value_of(option, words)) is Color.BLACK else "white"
        elif option == "rating":
            rating_min, rating_max = _rating_range(value_of(option, words))
        else:
            raise CommandError(f"unknown seek option {word!r}: type 'help' for the list")
    return SeekCommand(terms.checked(), colour, rating_min, rating_max)


def parse_pair(arguments: list[str]) -> QuickPairCommand:
    """`pair [rule R] [size N] [clock M+S] [rated]`."""
    terms = GameTerms()
    words = iter(arguments)
    for word in words:
        changed = terms.with_option(word.lower(), words) if word.lower() != "opening" else None
        if changed is None:
            raise CommandError(f"unknown pair option {word!r}: pair takes rule, size, clock and rated")
        terms = changed
    return QuickPairCommand(terms.checked())


def parse_cancel(arguments: list[str]) -> CancelSeekCommand:
    if len(arguments) > 1:
        raise CommandError("cancel takes one seek id, or none to cancel all your seeks")
    return CancelSeekCommand(arguments[0] if arguments else None)


def parse_accept_seek(arguments: list[str]) -> AcceptSeekCommand:
    if len(arguments) != 1:
        raise CommandError("accept takes one seek id or the name of who seeks, like 'accept alice'")
    return AcceptSeekCommand(arguments[0])


def parse_say(text: str) -> SayCommand:
    """The text of `say TEXT` as typed (spaces inside kept)."""
    if not text:
        raise CommandError("say what? like 'say good game'")
    if len(text) > MAX_CHAT_LENGTH:
        raise CommandError(f"a chat line is {MAX_CHAT_LENGTH} characters at most")
    if _CONTROL_CHARACTER.search(text):
        raise CommandError("a chat line is plain text: no tabs or other control characters")
    return SayCommand(text)


def parse_top(arguments: list[str]) -> LeaderboardCommand:
    """`top [humans|bots|all] [LIMIT]`."""
    kind: Literal["human", "bot"] | None = None
    limit = DEFAULT_TOP_LIMIT
    for argument in arguments:
        if argument.lower() in _KINDS:
            kind = _KINDS[argument.lower()]
        elif argument.isdigit():
            limit = read_count(argument, "the limit", MAX_TOP_LIMIT)
        else:
            raise CommandError(f"top takes humans, bots or all, and a limit, not {argument!r}")
    if len(arguments) > 2:
        raise CommandError("top takes humans, bots or all, and a limit")
    return LeaderboardCommand(kind, limit)


def parse_profile(arguments: list[str]) -> ProfileCommand:
    if len(arguments) > 1:
        raise CommandError("profile takes one player name (yours by default)")
    return ProfileCommand(read_player_name(arguments[0]) if arguments else None)


def _rating_range(text: str) -> tuple[int | None, int | None]:
    """`1400-1600`, `1400-` (1400 and up) or `-1600` (up to 1600)."""
    match = _RATING_RANGE.fullmatch(text)
    if match is None or match.group(1) is None and match.group(2) is None:
        raise CommandError(f"rating is a range like 1400-1600, 1400- or -1600, not {text!r}")
    low, high = (None if group is None else int(group) for group in match.groups())
    for bound in (low, high):
        if bound is not None and bound > MAX_RATING:
            raise CommandError(f"ratings go up to {MAX_RATING}")
    if low is not None and high is not None and low > high:
        raise CommandError(f"the range {text} is empty: the lower rating comes first")
    return low, high
