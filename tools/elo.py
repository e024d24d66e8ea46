"""Elo ratings with error bars from game results, by maximum likelihood.

The model is Bradley-Terry on the Elo scale: player i scores against j
with probability 1 / (1 + 10 ** ((elo_j - elo_i) / 400)), a draw counting
half a point to each. The ratings that make the observed points most
likely are found by the classic minorise-maximise iteration. One virtual
draw is added between every two players who met, so that a player who won
(or lost) every game still gets a finite rating. The 95% interval is
1.96 standard errors, taken from the diagonal of the Fisher information
(the usual approximation when there are many games per player).

Anchors are players whose ratings are known and kept (the classic bots,
when the engine levels are fitted from a ladder and a few games against
them): the others are fitted around them, and nothing is re-centred.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""

MEAN_RATING = 1500
"""The ratings are shifted so that their average is this."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating."""

    name: str
    elo: float
    """Maximum-likelihood Elo."""
    error: float
    """Half-width of the 95% interval, in Elo points."""
    games: int
    """Real games played (the virtual draws are not counted)."""
    points: float
    """Points scored in them: 1 a win, 1/2 a draw."""


def compute_ratings(
    results: Iterable[tuple[str, str, float]], iterations: int = 2000, anchors: Mapping[str, float] | None = None
) -> list[Rating]:
    """Ratings, best first, from (player, opponent, player's points) triples, one per game. Without
    `anchors` they average MEAN_RATING; with them (name -> Elo), those players keep their ratings
    (with an error of 0) and the others are placed against them."""
    anchors = anchors or {}
    games: dict[tuple[str, str], float] = defaultdict(float)
    points: dict[str, float] = defaultdict(float)
    real_games: dict[str, int] = defaultdict(int)
    real_points: dict[str, float] = defaultdict(float)
    for player, opponent, score in results:
        for name, other, value in ((player, opponent, score), (opponent, player, 1 - score)):
            games[name, other] += 1
            points[name] += value
            real_games[name] += 1
            real_points[name] += value
    for name, other in list(games):
        if name < other:
            games[name, other] += 1
            games[other, name] += 1
            points[name] += 0.5
            points[other] += 0.5
    names = sorted(points)
    fixed = {name: math.exp((anchors[name] - MEAN_RATING) / ELO_SCALE) for name in names if name in anchors}
    strength = {name: fixed.get(name, 1.0) for name in names}
    for _ in range(iterations):
        updated = dict(fixed)
        for name in names:
            if name in fixed:
                continue
            denominator = sum(
                count / (strength[name] + strength[other]) for (player, other), count in games.items() if player == name
            )
            updated[name] = points[name] / denominator
        if not fixed:
            scale = math.exp(sum(math.log(value) for value in updated.values()) / len(updated))
            updated = {name: value / scale for name, value in updated.items()}
        converged = all(abs(math.log(updated[name] / strength[name])) < 1e-10 for name in names)
        strength = updated
        if converged:
            break
    elos = {name: ELO_SCALE * math.log(value) for name, value in strength.items()}
    ratings = []
    for name in names:
        information = 0.0
        for (player, other), count in games.items():
            if player == name:
                expected = strength[name] / (strength[name] + strength[other])
                information += count * expected * (1 - expected) / ELO_SCALE**2
        error = 0.0 if name in fixed else 1.96 / math.sqrt(information) if information > 0 else math.inf
        ratings.append(Rating(name, MEAN_RATING + elos[name], error, real_games[name], real_points[name]))
    return sorted(ratings, key=lambda rating: -rating.elo)
