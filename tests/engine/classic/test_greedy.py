"""The greedy bot scores points exactly by the exercise's pattern table."""

from engine.board import Board
from engine.classic.greedy import GreedyBot, line_score, line_string, point_score
from engine.limits import SearchLimits
from engine.types import Point

# Black to move (three stones each); C is the point e5 = (4, 4) of this 9x9 board.
POSITION = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X X . . . . .
. . . . . . . . .
. O . . . . . . .
. . O . . . . . .
. . . . . . . . O
"""


def test_lines_are_read_from_the_side_to_move_with_the_point_in_the_middle() -> None:
    board = Board.from_picture(POSITION)
    point = Point(4, 4)
    assert line_string(board, point, 1, 0) == ".MMMC...."
    assert line_string(board, point, 0, 1) == "....C...."
    assert line_string(board, point, 1, 1) == "....C...O"
    assert line_string(board, point, 1, -1) == "....C...."


def test_a_points_score_is_the_table_sum_worked_out_by_hand() -> None:
    board = Board.from_picture(POSITION)
    horizontal = 5000 + 5 * 20  # ".MMMC." is a two-step win; five empty cells
    vertical = 8 * 20
    diagonal = 7 * 20
    anti_diagonal = 8 * 20
    assert point_score(board, Point(4, 4)) == horizontal + vertical + diagonal + anti_diagonal == 5560


def test_cells_off_the_board_are_neither_empty_nor_stones() -> None:
    board = Board.from_picture(POSITION)
    assert line_string(board, Point(0, 0), 1, 0) == "####C...."
    assert line_score("####C....") == 4 * 20


def test_patterns_count_without_overlap_like_str_count() -> None:
    # ".MC." occurs once in ".MC.MC." the way str.count sees it (the shared "." is used once).
    assert ".MC.MC.".count(".MC.") == 1
    assert line_score(".MC.MC.##") == 50 + 3 * 20


def test_takes_a_five_rather_than_blocking_a_four() -> None:
    board = Board.from_picture("""
        . . . . . . . . .
        . X X X X . . . .
        . . . . . . . . .
        . O O O O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    decision = GreedyBot().choose(board, SearchLimits())
    assert decision.move in (Point(0, 1), Point(5, 1))
    assert decision.score >= 10000


def test_blocks_the_opponents_four() -> None:
    board = Board.from_picture("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X O O O O . . . .
        . . . . . . . . .
        . . X . . . . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . X .
    """)
    assert GreedyBot().choose(board, SearchLimits()).move == Point(5, 3)


def test_candidates_hold_every_legal_point_best_first() -> None:
    board = Board.from_picture(POSITION)
    decision = GreedyBot().choose(board, SearchLimits())
    scores = [score for _, score in decision.candidates]
    assert len(decision.candidates) == len(board.legal_moves())
    assert scores == sorted(scores, reverse=True)
    assert (decision.move, decision.score) == decision.candidates[0]
    assert dict(decision.candidates)[Point(4, 4)] == 5560
