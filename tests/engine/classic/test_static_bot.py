"""The static bot and its weight file."""

from pathlib import Path

import pytest

import engine.classic
from engine.board import Board
from engine.classic.static import DEFAULT_WEIGHTS, StaticBot, StaticWeights, format_weights, parse_weights
from engine.limits import SearchLimits
from engine.types import Point

WEIGHT_FILE = Path(engine.classic.__file__).parent / "static_weights.txt"


def test_the_shipped_weight_file_holds_the_built_in_weights() -> None:
    assert parse_weights(WEIGHT_FILE.read_text()) == DEFAULT_WEIGHTS


def test_weights_round_trip_through_their_text() -> None:
    weights = StaticWeights.from_numbers([float(number) for number in range(1, 17)])
    assert parse_weights(format_weights(weights)) == weights
    assert len(weights.numbers()) == 16


def test_a_bad_weight_file_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="not 3"):
        parse_weights("1 2 3")
    with pytest.raises(ValueError, match="line 2: 'heavy'"):
        parse_weights("1 2 3\nheavy")


def test_takes_a_win_and_blocks_a_four() -> None:
    win = Board.from_picture("""
        . . . . . . . . .
        . . . . . . . . .
        . X X X X O . . .
        . . . . . . . . .
        . O O O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    assert StaticBot().choose(win, SearchLimits()).move == Point(0, 2)
    block = Board.from_picture("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X O O O O . . .
        . . . . . . . . .
        . . X . . . . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . X
    """)
    assert StaticBot().choose(block, SearchLimits()).move == Point(6, 3)


def test_other_weights_change_its_mind() -> None:
    board = Board.from_picture("""
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . X X . . . . . O O . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
    """)
    attacker = StaticWeights(DEFAULT_WEIGHTS.own, DEFAULT_WEIGHTS.opponent, attack=10.0, defence=0.0)
    defender = StaticWeights(DEFAULT_WEIGHTS.own, DEFAULT_WEIGHTS.opponent, attack=0.0, defence=10.0)
    attack = StaticBot(attacker).choose(board, SearchLimits()).move
    defence = StaticBot(defender).choose(board, SearchLimits()).move
    assert attack.y == 3 and attack.x <= 5  # makes its own two a three
    assert defence.y == 3 and defence.x in (8, 11)  # cuts white's open two


def test_with_a_depth_or_width_the_evaluation_values_the_leaves_of_alphabetas_tree() -> None:
    board = Board.from_moves([Point(7, 7), Point(8, 8), Point(7, 8)], 15)
    alone = StaticBot().choose(board, SearchLimits(), seed=3)
    assert alone.depth == 1 and len(alone.candidates) > 30
    narrow = StaticBot(width=5).choose(board, SearchLimits(), seed=3)
    assert narrow.depth == 1 and len(narrow.candidates) == 5
    scores = dict(alone.candidates)
    assert all(scores[point] == score for point, score in narrow.candidates), "one ply: the evaluation alone"
    deeper = StaticBot(depth=3, width=4).choose(board, SearchLimits(), seed=3)
    assert deeper.depth == 3 and len(deeper.pv) == 3


def test_a_static_tree_out_of_bounds_is_refused() -> None:
    with pytest.raises(ValueError, match="static's depth must be 1 to 8, not 9"):
        StaticBot(depth=9)
    with pytest.raises(ValueError, match="static's width must be 1 to 30, not 31"):
        StaticBot(width=31)
