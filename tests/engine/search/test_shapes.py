"""Line patterns and the incremental Position: shapes, threat sets, forbidden points, undo."""

import random

import pytest

from engine import Board, Point, Rule, rules
from engine.search.patterns import FIVE, FOUR, NONE, OPEN_FOUR, OPEN_THREE, OVERLINE, THREE, TWO, shape_of_cells
from engine.search.position import Position


@pytest.mark.parametrize(
    ("left", "right", "exact", "shape"),
    [
        ("xx.", "xx.", False, FIVE),
        ("xxxx", "x", False, FIVE),
        ("xxxx", "x", True, OVERLINE),
        ("xx..", "x..", False, OPEN_FOUR),
        ("o", "xxx.", False, FOUR),
        (".x.", "x..", False, OPEN_THREE),
        ("xx.", ".", False, THREE),
        ("x.", "..", False, TWO),
        ("x", "xx", False, NONE),
    ],
)
def test_the_shape_a_stone_makes_along_a_line(left: str, right: str, exact: bool, shape: int) -> None:
    assert shape_of_cells(left, right, exact) == shape


def _random_game(rule: Rule, seed: int, length: int) -> Board:
    generator = random.Random(seed)
    board = Board(15, rule)
    while board.ply < length and board.result is None:
        point = generator.choice([p for p in board.empty_points() if 3 <= p.x <= 11 and 3 <= p.y <= 11])
        board.push(point)
    if board.result is not None:
        board.pop()
    return board


@pytest.mark.parametrize("rule", list(Rule))
def test_five_points_match_the_rules_on_random_positions(rule: Rule) -> None:
    for seed in range(8):
        board = _random_game(rule, seed, 40)
        position = Position.from_board(board)
        for color in (rules.BLACK, rules.WHITE):
            for point in board.empty_points():
                index = point.y * 15 + point.x
                board.cells[index] = color
                wins = rules.winning_run(board.cells, 15, point.x, point.y, color, rule) is not None
                board.cells[index] = rules.EMPTY
                assert wins == (index in position.fives[color]), (seed, color, point)


def test_forbidden_points_match_the_rules_on_random_renju_positions() -> None:
    checked = 0
    for seed in range(40):
        board = _random_game(Rule.RENJU, seed, 30 + seed % 2)
        if board.to_move != rules.BLACK:
            board.pop()
        position = Position.from_board(board)
        for point in board.empty_points():
            expected = rules.forbidden_reason(board.cells, 15, point.x, point.y) is not None
            assert position.is_forbidden(point.y * 15 + point.x) == expected, (seed, point)
            checked += expected
    assert checked > 0, "the random positions should include some forbidden points"


def test_undo_restores_every_incremental_table() -> None:
    board = _random_game(Rule.STANDARD, 3, 50)
    position = Position.from_board(board)
    for _ in range(25):
        position.undo()
    fresh = Position.from_board(Board.from_moves(board.moves[:25], rule=Rule.STANDARD))
    for name in ("cells", "pairs", "totals", "fives", "fours", "threats", "nearby", "hash"):
        assert getattr(position, name) == getattr(fresh, name), name


def test_the_hash_agrees_with_the_board() -> None:
    board = _random_game(Rule.FREESTYLE, 5, 30)
    assert Position.from_board(board).hash == board.hash


def test_a_point_next_to_stones_is_a_candidate_and_a_far_one_is_not() -> None:
    position = Position.from_board(Board.from_moves([Point(7, 7)]))
    assert 7 * 15 + 8 in position.nearby
    assert 7 * 15 + 9 in position.nearby
    assert 0 not in position.nearby


def _side_text(board: Board, x: int, y: int, dx: int, dy: int, color: int) -> str:
    """Five cells from (x, y) going (dx, dy), nearest first: `x` own, `.` empty, `o` blocker."""
    text = ""
    for step in range(1, 6):
        qx, qy = x + step * dx, y + step * dy
        if not (0 <= qx < board.size and 0 <= qy < board.size):
            break
        value = board.cells[qy * board.size + qx]
        text += "." if value == rules.EMPTY else "x" if value == color else "o"
    return text


@pytest.mark.parametrize("rule", list(Rule))
def test_incremental_shapes_equal_shapes_read_afresh_from_the_board(rule: Rule) -> None:
    for seed in range(4):
        board = _random_game(rule, 100 + seed, 45)
        position = Position.from_board(board)
        for color in (rules.BLACK, rules.WHITE):
            exact = rule is Rule.STANDARD or (rule is Rule.RENJU and color == rules.BLACK)
            for point in board.empty_points():
                expected = [
                    shape_of_cells(
                        _side_text(board, point.x, point.y, -dx, -dy, color),
                        _side_text(board, point.x, point.y, dx, dy, color),
                        exact,
                    )
                    for dx, dy in rules.DIRECTIONS
                ]
                assert position.describe(color, point.y * 15 + point.x) == expected, (seed, color, point)


def test_the_line_neighbours_of_a_point_are_the_empty_points_on_its_lines_but_itself() -> None:
    position = Position.from_board(Board.from_moves([Point(7, 7), Point(8, 7)]))
    centre, empty = 7 * 15 + 7, 7 * 15 + 9
    assert centre not in position.line_neighbours(centre)
    assert 7 * 15 + 8 not in position.line_neighbours(centre)
    assert {7 * 15 + 6, 6 * 15 + 7, 6 * 15 + 6} <= set(position.line_neighbours(centre))
    assert empty not in position.line_neighbours(empty)
