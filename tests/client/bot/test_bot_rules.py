"""What a gomoku-bot accepts and how it answers, without a server: its filters, its share of the
clock, and its view of a room fed with the server's own message models."""

from __future__ import annotations

import pytest

from client.bot.game import BotGame
from client.bot.settings import BotSettings
from engine.gomocup_manager import TimeLimits
from engine.types import Color, Point, Rule
from wire.messages import (
    ClockModel,
    ClockSettingModel,
    DrawOffered,
    GameId,
    Moved,
    OpeningStateModel,
    RoomId,
    RoomMessage,
    RoomStateModel,
    RoomSummaryModel,
    SeatModel,
    SeekerModel,
    SeekModel,
    UndoRequested,
)


def seek(**fields: object) -> SeekModel:
    defaults: dict[str, object] = {
        "seek_id": "s1",
        "by": SeekerModel(name="alice", rating=1500),
        "rule": Rule.FREESTYLE,
        "size": 15,
        "clock": None,
        "rated": False,
        "color": "random",
        "rating_min": None,
        "rating_max": None,
        "created_at": "2026-01-01T00:00:00Z",
    }
    return SeekModel.model_validate({**defaults, **fields})


FIVE_MINUTES = ClockSettingModel(initial_ms=300_000, increment_ms=3_000)


@pytest.mark.parametrize(
    ("settings", "offered", "accepted"),
    [
        (BotSettings(), seek(), True),
        (BotSettings(), seek(rule=Rule.RENJU), False),
        (BotSettings(rules=frozenset({Rule.RENJU})), seek(rule=Rule.RENJU), True),
        (BotSettings(), seek(size=19), False),
        (BotSettings(untimed=False), seek(), False),
        (BotSettings(untimed=False, min_initial_s=60), seek(clock=FIVE_MINUTES), True),
        (BotSettings(max_initial_s=120), seek(clock=FIVE_MINUTES), False),
        (BotSettings(rated="casual"), seek(rated=True), False),
        (BotSettings(rated="rated"), seek(rated=False), False),
        (BotSettings(), seek(opening="swap2"), False),
        (BotSettings(swap2=True), seek(opening="swap2"), True),
        (BotSettings(swap2=True), seek(opening="swap"), False),
        (BotSettings(opponents=frozenset({"bot"})), seek(), False),
        (BotSettings(), seek(by=SeekerModel(name="robo", rating=1500)), False),
        (BotSettings(deny=frozenset({"ALICE"})), seek(), False),
        (BotSettings(allow=frozenset({"bob"})), seek(), False),
        (BotSettings(), seek(rating_min=1600), False),
        (BotSettings(accept_seeks=False), seek(), False),
    ],
)
def test_a_seek_is_accepted_only_within_every_filter(settings: BotSettings, offered: SeekModel, accepted: bool) -> None:
    assert settings.accepts_seek(offered, "robo", 1500) is accepted


def test_an_open_room_is_joined_only_when_asked_and_one_seat_waits_for_an_acceptable_opponent() -> None:
    room = RoomSummaryModel(
        room_id=RoomId("r1"),
        rule=Rule.FREESTYLE,
        size=15,
        status="waiting",
        black=SeatModel(name="alice", kind="human", connected=True),
        white=None,
        spectators=0,
    )
    assert not BotSettings().accepts_room(room, "robo")
    assert BotSettings(join_rooms=True).accepts_room(room, "robo")
    assert not BotSettings(join_rooms=True, opponents=frozenset({"bot"})).accepts_room(room, "robo")
    assert not BotSettings(join_rooms=True).accepts_room(room.model_copy(update={"status": "playing"}), "robo")


def test_a_move_gets_its_share_of_the_clock_and_keeps_some_for_the_network() -> None:
    settings = BotSettings(move_time_ms=2000)
    assert settings.move_limits(None, None, Color.WHITE) == TimeLimits(turn_ms=2000)
    clock = ClockModel(black_ms=300_000, white_ms=20_000, increment_ms=0)
    assert settings.move_limits(clock, FIVE_MINUTES, Color.WHITE) == TimeLimits(
        turn_ms=1000 - 150, match_ms=300_000, left_ms=20_000 - 150
    )
    assert settings.move_limits(clock, FIVE_MINUTES, Color.BLACK).turn_ms == 2000 - 150


def snapshot(you: str = "white", moves: int = 1, rated: bool = False) -> RoomMessage:
    stones = [{"x": index, "y": 0, "color": "black" if index % 2 == 0 else "white"} for index in range(moves)]
    state = RoomStateModel.model_validate(
        {
            "room_id": "r1",
            "game_id": "g1",
            "rule": "freestyle",
            "size": 15,
            "status": "playing",
            "black": {"name": "alice", "kind": "human", "connected": True},
            "white": {"name": "robo", "kind": "bot", "connected": True},
            "to_move": "white" if moves % 2 else "black",
            "moves": stones,
            "clock": None,
            "result": None,
            "seq": 3,
            "rated": rated,
        }
    )
    return RoomMessage.model_validate({"you": you, "room": state})


def test_the_bot_moves_on_its_turn_follows_events_and_sees_a_gap() -> None:
    game = BotGame(RoomId("r1"), "robo")
    game.take_snapshot(snapshot())
    assert (game.color, game.opponent, game.to_act()) == (Color.WHITE, "alice", "move")
    assert game.follows(4)
    room, game_id = RoomId("r1"), GameId("g1")
    game.take_move(Moved(room_id=room, game_id=game_id, ply=2, color="white", x=7, y=7, move="h8", clock=None, seq=4))
    assert game.moves == [Point(0, 0), Point(7, 7)] and game.to_act() is None
    assert not game.follows(6), "an event was missed: join the room again"


def test_undo_is_accepted_in_a_casual_game_and_a_draw_declined_unless_told_otherwise() -> None:
    game = BotGame(RoomId("r1"), "robo")
    game.take_snapshot(snapshot())
    undo = UndoRequested(room_id=RoomId("r1"), by="black", seq=4)
    draw = DrawOffered(room_id=RoomId("r1"), by="black", seq=5)
    assert [answer.model_dump(exclude={"id"}) for answer in game.answers(undo, False)] == [
        {"type": "answer_undo", "room_id": "r1", "accept": True}
    ]
    assert game.answers(draw, False)[0].model_dump()["accept"] is False
    assert game.answers(draw, True)[0].model_dump()["accept"] is True
    assert game.answers(DrawOffered(room_id=RoomId("r1"), by="white", seq=6), True) == [], "its own offer"


def test_a_swap2_decision_is_the_bots_and_another_opening_is_one_it_cannot_take() -> None:
    game = BotGame(RoomId("r1"), "robo")
    game.take_snapshot(snapshot(moves=3))
    game.status = "opening"
    game.opening = OpeningStateModel(rule="swap2", to_decide="white", decider="robo", choices=[], steps=[])
    assert game.to_act() == "swap2" and not game.unplayable_opening()
    game.opening = game.opening.model_copy(update={"rule": "swap"})
    assert game.to_act() is None and game.unplayable_opening()
