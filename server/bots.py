"""The bots this server offers: which levels, how they are described, and how long they think.

The bot pool (`server.bot_pool`) runs searches; this module decides what
to ask it. `search_time_ms` is the one place where a bot's thinking time
for a move is decided: the level's own time (`engine.registry`), lowered by
the server's cap, and in a timed game by the share of the clock one move
may use (`engine.limits.move_time_ms`, the formula the Gomocup brain uses
too).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.limits import move_time_ms
from engine.registry import bot_factories, default_time_ms, level_names
from server.bot_pool import DEFAULT_TIME_MS, BotRequest, Priority
from server.bot_ratings import read_ratings
from server.domain import BotTurn


@dataclass(frozen=True, slots=True)
class BotInfo:
    """One entry of the `bots` list a client chooses an opponent from."""

    level: str
    """The level name to put in a bot seat."""
    description: str
    """One sentence about how the bot plays."""
    rating: int | None
    """Arena rating, or None when the level has not been rated."""


def bot_catalogue() -> list[BotInfo]:
    """Every bot level with its description and arena rating (None when unrated)."""
    ratings = read_ratings()
    return [BotInfo(level, factory().description, ratings.get(level)) for level, factory in bot_factories().items()]


def is_level(name: str) -> bool:
    """Whether `name` is a bot level this server can seat."""
    return name in level_names()


def search_time_ms(turn: BotTurn, cap_ms: int | None) -> int:
    """How long the bot may think on this turn.

    Never more than its level's own time (a level is, among other things,
    how long it thinks: a long clock does not make `easy` think a minute) nor
    than `cap_ms`; in a timed game, never more than its share of its clock.
    A level this server no longer has (a restored game) gets the pool's
    default, and the pool then fails it as unknown.
    """
    level_ms = default_time_ms(turn.level) if is_level(turn.level) else DEFAULT_TIME_MS
    limit_ms = level_ms if cap_ms is None else min(level_ms, cap_ms)
    if turn.clock_ms is None:
        return limit_ms
    left_ms, increment_ms = turn.clock_ms
    share = move_time_ms(left_ms, increment_ms, limit_ms)
    assert share is not None, "a clock always gives a share"
    return share


def search_request(turn: BotTurn, cap_ms: int | None) -> BotRequest:
    """What to ask the bot pool for this turn."""
    priority = Priority.BOT_GAME if turn.bots_only else Priority.PERSON
    time_ms = search_time_ms(turn, cap_ms)
    return BotRequest(turn.level, turn.rule, turn.size, turn.moves, time_ms, priority=priority, opening=turn.opening)
