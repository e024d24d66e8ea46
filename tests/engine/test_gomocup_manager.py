"""The manager's side of the Gomocup protocol, with scripted lines: what it tells a brain, what it
makes of the answers, and a whole game against our own brain's session, all without a process."""

import pytest

from engine.board import Board
from engine.gomocup import BrainSession
from engine.gomocup_manager import (
    BrainEvent,
    BrainManager,
    BrainProtocolError,
    Introduced,
    Played,
    Ready,
    Resend,
    Said,
    Slipped,
    Swap2Decided,
    TimeLimits,
)
from engine.openings import ChooseColor, PlaceStones
from engine.types import Color, Point, Rule

SECOND = TimeLimits(turn_ms=1000)


def started(size: int = 15, rule: Rule = Rule.FREESTYLE) -> BrainManager:
    manager = BrainManager("rapfi")
    manager.new_game(size, rule)
    assert manager.receive("OK") == Ready()
    return manager


def test_the_first_game_starts_with_start_and_the_rule_then_later_games_restart() -> None:
    manager = BrainManager("rapfi")
    assert manager.new_game(15, Rule.RENJU, max_memory_bytes=64 << 20) == [
        "START 15",
        "INFO rule 4",
        f"INFO max_memory {64 << 20}",
    ]
    assert manager.awaiting == "START"
    assert manager.receive("OK") == Ready()
    assert manager.new_game(15, Rule.STANDARD) == ["RESTART", "INFO rule 1"]
    assert manager.receive("OK") == Ready()
    assert manager.new_game(20, Rule.FREESTYLE) == ["START 20", "INFO rule 0"]


def test_a_brain_that_does_not_know_restart_is_started_again_for_every_game() -> None:
    manager = started()
    manager.new_game(15, Rule.STANDARD)
    assert manager.receive("UNKNOWN command 'RESTART'") == Resend(("START 15", "INFO rule 1"))
    assert manager.receive("OK") == Ready()
    assert manager.new_game(15, Rule.STANDARD)[0] == "START 15"


def test_an_empty_board_is_begin_and_a_followed_game_is_one_turn_at_a_time() -> None:
    manager = started()
    assert manager.ask_move([], SECOND) == ["INFO timeout_turn 1000", "INFO timeout_match 0", "BEGIN"]
    assert manager.receive("MESSAGE depth 3 score 12") == Said("MESSAGE depth 3 score 12")
    assert manager.receive("7,7") == Played(Point(7, 7))
    assert manager.holds([Point(7, 7), Point(8, 8)])
    assert manager.ask_move([Point(7, 7), Point(8, 8)], SECOND) == ["TURN 8,8"]
    assert manager.receive(" 9, 9 ") == Played(Point(9, 9))


def test_a_position_the_brain_does_not_hold_is_sent_whole_own_stones_first_marked_1() -> None:
    manager = started()
    moves = [Point(7, 7), Point(8, 8), Point(6, 6)]
    assert not manager.holds(moves)
    assert manager.ask_move(moves, SECOND)[-5:] == ["BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"]


def test_only_the_time_limits_that_changed_are_told_again() -> None:
    manager = started()
    manager.ask_move([], TimeLimits(turn_ms=900, match_ms=60_000, left_ms=60_000))
    manager.receive("7,7")
    lines = manager.ask_move([Point(7, 7), Point(8, 8)], TimeLimits(turn_ms=900, match_ms=60_000, left_ms=58_000))
    assert lines == ["INFO time_left 58000", "TURN 8,8"]


@pytest.mark.parametrize(
    ("answer", "complaint"),
    [
        ("7,7", "illegal: h8 is already taken"),
        ("15,3", "illegal"),
        ("hello there", "not a move"),
        ("7,7,1", "not a move"),
    ],
)
def test_an_answer_that_is_not_a_legal_move_is_a_protocol_error(answer: str, complaint: str) -> None:
    manager = started()
    manager.ask_move([Point(7, 7)], SECOND)
    with pytest.raises(BrainProtocolError, match=complaint):
        manager.receive(answer)
    assert manager.awaiting is None
    assert not manager.holds([Point(7, 7), Point(8, 8), Point(9, 9)])


def test_an_error_to_a_move_is_a_slip_asked_again_whole_until_the_retries_are_spent() -> None:
    manager = started()
    manager.ask_move([], SECOND)
    manager.receive("7,7")
    assert manager.ask_move([Point(7, 7), Point(8, 8)], SECOND) == ["TURN 8,8"]
    assert manager.receive("ERROR Unknown command") == Slipped("ERROR Unknown command", quiet_ms=50)
    assert manager.receive("ERROR Unknown command") == Slipped("ERROR Unknown command", quiet_ms=50), (
        "a second complaint before the retry echoes the same slip (the brain dropped two lines)"
    )
    whole = ["INFO timeout_turn 1000", "INFO timeout_match 0", "BOARD", "7,7,1", "8,8,2", "DONE"]
    assert manager.retry() == whole, "the brain's position and limits are unknown after a slip: all are told"
    assert manager.receive("UNKNOWN command") == Slipped("UNKNOWN command", quiet_ms=100), "each retry waits longer"
    assert manager.retry() == whole
    assert manager.receive("ERROR") == Slipped("ERROR", quiet_ms=200)
    assert manager.retry() == whole
    with pytest.raises(BrainProtocolError, match="answered 'ERROR' to MOVE \\(asked 4 times\\)"):
        manager.receive("ERROR")
    assert manager.awaiting is None


def test_an_answer_that_follows_a_slip_is_the_answer_and_the_next_question_may_slip_again() -> None:
    manager = started()
    manager.ask_move([Point(7, 7)], SECOND)
    assert isinstance(manager.receive("ERROR Unknown command"), Slipped)
    assert manager.receive("8,8") == Played(Point(8, 8)), "the brain read the move after all"
    assert manager.awaiting is None
    with pytest.raises(RuntimeError, match="no question that slipped"):
        manager.retry()
    assert manager.ask_move([Point(7, 7), Point(8, 8), Point(9, 9)], SECOND) == ["TURN 9,9"]
    assert manager.receive("ERROR") == Slipped("ERROR", quiet_ms=50), "a new question has all its retries"


def test_a_swap2_question_that_slipped_is_asked_again_with_its_stones() -> None:
    manager = started()
    stones = [Point(7, 7), Point(8, 8), Point(6, 9)]
    manager.ask_swap2(stones, SECOND)
    assert isinstance(manager.receive("ERROR Unknown command"), Slipped)
    assert manager.retry()[-5:] == ["SWAP2BOARD", "7,7", "8,8", "6,9", "DONE"]
    assert manager.receive("SWAP") == Swap2Decided(ChooseColor(Color.BLACK))


def test_an_error_to_about_is_no_slip() -> None:
    manager = started()
    manager.ask_about()
    with pytest.raises(BrainProtocolError, match="answered 'ERROR' to ABOUT"):
        manager.receive("ERROR")


def test_a_renju_brain_may_not_answer_a_forbidden_point_for_black() -> None:
    manager = started(rule=Rule.RENJU)
    black = [Point(6, 7), Point(8, 7), Point(7, 6), Point(7, 8)]
    white = [Point(0, 0), Point(0, 2), Point(0, 4), Point(0, 6)]
    manager.ask_move([point for pair in zip(black, white, strict=True) for point in pair], SECOND)
    with pytest.raises(BrainProtocolError, match="forbidden"):
        manager.receive("7,7")  # two open threes for black, across and down


def test_words_when_nothing_is_due_are_a_protocol_error_but_messages_never_are() -> None:
    manager = started()
    assert manager.receive("DEBUG thinking about nothing") == Said("DEBUG thinking about nothing")
    with pytest.raises(BrainProtocolError, match="no answer was due"):
        manager.receive("7,7")


def test_asking_twice_without_an_answer_is_a_bug_of_the_caller() -> None:
    manager = started()
    manager.ask_move([], SECOND)
    with pytest.raises(RuntimeError, match="still owes"):
        manager.ask_move([], SECOND)


def test_about_is_any_line() -> None:
    manager = BrainManager()
    assert manager.ask_about() == ["ABOUT"]
    assert manager.receive('name="x", version="1"') == Introduced('name="x", version="1"')


def test_swap2_answers_become_opening_steps() -> None:
    stones = [Point(7, 7), Point(8, 8), Point(6, 9)]
    manager = started()
    assert manager.ask_swap2([], SECOND)[-2:] == ["SWAP2BOARD", "DONE"]
    assert manager.receive("7,7 8,8 6,9") == Swap2Decided(PlaceStones(tuple(stones)))
    manager.ask_swap2(stones, SECOND)
    assert manager.receive("SWAP") == Swap2Decided(ChooseColor(Color.BLACK))
    manager.ask_swap2(stones, SECOND)
    assert manager.receive("1,1 2,2") == Swap2Decided(PlaceStones((Point(1, 1), Point(2, 2))))
    manager.ask_swap2(stones, SECOND)
    assert manager.receive("9,9") == Swap2Decided(ChooseColor(Color.WHITE), Point(9, 9))
    assert manager.prepared_move(stones) == Point(9, 9)
    assert manager.holds(stones)


@pytest.mark.parametrize(
    ("listed", "answer"),
    [(0, "SWAP"), (0, "7,7"), (3, "1,1 2,2 3,3"), (5, "1,1 2,2"), (3, "7,7")],
)
def test_a_swap2_answer_of_the_wrong_shape_is_a_protocol_error(listed: int, answer: str) -> None:
    stones = [Point(7, 7), Point(8, 8), Point(6, 9), Point(3, 3), Point(4, 4)][:listed]
    manager = started()
    manager.ask_swap2(stones, SECOND)
    with pytest.raises(BrainProtocolError):
        manager.receive(answer)


def test_a_whole_game_against_our_own_brain_session_with_no_process_between() -> None:
    brains = {color: BrainSession("greedy") for color in Color}
    managers = {color: BrainManager(str(color)) for color in Color}
    for color in Color:
        assert _converse(brains[color], managers[color], managers[color].new_game(9, Rule.STANDARD)) == Ready()
    board = Board(9, Rule.STANDARD)
    while board.result is None:
        color = board.to_move
        event = _converse(brains[color], managers[color], managers[color].ask_move(board.moves, TimeLimits(200)))
        assert isinstance(event, Played)
        board.play(event.point)
    assert board.ply >= 9


def _converse(brain: BrainSession, manager: BrainManager, lines: list[str]) -> BrainEvent:
    """Feed the lines to the brain and its answers to the manager, until the manager has its answer."""
    answer: BrainEvent | None = None
    for line in lines:
        for reply in brain.receive(line):
            event = manager.receive(reply)
            if not isinstance(event, Said):
                answer = event
    assert answer is not None
    return answer
