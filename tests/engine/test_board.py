"""The Board: placing and taking back stones, turn, history, hash, draws and every illegal action."""

import pytest

from engine import (
    Board,
    Color,
    EndReason,
    ForbiddenMoveError,
    GameOverError,
    GameResult,
    IllegalMoveError,
    NothingToUndoError,
    OccupiedError,
    OffBoardError,
    Point,
    Rule,
    WrongTurnError,
    parse_point,
)

H8 = Point(7, 7)


def test_a_new_board_is_empty_with_black_to_move() -> None:
    board = Board()
    assert board.size == 15
    assert board.rule is Rule.FREESTYLE
    assert board.to_move is Color.BLACK
    assert board.ply == 0
    assert board.moves == ()
    assert board.last_move is None
    assert board.result is None
    assert board.hash == 0
    assert all(value == 0 for value in board.cells)
    assert len(list(board.empty_points())) == 225


@pytest.mark.parametrize("size", [4, 27, 0, -1])
def test_sizes_outside_5_to_26_are_refused(size: int) -> None:
    with pytest.raises(ValueError, match="5 to 26"):
        Board(size)


def test_renju_is_only_played_on_15x15() -> None:
    with pytest.raises(ValueError, match="15x15"):
        Board(19, Rule.RENJU)


def test_play_places_stones_alternately_and_keeps_the_history() -> None:
    board = Board()
    board.play(H8)
    board.play(Point(8, 7))
    board.play(Point(7, 8))
    assert board.stone_at(H8) is Color.BLACK
    assert board.stone_at(Point(8, 7)) is Color.WHITE
    assert board.stone_at(Point(7, 8)) is Color.BLACK
    assert board.stone_at(Point(0, 0)) is None
    assert board.moves == (H8, Point(8, 7), Point(7, 8))
    assert board.last_move == Point(7, 8)
    assert board.ply == 3
    assert board.to_move is Color.WHITE


def test_play_accepts_the_colour_to_move_and_refuses_the_other() -> None:
    board = Board()
    board.play(H8, Color.BLACK)
    with pytest.raises(WrongTurnError, match="it is white's turn, not black's"):
        board.play(Point(0, 0), Color.BLACK)
    assert board.ply == 1


def test_pop_takes_back_the_last_move_and_returns_it() -> None:
    board = Board()
    board.play(H8)
    board.play(Point(8, 8))
    assert board.pop() == Point(8, 8)
    assert board.stone_at(Point(8, 8)) is None
    assert board.to_move is Color.WHITE
    assert board.moves == (H8,)


def test_pop_on_an_empty_board_says_there_is_nothing_to_undo() -> None:
    with pytest.raises(NothingToUndoError, match="no move to take back"):
        Board().pop()


def test_the_hash_changes_with_each_stone_and_returns_when_it_is_taken_back() -> None:
    board = Board()
    hashes = [board.hash]
    for point in (H8, Point(8, 8), Point(6, 6)):
        board.push(point)
        hashes.append(board.hash)
    assert len(set(hashes)) == 4
    for expected in reversed(hashes[:-1]):
        board.pop()
        assert board.hash == expected


def test_the_same_stones_reached_in_another_order_have_the_same_hash() -> None:
    first = Board.from_moves([H8, Point(8, 8), Point(6, 6), Point(9, 9)])
    second = Board.from_moves([Point(6, 6), Point(9, 9), H8, Point(8, 8)])
    assert first.hash == second.hash
    swapped_colours = Board.from_moves([Point(8, 8), H8, Point(9, 9), Point(6, 6)])
    assert swapped_colours.hash != first.hash


def test_the_hash_depends_on_the_board_size_only_through_its_keys() -> None:
    small = Board.from_moves([Point(2, 2)], size=5)
    again = Board.from_moves([Point(2, 2)], size=5)
    assert small.hash == again.hash != 0


def test_a_copy_is_independent() -> None:
    board = Board.from_moves([H8, Point(8, 8)])
    clone = board.copy()
    clone.play(Point(0, 0))
    assert board.ply == 2
    assert board.stone_at(Point(0, 0)) is None
    assert clone.hash != board.hash


def test_a_full_board_without_five_is_a_draw() -> None:
    picture = """
        X X O O X
        O O X X O
        X X O O X
        O O X X O
        X X O O X
    """
    rows = [line.split() for line in picture.strip().splitlines()]
    blacks = [Point(x, y) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell == "X"]
    whites = [Point(x, y) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell == "O"]
    board = Board(5)
    for index, black in enumerate(blacks):
        assert board.play(black) is None or index == len(blacks) - 1
        if index < len(whites):
            board.play(whites[index])
    assert board.is_full()
    assert board.result == GameResult(None, EndReason.FULL_BOARD)
    assert board.legal_moves() == []


def test_a_five_on_the_last_empty_point_wins_rather_than_draws() -> None:
    board = Board.from_picture(
        """
        X X X X .
        O O X X O
        X X O O X
        O O X X O
        O O O O X
        """
    )
    assert board.to_move is Color.BLACK
    result = board.play(Point(4, 0))
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, EndReason.FIVE)


# ------------------------------------------------------------------ illegal actions


def test_a_point_off_the_board_is_refused_with_its_coordinates() -> None:
    board = Board()
    with pytest.raises(OffBoardError, match=r"\(15, 3\) is outside the 15x15 board"):
        board.play(Point(15, 3))
    with pytest.raises(OffBoardError):
        board.play(Point(-1, 0))
    with pytest.raises(OffBoardError):
        board.stone_at(Point(0, 15))


def test_an_occupied_point_is_refused_by_its_name() -> None:
    board = Board.from_moves([H8])
    with pytest.raises(OccupiedError, match="h8 is already taken"):
        board.play(H8)


def test_a_forbidden_point_is_refused_with_the_reason() -> None:
    board = Board.from_picture(
        """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X X X . X X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . O . O . . O . O . . . . .
        """,
        Rule.RENJU,
    )
    with pytest.raises(ForbiddenMoveError, match=r"h8 is forbidden for black under renju \(overline\)"):
        board.play(parse_point("h8", 15))
    assert board.stone_at(H8) is None


def test_after_a_five_every_move_is_refused_because_the_game_is_over() -> None:
    board = Board.from_picture(
        """
        X X X X . .
        O O O O . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        """
    )
    board.play(Point(4, 0))
    with pytest.raises(GameOverError, match="the game is over"):
        board.play(Point(5, 5))
    assert board.legal_moves() == []


def test_every_illegal_action_is_a_value_error_and_changes_nothing() -> None:
    board = Board.from_moves([H8])
    before = (board.hash, board.ply, list(board.cells))
    for point, color, error in [
        (Point(20, 20), None, OffBoardError),
        (H8, None, OccupiedError),
        (Point(0, 0), Color.BLACK, WrongTurnError),
    ]:
        with pytest.raises(error) as caught:
            board.play(point, color)
        assert isinstance(caught.value, IllegalMoveError)
        assert isinstance(caught.value, ValueError)
        assert str(caught.value)
    assert (board.hash, board.ply, list(board.cells)) == before


def test_is_legal_answers_without_raising() -> None:
    board = Board.from_moves([H8])
    assert board.is_legal(Point(0, 0))
    assert not board.is_legal(H8)
    assert not board.is_legal(Point(15, 15))


# ---------------------------------------------------------------------- pictures


def test_a_picture_puts_black_and_white_stones_where_drawn() -> None:
    board = Board.from_picture(
        """
        . . . . .
        . X O . .
        . . X . .
        . . . . .
        . . . . .
        """
    )
    assert board.size == 5
    assert board.stone_at(Point(1, 1)) is Color.BLACK
    assert board.stone_at(Point(2, 1)) is Color.WHITE
    assert board.stone_at(Point(2, 2)) is Color.BLACK
    assert board.to_move is Color.WHITE


@pytest.mark.parametrize(
    ("picture", "message"),
    [
        (". . . . .\n. . . .\n. . . . .\n. . . . .\n. . . . .", "row 1 has 4 cells"),
        (". . . . .\n. . ? . .\n. . . . .\n. . . . .\n. . . . .", "unexpected '\\?' at row 1, column 2"),
        ("X X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", "black has 2 stones and white 0"),
        ("O . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", "black has 0 stones and white 1"),
    ],
)
def test_a_bad_picture_is_refused_with_what_is_wrong(picture: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_picture(picture)


def test_the_board_prints_as_a_picture_with_coordinates() -> None:
    board = Board.from_moves([Point(0, 4), Point(4, 0)], size=5)
    assert str(board).splitlines() == [
        " 5 . . . . O",
        " 4 . . . . .",
        " 3 . . . . .",
        " 2 . . . . .",
        " 1 X . . . .",
        "   a b c d e",
    ]
