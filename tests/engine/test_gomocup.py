"""The Gomocup brain protocol core, driven by a scripted transport: lines in, lines out."""

import time
from collections.abc import Iterable

import pytest

from engine import Point, Rule
from engine.gomocup import SAFETY_MS, BrainSession, TimeControl, rule_from_bits
from engine.limits import RESERVE_MS
from engine.registry import default_time_ms, level_names


def _session(rule: Rule = Rule.FREESTYLE) -> BrainSession:
    return BrainSession("easy", rule=rule, seed=3)


def _send(session: BrainSession, lines: Iterable[str]) -> list[str]:
    answers: list[str] = []
    for line in lines:
        answers.extend(session.receive(line))
    return answers


def _moves(answers: list[str]) -> list[Point]:
    moves = []
    for answer in answers:
        if answer[0].isdigit():
            x, y = answer.split(",")
            moves.append(Point(int(x), int(y)))
    return moves


def test_start_begin_and_turn_answer_with_moves_and_a_message_per_depth() -> None:
    session = _session()
    answers = _send(session, ["INFO timeout_turn 300", "START 15", "BEGIN"])
    assert answers[0] == "OK"
    assert _moves(answers) == [Point(7, 7)]
    answers = _send(session, ["TURN 8,8"])
    messages = [answer for answer in answers if answer.startswith("MESSAGE")]
    assert messages, "each finished depth is reported"
    assert all(" depth " in message and " nodes " in message and " pv " in message for message in messages)
    assert messages[0].startswith("MESSAGE depth 1 score ")
    (move,) = _moves(answers)
    assert session.board is not None
    assert session.board.moves == (Point(7, 7), Point(8, 8), move)


def test_board_sets_up_a_position_and_the_brain_blocks_the_four() -> None:
    session = _session()
    answers = _send(
        session,
        ["START 15", "BOARD", "7,7,2", "0,0,1", "7,8,2", "0,2,1", "7,9,2", "0,4,1", "7,10,2", "DONE"],
    )
    assert answers[0] == "OK"
    assert _moves(answers)[-1] in (Point(7, 6), Point(7, 11))


def test_board_with_own_stones_first_means_the_brain_is_black() -> None:
    session = _session()
    _send(session, ["START 15", "BOARD", "7,7,1", "8,8,2", "DONE"])
    assert session.board is not None
    assert session.board.moves[:2] == (Point(7, 7), Point(8, 8))
    assert session.board.ply == 3


def test_winning_line_markers_are_not_stones() -> None:
    session = _session()
    _send(session, ["START 15", "BOARD", "7,7,2", "3,3,3", "DONE"])
    assert session.board is not None
    assert Point(3, 3) not in session.board.moves[:1]
    assert session.board.ply == 2


def test_takeback_removes_the_last_move_and_answers_ok() -> None:
    session = _session()
    answers = _send(session, ["START 15", "BEGIN"])
    (move,) = _moves(answers)
    assert _send(session, [f"TAKEBACK {move.x},{move.y}"]) == ["OK"]
    assert session.board is not None and session.board.ply == 0
    assert _send(session, ["TAKEBACK 1,1"])[0].startswith("ERROR")


def test_restart_clears_the_board() -> None:
    session = _session()
    _send(session, ["START 15", "BEGIN"])
    assert _send(session, ["RESTART"]) == ["OK"]
    assert session.board is not None and session.board.ply == 0


def test_about_names_the_brain() -> None:
    (answer,) = _send(_session(), ["ABOUT"])
    assert answer.startswith('name="gomoku-engine"')
    assert 'version="' in answer


def test_end_finishes_the_session_silently() -> None:
    session = _session()
    assert _send(session, ["START 15", "END"]) == ["OK"]
    assert session.finished


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["START 2"], "ERROR"),
        (["START banana"], "ERROR"),
        (["RECTSTART 15,20"], "ERROR"),
        (["BEGIN"], "ERROR"),
        (["TURN 3,3"], "ERROR"),
        (["START 15", "TURN 15,3"], "ERROR"),
        (["START 15", "TURN 7,7", "TURN 7,7"], "ERROR"),
        (["START 15", "BOARD", "1,1", "DONE"], "ERROR"),
        (["START 15", "BOARD", "1,1,1", "2,2,1", "DONE"], "ERROR"),
        (["BOARD", "1,1,1", "DONE"], "ERROR"),
        (["INFO timeout_turn soon"], "ERROR"),
        (["INFO rule 8"], "ERROR"),
        (["SWAP2BOARD", "DONE"], "ERROR"),
        (["START 15", "SWAP2BOARD", "7,7", "DONE"], "ERROR"),
        (["START 15", "SWAP2BOARD", "7,7", "8,8", "7,7", "DONE"], "ERROR"),
        (["START 15", "SWAP2BOARD", "7,7", "8,8", "15,3", "DONE"], "ERROR"),
        (["START 15", "SWAP2BOARD", "7,7", "8,8,1", "9,9", "DONE"], "ERROR"),
        (["SWAP3BOARD"], "UNKNOWN"),
    ],
)
def test_bad_input_gets_an_error_line_and_the_session_goes_on(lines: list[str], expected: str) -> None:
    session = _session()
    answers = _send(session, lines)
    assert answers[-1].startswith(expected + " ")
    assert _send(session, ["ABOUT"])[0].startswith("name=")


def test_unknown_info_keys_are_ignored() -> None:
    assert _send(_session(), ["INFO folder C:\\brains", "INFO evaluate 3,4"]) == []


@pytest.mark.parametrize(
    ("bits", "rule"), [(0, Rule.FREESTYLE), (1, Rule.STANDARD), (4, Rule.RENJU), (5, Rule.RENJU), (2, Rule.FREESTYLE)]
)
def test_the_rule_bitmask_maps_to_a_rule(bits: int, rule: Rule) -> None:
    assert rule_from_bits(bits) is rule


def test_info_rule_before_the_first_move_changes_the_rule_of_the_board() -> None:
    session = _session()
    _send(session, ["START 15", "INFO rule 4"])
    assert session.board is not None and session.board.rule is Rule.RENJU


def test_renju_brain_as_black_never_plays_a_forbidden_point() -> None:
    session = _session(Rule.RENJU)
    # Black (the brain) has f8, g8 and i7, j6: h8 is a double three.
    answers = _send(
        session,
        ["START 15", "BOARD", "5,7,1", "0,0,2", "6,7,1", "14,0,2", "8,8,1", "0,14,2", "9,9,1", "14,14,2", "DONE"],
    )
    move = _moves(answers)[-1]
    assert move != Point(7, 7)


def test_time_control_keeps_a_safety_margin_and_spreads_the_match_clock() -> None:
    assert TimeControl().budget_ms() is None
    assert TimeControl(turn_ms=1000).budget_ms() == 940
    assert TimeControl(turn_ms=0).budget_ms() == 100
    assert TimeControl(turn_ms=5000, match_ms=100_000, left_ms=20_000).budget_ms() == 940
    assert TimeControl(match_ms=100_000, left_ms=40_000).budget_ms() == 1940
    assert TimeControl(turn_ms=1000, match_ms=0, left_ms=500).budget_ms() == 940, "match 0: no match limit"
    assert TimeControl(turn_ms=30, match_ms=100_000, left_ms=10).budget_ms() == 1, "never below a millisecond"


def test_with_a_match_clock_an_unsettled_move_may_take_more_of_it_up_to_the_turn_time() -> None:
    assert TimeControl(turn_ms=1000).most_ms(940) is None, "a turn time alone is all a move has"
    assert TimeControl(match_ms=100_000, left_ms=40_000).most_ms(1940) == 4992
    assert TimeControl(turn_ms=3000, match_ms=100_000, left_ms=40_000).most_ms(1940) == 2940


@pytest.mark.parametrize("level", level_names())
def test_without_time_limits_the_brain_gives_its_level_the_default_time(level: str) -> None:
    session = BrainSession(level)
    assert session.thinking_ms() == default_time_ms(level)
    _send(session, ["INFO timeout_turn 1000"])
    assert session.thinking_ms() == 1000 - SAFETY_MS


def test_the_default_time_reaches_the_search() -> None:
    session = BrainSession("hard")
    started = time.monotonic()
    answers = _send(session, ["START 15", "TURN 7,7"])
    assert len(_moves(answers)) == 1
    # The search cannot settle the opening early, so it stops only at its deadline (less a
    # small reserve); without one it would deepen for hours.
    assert time.monotonic() - started >= (default_time_ms("hard") - RESERVE_MS) / 1000


def test_a_node_limit_ends_each_search_whatever_the_time() -> None:
    session = BrainSession("master", nodes=3_000)
    answers = _send(session, ["INFO timeout_turn 1000000", "START 15", "TURN 7,7"])
    assert len(_moves(answers)) == 1
    nodes = [int(answer.split(" nodes ")[1].split()[0]) for answer in answers if answer.startswith("MESSAGE")]
    assert nodes and max(nodes) <= 3_000


def test_info_sets_the_depth_and_width_of_alphabetas_search() -> None:
    session = BrainSession("alphabeta")
    answers = _send(session, ["INFO search_depth 2", "INFO search_width 3", "START 15", "TURN 7,7"])
    (message,) = [answer for answer in answers if answer.startswith("MESSAGE")]
    assert message.startswith("MESSAGE depth 2 ")
    assert (session.search_depth, session.search_width) == (2, 3)


@pytest.mark.parametrize(
    ("level", "line", "error"),
    [
        ("alphabeta", "INFO search_depth 9", "ERROR INFO search_depth: alphabeta's depth must be 1 to 8, not 9"),
        ("alphabeta", "INFO search_width deep", "ERROR INFO search_width needs a number, not 'deep'"),
        ("master", "INFO search_depth 3", "ERROR INFO search_depth: master takes no search depth or width"),
    ],
)
def test_a_depth_or_width_out_of_bounds_or_for_another_level_is_refused(level: str, line: str, error: str) -> None:
    session = BrainSession(level)
    (answer,) = _send(session, [line])
    assert answer.startswith(error)
    assert (session.search_depth, session.search_width) == (None, None)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        BrainSession("grandmaster")


def test_a_classic_bot_reports_one_message_in_the_same_format() -> None:
    session = BrainSession("greedy", seed=0)
    answers = _send(session, ["START 15", "TURN 7,7"])
    messages = [answer for answer in answers if answer.startswith("MESSAGE")]
    assert len(messages) == 1
    assert messages[0].startswith("MESSAGE depth ") and " nps " in messages[0] and " pv " in messages[0]
    assert len(_moves(answers)) == 1


# ------------------------------------------------------------ swap2 (SWAP2BOARD)


def _stones(line: str) -> list[Point]:
    """The points of an answer like `7,7 8,7 9,9`."""
    return [Point(*(int(part) for part in pair.split(","))) for pair in line.split()]


def _swap2(stones: str) -> tuple[BrainSession, list[str]]:
    """A brain at level `easy` asked SWAP2BOARD with these stones (x,y separated by spaces)."""
    session = BrainSession("easy", seed=3)
    lines = ["INFO timeout_turn 1000", "START 15", "SWAP2BOARD", *stones.split(), "DONE"]
    answers = _send(session, lines)
    assert answers[0] == "OK"
    return session, answers[1:]


def test_swap2board_with_no_stones_answers_the_three_opening_stones_on_one_line() -> None:
    session, answers = _swap2("")
    (line,) = answers
    stones = _stones(line)
    assert len(stones) == 3 and Point(7, 7) in stones
    assert session.board is not None and session.board.moves == tuple(stones)


def test_swap2board_with_three_stones_swaps_when_black_is_clearly_winning() -> None:
    # Black h8 and i9 touch in the centre, white's stone is in the corner.
    session, answers = _swap2("7,7 0,0 8,6")
    assert answers == ["SWAP"]
    assert session.board is not None and session.board.ply == 3


def test_swap2board_with_three_stones_stays_white_and_plays_the_4th_when_black_is_lost() -> None:
    # White holds the centre; black's stones are in two corners.
    session, answers = _swap2("0,0 7,7 14,14")
    assert any(answer.startswith("MESSAGE depth ") for answer in answers)
    (fourth,) = _moves(answers)
    assert session.board is not None and session.board.moves == (Point(0, 0), Point(7, 7), Point(14, 14), fourth)


def test_swap2board_with_a_balanced_opening_answers_the_4th_and_5th_stones() -> None:
    session, answers = _swap2("7,7 7,6 12,7")
    (line,) = answers
    fourth, fifth = _stones(line)
    assert session.board is not None and session.board.moves[3:] == (fourth, fifth)


def test_swap2board_with_five_stones_swaps_when_black_is_better() -> None:
    session, answers = _swap2("7,7 0,0 8,6 0,1 9,5")
    assert answers == ["SWAP"]


def test_swap2board_with_five_stones_takes_white_and_plays_the_6th_when_white_is_better() -> None:
    session, answers = _swap2("0,0 7,7 14,14 8,6 0,14")
    (sixth,) = _moves(answers)
    assert session.board is not None and session.board.ply == 6 and session.board.last_move == sixth


def test_after_swap2board_the_game_goes_on_with_turn() -> None:
    session, answers = _swap2("7,7 0,0 8,6")
    assert answers == ["SWAP"]
    answers = _send(session, ["TURN 9,5"])
    (move,) = _moves(answers)
    assert session.board is not None and session.board.moves[3:] == (Point(9, 5), move)
