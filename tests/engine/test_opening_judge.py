"""The opening judge: a full-window search whose values average the last two depths."""

import pytest

from engine import Board, Point, Rule, parse_point
from engine.limits import SearchLimits
from engine.opening_judge import CLASSIC_JUDGE, NODES_PER_MS, Judge
from engine.registry import default_time_ms
from engine.search.position import WON
from engine.search.search import Searcher


def board(text: str) -> Board:
    return Board.from_moves([parse_point(word, 15) for word in text.split()], 15)


def test_the_value_is_the_mean_of_the_last_two_depths() -> None:
    position = board("h8 h9 d7")
    judge = Judge.for_level("master", SearchLimits(nodes=3_000))
    appraisal = judge.appraise(position)
    budget = Judge.for_level("master", SearchLimits(nodes=3_000)).budget
    results = list(Searcher(position, judge.level.search, budget, full_root_window=True).iterate())
    assert appraisal.depth == results[-1].depth >= 2
    assert appraisal.value == (results[-1].score + results[-2].score) // 2
    # The depths swing (the side that moves last looks better); the mean lies between them.
    low, high = sorted((results[-1].score, results[-2].score))
    assert low <= appraisal.value <= high < low + 2_000


def test_every_move_searched_gets_a_value_best_first() -> None:
    appraisal = Judge.for_level("hard", SearchLimits(nodes=3_000)).appraise(board("h8 h9 d7"))
    values = [value for _, value in appraisal.moves]
    assert len(values) > 5
    assert values == sorted(values, reverse=True)
    assert len({move for move, _ in appraisal.moves}) == len(values)


def test_a_proven_win_is_kept_as_it_is() -> None:
    # Black to move has an open three on the h column... and makes it a four, then five.
    position = Board.from_picture(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . X . . O .
        . . . . . . . O .
        . . . . . . . O .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    appraisal = Judge.for_level("master", SearchLimits(nodes=3_000)).appraise(position)
    assert appraisal.value > WON
    assert appraisal.moves[0][0] in (Point(4, 1), Point(4, 5))


def test_the_searches_of_one_decision_share_its_nodes() -> None:
    judge = Judge.for_level("master", SearchLimits(nodes=4_000))
    judge.appraise(board("h8 h9 d7"), searches_left=2)
    assert 1_500 <= judge.budget.nodes <= 2_100, "the first of two searches takes about half"
    judge.appraise(board("h8 i9 d5"), searches_left=1)
    assert judge.budget.nodes <= 4_000 + 64


def test_a_time_limit_becomes_a_node_budget_and_stays_the_deadline() -> None:
    judge = Judge.for_level("medium", SearchLimits(time_ms=500))
    assert judge.budget.max_nodes == 500 * NODES_PER_MS
    assert judge.budget.deadline is not None


def test_a_depth_limit_ends_the_search_there_and_no_limit_means_the_levels_default_time() -> None:
    assert Judge.for_level("master", SearchLimits(depth=2)).appraise(board("h8 h9 d7")).depth == 2
    unlimited = Judge.for_level("hard", SearchLimits())
    assert unlimited.budget.max_nodes == default_time_ms("hard") * NODES_PER_MS
    assert unlimited.budget.deadline is not None


def test_classic_bots_judge_with_an_engine_search_and_unknown_levels_are_refused() -> None:
    assert Judge.for_level("greedy", SearchLimits(nodes=100)).level.name == CLASSIC_JUDGE
    with pytest.raises(ValueError, match="unknown bot level"):
        Judge.for_level("grandmaster", SearchLimits(nodes=100))


def test_with_no_budget_left_the_move_ordering_answers() -> None:
    judge = Judge.for_level("master", SearchLimits(nodes=1))
    position = Board.from_moves(board("h8 h9 d7").moves, 15, Rule.RENJU)
    appraisal = judge.appraise(position)
    assert appraisal.depth == 0
    (move, value), *_ = appraisal.moves
    assert value == 0 and position.is_legal(move)
