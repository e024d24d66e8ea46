"""Limits and budgets: how a node limit and a deadline stop a search, and how a clock is shared out."""

import pytest

from engine.limits import (
    CHECK_EVERY,
    RESERVE_MS,
    Budget,
    OutOfBudget,
    SearchLimits,
    counting_clock,
    most_move_time_ms,
    move_time_ms,
)


def count_until_stopped(budget: Budget, most: int = 1_000_000) -> int:
    """Tick `budget` until it raises OutOfBudget; the nodes it allowed."""
    for _ in range(most):
        try:
            budget.tick()
        except OutOfBudget:
            return budget.nodes
    raise AssertionError(f"the budget never ran out in {most} nodes")


def test_a_node_limit_stops_within_one_check_of_the_limit() -> None:
    nodes = count_until_stopped(Budget.from_limits(SearchLimits(nodes=1000)))
    assert 1000 <= nodes < 1000 + CHECK_EVERY


def test_a_deadline_is_read_from_the_clock_less_a_reserve() -> None:
    clock = counting_clock()  # a millisecond per reading, and a reading every CHECK_EVERY nodes
    nodes = count_until_stopped(Budget.from_limits(SearchLimits(time_ms=100), clock))
    readings = nodes // CHECK_EVERY
    assert readings == 100 - RESERVE_MS


def test_no_limits_never_run_out() -> None:
    budget = Budget.from_limits(SearchLimits(depth=3))
    for _ in range(10 * CHECK_EVERY):
        budget.tick()
    assert not budget.exhausted() and budget.remaining() is None


def test_a_sub_budget_ends_first_and_its_nodes_count_for_the_whole() -> None:
    budget = Budget.from_limits(SearchLimits(nodes=10_000))
    share = budget.sub_budget(1.0, max_nodes=200)
    assert 200 <= count_until_stopped(share) < 200 + CHECK_EVERY
    budget.absorb(share)
    assert budget.nodes == share.nodes and not budget.exhausted()


@pytest.mark.parametrize(
    ("left_ms", "increment_ms", "cap_ms", "expected"),
    [
        (None, 0, None, None),  # no clock, no cap: the level's default applies
        (None, 0, 700, 700),  # no clock: the per-move cap
        (60_000, 0, None, 3_000),  # a twentieth of the time left
        (60_000, 2_000, None, 4_000),  # plus half the increment
        (60_000, 2_000, 1_000, 1_000),  # never more than the cap
        (100, 10_000, None, 50),  # never more than half the time left
        (0, 0, None, 1),  # at least a millisecond
    ],
)
def test_a_move_gets_a_share_of_the_clock(
    left_ms: int | None, increment_ms: int, cap_ms: int | None, expected: int | None
) -> None:
    assert move_time_ms(left_ms, increment_ms, cap_ms) == expected


def test_a_reserve_is_kept_back_but_a_move_always_gets_a_millisecond() -> None:
    assert move_time_ms(20_000, cap_ms=5_000, reserve_ms=60) == 940
    assert move_time_ms(None, cap_ms=1_000, reserve_ms=60) == 940
    assert move_time_ms(None, cap_ms=30, reserve_ms=60) == 1


def test_a_budget_can_read_its_limits_at_every_node() -> None:
    nodes = count_until_stopped(Budget.from_limits(SearchLimits(nodes=1000), check_every=1))
    assert nodes == 1000


def test_an_unsettled_search_may_run_on_to_the_most_time_and_a_settled_one_stops_as_planned() -> None:
    clock = counting_clock()
    budget = Budget.from_limits(SearchLimits(time_ms=100, most_time_ms=300), clock)
    planned = budget.deadline
    assert planned is not None and budget.latest is not None
    assert budget.latest - planned == pytest.approx(0.2)
    budget.settle(unsettled=True)
    assert budget.deadline == budget.latest
    budget.settle(unsettled=False)
    assert budget.deadline == planned
    fixed = Budget.from_limits(SearchLimits(time_ms=100), clock)
    fixed.settle(unsettled=True)
    assert fixed.deadline == fixed.planned, "without a most time the deadline stays put"


@pytest.mark.parametrize(
    ("share_ms", "left_ms", "cap_ms", "expected"),
    [
        (1_000, None, None, None),  # no clock: a per-move limit is all a move has
        (1_000, 60_000, None, 3_000),  # three times the share
        (1_000, 16_000, None, 2_000),  # never more than an eighth of the time left
        (1_000, 60_000, 1_500, 1_500),  # nor than the cap
        (1_000, 4_000, None, 1_000),  # nor less than the share
    ],
)
def test_an_unsettled_move_may_take_a_few_shares_of_the_clock(
    share_ms: int, left_ms: int | None, cap_ms: int | None, expected: int | None
) -> None:
    assert most_move_time_ms(share_ms, left_ms, cap_ms) == expected
