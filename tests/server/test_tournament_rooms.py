"""A tournament's game in its room: seated by the server, a player who is not here is away from the
start, and two bots play on while nobody watches."""

from __future__ import annotations

from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, GameResult, Rule
from server.domain import Caller, CallerRef, new_room_id
from server.rooms.room import Room, RoomSettings

SETTINGS = RoomSettings(abandon_after_s=100.0, claim_after_s=10.0, bot_game_idle_s=60.0)
GREEDY, STATIC = PlayerInfo("greedy", "bot", "greedy"), PlayerInfo("static", "bot", "static")


def new_room() -> Room:
    return Room(new_room_id(), Rule.FREESTYLE, 15, ClockSetting(600_000, 0), False, SETTINGS)


def test_two_bots_of_a_tournament_play_on_while_nobody_watches() -> None:
    scheduled, casual = new_room(), new_room()
    scheduled.open_scheduled(GREEDY, STATIC, (), "ann", 0.0, scheduled=True)
    casual.open_scheduled(GREEDY, STATIC, (), "ann", 0.0)
    assert scheduled.bot_turn(1.0) is not None
    assert casual.bot_turn(1.0) is None, "a casual game between bots pauses while nobody watches"


def test_a_player_who_is_not_here_is_away_from_the_start_and_loses_when_the_claim_time_passes() -> None:
    room = new_room()
    bob = Caller(CallerRef("local/1"), "bob")
    outcome = room.open_scheduled(PlayerInfo("bob"), PlayerInfo("eve"), (bob,), "ann", 0.0, scheduled=True)
    assert [event.ref for event in outcome.events if hasattr(event, "ref")] == ["local/1"]
    assert room.status == "playing" and room.next_deadline() == 10.0
    room.on_timer(10.0)
    assert room.result == GameResult(Color.BLACK, EndReason.ABANDONED)


def test_a_rematch_after_a_tournament_game_is_the_players_own_game() -> None:
    room = new_room()
    bob, eve = Caller(CallerRef("local/1"), "bob"), Caller(CallerRef("local/2"), "eve")
    room.open_scheduled(PlayerInfo("bob"), PlayerInfo("eve"), (bob, eve), "ann", 0.0, scheduled=True)
    assert room.facts().scheduled
    room.resign(bob, 1.0)
    assert room.facts().scheduled, "the tournament's game, over, is still the tournament's"
    room.rematch(bob, 2.0)
    room.rematch(eve, 2.0)
    assert room.status == "playing" and not room.facts().scheduled
