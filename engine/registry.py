"""The registry of bot levels: every name a bot seat, the brain or the arena accepts.

Engine levels (`easy` .. `master`) come from `engine.search.levels`, the
classic textbook bots (`greedy`, `minimax`, ...) from `engine.classic`.
"""

from __future__ import annotations

from engine.bots import Bot, BotFactory


def bot_factories() -> dict[str, BotFactory]:
    """Every bot level by name, classic bots first, then engine levels by strength."""
    from engine.classic import CLASSIC_BOTS
    from engine.search.levels import ENGINE_LEVELS

    return {**CLASSIC_BOTS, **ENGINE_LEVELS}


def level_names() -> list[str]:
    """The names of every bot level."""
    return list(bot_factories())


def make_bot(level: str) -> Bot:
    """A fresh bot of the named level. Raises ValueError naming the known levels."""
    factories = bot_factories()
    try:
        factory = factories[level]
    except KeyError:
        known = ", ".join(factories)
        raise ValueError(f"unknown bot level {level!r}: expected one of {known}") from None
    return factory()
