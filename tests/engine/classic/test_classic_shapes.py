"""Shape counting, which static, astar and alphabeta evaluate with."""

import random

from engine.board import Board
from engine.classic.shapes import Shape, add_shapes, added, board_shapes, shape_change
from engine.rules import BLACK


def shapes_of(line: str) -> dict[Shape, int]:
    counts = [0] * len(Shape)
    add_shapes(line, BLACK, counts)
    return {shape: counts[shape] for shape in Shape if counts[shape]}


def test_shapes_are_named_by_stones_and_room() -> None:
    assert shapes_of("0111110") == {Shape.FIVE: 1}
    assert shapes_of("0011110") == {Shape.OPEN_FOUR: 1}
    assert shapes_of("2111100") == {Shape.FOUR: 1}
    assert shapes_of("0110110") == {Shape.FOUR: 1}
    assert shapes_of("0011100") == {Shape.OPEN_THREE: 1}
    assert shapes_of("0010110") == {Shape.OPEN_THREE: 1}
    assert shapes_of("2111000") == {Shape.THREE: 1}
    assert shapes_of("0011000") == {Shape.OPEN_TWO: 1}
    assert shapes_of("2110000") == {Shape.TWO: 1}


def test_a_shape_without_room_for_five_counts_for_nothing() -> None:
    assert shapes_of("2111200") == {}
    assert shapes_of("11120") == {}


def test_the_change_of_one_move_matches_a_full_recount() -> None:
    generator = random.Random(5)
    for _ in range(30):
        board = Board(size=9)
        for _ in range(30):
            point = generator.choice(list(board.empty_points()))
            black, white = board_shapes(board)
            change = shape_change(board, point, int(board.to_move))
            board.push(point)
            assert (added(black, change[0]), added(white, change[1])) == board_shapes(board)
            if board.result is not None:
                break
