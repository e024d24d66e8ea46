"""Renju forbidden points for black, in the hard cases the rule texts discuss.

The definitions tested are those of the RIF International Rules of Renju
(renju.net, "The International Rules of Renju", 1996/1998):

* four: "a row with four stones to which you can add one more stone to
  attain five in a row"; straight four: one that can become five in two
  different ways;
* three: "a row with three stones to which you, without at the same time a
  five in a row is made, can add one more stone to attain a straight four";
* double-four / double-three: a stone that "at the same time makes more than
  one four (three) that meet each other in this intersection";
* black's overline, double-four and double-three are forbidden; a five is
  never forbidden, even made together with one of those shapes.

A three counts only if its straight-four point is itself a legal move for
black: that is the recursive rule (renju.net's articles on "false"
double-threes; the blocked-by-overline example `O.XXX..X` is the one Rémi
Coulom gives on the Ludii forum). Every position below has black to move;
the white stones along the bottom and top edges only balance the count.
Columns run a..o from the left, rows 15..1 from the top, as in renju books.
"""

import pytest

from engine import Board, Color, EndReason, Forbidden, ForbiddenMoveError, Rule, parse_point


def renju(picture: str) -> Board:
    board = Board.from_picture(picture, Rule.RENJU)
    assert board.to_move is Color.BLACK and board.result is None
    return board


def reason(board: Board, move: str) -> Forbidden | None:
    return board.forbidden_reason(parse_point(move, 15))


# ------------------------------------------------------------------ double-four


def test_double_four_on_one_line_x_xxx_x_is_forbidden() -> None:
    """g8 makes X.XXX.X (d8 f8 g8 h8 j8): e8 and i8 each complete a five through g8."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . X . X . X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "g8") is Forbidden.DOUBLE_FOUR
    with pytest.raises(ForbiddenMoveError, match="g8 is forbidden for black under renju \\(double-four\\)"):
        board.play(parse_point("g8", 15))


def test_double_four_on_one_line_xx_xx_xx_is_forbidden() -> None:
    """g8 makes XX.XX.XX (c8 d8 . f8 g8 . i8 j8): e8 and h8 each complete a five."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X X . X . . X X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . . . . . .
        """
    )
    assert reason(board, "g8") is Forbidden.DOUBLE_FOUR


def test_fours_that_do_not_meet_at_the_stone_are_not_a_double_four() -> None:
    """d8 makes X.XXX.X too, but the second four (f8..j8) was already there and
    does not pass through d8: only one four meets at the new stone."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X X X . X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "d8") is None


def test_double_four_in_two_directions_is_forbidden_even_when_both_are_blocked() -> None:
    """g8 makes a four on row 8 (c8 white) and one on column g (g12 white)."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . O X X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "g8") is Forbidden.DOUBLE_FOUR


# ----------------------------------------------------------------- double-three


def test_two_open_threes_are_a_forbidden_double_three() -> None:
    """g8 makes e8 f8 g8 and g10 g9 g8, both free to become straight fours."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "g8") is Forbidden.DOUBLE_THREE


def test_a_split_three_counts_as_a_three() -> None:
    """g8 makes X.XX on row 8 (d8 . f8 g8) and e10 f9 g8 on the diagonal."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . X . X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "g8") is Forbidden.DOUBLE_THREE


def test_four_three_is_allowed() -> None:
    """g8 makes a four (d8..g8, c8 white) and a three (g10 g9 g8): black's winning shape."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . O X X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "g8") is None
    assert board.play(parse_point("g8", 15)) is None


def test_a_three_blocked_by_white_is_not_a_three() -> None:
    """e8 f8 g8 with white on d8 can only become a four closed on one side, never a straight four,
    so g8 makes a single three (the column) and is allowed."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . O X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . . . . . . . . . .
        """
    )
    assert reason(board, "g8") is None


def test_a_three_against_the_edge_is_not_a_three() -> None:
    """a8 b8 c8 lean on the edge: adding d8 gives a four with one completion only."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . . . . . . . . . . .
        . . X . . . . . . . . . . . .
        X X . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "c8") is None


def test_a_three_whose_straight_four_would_be_an_overline_is_not_a_three() -> None:
    """O.XXX..X (d8 white, f8 g8 h8, k8): i8 gives a four whose j8 end makes six, e8 a
    four closed by d8; no straight four can be made, so h8 makes one three only."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . O . X X . . . X . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "h8") is None


def test_without_the_far_stone_the_same_three_is_real() -> None:
    """The same position without k8: i8 now makes a straight four, and h8 is a double-three."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . O . X X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . . . . . . . . . .
        """
    )
    assert reason(board, "h8") is Forbidden.DOUBLE_THREE


# ------------------------------------------------------------- recursive rule


def test_a_three_whose_only_straight_four_point_is_an_overline_is_false() -> None:
    """g8 h8 i8 with k8 white can become a straight four only at f8; but f8 would join
    f10 f9 and f7 f6 f5 into six, so f8 is forbidden, the row is no three, and h8
    (a real three on column h plus this false one) is allowed."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . X . X . O . . . .
        . . . . . X . X . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . O . O . O
        """
    )
    assert reason(board, "h8") is None
    board.play(parse_point("h8", 15))
    assert board.stone_at(parse_point("h8", 15)) is Color.BLACK


def test_the_recursive_case_is_a_double_three_when_the_straight_four_point_is_legal() -> None:
    """The same position without column f: f8 is a legal straight-four point and h8 is forbidden."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . X . X . O . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . . . . . . . . . .
        """
    )
    assert reason(board, "h8") is Forbidden.DOUBLE_THREE


def test_a_three_whose_only_straight_four_point_is_a_double_three_is_false() -> None:
    """As above, but f8 is forbidden because it would itself be a double-three (f10 f9 f8 on
    column f and d10 e9 f8 on the diagonal, next to its four on row 8): two levels of the rule."""
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . X . . . . . . . . .
        . . . . X X . X . . . . . . .
        . . . . . . X . X . O . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . O . O . .
        """
    )
    assert reason(board, "h8") is None


def test_the_two_level_case_is_a_double_three_when_f8_is_only_four_three() -> None:
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . . . . . . . . . . .
        . . . . X . . X . . . . . . .
        . . . . . . X . X . O . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . . . . . .
        """
    )
    assert reason(board, "h8") is Forbidden.DOUBLE_THREE


# ------------------------------------------------------- five with a forbidden shape


@pytest.mark.parametrize(
    ("picture", "shape"),
    [
        (
            """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . O . . . O . . . . . . .
        . . . . X . . X . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . X X . . . . . . .
        . . . X X X X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . O . O . O
        """,
            "double-four on column h and the e11-h8 diagonal",
        ),
        (
            """
        . . . . . . . . . . . . . . O
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . X X X X . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . O . O . O
        """,
            "overline on column h (h11..h6)",
        ),
        (
            """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . X X . . . . . . .
        . . . X X X X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . O . O . O . O
        """,
            "double-three on column h and the f10-h8 diagonal",
        ),
    ],
    ids=["double-four", "overline", "double-three"],
)
def test_a_five_made_together_with_a_forbidden_shape_wins(picture: str, shape: str) -> None:
    """h8 completes d8..h8 and at the same time makes a forbidden shape: the five wins."""
    board = renju(picture)
    assert reason(board, "h8") is None, shape
    result = board.play(parse_point("h8", 15))
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, EndReason.FIVE)
    assert result.line == tuple(parse_point(name, 15) for name in ("d8", "e8", "f8", "g8", "h8"))


def test_without_the_five_the_same_shape_is_forbidden() -> None:
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . O . . . O . . . . . . .
        . . . . X . . X . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . X X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    assert reason(board, "h8") is Forbidden.DOUBLE_FOUR


# ---------------------------------------------------------------- who is bound


def test_white_may_play_black_forbidden_points() -> None:
    board = Board.from_picture(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """,
        Rule.RENJU,
    )
    board.push(parse_point("o8", 15))  # black elsewhere: now white to move
    assert reason(board, "g8") is None
    board.play(parse_point("g8", 15))


def test_legal_moves_leave_out_forbidden_points() -> None:
    board = renju(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    )
    legal = board.legal_moves()
    assert parse_point("g8", 15) not in legal
    assert parse_point("h8", 15) in legal
    assert len(legal) == 225 - 8 - 1


def test_freestyle_and_standard_have_no_forbidden_points() -> None:
    picture = """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . X . X . X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . O . . . . . . . .
        """
    for rule in (Rule.FREESTYLE, Rule.STANDARD):
        board = Board.from_picture(picture, rule)
        assert reason(board, "g8") is None
        board.play(parse_point("g8", 15))
