"""Glicko-2 ratings, for humans and bots in one pool.

The algorithm is Mark Glickman's, as set out step by step in "Example of the
Glicko-2 system" (glicko.net/glicko/glicko2.pdf); the step numbers in the
comments below are the paper's. Each player has a rating (1500 to start), a
rating deviation RD (350 to start: how unsure the rating is) and a
volatility (0.06 to start: how erratic the player's results are).

How this project uses it:

* Every rated game is a rating period of its own, for its two players only.
  `rate_game` rates both players from their ratings before the game.
* Inactivity: a player who does not play has no rating period, so nothing
  about them changes, and their RD does not grow while they are away. (The
  paper widens RD for each period a player sits out; with one period per
  game there is no calendar of periods to sit out, so that step is not
  used.) Each game still adds the volatility to the RD before the update
  (step 6), which keeps an active player's RD from settling below about 60.
* RD never exceeds 350: nobody is less known than a newcomer. The paper has
  no such cap, but without it a result that the ratings call impossible
  (a 3000 losing to a 500) could push an RD past the starting value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

TAU = 0.5
"""The system constant: how fast volatility may change.

Glickman suggests 0.3 to 1.2, smaller when very improbable results are
expected. 0.5 is the middle of the cautious end: our pool mixes humans with
bots whose strength is exact and steady, and each game is its own rating
period, so a single upset should move volatility a little, not a lot. It is
also the value of the paper's worked example, which the tests check against
this very constant."""

DEFAULT_RATING = 1500.0
"""The rating of a new player."""
DEFAULT_RD = 350.0
"""The rating deviation of a new player, and the most any player can have."""
DEFAULT_VOLATILITY = 0.06
"""The volatility of a new player."""

WIN = 1.0
"""The score of a won game."""
DRAW = 0.5
"""The score of a drawn game."""
LOSS = 0.0
"""The score of a lost game."""

_SCALE = 173.7178
"""Ratings and RDs are divided by this to reach the Glicko-2 scale (step 2)."""
_CONVERGENCE = 0.000001
"""When the bracket around the new volatility is this narrow, the search stops (step 5)."""
_LEAST_INFORMATION = 1e-12
"""A floor for the information a period gives (1 / v in step 3). It is reached
only when the rating gap exceeds some 4,800 points, where every result is
already certain; it keeps v, and everything after it, finite."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating, on the familiar 1500 scale."""

    rating: float = DEFAULT_RATING
    """The estimate of the player's strength."""
    rd: float = DEFAULT_RD
    """Rating deviation: one standard deviation of that estimate, 0 < rd <= 350."""
    volatility: float = DEFAULT_VOLATILITY
    """How much the player's strength is expected to fluctuate; positive."""

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, not {self.rating}")
        if not 0 < self.rd <= DEFAULT_RD:
            raise ValueError(f"a rating deviation must be above 0 and at most {DEFAULT_RD:g}, not {self.rd}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a volatility must be a positive number, not {self.volatility}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a rating period, seen from the player being rated."""

    opponent: Rating
    """The opponent's rating before the period."""
    score: float
    """WIN (1), DRAW (0.5) or LOSS (0) for the player being rated."""

    def __post_init__(self) -> None:
        if not 0 <= self.score <= 1:
            raise ValueError(f"a score must be between 0 (loss) and 1 (win), not {self.score}")


def rate(player: Rating, outcomes: Sequence[Outcome]) -> Rating:
    """The player's rating after one rating period with these outcomes.

    Every opponent's rating is taken as it was before the period. Raises
    ValueError when `outcomes` is empty: a player who did not play is not
    rated at all (see the module docstring on inactivity).
    """
    if not outcomes:
        raise ValueError("a rating period needs at least one game")
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - DEFAULT_RATING) / _SCALE
    phi = player.rd / _SCALE
    opponents = [
        (
            _g(outcome.opponent.rd / _SCALE),
            _expected_score(mu, (outcome.opponent.rating - DEFAULT_RATING) / _SCALE, outcome.opponent.rd / _SCALE),
            outcome.score,
        )
        for outcome in outcomes
    ]
    # Step 3: v, the variance of the rating estimated from the games alone.
    information = sum(g * g * expected * (1 - expected) for g, expected, _ in opponents)
    variance = 1 / max(information, _LEAST_INFORMATION)
    # Step 4: delta, the improvement the games suggest.
    surprise = sum(g * (score - expected) for g, expected, score in opponents)
    improvement = variance * surprise
    # Step 5: the new volatility.
    volatility = _new_volatility(phi, player.volatility, improvement, variance)
    # Step 6: the deviation grows by the volatility before the games are counted.
    phi_before_games = math.sqrt(phi * phi + volatility * volatility)
    # Step 7: the new deviation and rating (the deviation capped, see the module docstring).
    new_phi = min(1 / math.sqrt(1 / phi_before_games**2 + 1 / variance), DEFAULT_RD / _SCALE)
    new_mu = mu + new_phi * new_phi * surprise
    # Step 8: back to the familiar scale.
    return Rating(new_mu * _SCALE + DEFAULT_RATING, new_phi * _SCALE, volatility)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """The new ratings of both players of one game: (first's, second's).

    `first_score` is WIN, DRAW or LOSS for `first`; `second` scored the
    rest. Both new ratings are computed from the ratings before the game, as
    one rating period each.
    """
    return (
        rate(first, [Outcome(second, first_score)]),
        rate(second, [Outcome(first, 1 - first_score)]),
    )


def _g(phi: float) -> float:
    """How much an opponent's result counts: less the less sure their rating is (step 3)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected_score(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    """The score the player is expected to make against the opponent (step 3's E).

    Written so that no exponent can overflow, however far apart the ratings.
    """
    exponent = _g(opponent_phi) * (mu - opponent_mu)
    if exponent >= 0:
        return 1 / (1 + math.exp(-exponent))
    odds = math.exp(exponent)
    return odds / (1 + odds)


def _new_volatility(phi: float, volatility: float, improvement: float, variance: float) -> float:
    """Step 5: the new volatility, as the root of Glickman's f found by the Illinois method.

    x stands for log(volatility squared). The points x_a and x_b bracket the
    root; each round replaces one of them by the regula falsi point x_c.
    When x_a stays put, its f value is halved (the Illinois change), which
    keeps the method from creeping up on the root from one side only.
    """
    a = math.log(volatility * volatility)
    spread = phi * phi + variance
    tau_squared = TAU * TAU

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (improvement * improvement - spread - ex) / (2 * (spread + ex) ** 2) - (x - a) / tau_squared

    x_a = a
    if improvement * improvement > spread:
        x_b = math.log(improvement * improvement - spread)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        x_b = a - k * TAU
    f_a = f(x_a)
    f_b = f(x_b)
    while abs(x_b - x_a) > _CONVERGENCE:
        x_c = x_a + (x_a - x_b) * f_a / (f_b - f_a)
        f_c = f(x_c)
        if f_c * f_b <= 0:
            x_a, f_a = x_b, f_b
        else:
            f_a /= 2
        x_b, f_b = x_c, f_c
    return math.exp(x_a / 2)
