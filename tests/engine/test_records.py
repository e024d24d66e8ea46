"""Game records and their JSON form: the exact wire shape, a lossless round trip, precise errors."""

import copy
import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from engine import Color, EndReason, GameResult, Point, RecordFormatError, Rule, parse_point
from engine.record import (
    ClockSetting,
    GameRecord,
    PlayerInfo,
    RecordedMove,
    format_timestamp,
    parse_timestamp,
    record_from_dict,
    record_to_dict,
)

ALICE = PlayerInfo("alice")
HARD_BOT = PlayerInfo("hard", "bot", "hard")
STARTED = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)
ENDED = datetime(2026, 11, 22, 17, 4, 30, tzinfo=UTC)
WON_BY_BLACK = ["h8", "i8", "h9", "i9", "h10", "i10", "h11", "i11", "h12"]


def recorded(names: list[str], size: int = 15) -> tuple[RecordedMove, ...]:
    """Moves alternating from black, thinking 1000, 1100, 1200 ... ms."""
    return tuple(
        RecordedMove(parse_point(name, size), Color.BLACK if ply % 2 == 0 else Color.WHITE, 1000 + 100 * ply)
        for ply, name in enumerate(names)
    )


def won_game() -> GameRecord:
    return GameRecord(
        rule=Rule.FREESTYLE,
        size=15,
        black=ALICE,
        white=HARD_BOT,
        moves=recorded(WON_BY_BLACK),
        result=GameResult(Color.BLACK, EndReason.FIVE, tuple(Point(7, y) for y in range(3, 8))),
        started_at=STARTED,
        ended_at=ENDED,
        game_id="g-42",
        clock=ClockSetting(300_000, 5_000),
    )


def test_a_record_becomes_the_wire_game_record_object() -> None:
    data = record_to_dict(won_game())
    assert data == {
        "game_id": "g-42",
        "rule": "freestyle",
        "size": 15,
        "black": {"name": "alice", "kind": "human", "level": None},
        "white": {"name": "hard", "kind": "bot", "level": "hard"},
        "clock": {"initial_ms": 300000, "increment_ms": 5000},
        "moves": [
            {"x": 7, "y": 7, "color": "black", "move": "h8", "time_ms": 1000},
            {"x": 8, "y": 7, "color": "white", "move": "i8", "time_ms": 1100},
            {"x": 7, "y": 6, "color": "black", "move": "h9", "time_ms": 1200},
            {"x": 8, "y": 6, "color": "white", "move": "i9", "time_ms": 1300},
            {"x": 7, "y": 5, "color": "black", "move": "h10", "time_ms": 1400},
            {"x": 8, "y": 5, "color": "white", "move": "i10", "time_ms": 1500},
            {"x": 7, "y": 4, "color": "black", "move": "h11", "time_ms": 1600},
            {"x": 8, "y": 4, "color": "white", "move": "i11", "time_ms": 1700},
            {"x": 7, "y": 3, "color": "black", "move": "h12", "time_ms": 1800},
        ],
        "result": {"winner": "black", "reason": "five", "line": [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]]},
        "started_at": "2026-11-22T17:00:00Z",
        "ended_at": "2026-11-22T17:04:30Z",
        "opening": None,
    }


def test_json_round_trip_is_lossless() -> None:
    record = won_game()
    text = json.dumps(record_to_dict(record))
    assert record_from_dict(json.loads(text)) == record


def test_an_unfinished_untimed_game_without_times_round_trips() -> None:
    record = GameRecord(
        rule=Rule.RENJU,
        size=15,
        black=HARD_BOT,
        white=PlayerInfo("greedy", "bot", "greedy"),
        moves=(RecordedMove(Point(7, 7), Color.BLACK), RecordedMove(Point(8, 8), Color.WHITE, 0)),
    )
    data = record_to_dict(record)
    assert data["result"] is None and data["clock"] is None and data["started_at"] is None
    assert data["moves"][0]["time_ms"] is None
    assert record_from_dict(json.loads(json.dumps(data))) == record


def test_a_bots_own_depth_and_width_are_written_and_read_back_when_set() -> None:
    record = dataclasses.replace(won_game(), white=PlayerInfo("alphabeta", "bot", "alphabeta", depth=6, width=12))
    data = record_to_dict(record)
    assert data["white"] == {"name": "alphabeta", "kind": "bot", "level": "alphabeta", "depth": 6, "width": 12}
    assert record_from_dict(json.loads(json.dumps(data))) == record
    data["white"]["width"] = 0
    with pytest.raises(RecordFormatError, match="white.width must be at least 1"):
        record_from_dict(data)


def test_an_empty_game_round_trips() -> None:
    record = GameRecord(Rule.STANDARD, 5, ALICE, PlayerInfo("bob"), ())
    assert record_from_dict(record_to_dict(record)) == record


def test_a_game_ended_by_resignation_keeps_its_reason_and_no_line() -> None:
    record = GameRecord(
        Rule.FREESTYLE, 15, ALICE, HARD_BOT, recorded(["h8", "i9"]), GameResult(Color.WHITE, EndReason.RESIGN)
    )
    data = record_to_dict(record)
    assert data["result"] == {"winner": "white", "reason": "resign", "line": None}
    assert record_from_dict(data) == record


# ------------------------------------------------------------------------- times


def test_times_are_written_in_utc_with_a_z() -> None:
    paris = timezone(timedelta(hours=1))
    assert format_timestamp(datetime(2026, 11, 22, 18, 0, tzinfo=paris)) == "2026-11-22T17:00:00Z"


def test_microseconds_are_kept_when_there_are_some() -> None:
    moment = datetime(2026, 11, 22, 17, 0, 0, 123456, tzinfo=UTC)
    assert format_timestamp(moment) == "2026-11-22T17:00:00.123456Z"
    assert parse_timestamp(format_timestamp(moment)) == moment


def test_a_time_with_an_offset_is_read_as_the_same_instant_in_utc() -> None:
    moment = parse_timestamp("2026-11-22T18:00:00+01:00")
    assert moment == STARTED
    assert moment.tzinfo is UTC


def test_a_record_with_times_in_another_zone_round_trips_to_the_same_instants() -> None:
    tokyo = timezone(timedelta(hours=9))
    record = GameRecord(
        Rule.FREESTYLE, 15, ALICE, HARD_BOT, (), started_at=STARTED.astimezone(tokyo), ended_at=ENDED.astimezone(tokyo)
    )
    assert record_to_dict(record)["started_at"] == "2026-11-22T17:00:00Z"
    assert record_from_dict(record_to_dict(record)) == record


def test_a_record_refuses_times_without_a_zone() -> None:
    with pytest.raises(ValueError, match="started_at must be timezone-aware"):
        GameRecord(Rule.FREESTYLE, 15, ALICE, HARD_BOT, (), started_at=datetime(2026, 11, 22, 17, 0))


# ---------------------------------------------------------------------- reading


def test_optional_fields_may_be_missing_and_unknown_fields_are_ignored() -> None:
    data = {
        "rule": "freestyle",
        "size": 15,
        "black": {"name": "alice", "kind": "human"},
        "white": {"name": "bob", "kind": "human", "rating": 1500},
        "moves": [{"x": 7, "y": 7, "color": "black"}],
        "comment": "from an older client",
    }
    record = record_from_dict(data)
    assert record == GameRecord(Rule.FREESTYLE, 15, ALICE, PlayerInfo("bob"), (RecordedMove(Point(7, 7), Color.BLACK),))


Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: object) -> Mutation:
    """A change to the sample record: set the field at `path` (dots and list indexes)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return change


def _delete(path: str) -> Mutation:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        del target[last]

    return change


def _both(first: Mutation, second: Mutation) -> Mutation:
    def change(data: dict[str, Any]) -> None:
        first(data)
        second(data)

    return change


def _truncate_moves(count: int) -> Mutation:
    def change(data: dict[str, Any]) -> None:
        data["moves"] = data["moves"][:count]

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_delete("rule"), "^rule is missing$"),
        (_delete("black"), "^black is missing$"),
        (_delete("moves.0.x"), r"^moves\[0\]\.x is missing$"),
        (_delete("black.name"), r"^black\.name is missing$"),
        (_set("size", "15"), "^size must be an integer, not the string '15'$"),
        (_set("size", 15.0), "^size must be an integer, not float 15.0$"),
        (_set("size", True), "^size must be an integer, not the boolean true$"),
        (_set("size", 30), "^size must be 5 to 26, not 30$"),
        (_set("rule", "gomoku"), "^rule: unknown rule 'gomoku'"),
        (_set("rule", 3), "^rule must be a string, not int 3$"),
        (_set("moves", {}), "^moves must be a list, not an object$"),
        (_set("moves.2", [7, 6]), r"^moves\[2\] must be an object, not a list$"),
        (_set("moves.1.color", "red"), r"^moves\[1\]\.color: unknown colour 'red'"),
        (_set("moves.1.time_ms", -5), r"^moves\[1\]\.time_ms must be at least 0, not -5$"),
        (_set("moves.1.move", "j8"), r"^moves\[1\]\.move is 'j8' but x=8, y=7 is 'i8'$"),
        (_set("white.kind", "robot"), r"^white\.kind must be 'human' or 'bot', not 'robot'$"),
        (_set("white.level", 3), r"^white\.level must be a string, not int 3$"),
        (_set("clock.initial_ms", "5m"), r"^clock\.initial_ms must be an integer"),
        (_set("clock", 300), "^clock must be an object, not int 300$"),
        (_set("started_at", "yesterday"), "^started_at: Invalid isoformat string"),
        (_set("started_at", "2026-11-22T17:00:00"), "^started_at: .* has no time zone"),
        (_set("ended_at", "2026-11-22T16:00:00Z"), "the game ends .* before it starts"),
        (_set("game_id", 42), "^game_id must be a string, not int 42$"),
        (_set("result.reason", "checkmate"), r"^result\.reason: 'checkmate' is not a valid EndReason$"),
        (_set("result.line", [[7, 3], [7, 4]]), "must list the five"),
        (_set("result.line", [[7, 3], "h11"]), r"^result\.line\[1\] must be an \[x, y\] pair of integers"),
        (_set("result.line", [[8, 3], [7, 4], [7, 5], [7, 6], [7, 7]]), r"lists \(8, 3\), which does not hold a black"),
    ],
)
def test_a_bad_field_is_reported_with_its_path(change: Mutation, message: str) -> None:
    data = record_to_dict(won_game())
    change(data)
    with pytest.raises(RecordFormatError, match=message):
        record_from_dict(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _both(_set("moves.2.y", 7), _delete("moves.2.move")),
            r"^move 3 \(black h8\) is illegal: h8 is already taken$",
        ),
        (
            _both(_set("moves.2.x", 15), _delete("moves.2.move")),
            r"^move 3 \(black \(15, 6\)\) is illegal: \(15, 6\) is outside the 15x15 board$",
        ),
        (_set("moves.2.color", "white"), r"^move 3 \(white h9\) is illegal: it is black's turn, not white's$"),
        (_truncate_moves(8), r"^the result says a black win \(five\) but the moves do not end the game$"),
        (_set("result", None), r"^the moves end the game \(a black win \(five\)\) but the record has no result$"),
        (_set("result.winner", "white"), r"^the result says a white win \(five\) but the moves end in a black win"),
        (_set("result.winner", None), r"^a result by five needs a winner, but the winner is None$"),
        (
            _set("result", {"winner": "black", "reason": "resign", "line": None}),
            r"^the result says a black win \(resign\) but the moves end in a black win \(five\)$",
        ),
    ],
)
def test_moves_and_result_must_describe_a_game_that_could_have_happened(change: Mutation, message: str) -> None:
    data = record_to_dict(won_game())
    change(data)
    with pytest.raises(RecordFormatError, match=message):
        record_from_dict(data)


def test_a_move_after_the_five_is_illegal_because_the_game_is_over() -> None:
    data = record_to_dict(won_game())
    data["moves"].append({"x": 0, "y": 0, "color": "white", "time_ms": None})
    with pytest.raises(RecordFormatError, match=r"^move 10 \(white a15\) is illegal: the game is over$"):
        record_from_dict(data)


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"winner": "black", "reason": "draw_agreed", "line": None}, "a result by draw_agreed needs no winner"),
        ({"winner": None, "reason": "full_board", "line": None}, "says a draw .full_board. but the moves do not end"),
        ({"winner": "white", "reason": "timeout", "line": [[0, 0]]}, "has no winning line, but one is given"),
    ],
)
def test_results_other_than_five_are_checked_too(result: dict[str, Any], message: str) -> None:
    record = GameRecord(Rule.FREESTYLE, 15, ALICE, HARD_BOT, recorded(["h8", "i9"]))
    data = record_to_dict(record)
    data["result"] = result
    with pytest.raises(RecordFormatError, match=message):
        record_from_dict(data)


def test_a_draw_by_agreement_and_an_abandoned_game_are_accepted() -> None:
    record = GameRecord(Rule.FREESTYLE, 15, ALICE, HARD_BOT, recorded(["h8", "i9"]))
    for result in (GameResult(None, EndReason.DRAW_AGREED), GameResult(Color.BLACK, EndReason.ABANDONED)):
        data = record_to_dict(record)
        data["result"] = {"winner": None if result.winner is None else "black", "reason": result.reason.value}
        assert record_from_dict(data).result == result


def test_reading_does_not_change_the_input() -> None:
    data = record_to_dict(won_game())
    before = copy.deepcopy(data)
    record_from_dict(data)
    assert data == before


# ---------------------------------------------------------------------- to_board


def test_to_board_replays_the_game() -> None:
    board = won_game().to_board()
    assert board.ply == 9
    assert board.result == won_game().result


def test_to_board_names_the_first_illegal_move() -> None:
    record = GameRecord(Rule.FREESTYLE, 15, ALICE, HARD_BOT, recorded(["h8", "i9", "h8"]))
    with pytest.raises(RecordFormatError, match=r"^move 3 \(black h8\) is illegal: h8 is already taken$"):
        record.to_board()


def test_to_board_refuses_a_renju_game_on_another_size() -> None:
    record = GameRecord(Rule.RENJU, 19, ALICE, HARD_BOT, ())
    with pytest.raises(RecordFormatError, match="renju is played on 15x15 only"):
        record.to_board()


def test_to_board_refuses_a_forbidden_renju_move() -> None:
    names = ["h8", "a1", "i8", "a3", "j8", "a5", "l8", "a7", "m8", "a9", "k8"]
    record = GameRecord(Rule.RENJU, 15, ALICE, HARD_BOT, recorded(names))
    with pytest.raises(RecordFormatError, match=r"^move 11 \(black k8\) is illegal: .*forbidden.*overline"):
        record.to_board()
