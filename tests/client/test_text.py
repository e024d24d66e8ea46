"""The tables and sentences that tell the player what the server listed."""

from __future__ import annotations

from client.text import describe_rooms
from engine.types import Rule
from server.protocol import ClockSettingModel, RoomSummaryModel, SeatModel


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


def test_the_room_list_has_a_clock_column() -> None:
    table = describe_rooms(
        [summary("r1", ClockSettingModel(initial_ms=300_000, increment_ms=3_000)), summary("r2", None)]
    )
    header, timed, untimed = table.splitlines()
    assert header.split()[:5] == ["room", "rule", "size", "clock", "status"]
    assert timed.split()[:5] == ["r1", "freestyle", "15", "5+3", "waiting"]
    assert untimed.split()[:5] == ["r2", "freestyle", "15", "-", "waiting"]
