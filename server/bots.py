"""The bots this server offers: which levels, how they are described, and how long they think.

The bot pool (`server.bot_pool`) runs searches; this module decides what
to ask it. `search_request` is the one place where a bot's thinking time
for a move is decided, from the room's clock and the server's cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import bot_factories, level_names
from server.bot_pool import BotRequest, Priority
from server.bot_ratings import read_ratings
from server.domain import BotTurn

MOVES_TO_PLAN_FOR = 20
"""A bot in a timed game spends about 1/20 of its time left on a move (plus half the increment)."""


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


def search_time_ms(turn: BotTurn, cap_ms: int | None) -> int | None:
    """How long the bot may think on this turn (None: the pool's default).

    In a timed game, a share of the bot's time left (see MOVES_TO_PLAN_FOR),
    never more than half of it nor more than `cap_ms`; untimed, `cap_ms`.
    """
    if turn.clock_ms is None:
        return cap_ms
    left_ms, increment_ms = turn.clock_ms
    budget = left_ms // MOVES_TO_PLAN_FOR + increment_ms // 2
    if cap_ms is not None:
        budget = min(budget, cap_ms)
    return max(1, min(budget, left_ms // 2))


def search_request(turn: BotTurn, cap_ms: int | None) -> BotRequest:
    """What to ask the bot pool for this turn."""
    priority = Priority.BOT_GAME if turn.bots_only else Priority.PERSON
    return BotRequest(turn.level, turn.rule, turn.size, turn.moves, search_time_ms(turn, cap_ms), priority=priority)
