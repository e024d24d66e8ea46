"""Glicko-2: the paper's worked example, the shape of an update, and finite results for any input.

The worked example is the one in Glickman's "Example of the Glicko-2 system"
(a 1500/200/0.06 player against 1400/30, 1550/100 and 1700/300, scoring
1, 0, 0, with tau 0.5); the paper gives its results to four or five
digits, which is the precision checked here.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.glicko2 import (
    DEFAULT_RD,
    DRAW,
    LOSS,
    TAU,
    WIN,
    Outcome,
    Rating,
    rate,
    rate_game,
)

SCALE = 173.7178
"""The paper's conversion factor between the two scales."""


def test_the_papers_worked_example() -> None:
    assert TAU == 0.5, "the paper's example uses tau = 0.5"
    player = Rating(1500, 200, 0.06)
    outcomes = [
        Outcome(Rating(1400, 30), WIN),
        Outcome(Rating(1550, 100), LOSS),
        Outcome(Rating(1700, 300), LOSS),
    ]
    after = rate(player, outcomes)
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.rd / SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.0599960, which the paper truncates
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)


def test_a_new_rating_starts_at_1500_350_and_0_06() -> None:
    assert Rating() == Rating(1500, 350, 0.06)


def test_a_draw_between_equals_changes_only_their_deviations() -> None:
    before = Rating(1620, 120, 0.06)
    first, second = rate_game(before, before, DRAW)
    assert first == second
    assert first.rating == before.rating
    assert first.rd < before.rd


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    winner, loser = rate_game(Rating(1500, 200), Rating(1550, 80), WIN)
    assert winner.rating > 1500
    assert loser.rating < 1550


def test_both_players_are_rated_from_the_ratings_before_the_game() -> None:
    black, white = Rating(1700, 90, 0.05), Rating(1400, 250, 0.07)
    assert rate_game(black, white, LOSS) == (
        rate(black, [Outcome(white, LOSS)]),
        rate(white, [Outcome(black, WIN)]),
    )


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    strong, weak = Rating(1900, 100), Rating(1500, 100)
    expected_winner, _ = rate_game(strong, weak, WIN)
    upset_loser, _ = rate_game(strong, weak, LOSS)
    assert strong.rating - upset_loser.rating > expected_winner.rating - strong.rating


def test_the_deviation_shrinks_game_after_game_to_a_floor() -> None:
    player, opponent = Rating(), Rating(1500, 60)
    deviations = [player.rd]
    for game in range(40):
        player = rate(player, [Outcome(opponent, (WIN, LOSS)[game % 2])])
        deviations.append(player.rd)
    assert deviations == sorted(deviations, reverse=True)
    assert 45 < deviations[-1] < 80


def test_a_newcomer_moves_more_than_an_established_player() -> None:
    newcomer, established = rate_game(Rating(1500, 350), Rating(1500, 50), WIN)
    assert newcomer.rating - 1500 > 1500 - established.rating


def test_extreme_ratings_and_deviations_stay_finite() -> None:
    for score in (WIN, DRAW, LOSS):
        for strong, weak in ((Rating(3000, 30), Rating(500, 350)), (Rating(3000, 350), Rating(500, 30))):
            for after in rate_game(strong, weak, score):
                assert math.isfinite(after.rating)
                assert 0 < after.rd <= DEFAULT_RD
                assert math.isfinite(after.volatility) and after.volatility > 0


def test_a_huge_upset_does_not_push_the_deviation_past_a_newcomers() -> None:
    _, winner = rate_game(Rating(3000, 30), Rating(500, 350), LOSS)
    assert winner.rd == DEFAULT_RD
    assert winner.rating > 500


def test_ratings_that_no_game_could_reach_still_give_finite_results() -> None:
    for after in rate_game(Rating(1e9, 30), Rating(-1e9, 350), LOSS):
        assert math.isfinite(after.rating) and math.isfinite(after.volatility)


@pytest.mark.parametrize(
    ("rating", "rd", "volatility"),
    [(math.nan, 350, 0.06), (math.inf, 350, 0.06), (1500, 0, 0.06), (1500, 351, 0.06), (1500, 350, 0), (1500, 350, -1)],
)
def test_impossible_ratings_are_refused(rating: float, rd: float, volatility: float) -> None:
    with pytest.raises(ValueError):
        Rating(rating, rd, volatility)


@pytest.mark.parametrize("score", [-0.5, 1.5, math.nan])
def test_scores_outside_0_to_1_are_refused(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        Outcome(Rating(), score)


def test_a_period_without_games_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        rate(Rating(), [])


ratings = st.builds(
    Rating,
    rating=st.floats(-500, 4000),
    rd=st.floats(1, DEFAULT_RD),
    volatility=st.floats(0.001, 1),
)
scores = st.sampled_from([WIN, DRAW, LOSS]) | st.floats(0, 1)


@given(ratings, ratings, scores)
def test_any_game_gives_finite_ratings_with_deviation_in_range(first: Rating, second: Rating, score: float) -> None:
    for after in rate_game(first, second, score):
        assert math.isfinite(after.rating)
        assert 0 < after.rd <= DEFAULT_RD
        assert math.isfinite(after.volatility) and after.volatility > 0


@given(ratings, st.lists(st.tuples(ratings, scores), min_size=1, max_size=12))
def test_any_rating_period_gives_a_valid_rating(player: Rating, games: list[tuple[Rating, float]]) -> None:
    after = rate(player, [Outcome(opponent, score) for opponent, score in games])
    assert math.isfinite(after.rating)
    assert 0 < after.rd <= DEFAULT_RD
    assert after.volatility > 0


@given(ratings, ratings)
def test_winning_never_lowers_and_losing_never_raises_a_rating(first: Rating, second: Rating) -> None:
    won, _ = rate_game(first, second, WIN)
    lost, _ = rate_game(first, second, LOSS)
    assert won.rating >= first.rating >= lost.rating
