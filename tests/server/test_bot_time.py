"""How long a bot thinks on the server: one place decides it, from the level, the cap and the clock."""

from __future__ import annotations

from engine.limits import SearchLimits
from engine.registry import default_time_ms
from engine.types import Color, Point, Rule
from server.bots.players import BotRoster
from server.bots.pool import DEFAULT_TIME_MS, Priority
from server.domain import BotTurn

ROSTER = BotRoster()


def search_time_ms(turn: BotTurn, cap_ms: int | None) -> int:
    return ROSTER.search_time_ms(turn, cap_ms)


def turn(level: str, clock_ms: tuple[int, int] | None = None, bots_only: bool = False) -> BotTurn:
    return BotTurn(1, Color.WHITE, level, Rule.FREESTYLE, 15, (Point(7, 7),), clock_ms, bots_only)


def test_untimed_a_level_thinks_its_own_time() -> None:
    assert search_time_ms(turn("hard"), None) == default_time_ms("hard") == 2_000
    assert search_time_ms(turn("easy"), None) == default_time_ms("easy")


def test_the_servers_cap_lowers_but_never_raises_a_levels_time() -> None:
    assert search_time_ms(turn("master"), 1_000) == 1_000
    assert search_time_ms(turn("easy"), 60_000) == default_time_ms("easy")


def test_with_a_clock_a_move_gets_its_share_and_never_more_than_the_level_thinks() -> None:
    assert search_time_ms(turn("master", (60_000, 0)), None) == 3_000  # a twentieth of a minute
    assert search_time_ms(turn("master", (4_000, 2_000)), None) == 1_200  # 200 + half the increment
    assert search_time_ms(turn("hard", (600_000, 0)), None) == 2_000  # ten minutes left: still 2 s
    assert search_time_ms(turn("master", (1_000, 2_000)), None) == 500  # never more than half what is left


def test_a_level_the_server_no_longer_has_gets_the_pools_default() -> None:
    assert search_time_ms(turn("retired-level"), None) == DEFAULT_TIME_MS


def test_a_bot_games_search_waits_behind_peoples() -> None:
    assert ROSTER.search_request(turn("greedy", bots_only=True), None).priority is Priority.BOT_GAME
    assert ROSTER.search_request(turn("greedy"), None).priority is Priority.PERSON


def test_with_a_clock_a_search_whose_best_move_changes_may_run_on_within_its_clock() -> None:
    request = ROSTER.search_request(turn("master", (60_000, 0)), None)
    assert request.limits() == SearchLimits(time_ms=3_000, most_time_ms=7_500)  # an eighth of the time left
    assert ROSTER.search_request(turn("hard", (600_000, 0)), None).most_time_ms == 6_000  # three shares
    assert ROSTER.search_request(turn("master", (60_000, 0)), 4_000).most_time_ms == 4_000  # the server's cap
    assert ROSTER.search_request(turn("master", (1_000, 2_000)), None).most_time_ms == 500  # never less than its share


def test_untimed_a_search_never_runs_past_its_time() -> None:
    assert ROSTER.search_request(turn("master"), None).limits() == SearchLimits(time_ms=5_000)
