"""The wire's messages: parsed in one place, strictly, with unknown fields ignored and ids kept."""

from __future__ import annotations

import json
import logging

import pytest
from server_harness import ClientFactory

from engine.types import EndReason, Rule
from wire.messages import (
    BotSeatSpec,
    ClockModel,
    CreateRoom,
    GameOver,
    JoinRoom,
    Move,
    Moved,
    ProtocolError,
    ResultModel,
    error_message,
    parse_client_message,
    parse_server_message,
    peek_request_id,
)


def refusal(text: str) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    return caught.value


def test_a_request_is_read_into_its_own_type_with_defaults() -> None:
    request = parse_client_message('{"type": "create_room", "white": {"bot": "hard"}, "id": "r1", "colour": "pink"}')
    assert request == CreateRoom(white=BotSeatSpec(bot="hard"), id="r1")
    assert (request.rule, request.size, request.black, request.clock) == (Rule.FREESTYLE, 15, "me", None)


def test_join_room_reads_the_as_field() -> None:
    request = parse_client_message('{"type": "join_room", "room_id": "abc", "as": "spectator"}')
    assert isinstance(request, JoinRoom) and request.as_ == "spectator"
    assert json.loads(request.to_wire()) == {"type": "join_room", "room_id": "abc", "as": "spectator"}


def test_a_move_is_either_a_point_or_notation() -> None:
    assert parse_client_message('{"type": "move", "room_id": "r", "move": "h8"}') == Move(room_id="r", move="h8")
    assert parse_client_message('{"type": "move", "room_id": "r", "x": 0, "y": 14}') == Move(room_id="r", x=0, y=14)
    assert refusal('{"type": "move", "room_id": "r", "x": 1}').code == "bad_request"
    assert refusal('{"type": "move", "room_id": "r", "x": 1, "y": 1, "move": "b14"}').code == "bad_request"
    assert refusal('{"type": "move", "room_id": "r"}').code == "bad_request"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{", "bad_json"),
        ('"hello"', "bad_request"),
        ('{"name": "alice"}', "bad_request"),
        ('{"type": 3}', "bad_request"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "move", "room_id": "r", "x": "7", "y": 7}', "bad_request"),
        ('{"type": "move", "room_id": "r", "x": 7.0, "y": 7}', "bad_request"),
        ('{"type": "answer_draw", "room_id": "r", "accept": 1}', "bad_request"),
        ('{"type": "hello", "name": ""}', "bad_request"),
        ('{"type": "hello", "name": "' + "a" * 33 + '"}', "bad_request"),
        ('{"type": "hello", "name": "al/ice"}', "bad_request"),
        ('{"type": "create_room", "rule": "renju", "size": 19}', "bad_request"),
        ('{"type": "create_room", "size": 27}', "bad_request"),
        ('{"type": "create_room", "black": "me", "white": "me"}', "bad_request"),
        ('{"type": "create_room", "black": "robot"}', "bad_request"),
        ('{"type": "create_room", "clock": {"initial_ms": 0}}', "bad_request"),
        ('{"type": "list_games", "limit": 0}', "bad_request"),
        ('{"type": "get_game", "game_id": "g", "format": "pdf"}', "bad_request"),
        ('{"type": "list_rooms", "id": true}', "bad_request"),
        ('{"type": "list_rooms", "id": "' + "x" * 65 + '"}', "bad_request"),
    ],
)
def test_bad_input_gets_the_contract_code(text: str, code: str) -> None:
    assert refusal(text).code == code


def test_a_refused_request_still_gets_its_id_back() -> None:
    assert refusal('{"type": "teleport", "id": 42}').request_id == 42
    assert refusal('{"type": "move", "id": "m1", "room_id": 5, "x": 1, "y": 1}').request_id == "m1"
    assert refusal('{"type": "list_rooms", "id": true}').request_id is None


def test_server_messages_round_trip_and_leave_out_a_missing_id() -> None:
    moved = Moved(
        room_id="r",
        game_id="g",
        ply=1,
        color="black",
        x=7,
        y=7,
        move="h8",
        clock=ClockModel(black_ms=1, white_ms=2, increment_ms=0),
        seq=1,
    )
    wire = json.loads(moved.to_wire())
    assert "id" not in wire and wire["clock"]["black_ms"] == 1
    assert parse_server_message(moved.to_wire()) == moved
    over = GameOver(
        room_id="r", game_id="g", seq=2, result=ResultModel(winner=None, reason=EndReason.DRAW_AGREED), id=9
    )
    assert json.loads(over.to_wire())["result"] == {"winner": None, "reason": "draw_agreed", "line": None}
    assert parse_server_message(over.to_wire()) == over


LONE_SURROGATE = "\\ud800"
"""A JSON escape for half of a UTF-16 pair: valid JSON syntax, but no character (it has no UTF-8)."""


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "list_rooms", "id": "' + LONE_SURROGATE + '"}',
        '{"type": "hello", "id": 1, "name": "al' + LONE_SURROGATE + 'ice"}',
        '{"type": "chat", "id": 1, "text": "hi ' + LONE_SURROGATE + '"}',
        '{"type": "join_room", "id": 1, "room_id": "' + LONE_SURROGATE + '"}',
        '{"type": "list_rooms", "id": 1, "note": "' + LONE_SURROGATE + '"}',
        '{"type": "list_rooms", "id": 1, "' + LONE_SURROGATE + '": 1}',
        '{"type": "' + LONE_SURROGATE + '", "id": 1}',
    ],
)
def test_a_lone_surrogate_anywhere_is_a_bad_request_whose_answer_can_be_sent(text: str) -> None:
    refused = refusal(text)
    assert refused.code in ("bad_request", "unknown_type")
    answer = error_message(refused, refused.request_id).to_wire()
    answer.encode("utf-8")  # the answer is text a websocket can carry: nothing of the surrogate is echoed
    assert json.loads(answer).get("id") in (None, 1)


def test_a_lone_surrogate_is_named_in_the_refusal() -> None:
    refused = refusal('{"type": "chat", "text": "hi ' + LONE_SURROGATE + '"}')
    assert refused.message.startswith("chat: Invalid JSON: ")
    assert refused.message.endswith("(a string that is no text, such as a lone surrogate \\ud800)")


def test_a_request_id_that_is_not_text_is_not_echoed() -> None:
    assert refusal('{"type": "list_rooms", "id": "' + LONE_SURROGATE + '"}').request_id is None
    assert peek_request_id('{"type": "list_rooms", "id": "a' + LONE_SURROGATE + '"}') is None


async def test_frames_with_lone_surrogates_are_refused_and_the_connection_goes_on(
    client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    alice = await client("alice")
    frames = [
        '{"type": "list_rooms", "id": "' + LONE_SURROGATE + '"}',
        '{"type": "chat", "id": 7, "text": "hi ' + LONE_SURROGATE + '"}',
        '{"type": "join_room", "id": 8, "room_id": "' + LONE_SURROGATE + '"}',
    ]
    for frame in frames:
        await alice.websocket.send(frame)
    answers = [await alice.receive() for _ in frames]
    assert [(answer["type"], answer["code"], answer.get("id")) for answer in answers] == [
        ("error", "bad_request", None),
        ("error", "bad_request", 7),
        ("error", "bad_request", 8),
    ]
    assert (await alice.request(type="list_rooms"))["type"] == "rooms", "the connection is still open"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_an_unknown_type_is_named_in_the_answer_but_never_at_length() -> None:
    refused = refusal('{"type": "' + "x" * 65_000 + '", "id": 1}')
    assert refused.code == "unknown_type" and "xxxx" in refused.message
    assert len(error_message(refused, refused.request_id).to_wire()) < 200, "an answer fits in a frame"
