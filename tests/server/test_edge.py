"""The edge: who is in which room, each event turned into text once, presence counted and reported."""

from __future__ import annotations

from edge_inbox import EdgeInbox

from engine.types import Point, Rule
from server.domain import EVERYONE, Caller, ConnectionId, Enter, Exit, OneCaller, PresenceReport, RoomId, caller_ref
from server.rooms import views
from server.rooms.room import Room, RoomChange, RoomEvent, RoomSettings
from wire.messages import Moved, RoomMessage

ROOM = RoomId("r1")
ALICE = Caller(caller_ref(ConnectionId(1)), "alice")
BOB = Caller(caller_ref(ConnectionId(2)), "bob")
BOB_AGAIN = Caller(caller_ref(ConnectionId(3)), "bob")
FANS = [Caller(caller_ref(ConnectionId(10 + index)), f"fan{index}") for index in range(5)]


def entered(*callers: Caller) -> EdgeInbox:
    inbox = EdgeInbox()
    inbox.connect(*callers)
    inbox.publish(ROOM, [Enter(caller.ref, caller.name) for caller in callers])
    return inbox


def moved() -> Moved:
    return Moved(room_id=ROOM, game_id="g", ply=1, color="black", x=7, y=7, move="h8", seq=1, clock=None)


def test_a_caller_reference_names_a_connection_of_this_node_only() -> None:
    assert caller_ref(ConnectionId(7)) == "local/7"
    assert ALICE.ref != BOB.ref


def test_an_event_for_everyone_is_one_text_for_all_of_them_and_the_answer_one_more() -> None:
    inbox = entered(ALICE, BOB, *FANS)
    plain = RoomEvent(moved(), EVERYONE)
    assert [len(connections) for _, connections in inbox.edge.frames(ROOM, plain)] == [7]

    answer = RoomEvent(moved(), EVERYONE, answers=ALICE.ref, request_id=5)
    frames = list(inbox.edge.frames(ROOM, answer))
    assert sorted(len(connections) for _, connections in frames) == [1, 6]
    inbox.publish(ROOM, [answer])
    assert inbox.of(ALICE)[-1]["id"] == 5 and "id" not in inbox.of(BOB)[-1]


def test_a_snapshot_is_one_text_per_role_each_saying_its_readers_part() -> None:
    inbox = entered(ALICE, BOB, BOB_AGAIN, *FANS)
    room = Room(ROOM, Rule.FREESTYLE, 15, None, False, RoomSettings())
    message = RoomMessage(you="spectator", room=views.room_state(room, 0.0))
    snapshot = RoomEvent(message, EVERYONE, {"alice": "black", "bob": "white"})
    assert len(list(inbox.edge.frames(ROOM, snapshot))) == 3
    inbox.publish(ROOM, [snapshot])
    assert [inbox.of(caller)[-1]["you"] for caller in (ALICE, BOB, BOB_AGAIN, FANS[0])] == [
        "black",
        "white",
        "white",
        "spectator",
    ]


def test_one_caller_is_reached_in_the_room_or_not_and_nobody_else() -> None:
    inbox = entered(ALICE)
    inbox.connect(BOB)
    inbox.publish(ROOM, [RoomEvent(moved(), OneCaller(BOB.ref))])
    assert inbox.types(BOB) == ["moved"] and inbox.types(ALICE) == []


def test_the_edge_reports_a_players_count_when_a_connection_enters_leaves_or_closes() -> None:
    inbox = EdgeInbox()
    inbox.connect(ALICE, BOB, BOB_AGAIN)
    assert inbox.publish(ROOM, [Enter(BOB.ref, "bob")]) == PresenceReport({"bob": 1})
    assert inbox.publish(ROOM, [Enter(BOB.ref, "bob")]) is None, "already in: nothing changed"
    assert inbox.publish(ROOM, [Enter(BOB_AGAIN.ref, "bob")]) == PresenceReport({"bob": 2})
    assert inbox.publish(ROOM, [Exit(BOB.ref, "bob")]) == PresenceReport({"bob": 1}, on_purpose=True)
    assert inbox.close(BOB_AGAIN) == [(ROOM, PresenceReport({"bob": 0}))]
    assert inbox.edge.book.rooms_of(ConnectionId(3)) == []


def test_a_connection_that_closed_before_it_entered_is_reported_absent() -> None:
    inbox = EdgeInbox()
    assert inbox.publish(ROOM, [Enter(ALICE.ref, "alice")]) == PresenceReport({"alice": 0})
    assert inbox.edge.book.members(ROOM) == {}


def test_a_second_tab_or_a_spectator_sends_the_others_no_snapshot() -> None:
    inbox = EdgeInbox()
    inbox.connect(ALICE, BOB, BOB_AGAIN, *FANS)
    room = Room(ROOM, Rule.FREESTYLE, 15, None, False, RoomSettings())
    for outcome in (room.open(ALICE, "me", "open", 0.0), room.join(BOB, True, 0.0)):
        _publish(inbox, room, outcome.events, 0.0)
    _publish(inbox, room, room.move(ALICE, Point(7, 7), 1.0).events, 1.0)
    seen_before = len(inbox.of(ALICE))

    _publish(inbox, room, room.join(BOB_AGAIN, True, 5.0).events, 5.0)
    for fan in FANS:
        _publish(inbox, room, room.join(fan, False, 5.0).events, 5.0)
    for _, report in inbox.close(BOB_AGAIN):
        _publish(inbox, room, room.presence_changed(report, 5.0).events, 5.0)

    assert inbox.types(BOB_AGAIN)[0] == "room" and inbox.types(FANS[0])[0] == "room"
    assert inbox.types(ALICE)[seen_before:] == ["spectators"], "one count, no snapshot"
    assert room.presence.connections["bob"] == 1 and room.spectator_count() == len(FANS)


def _publish(inbox: EdgeInbox, room: Room, changes: list[RoomChange], now: float) -> None:
    """What the actor does: publish, then tell the room the edge's count, and publish what that makes."""
    report = inbox.publish(room.room_id, changes)
    if report is not None:
        inbox.publish(room.room_id, room.presence_changed(report, now).events)


def test_connections_closing_together_make_one_report_per_room_with_the_counts_when_it_is_made() -> None:
    inbox = entered(ALICE, BOB, BOB_AGAIN, *FANS)
    assert inbox.edge.connection_closed(ConnectionId(10)), "the first to close starts a batch"
    for connection in (ConnectionId(11), ConnectionId(2), ConnectionId(3)):
        assert not inbox.edge.connection_closed(connection)
    bob_back = Caller(caller_ref(ConnectionId(4)), "bob")
    inbox.connect(bob_back)
    inbox.publish(ROOM, [Enter(bob_back.ref, "bob")])  # before the batch is reported

    assert inbox.edge.closed_reports() == [(ROOM, PresenceReport({"bob": 1, "fan0": 0, "fan1": 0}))]
    assert inbox.edge.closed_reports() == []
