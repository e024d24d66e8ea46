"""What every classic bot must do: take a win, stop a four, never play a forbidden
point, say what it thought of its candidates, and repeat itself for a seed."""

import pytest

from engine.board import Board
from engine.classic import CLASSIC_BOTS
from engine.classic.alphabeta import AlphaBetaBot
from engine.limits import CHECK_EVERY, SearchLimits
from engine.notation import parse_pairs
from engine.types import Point, Rule

LIMITS = SearchLimits(time_ms=20_000)

FOUR_TO_COMPLETE = """
. . . . . . . . . . .
. . . . . . . . . . .
. . O . . . . . . . .
. . X X X X O . . . .
. . . . . . . . . . .
. . O O . . . . . . .
. . . . . . O . . . .
. . . . . . . . . . .
. . . . X . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
"""

FOUR_TO_STOP = """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . X O O O O . . . .
. . . . . . . . . . .
. . . X . . . . . . .
. . . . . . X . . . .
. . . . . . . . . . .
. . . . . . . . X . .
. . . . . . . . . . .
. . . . . . . . . . .
"""

# Black to move under renju: j8 (8, 7) would make two open threes at once.
DOUBLE_THREE = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . . . .
. . . . . . X X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . O . .
. . . . . . . . . . . . . O .
. . . . . . . . . . . . . . O
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . O . . .
"""

names = pytest.mark.parametrize("name", list(CLASSIC_BOTS))


@names
def test_takes_a_five(name: str) -> None:
    board = Board.from_picture(FOUR_TO_COMPLETE)
    assert CLASSIC_BOTS[name]().choose(board, LIMITS).move == Point(1, 3)


@names
def test_stops_the_opponents_four(name: str) -> None:
    board = Board.from_picture(FOUR_TO_STOP)
    assert CLASSIC_BOTS[name]().choose(board, LIMITS).move == Point(7, 3)


@names
def test_never_plays_or_scores_a_forbidden_point(name: str) -> None:
    board = Board.from_picture(DOUBLE_THREE, rule=Rule.RENJU)
    forbidden = Point(8, 7)
    assert board.is_forbidden(forbidden)
    decision = CLASSIC_BOTS[name]().choose(board, LIMITS)
    assert board.is_legal(decision.move)
    assert forbidden not in dict(decision.candidates)


@names
def test_explains_its_move_with_candidate_scores(name: str) -> None:
    board = Board.from_picture(FOUR_TO_STOP)
    decision = CLASSIC_BOTS[name]().choose(board, LIMITS)
    assert decision.candidates[0] == (decision.move, decision.score)
    assert all(board.is_legal(point) for point, _ in decision.candidates)
    scores = [score for _, score in decision.candidates]
    assert scores == sorted(scores, reverse=True)


@names
def test_the_same_seed_gives_the_same_decision_and_the_board_is_left_alone(name: str) -> None:
    board = Board.from_moves([Point(7, 7), Point(8, 8), Point(6, 8)])
    before = (board.moves, board.hash)
    first = CLASSIC_BOTS[name]().choose(board, LIMITS, seed=11)
    again = CLASSIC_BOTS[name]().choose(board, LIMITS, seed=11)
    assert (first.move, first.candidates) == (again.move, again.candidates)
    assert (board.moves, board.hash) == before


@names
def test_opens_in_the_centre(name: str) -> None:
    decision = CLASSIC_BOTS[name]().choose(Board(), LIMITS)
    assert decision.move == Point(7, 7)


# A middle game, white to move: many candidates at every ply, so that a deep
# search cannot finish and only its limits stop it.
CROWDED = "hhghgkhifjfgijgihgjjkk"
SEARCHING_BOTS = pytest.mark.parametrize("name", ["minimax", "alphabeta"])


@SEARCHING_BOTS
def test_a_search_stops_on_its_node_limit(name: str) -> None:
    board = Board.from_moves(parse_pairs(CROWDED, 15))
    decision = CLASSIC_BOTS[name]().choose(board, SearchLimits(nodes=300, depth=8), seed=0)
    assert 300 <= decision.nodes <= 300 + CHECK_EVERY, "the shared Budget counts and stops the search"
    assert board.is_legal(decision.move)


@SEARCHING_BOTS
def test_a_search_stops_on_its_deadline(name: str) -> None:
    board = Board.from_moves(parse_pairs(CROWDED, 15))
    decision = CLASSIC_BOTS[name]().choose(board, SearchLimits(time_ms=50, depth=8), seed=0)
    assert board.is_legal(decision.move), "an eight-ply search ends at its deadline with a legal answer"


def test_alphabeta_searches_as_deep_and_as_wide_as_it_is_set() -> None:
    board = Board.from_moves([Point(7, 7), Point(8, 8), Point(6, 8)])
    narrow = AlphaBetaBot(depth=2, width=3).choose(board, LIMITS)
    assert narrow.depth == 2 and len(narrow.candidates) == 3
    wide = AlphaBetaBot(depth=1, width=20).choose(board, LIMITS)
    assert wide.depth == 1 and len(wide.candidates) == 20
