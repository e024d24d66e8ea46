"""Win detection under the three rules: fives in every direction, overlines, and the winning line."""

import pytest

from engine import Board, Color, EndReason, ForbiddenMoveError, Point, Rule, parse_point, rules


def points(*names: str, size: int = 15) -> tuple[Point, ...]:
    return tuple(parse_point(name, size) for name in names)


EMPTY_ROW = ". " * 15


def board_with_row(row: str, rule: Rule, filler: str) -> Board:
    """A 15x15 board whose 8th row from the top is `row` and whose bottom row is `filler`."""
    rows = [EMPTY_ROW] * 15
    rows[7] = row
    rows[14] = filler
    return Board.from_picture("\n".join(rows), rule)


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD])
@pytest.mark.parametrize(
    ("picture", "move", "line"),
    [
        (
            """
            . . . . . . .
            . X X X X . .
            . O O O O . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "f6",
            ("b6", "c6", "d6", "e6", "f6"),
        ),
        (
            """
            . X O . . . .
            . X O . . . .
            . X O . . . .
            . X O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "b3",
            ("b3", "b4", "b5", "b6", "b7"),
        ),
        (
            """
            X O . . . . .
            O X . . . . .
            . O X . . . .
            . . . X . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            """,
            "e3",
            ("e3", "d4", "c5", "b6", "a7"),
        ),
        (
            """
            . . . . . . .
            . . . . . X .
            . . O . X . .
            . . . X . . .
            . . X . . . .
            . . . . . . .
            . O O O . . .
            """,
            "b2",
            ("b2", "c3", "d4", "e5", "f6"),
        ),
    ],
    ids=["horizontal", "vertical", "diagonal", "anti-diagonal"],
)
def test_five_in_a_row_wins_in_every_direction(rule: Rule, picture: str, move: str, line: tuple[str, ...]) -> None:
    board = Board.from_picture(picture, rule)
    result = board.play(parse_point(move, 7))
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, EndReason.FIVE)
    assert result.line is not None
    assert sorted(result.line) == sorted(points(*line, size=7))


def test_the_winning_line_runs_in_order_along_the_line() -> None:
    board = Board.from_picture(
        """
        . . . . . . .
        . X X . X X .
        . O O O O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    result = board.play(parse_point("d6", 7))
    assert result is not None
    assert result.line == points("b6", "c6", "d6", "e6", "f6", size=7)


def test_four_in_a_row_does_not_win() -> None:
    board = Board.from_picture(
        """
        . . . . . . .
        . X X X . . .
        . O O O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert board.play(parse_point("e6", 7)) is None


def test_a_five_broken_by_an_opponent_stone_does_not_win() -> None:
    board = Board.from_picture(
        """
        . . . . . . .
        X X O X X . .
        . O . O . O .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert board.play(parse_point("f6", 7)) is None


def test_a_five_along_the_edge_of_the_board_wins() -> None:
    board = Board.from_picture(
        """
        X . . . .
        X O . . .
        X O . . .
        X O . . .
        . O . . .
        """
    )
    result = board.play(Point(0, 4))
    assert result is not None and result.winner is Color.BLACK
    assert result.line == tuple(Point(0, y) for y in range(5))


# ------------------------------------------------------------------- overlines

OVERLINE_ROW_BLACK = ". . X X X . X X . . . . . . ."
"""Black fills f8 to make six in a row, c8 to h8."""
BLACK_FILLER = "O . O . O . O . O . . . . . ."
OVERLINE_ROW_WHITE = ". . O O O . O O . . . . . . ."
WHITE_FILLER = "X . X . X . X . X . X . . . ."


def test_freestyle_an_overline_wins_and_its_line_is_every_stone() -> None:
    board = board_with_row(OVERLINE_ROW_BLACK, Rule.FREESTYLE, BLACK_FILLER)
    result = board.play(parse_point("f8", 15))
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, EndReason.FIVE)
    assert result.line == points("c8", "d8", "e8", "f8", "g8", "h8")


@pytest.mark.parametrize(("row", "filler"), [(OVERLINE_ROW_BLACK, BLACK_FILLER), (OVERLINE_ROW_WHITE, WHITE_FILLER)])
def test_standard_an_overline_does_not_win_for_either_colour(row: str, filler: str) -> None:
    board = board_with_row(row, Rule.STANDARD, filler)
    assert board.play(parse_point("f8", 15)) is None
    assert board.result is None


def test_standard_exactly_five_wins() -> None:
    board = board_with_row(". . X X X . X . . . . . . . .", Rule.STANDARD, "O . O . O . O . . . . . . . .")
    result = board.play(parse_point("f8", 15))
    assert result is not None and result.winner is Color.BLACK
    assert result.line == points("c8", "d8", "e8", "f8", "g8")


def test_renju_white_wins_with_an_overline() -> None:
    board = board_with_row(OVERLINE_ROW_WHITE, Rule.RENJU, WHITE_FILLER)
    result = board.play(parse_point("f8", 15))
    assert result is not None
    assert (result.winner, result.reason) == (Color.WHITE, EndReason.FIVE)
    assert len(result.line or ()) == 6


def test_renju_black_wins_with_exactly_five() -> None:
    board = board_with_row(". . X X X . X . . . . . . . .", Rule.RENJU, "O . O . O . O . . . . . . . .")
    result = board.play(parse_point("f8", 15))
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, EndReason.FIVE)


def test_renju_black_overline_is_forbidden_not_a_win() -> None:
    board = board_with_row(OVERLINE_ROW_BLACK, Rule.RENJU, BLACK_FILLER)
    with pytest.raises(ForbiddenMoveError, match="overline"):
        board.play(parse_point("f8", 15))
    board.push(parse_point("f8", 15))  # unchecked, as a search might: still no win
    assert board.result is None


def test_a_five_stays_possible_while_one_line_of_five_cells_holds_one_colour_only() -> None:
    from engine.rules import no_five_possible

    blocked = Board.from_picture(
        """
        X O X O X
        X O X O O
        O X O X .
        O X O X .
        X O X O .
        """
    )
    assert no_five_possible(blocked.cells, blocked.size)
    open_column = Board.from_picture(
        """
        X O X O .
        X O X O .
        O X O X .
        O X O X .
        X O X O .
        """
    )
    assert not no_five_possible(open_column.cells, open_column.size)
    assert not no_five_possible(Board(5).cells, 5)


def test_the_cell_values_of_the_rules_are_the_colours() -> None:
    """rules.py spells the colours out as plain integers (so that the compiled engine holds them as
    constants): they must stay the colours' values."""
    assert (rules.EMPTY, rules.BLACK, rules.WHITE) == (0, Color.BLACK, Color.WHITE)
