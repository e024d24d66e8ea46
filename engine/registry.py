"""The registry of bot levels: every name a bot seat, the brain or the arena accepts,
and how long each level thinks when nobody says.

Engine levels (`easy` .. `master`) come from `engine.search.levels`, the
classic textbook bots (`greedy`, `minimax`, ...) from `engine.classic`.

A bot thinks within the limits it is given, and a limit left out is no
limit at all (see `SearchLimits`). A caller with no time to give (an
untimed game on the server, a Gomocup manager that sends no time limits)
asks `default_time_ms` for the level's own: the one place where each
level's default thinking time is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.bots import Bot, BotFactory

CLASSIC_TIME_MS = 5_000
"""The classic bots' default time. They search to a fixed depth or a fixed count of points and
nearly always finish sooner: for them it is a safety limit (the time the server has always given
every bot), not a setting of their strength."""

DEFAULT_TIME_MS: Mapping[str, int] = MappingProxyType(
    {
        "greedy": CLASSIC_TIME_MS,
        "static": CLASSIC_TIME_MS,
        "minimax": CLASSIC_TIME_MS,
        "astar": CLASSIC_TIME_MS,
        "alphabeta": CLASSIC_TIME_MS,
        "easy": 300,
        "medium": 800,
        "hard": 2_000,
        "master": 5_000,
    }
)
"""Thinking time per move of each level when the caller gives none, in milliseconds. The engine
levels search until their time is up, so theirs is part of their strength: `easy` answers at
once, `master` takes the time a patient opponent allows."""


def bot_factories() -> dict[str, BotFactory]:
    """Every bot level by name, classic bots first, then engine levels by strength."""
    from engine.classic import CLASSIC_BOTS
    from engine.search.levels import ENGINE_LEVELS

    return {**CLASSIC_BOTS, **ENGINE_LEVELS}


def level_names() -> list[str]:
    """The names of every bot level."""
    return list(bot_factories())


def make_bot(level: str, depth: int | None = None, width: int | None = None) -> Bot:
    """A fresh bot of the named level, its search `depth` plies deep over `width` points per ply
    where the level lets a player set them (`search_bounds`; None: the level's own). Raises
    ValueError naming the known levels, or saying what the level takes (`check_search`)."""
    factory = bot_factories()[_known(level)]
    if depth is None and width is None:
        return factory()
    check_search(level, depth, width)
    from engine.classic.alphabeta import CANDIDATES_PER_PLY, DEFAULT_DEPTH, AlphaBetaBot
    from engine.classic.static import StaticBot

    if level == "static":
        return StaticBot(depth=1 if depth is None else depth, width=width)
    return AlphaBetaBot(DEFAULT_DEPTH if depth is None else depth, CANDIDATES_PER_PLY if width is None else width)


SEARCH_LEVELS = ("static", "alphabeta")
"""The levels whose search depth and width a player may set: the textbook `alphabeta`, and `static`
(evaluation alone, or with a depth or width the same tree over its evaluation)."""


def check_search(level: str, depth: int | None, width: int | None) -> None:
    """Refuse (ValueError, saying why) a search `depth` or `width` that `level` does not take: any
    for a level whose search is its own, one outside the bounds (`search_bounds`) for the others.
    None is the level's own and always fine."""
    if depth is None and width is None:
        return
    if search_bounds(level) is None:
        raise ValueError(f"{level} takes no search depth or width: only {' and '.join(SEARCH_LEVELS)} do")
    from engine.classic.alphabeta import CANDIDATES_PER_PLY, check_search_shape

    check_search_shape(1 if depth is None else depth, CANDIDATES_PER_PLY if width is None else width, level)


def search_bounds(level: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The (lowest, highest) search depth and width a player may set for `level`, or None for a
    level whose search is its own (every level but `SEARCH_LEVELS`)."""
    from engine.classic.alphabeta import DEPTH_BOUNDS, WIDTH_BOUNDS

    return (DEPTH_BOUNDS, WIDTH_BOUNDS) if _known(level) in SEARCH_LEVELS else None


def default_time_ms(level: str) -> int:
    """The thinking time per move of `level` when the caller gives none (an untimed game).
    Raises ValueError naming the known levels."""
    return DEFAULT_TIME_MS[_known(level)]


def _known(level: str) -> str:
    """`level` itself if it is a bot level; otherwise ValueError naming the known levels."""
    names = level_names()
    if level not in names:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(names)}")
    return level
