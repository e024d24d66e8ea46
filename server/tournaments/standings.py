"""Standings: points, each format's tie-breaks, performance, and the crosstable.

Points are 1 a win (and a bye), 0.5 a draw, 0 a loss; an unfinished game
counts nothing yet. The tie-breaks, in the order they separate players:

- round robin: Sonneborn-Berger, the sum over one's games of the
  opponent's points times one's score against them;
- Swiss: Buchholz, the sum of one's opponents' points, then median
  Buchholz, the same without the highest and the lowest (with three
  opponents or more);
- arena: performance.

Byes count for points only. Performance is the linear estimate, the
opponents' average rating (as they entered) plus 400 times wins minus
losses over games, None before the first finished game. Players still
level after all of that are listed by rating as they entered, highest
first, then in the order they entered (so a Swiss's first round pairs the
strongest together as its score groups do, and the players level on
points and tie-breaks share a rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from server.domain import Entrant, Pairing, TournamentFormat
from server.tournaments.pairings import DRAW, WIN

PERFORMANCE_SPREAD = 400


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings."""

    rank: int
    name: str
    points: float
    games: int
    """Games finished (byes excluded)."""
    wins: int
    draws: int
    losses: int
    tie_breaks: tuple[float, ...]
    """The format's tie-breaks, in order (`TIE_BREAKS`)."""
    performance: int | None
    withdrawn: bool


TIE_BREAKS: dict[TournamentFormat, tuple[str, ...]] = {
    "round_robin": ("sonneborn_berger",),
    "swiss": ("buchholz", "median_buchholz"),
    "arena": ("performance",),
}
"""The names of each format's tie-breaks, as the wire and the CSV export show them."""


def points(entrants: Sequence[Entrant], pairings: Sequence[Pairing]) -> dict[str, float]:
    """Each entrant's points from the finished boards."""
    totals = {entrant.name: 0.0 for entrant in entrants}
    for pairing in pairings:
        for player in pairing.players():
            score = pairing.score_of(player)
            if score is not None and player in totals:
                totals[player] += score
    return totals


def standings(format_: TournamentFormat, entrants: Sequence[Entrant], pairings: Sequence[Pairing]) -> list[StandingRow]:
    """The entrants ranked: points, the format's tie-breaks, then rating and seed. Players equal on
    points and tie-breaks share a rank."""
    totals = points(entrants, pairings)
    ratings = {entrant.name: entrant.rating for entrant in entrants}
    games_of = _games_of(pairings)
    unranked = []
    for entrant in entrants:
        played = games_of.get(entrant.name, [])
        results = [score for _, score in played]
        performance = _performance(results, [ratings.get(opponent, 0.0) for opponent, _ in played])
        tie_breaks = _tie_breaks(format_, played, totals, performance)
        unranked.append(
            (
                entrant,
                StandingRow(
                    rank=0,
                    name=entrant.name,
                    points=totals[entrant.name],
                    games=len(results),
                    wins=results.count(WIN),
                    draws=results.count(DRAW),
                    losses=len(results) - results.count(WIN) - results.count(DRAW),
                    tie_breaks=tie_breaks,
                    performance=performance,
                    withdrawn=entrant.withdrawn,
                ),
            )
        )
    unranked.sort(
        key=lambda item: (-item[1].points, *(-value for value in item[1].tie_breaks), -item[0].rating, item[0].seed)
    )
    ranked: list[StandingRow] = []
    for index, (_, row) in enumerate(unranked):
        previous = ranked[-1] if ranked else None
        tied = previous is not None and (previous.points, previous.tie_breaks) == (row.points, row.tie_breaks)
        ranked.append(replace(row, rank=previous.rank if tied and previous is not None else index + 1))
    return ranked


def _games_of(pairings: Sequence[Pairing]) -> dict[str, list[tuple[str, float]]]:
    """Each player's finished games, as (opponent, score), in one pass over the boards (byes left out)."""
    games: dict[str, list[tuple[str, float]]] = {}
    for pairing in pairings:
        if pairing.white is None or pairing.score is None:
            continue
        games.setdefault(pairing.black, []).append((pairing.white, pairing.score))
        games.setdefault(pairing.white, []).append((pairing.black, WIN - pairing.score))
    return games


def _tie_breaks(
    format_: TournamentFormat, played: list[tuple[str, float]], totals: dict[str, float], performance: int | None
) -> tuple[float, ...]:
    opponent_points = [totals.get(opponent, 0.0) for opponent, _ in played]
    if format_ == "round_robin":
        return (sum(totals.get(opponent, 0.0) * score for opponent, score in played),)
    if format_ == "swiss":
        median = sorted(opponent_points)[1:-1] if len(opponent_points) >= 3 else opponent_points
        return (sum(opponent_points), sum(median))
    return (float(performance) if performance is not None else float("-inf"),)


def _performance(results: Sequence[float], opponent_ratings: Sequence[float]) -> int | None:
    if not results:
        return None
    wins_minus_losses = sum(2 * score - 1 for score in results)
    average = sum(opponent_ratings) / len(opponent_ratings)
    return round(average + PERFORMANCE_SPREAD * wins_minus_losses / len(results))


def crosstable(order: Sequence[str], pairings: Sequence[Pairing]) -> list[list[list[float]]]:
    """For each player in `order` (the standings), its scores against each player in that order, one
    per finished game between them (two in a double round robin; none against itself)."""
    index = {name: position for position, name in enumerate(order)}
    table: list[list[list[float]]] = [[[] for _ in order] for _ in order]
    for pairing in sorted(pairings, key=lambda pairing: (pairing.round, pairing.board)):
        if pairing.white is None or pairing.score is None:
            continue
        if pairing.black in index and pairing.white in index:
            black, white = index[pairing.black], index[pairing.white]
            table[black][white].append(pairing.score)
            table[white][black].append(WIN - pairing.score)
    return table
