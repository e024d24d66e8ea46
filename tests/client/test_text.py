"""The tables and sentences that tell the player what the server listed."""

from __future__ import annotations

from client.text import describe_bots, describe_games, describe_rooms, format_rating, printable
from engine.types import Rule
from wire.messages import (
    BotInfoModel,
    ClockSettingModel,
    GameSummaryModel,
    PlayerInfoModel,
    RangeModel,
    ResultModel,
    RoomSummaryModel,
    SeatModel,
)


def summary(room_id: str, clock: ClockSettingModel | None) -> RoomSummaryModel:
    alice = SeatModel(name="alice", kind="human", connected=True)
    return RoomSummaryModel(
        room_id=room_id,
        rule=Rule.FREESTYLE,
        size=15,
        status="waiting",
        black=alice,
        white=None,
        spectators=0,
        clock=clock,
    )


def test_the_bot_list_says_which_levels_take_a_depth_and_width_and_within_what() -> None:
    bounds = {"depth": RangeModel(min=1, max=8), "width": RangeModel(min=1, max=30)}
    text = describe_bots(
        [
            BotInfoModel(level="alphabeta", description="Textbook alpha-beta.", rating=1454, **bounds),
            BotInfoModel(level="hard", description="Deep.", rating=1922),
        ]
    ).splitlines()
    assert text[1].endswith("Textbook alpha-beta. (depth 1-8, width 1-30)")
    assert text[2].endswith("Deep.")


def test_the_room_list_has_a_clock_column() -> None:
    table = describe_rooms(
        [summary("r1", ClockSettingModel(initial_ms=300_000, increment_ms=3_000)), summary("r2", None)]
    )
    header, timed, untimed = table.splitlines()
    assert header.split()[:6] == ["room", "rule", "size", "clock", "rated", "status"]
    assert timed.split()[:6] == ["r1", "freestyle", "15", "5+3", "no", "waiting"]
    assert untimed.split()[:6] == ["r2", "freestyle", "15", "-", "no", "waiting"]


def test_the_room_list_says_which_rooms_are_rated_and_the_players_ratings() -> None:
    rated = summary("r1", None).model_copy(
        update={"rated": True, "black": SeatModel(name="alice", kind="human", connected=True, rating=1612, rd=80)}
    )
    (_, row) = describe_rooms([rated]).splitlines()
    assert row.split()[4:8] == ["yes", "waiting", "alice", "(1612)"]


def test_a_provisional_rating_is_marked() -> None:
    assert format_rating(1500, 350) == "1500?"
    assert format_rating(1712, 90) == "1712"


def test_text_from_others_reaches_the_terminal_without_control_sequences() -> None:
    assert printable("hi\x1b[2J\rthere\u202eevil\n") == "hi\\x1b[2J\\x0dthere\\u202eevil\\x0a"
    assert printable("góod gáme 五目") == "góod gáme 五目"


def test_the_game_list_counts_one_move_in_the_singular() -> None:
    def game(moves: int) -> GameSummaryModel:
        return GameSummaryModel(
            game_id=f"g{moves}",
            room_id=None,
            rule=Rule.FREESTYLE,
            size=15,
            black=PlayerInfoModel(name="alice"),
            white=PlayerInfoModel(name="bob"),
            status="finished",
            moves=moves,
            result=ResultModel(winner="white", reason="resign"),
            started_at=None,
            ended_at=None,
        )

    one, two = describe_games([game(1), game(2)]).splitlines()
    assert "freestyle 15x15, 1 move: " in one
    assert "freestyle 15x15, 2 moves: " in two
