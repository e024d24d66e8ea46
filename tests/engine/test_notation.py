"""Human notation (`h8`) and the letter pairs of the classic exercise feeds (`hhjhii...`)."""

import pytest

from engine import (
    Board,
    NotationError,
    Point,
    format_pairs,
    format_point,
    looks_like_point,
    parse_pairs,
    parse_point,
)


def test_h8_is_the_centre_of_15x15() -> None:
    assert parse_point("h8", 15) == Point(7, 7)
    assert format_point(Point(7, 7), 15) == "h8"


@pytest.mark.parametrize(
    ("name", "point"),
    [("a1", Point(0, 14)), ("a15", Point(0, 0)), ("o1", Point(14, 14)), ("o15", Point(14, 0))],
)
def test_the_corners_of_15x15(name: str, point: Point) -> None:
    assert parse_point(name, 15) == point
    assert format_point(point, 15) == name


def test_letters_run_without_gaps_up_to_z_on_26x26() -> None:
    assert parse_point("i1", 26) == Point(8, 25)
    assert parse_point("j1", 26) == Point(9, 25)
    assert parse_point("z26", 26) == Point(25, 0)
    assert format_point(Point(25, 25), 26) == "z1"


def test_rows_count_from_the_bottom_whatever_the_size() -> None:
    assert parse_point("a1", 5) == Point(0, 4)
    assert parse_point("c3", 5) == Point(2, 2)
    assert parse_point("k10", 19) == Point(10, 9)


def test_parsing_ignores_case_and_surrounding_spaces() -> None:
    assert parse_point(" H8 ", 15) == Point(7, 7)


def test_every_point_of_every_size_round_trips() -> None:
    for size in range(5, 27):
        for y in range(size):
            for x in range(size):
                assert parse_point(format_point(Point(x, y), size), size) == Point(x, y)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a point"),
        ("h", "is not a point"),
        ("8h", "is not a point"),
        ("hh8", "is not a point"),
        ("h-1", "is not a point"),
        ("h 8", "is not a point"),
        ("h123", "is not a point"),
        ("é8", "is not a point"),
        ("h0", "outside the 15x15 board"),
        ("h16", "outside the 15x15 board"),
        ("p1", "outside the 15x15 board"),
    ],
)
def test_bad_human_notation_is_refused_with_the_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        parse_point(text, 15)
    assert repr(text) in str(caught.value)
    assert looks_like_point(text) == (message != "is not a point"), "a point off the board still looks like one"


@pytest.mark.parametrize("text", ["h8", " H8 ", "a1", "z26", "p1"])
def test_text_written_as_a_point_looks_like_one_on_any_board(text: str) -> None:
    assert looks_like_point(text)


@pytest.mark.parametrize("text", ["7,7", "hello", "resign", "h 8", ""])
def test_other_text_does_not_look_like_a_point(text: str) -> None:
    assert not looks_like_point(text)


@pytest.mark.parametrize("size", [4, 27])
def test_sizes_outside_5_to_26_are_refused(size: int) -> None:
    with pytest.raises(NotationError, match=f"board size {size} is outside 5..26"):
        parse_point("a1", size)
    with pytest.raises(NotationError):
        format_point(Point(0, 0), size)


def test_formatting_a_point_off_the_board_is_refused() -> None:
    with pytest.raises(NotationError, match=r"\(15, 0\)' is outside the 15x15 board"):
        format_point(Point(15, 0), 15)


# -------------------------------------------------------------------- letter pairs

EXERCISE_GAME = "hhjhiijgghjjjkjijfkjig"


def test_letter_pairs_are_row_from_the_top_then_column_from_the_left() -> None:
    assert parse_pairs("hh", 15) == [Point(7, 7)]
    assert parse_pairs("ab", 15) == [Point(1, 0)]
    assert parse_pairs("ba", 15) == [Point(0, 1)]


def test_the_exercise_game_reads_as_eleven_moves_that_can_be_played() -> None:
    points = parse_pairs(EXERCISE_GAME, 15)
    assert points == [
        Point(7, 7),
        Point(7, 9),
        Point(8, 8),
        Point(6, 9),
        Point(7, 6),
        Point(9, 9),
        Point(10, 9),
        Point(8, 9),
        Point(5, 9),
        Point(9, 10),
        Point(6, 8),
    ]
    board = Board.from_moves(points)
    assert board.ply == 11
    assert format_pairs(board.moves) == EXERCISE_GAME


def test_letter_pairs_ignore_case_and_surrounding_whitespace() -> None:
    assert parse_pairs("  HHjh\n", 15) == [Point(7, 7), Point(7, 9)]


def test_an_empty_letter_pair_string_is_an_empty_game() -> None:
    assert parse_pairs("", 15) == []
    assert format_pairs([]) == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hhj", "odd number of letters \\(3\\)"),
        ("hh1a", "'1a' at position 2 is not a pair of letters"),
        ("hh-h", "'-h' at position 2 is not a pair of letters"),
        ("hhpa", "'pa' is outside the 15x15 board"),
        ("hhap", "'ap' is outside the 15x15 board"),
    ],
)
def test_bad_letter_pairs_are_refused_saying_where(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_pairs(text, 15)


def test_letter_pairs_reach_z_on_26x26_but_not_beyond() -> None:
    assert parse_pairs("zz", 26) == [Point(25, 25)]
    with pytest.raises(NotationError, match="cannot be written as a letter pair"):
        format_pairs([Point(26, 0)])
