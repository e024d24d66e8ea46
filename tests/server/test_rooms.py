"""Rooms without sockets, databases or waiting: requests in, messages and records out.

Time is a number the test passes; a clock runs out because the test says
it is later, not because it sleeps.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from edge_inbox import read_by

from engine.board import Board
from engine.openings import ChooseColor, OpeningRule, PlaceStones
from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import (
    Caller,
    ConnectionId,
    Enter,
    GameFinished,
    GameStarted,
    MovePlayed,
    MovesTakenBack,
    PresenceReport,
    Refusal,
    RestoredGame,
    caller_ref,
    new_game_id,
    new_room_id,
)
from server.rooms import views
from server.rooms.room import Outcome, Room, RoomSettings
from wire.messages import ServerMessage

ALICE = Caller(caller_ref(ConnectionId(1)), "alice")
BOB = Caller(caller_ref(ConnectionId(2)), "bob")
CAROL = Caller(caller_ref(ConnectionId(3)), "carol")


def as_dicts(outcome: Outcome, caller: Caller, request_id: str | int | None = None) -> list[dict[str, Any]]:
    """The messages one caller in the room receives, as the JSON objects it would read (the answer
    to the request carrying `request_id`)."""
    return read_by(outcome, caller, request_id)


def message_dict(message: ServerMessage) -> dict[str, Any]:
    return message.model_dump(mode="json", by_alias=True)


def types_for(outcome: Outcome, caller: Caller) -> list[str]:
    return [message["type"] for message in as_dicts(outcome, caller)]


def drop(room: Room, caller: Caller, now: float) -> Outcome:
    """The caller's one connection closes: the edge reports its player has none left in the room."""
    return room.presence_changed(PresenceReport({caller.name: 0}), now)


def new_room(
    rule: Rule = Rule.FREESTYLE,
    size: int = 15,
    clock: ClockSetting | None = None,
    abandon_after_s: float = 120.0,
) -> Room:
    return Room(new_room_id(), rule, size, clock, False, RoomSettings(abandon_after_s=abandon_after_s))


def started_room(**options: Any) -> Room:
    """Alice black, Bob white, a spectator Carol; the game has started at time 0."""
    room = new_room(**options)
    room.open(ALICE, "me", "open", 0.0)
    room.join(BOB, True, 0.0)
    room.join(CAROL, False, 0.0)
    return room


def play(room: Room, moves: list[tuple[int, int]], start: float = 1.0) -> Outcome:
    """Play moves alternately for whoever is to move; return the last outcome."""
    outcome = Outcome()
    for index, (x, y) in enumerate(moves):
        caller = ALICE if room.board.to_move is Color.BLACK else BOB
        outcome = room.move(caller, Point(x, y), start + index)
    return outcome


def refused(code: str, action: Any) -> Refusal:
    with pytest.raises(Refusal) as caught:
        action()
    assert caught.value.code == code
    return caught.value


# ------------------------------------------------------------------- seats


def test_a_game_starts_when_the_second_player_sits_down() -> None:
    room = new_room()
    created = room.open(ALICE, "me", "open", 0.0)
    assert as_dicts(created, ALICE, "c1")[0]["you"] == "black"
    assert as_dicts(created, ALICE, "c1")[0]["id"] == "c1"
    assert room.status == "waiting" and not created.records

    joined = room.join(BOB, True, 0.0)

    assert views.room_state(room, 0.0).status == "playing"
    assert [type(record) for record in joined.records] == [GameStarted]
    bob_view = as_dicts(joined, BOB, 7)[0]
    assert (bob_view["type"], bob_view["you"], bob_view["id"]) == ("room", "white", 7)
    assert bob_view["room"]["to_move"] == "black"
    alice_view = as_dicts(joined, ALICE, 7)[0]
    assert alice_view["you"] == "black" and "id" not in alice_view


def test_a_third_player_finds_the_room_full_but_may_watch() -> None:
    room = started_room()
    dave = Caller(caller_ref(ConnectionId(9)), "dave")
    refused("room_full", lambda: room.join(dave, True, 1.0))
    watched = room.join(dave, False, 1.0)
    assert as_dicts(watched, dave)[0]["you"] == "spectator"
    assert {"type": "spectators", "room_id": room.room_id, "count": 2} in [
        {key: message[key] for key in ("type", "room_id", "count") if key in message}
        for message in as_dicts(watched, ALICE)
    ]


def test_a_player_who_joins_again_gets_the_room_back() -> None:
    room = started_room()
    play(room, [(7, 7)])
    bob_again = Caller(caller_ref(ConnectionId(11)), "bob")
    again = room.join(bob_again, True, 5.0)
    snapshot = as_dicts(again, bob_again)[0]
    assert snapshot["you"] == "white"
    assert snapshot["room"]["moves"] == [{"x": 7, "y": 7, "color": "black"}]


def test_leaving_a_started_game_resigns_it() -> None:
    room = started_room()
    play(room, [(7, 7)])
    left = room.leave(BOB, 3.0)
    assert room.result is not None and room.result.winner is Color.BLACK
    assert room.result.reason is EndReason.RESIGN
    bob_types = types_for(left, BOB)
    assert bob_types == ["game_over", "left"]
    assert [message.get("id") for message in as_dicts(left, BOB, "bye")] == [None, "bye"]
    assert any(isinstance(record, GameFinished) for record in left.records)


def test_leaving_a_waiting_room_frees_the_seat() -> None:
    room = new_room()
    room.open(ALICE, "open", "me", 0.0)
    room.join(CAROL, False, 0.0)
    left = room.leave(ALICE, 1.0)
    assert room.seats[Color.WHITE] is None
    carol_view = as_dicts(left, CAROL)
    assert carol_view[0]["type"] == "room" and carol_view[0]["room"]["white"] is None


# -------------------------------------------------------------------- play


def test_a_five_ends_the_game_after_the_move_is_recorded() -> None:
    room = started_room()
    last = play(room, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)])
    assert [type(record) for record in last.records] == [MovePlayed, GameFinished]
    carol = as_dicts(last, CAROL)
    assert [message["type"] for message in carol] == ["moved", "game_over"]
    assert carol[0]["move"] == "e15" and carol[0]["ply"] == 9
    assert carol[1]["result"] == {
        "winner": "black",
        "reason": "five",
        "line": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
    }
    assert carol[1]["seq"] == carol[0]["seq"] + 1
    refused("game_over", lambda: room.move(BOB, Point(9, 9), 20.0))


def test_every_event_carries_the_next_seq() -> None:
    room = started_room()
    seqs = []
    for outcome in (
        play(room, [(7, 7)]),
        room.offer_draw(BOB, 2.0),
        room.answer_draw(ALICE, False, 3.0),
        room.request_undo(ALICE, 4.0),
        room.answer_undo(BOB, True, 5.0),
    ):
        seqs += [message["seq"] for message in as_dicts(outcome, CAROL) if "seq" in message]
    assert seqs == [1, 2, 3, 4, 5]


def test_moves_are_refused_with_the_contract_codes() -> None:
    room = new_room(size=9)
    room.open(ALICE, "me", "open", 0.0)
    refused("not_started", lambda: room.move(ALICE, Point(4, 4), 0.0))
    room.join(BOB, True, 0.0)
    refused("not_your_turn", lambda: room.move(BOB, Point(4, 4), 1.0))
    refused("not_a_player", lambda: room.move(CAROL, Point(4, 4), 1.0))
    refused("out_of_board", lambda: room.move(ALICE, Point(9, 0), 1.0))
    refused("out_of_board", lambda: room.move(ALICE, Point(-1, 0), 1.0))
    refused("out_of_board", lambda: room.move(ALICE, "j1", 1.0))
    refused("bad_request", lambda: room.move(ALICE, "centre", 1.0))
    room.move(ALICE, "e5", 1.0)
    refused("occupied", lambda: room.move(BOB, Point(4, 4), 2.0))
    assert room.board.moves == (Point(4, 4),)


def test_renju_forbids_black_a_double_three_and_plays_nothing() -> None:
    room = started_room(rule=Rule.RENJU)
    black = [(5, 7), (6, 7), (7, 5), (7, 6)]
    white = [(0, 0), (14, 0), (0, 14), (14, 14)]
    for stone_black, stone_white in zip(black, white, strict=True):
        room.move(ALICE, Point(*stone_black), 1.0)
        room.move(BOB, Point(*stone_white), 1.0)
    error = refused("forbidden", lambda: room.move(ALICE, "h8", 2.0))
    assert "forbidden" in error.message
    assert room.board.ply == 8 and room.board.to_move is Color.BLACK
    room.move(ALICE, Point(10, 10), 3.0)


def test_resign_gives_the_game_to_the_opponent() -> None:
    room = started_room()
    outcome = room.resign(ALICE, 1.0)
    over = as_dicts(outcome, ALICE, 3)[0]
    assert over["type"] == "game_over" and over["id"] == 3
    assert over["result"] == {"winner": "white", "reason": "resign", "line": None}
    refused("game_over", lambda: room.resign(BOB, 2.0))


# ------------------------------------------------------------ draw and undo


def test_a_draw_offer_accepted_ends_the_game_drawn() -> None:
    room = started_room()
    offered = room.offer_draw(ALICE, 1.0)
    assert as_dicts(offered, BOB)[0]["by"] == "black"
    refused("no_pending_offer", lambda: room.answer_draw(ALICE, True, 2.0))
    accepted = room.answer_draw(BOB, True, 2.0)
    assert as_dicts(accepted, CAROL)[0]["result"]["reason"] == "draw_agreed"
    assert room.result is not None and room.result.winner is None


def test_a_declined_draw_offer_leaves_the_game_going() -> None:
    room = started_room()
    refused("no_pending_offer", lambda: room.answer_draw(BOB, True, 1.0))
    room.offer_draw(ALICE, 1.0)
    refused("not_allowed", lambda: room.offer_draw(ALICE, 1.5))
    declined = room.answer_draw(BOB, False, 2.0)
    assert as_dicts(declined, ALICE)[0] == {
        "type": "declined",
        "room_id": room.room_id,
        "what": "draw",
        "seq": 2,
    }
    assert room.status == "playing"


def test_undo_after_the_reply_takes_back_two_moves() -> None:
    room = started_room()
    play(room, [(7, 7), (8, 8)])
    room.request_undo(ALICE, 3.0)
    undone = room.answer_undo(BOB, True, 4.0)
    message = as_dicts(undone, BOB, "ok")[0]
    assert message["type"] == "undone" and message["id"] == "ok"
    assert message["removed"] == [{"x": 8, "y": 8, "color": "white"}, {"x": 7, "y": 7, "color": "black"}]
    assert message["to_move"] == "black"
    assert room.board.ply == 0
    assert undone.records == [MovesTakenBack(room.game_id, 0, None)]


def test_undo_before_the_reply_takes_back_one_move() -> None:
    room = started_room()
    play(room, [(7, 7), (8, 8), (6, 6)])
    room.request_undo(ALICE, 4.0)
    undone = room.answer_undo(BOB, True, 5.0)
    assert as_dicts(undone, CAROL)[0]["removed"] == [{"x": 6, "y": 6, "color": "black"}]
    assert room.board.to_move is Color.BLACK


def test_undo_needs_a_move_and_a_pending_request() -> None:
    room = started_room()
    refused("not_allowed", lambda: room.request_undo(ALICE, 1.0))
    play(room, [(7, 7)])
    refused("not_allowed", lambda: room.request_undo(BOB, 2.0))
    refused("no_pending_offer", lambda: room.answer_undo(BOB, True, 2.0))
    room.request_undo(ALICE, 2.0)
    refused("no_pending_offer", lambda: room.answer_undo(ALICE, True, 2.0))
    declined = room.answer_undo(BOB, False, 3.0)
    assert types_for(declined, ALICE) == ["declined"]
    assert room.board.ply == 1


def test_a_move_declines_the_pending_undo_request() -> None:
    room = started_room()
    play(room, [(7, 7)])
    room.request_undo(ALICE, 2.0)
    outcome = room.move(BOB, Point(8, 8), 3.0)
    assert types_for(outcome, ALICE) == ["moved", "declined"]


# ------------------------------------------------------------------- clocks


def test_time_runs_for_the_side_to_move_and_the_increment_follows_the_move() -> None:
    room = started_room(clock=ClockSetting(60_000, 2_000))
    outcome = room.move(ALICE, Point(7, 7), 10.0)
    clock = as_dicts(outcome, CAROL)[0]["clock"]
    assert clock == {"black_ms": 52_000, "white_ms": 60_000, "increment_ms": 2_000, "running": "white"}
    assert outcome.records[0] == MovePlayed(room.game_id, 1, Point(7, 7), Color.BLACK, 10_000, (52_000, 60_000))


def test_a_clock_runs_out_when_its_deadline_comes() -> None:
    room = started_room(clock=ClockSetting(5_000, 0))
    room.move(ALICE, Point(7, 7), 1.0)
    deadline = room.next_deadline()
    assert deadline == pytest.approx(6.0)
    assert not room.on_timer(5.9).events
    timed_out = room.on_timer(6.0)
    assert as_dicts(timed_out, CAROL)[0]["result"] == {"winner": "black", "reason": "timeout", "line": None}
    assert room.next_deadline() is None


def test_a_move_after_the_flag_fell_loses_on_time() -> None:
    room = started_room(clock=ClockSetting(5_000, 0))
    late = room.move(ALICE, Point(7, 7), 7.0)
    assert types_for(late, ALICE) == ["game_over"]
    assert room.board.ply == 0
    assert room.result is not None and room.result.reason is EndReason.TIMEOUT


# -------------------------------------------------------------- abandonment


def test_a_player_who_stays_away_loses_while_the_opponent_waits() -> None:
    room = started_room(abandon_after_s=30.0)
    play(room, [(7, 7)])
    drop(room, BOB, 10.0)
    assert room.seats[Color.WHITE] is not None
    assert room.next_deadline() == pytest.approx(40.0)
    assert not room.on_timer(39.0).events
    over = room.on_timer(40.0)
    assert as_dicts(over, ALICE)[0]["result"]["reason"] == "abandoned"
    assert room.result is not None and room.result.winner is Color.BLACK


def test_coming_back_in_time_keeps_the_game() -> None:
    room = started_room(abandon_after_s=30.0)
    dropped = drop(room, BOB, 10.0)
    assert as_dicts(dropped, ALICE)[0]["room"]["white"]["connected"] is False
    back = room.join(Caller(caller_ref(ConnectionId(20)), "bob"), True, 20.0)
    assert as_dicts(back, ALICE)[0]["room"]["white"]["connected"] is True
    assert room.next_deadline() is None
    assert room.status == "playing"


def test_absence_counts_only_while_the_opponent_is_there() -> None:
    room = started_room(abandon_after_s=30.0)
    drop(room, BOB, 10.0)
    drop(room, ALICE, 11.0)
    assert room.next_deadline() is None
    room.join(Caller(caller_ref(ConnectionId(30)), "alice"), True, 100.0)
    assert room.next_deadline() == pytest.approx(130.0)


def test_a_game_that_starts_without_its_creator_says_at_once_that_the_creator_is_away() -> None:
    room = Room(new_room_id(), Rule.FREESTYLE, 15, None, False, RoomSettings(claim_after_s=30.0))
    room.open(ALICE, "me", "open", 0.0)
    drop(room, ALICE, 1.0)
    joined = room.join(BOB, True, 2.0)
    assert types_for(joined, BOB) == ["room", "opponent_away"]
    away = as_dicts(joined, BOB)[1]
    assert (away["room_id"], away["color"], away["claim_at_ms"]) == (room.room_id, "black", 30_000)
    watched = room.join(CAROL, False, 12.5)
    assert as_dicts(watched, CAROL)[1]["claim_at_ms"] == 19_500


def test_an_absence_stays_with_its_player_when_the_opening_swaps_the_seats() -> None:
    settings = RoomSettings(claim_after_s=30.0)
    room = Room(new_room_id(), Rule.FREESTYLE, 15, None, False, settings, opening=OpeningRule.SWAP2)
    room.open(ALICE, "me", "open", 0.0)
    room.join(BOB, True, 0.0)
    room.opening_step(ALICE, PlaceStones((Point(7, 7), Point(0, 0), Point(8, 7))), 1.0)
    drop(room, ALICE, 2.0)
    swapped = room.opening_step(BOB, ChooseColor(Color.BLACK), 3.0)
    assert room.seats[Color.WHITE] == PlayerInfo("alice")
    assert as_dicts(swapped, BOB)[-1]["color"] == "white"
    refused("not_allowed", lambda: room.claim_win(BOB, 31.0))
    room.claim_win(BOB, 32.0)
    assert room.result == GameResult(Color.BLACK, EndReason.ABANDONED)


# ------------------------------------------------------ rematch and restore


def test_a_rematch_swaps_colours_when_both_ask() -> None:
    room = started_room()
    room.resign(ALICE, 1.0)
    first_game = room.game_id
    asked = room.rematch(ALICE, 2.0)
    assert types_for(asked, BOB) == ["rematch_offered"]
    started = room.rematch(BOB, 3.0)
    assert room.game_id != first_game and room.status == "playing"
    assert room.seats[Color.BLACK] == PlayerInfo("bob")
    assert as_dicts(started, BOB)[0]["you"] == "black"
    assert isinstance(started.records[0], GameStarted)


def test_a_restored_game_charges_no_time_for_the_downtime() -> None:
    game = RestoredGame(
        room_id=new_room_id(),
        game_id=new_game_id(),
        rule=Rule.FREESTYLE,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("bob"),
        clock=ClockSetting(60_000, 0),
        clock_ms=(41_000, 50_000),
        moves=(Point(7, 7), Point(8, 8), Point(6, 6)),
        started_at=datetime(2026, 11, 22, 17, 0, tzinfo=UTC),
        private=False,
    )
    room = Room.restore(game, RoomSettings(), 1000.0, datetime.now(UTC))
    assert room.status == "playing" and room.board.to_move is Color.WHITE
    assert room.clock is not None and room.clock.left_ms(Color.WHITE, 1000.0) == 50_000
    bob = Caller(caller_ref(ConnectionId(5)), "bob")
    back = room.join(bob, True, 1001.0)
    assert as_dicts(back, bob)[0]["room"]["clock"]["white_ms"] == 49_000
    assert as_dicts(back, bob)[1]["color"] == "black", "alice has not come back yet"
    room.move(bob, Point(9, 9), 1002.0)
    assert room.board.ply == 4


def test_a_seat_holder_acting_from_a_new_connection_enters_the_room_with_it() -> None:
    room = started_room()
    drop(room, BOB, 1.0)
    bob_elsewhere = Caller(caller_ref(ConnectionId(40)), "bob")
    refused("not_your_turn", lambda: room.move(bob_elsewhere, Point(1, 1), 2.0))
    assert not room.presence.is_here("bob") and room.presence.away_since.keys() == {Color.WHITE}
    play(room, [(7, 7)])
    outcome = room.move(bob_elsewhere, Point(8, 8), 3.0)
    assert outcome.events[0] == Enter(bob_elsewhere.ref, "bob")
    assert room.presence.is_here("bob") and not room.presence.away_since
    assert types_for(outcome, bob_elsewhere) == ["room", "opponent_back", "moved"]
    assert as_dicts(outcome, ALICE)[0]["room"]["white"]["connected"] is True


def test_a_waiting_room_whose_creator_stays_away_expires() -> None:
    room = new_room(abandon_after_s=30.0)
    room.open(ALICE, "me", "open", 0.0)
    drop(room, ALICE, 5.0)
    assert room.next_deadline() == pytest.approx(35.0)
    assert not room.is_disposable(34.0)
    assert room.is_disposable(35.0)


def test_a_finished_room_is_kept_while_someone_is_in_it() -> None:
    room = started_room()
    room.resign(ALICE, 1.0)
    for caller in (ALICE, BOB):
        drop(room, caller, 2.0)
    assert not room.is_disposable(2.0)
    room.leave(CAROL, 3.0)
    assert not room.is_disposable(3.0), "until the edge counts carol's connection out"
    room.presence_changed(PresenceReport({"carol": 0}, on_purpose=True), 3.0)
    assert room.is_disposable(3.0)


def test_a_bot_accepts_a_draw_only_when_no_five_can_be_made() -> None:
    room = Room(new_room_id(), Rule.FREESTYLE, 5, None, False, RoomSettings())
    room.open(ALICE, "me", PlayerInfo("greedy", "bot", "greedy"), 0.0)
    assert types_for(room.offer_draw(ALICE, 1.0), ALICE) == ["declined"]
    room.board = Board.from_picture(
        """
        X O X O X
        X O X O O
        O X O X .
        O X O X .
        X O X O .
        """
    )
    accepted = room.offer_draw(ALICE, 2.0)
    assert as_dicts(accepted, ALICE)[0]["result"]["reason"] == "draw_agreed"


def test_spectator_counts_are_told_at_most_once_a_second() -> None:
    room = started_room()  # Carol watches since time 0
    fans = [Caller(caller_ref(ConnectionId(20 + index)), f"fan{index}") for index in range(3)]
    first = room.join(fans[0], False, 1.0)
    assert "spectators" in types_for(first, ALICE)
    later = [room.join(fan, False, 1.2 + index / 10) for index, fan in enumerate(fans[1:])]
    assert all("spectators" not in types_for(outcome, ALICE) for outcome in later)
    assert room.next_deadline() == 2.0

    told = room.on_timer(2.0)
    assert [message for message in as_dicts(told, ALICE)] == [
        {"type": "spectators", "room_id": room.room_id, "count": 4}
    ]
    assert room.next_deadline() is None


def test_a_snapshot_shows_the_time_control_and_the_offers_waiting_for_an_answer() -> None:
    room = started_room(clock=ClockSetting(300_000, 5_000))
    room.offer_draw(ALICE, 1.0)
    state = views.room_state(room, 1.0)
    assert state.time_control is not None and (state.time_control.initial_ms, state.time_control.increment_ms) == (
        300_000,
        5_000,
    )
    assert (state.offers.draw, state.offers.undo, state.offers.rematch) == ("black", None, [])
    room.resign(BOB, 2.0)
    room.rematch(ALICE, 3.0)
    assert views.room_state(room, 3.0).offers.rematch == ["black"]


def test_ids_never_start_with_a_character_that_reads_as_an_option() -> None:
    ids = [new_room_id() for _ in range(2_000)] + [new_game_id() for _ in range(2_000)]
    assert all(identifier[0].isalnum() for identifier in ids)


def test_a_spectator_joining_a_crowd_costs_the_same_few_events_as_joining_an_empty_room() -> None:
    room = started_room()
    crowd = [Caller(caller_ref(ConnectionId(100 + index)), f"fan{index}") for index in range(50)]
    sizes = [len(room.join(fan, False, 10.0 + 2 * index).events) for index, fan in enumerate(crowd)]
    assert sizes[0] == sizes[-1] <= 4, "enter, its snapshot, the count for everyone: no event per member"
