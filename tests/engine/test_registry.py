"""The registry of bot levels: every level can be made by name, and has a default thinking time."""

from collections.abc import Callable

import pytest

from engine.classic import CLASSIC_BOTS
from engine.classic.alphabeta import AlphaBetaBot
from engine.classic.static import StaticBot
from engine.registry import DEFAULT_TIME_MS, default_time_ms, level_names, make_bot, search_bounds
from engine.search.levels import ENGINE_LEVELS


def test_every_level_is_listed_classic_bots_first_then_engine_levels_by_strength() -> None:
    assert level_names() == [*CLASSIC_BOTS, *ENGINE_LEVELS]
    assert level_names()[-4:] == ["easy", "medium", "hard", "master"]


@pytest.mark.parametrize("level", level_names())
def test_every_level_is_made_by_name_and_has_a_default_time(level: str) -> None:
    assert make_bot(level).level == level
    assert default_time_ms(level) > 0


def test_default_times_are_given_for_the_listed_levels_only() -> None:
    assert set(DEFAULT_TIME_MS) == set(level_names())


def test_the_engine_levels_think_longer_as_they_get_stronger() -> None:
    assert [default_time_ms(level) for level in ENGINE_LEVELS] == [300, 800, 2_000, 5_000]


@pytest.mark.parametrize("ask", [make_bot, default_time_ms])
def test_an_unknown_level_is_refused_with_the_known_ones(ask: Callable[[str], object]) -> None:
    with pytest.raises(ValueError, match="expected one of greedy, .*master"):
        ask("grandmaster")


def test_a_player_may_set_alphabetas_depth_and_width_within_its_bounds() -> None:
    assert search_bounds("alphabeta") == ((1, 8), (1, 30))
    bot = make_bot("alphabeta", depth=2, width=5)
    assert isinstance(bot, AlphaBetaBot)
    assert (bot.depth, bot.width) == (2, 5)
    defaults = make_bot("alphabeta", width=12), make_bot("alphabeta", depth=6)
    assert [(bot.depth, bot.width) for bot in defaults if isinstance(bot, AlphaBetaBot)] == [(4, 12), (6, 9)]
    with pytest.raises(ValueError, match="alphabeta's depth must be 1 to 8, not 9"):
        make_bot("alphabeta", depth=9)
    with pytest.raises(ValueError, match="alphabeta's width must be 1 to 30, not 0"):
        make_bot("alphabeta", width=0)


def test_static_takes_the_same_depth_and_width_for_a_tree_over_its_evaluation() -> None:
    assert search_bounds("static") == search_bounds("alphabeta")
    bot = make_bot("static", width=5)
    assert isinstance(bot, StaticBot) and bot.tree is not None and (bot.tree.depth, bot.tree.width) == (1, 5)
    assert isinstance(evaluation_alone := make_bot("static"), StaticBot) and evaluation_alone.tree is None
    with pytest.raises(ValueError, match="static's depth must be 1 to 8, not 0"):
        make_bot("static", depth=0)


@pytest.mark.parametrize("level", ["greedy", "hard", "master"])
def test_other_levels_take_no_depth_or_width(level: str) -> None:
    assert search_bounds(level) is None
    with pytest.raises(ValueError, match=f"{level} takes no search depth or width: only static and alphabeta do"):
        make_bot(level, depth=3)
