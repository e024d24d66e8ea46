"""The client's copy of a room follows the server's numbered events, and notices gaps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from client.state import Outcome, RoomView
from engine.types import Color, EndReason, Point
from wire.messages import (
    ClockModel,
    DrawOffered,
    GameOver,
    Moved,
    ResultModel,
    RoomMessage,
    StoneModel,
    Undone,
)

SnapshotFactory = Callable[..., RoomMessage]


def moved(x: int, y: int, ply: int, seq: int, colour: Literal["black", "white"] = "black") -> Moved:
    return Moved(room_id="r1", game_id="g1", ply=ply, color=colour, x=x, y=y, move="?", clock=None, seq=seq)


def test_a_snapshot_gives_board_seats_and_sequence(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 j9", seq=5), now=0.0)
    assert view.board.moves == (Point(7, 7), Point(9, 6))
    assert view.to_move is Color.BLACK
    assert view.my_colour is Color.BLACK
    assert view.seq == 5


def test_the_next_event_is_applied(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8", seq=5), now=0.0)
    assert view.apply(moved(9, 6, ply=2, seq=6, colour="white"), now=1.0) is Outcome.APPLIED
    assert view.board.last_move == Point(9, 6)
    assert view.seq == 6


def test_an_event_already_seen_is_ignored(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 j9", seq=5), now=0.0)
    assert view.apply(moved(9, 6, ply=2, seq=5, colour="white"), now=1.0) is Outcome.STALE
    assert view.board.ply == 2


def test_a_skipped_number_asks_for_a_resync_and_changes_nothing(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8", seq=5), now=0.0)
    assert view.apply(moved(5, 5, ply=3, seq=7), now=1.0) is Outcome.RESYNC
    assert view.board.ply == 1
    assert view.seq == 5


def test_a_move_that_does_not_fit_the_board_asks_for_a_resync(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8", seq=5), now=0.0)
    assert view.apply(moved(7, 7, ply=2, seq=6, colour="white"), now=1.0) is Outcome.RESYNC
    assert view.apply(moved(1, 1, ply=5, seq=6, colour="white"), now=1.0) is Outcome.RESYNC
    assert view.board.ply == 1


def test_undone_takes_back_the_named_stones(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 j9 h9", seq=5), now=0.0)
    removed = [StoneModel(x=7, y=6, color="black"), StoneModel(x=9, y=6, color="white")]
    assert view.apply(Undone(room_id="r1", removed=removed, to_move="white", seq=6), now=1.0) is Outcome.APPLIED
    assert view.board.moves == (Point(7, 7),)


def test_undone_naming_other_stones_asks_for_a_resync(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 j9 h9", seq=5), now=0.0)
    removed = [StoneModel(x=0, y=0, color="black")]
    assert view.apply(Undone(room_id="r1", removed=removed, to_move="black", seq=6), now=1.0) is Outcome.RESYNC
    assert view.board.ply == 3


def test_offers_wait_until_declined(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 j9", seq=5), now=0.0)
    view.apply(DrawOffered(room_id="r1", by="white", seq=6), now=1.0)
    assert view.pending is not None and (view.pending.what, view.pending.by) == ("draw", Color.WHITE)
    assert view.declined(7) is Outcome.APPLIED
    assert view.pending is None


def test_the_running_clock_counts_down_between_events(snapshot: SnapshotFactory) -> None:
    clock = ClockModel(black_ms=60_000, white_ms=50_000, increment_ms=0)
    view = RoomView.from_snapshot(snapshot("h8", seq=5, clock=clock), now=100.0)
    assert view.clock is not None
    assert view.clock.left_ms(Color.WHITE, now=102.5) == 47_500
    assert view.clock.left_ms(Color.BLACK, now=102.5) == 60_000


def test_game_over_stops_the_clocks_and_keeps_the_result(snapshot: SnapshotFactory) -> None:
    clock = ClockModel(black_ms=60_000, white_ms=50_000, increment_ms=0)
    view = RoomView.from_snapshot(snapshot("h8", seq=5, clock=clock), now=100.0)
    result = ResultModel(winner="black", reason=EndReason.RESIGN)
    view.apply(GameOver(room_id="r1", game_id="g1", seq=6, result=result), now=101.0)
    assert view.status == "finished" and view.result == result and view.to_move is None
    assert view.clock is not None
    assert view.clock.left_ms(Color.WHITE, now=200.0) == 49_000


def test_nobody_is_to_move_once_a_move_makes_five(snapshot: SnapshotFactory) -> None:
    view = RoomView.from_snapshot(snapshot("h8 a1 h9 a2 h10 a3 h11 a4", seq=5), now=0.0)
    view.apply(moved(7, 3, ply=9, seq=6), now=1.0)
    assert view.status == "playing" and view.to_move is None
