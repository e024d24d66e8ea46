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
