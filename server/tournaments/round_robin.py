"""Round robin by Berger tables: everyone meets everyone once per cycle, colours alternating.

The circle method: the last entrant stays put and the others turn one
place a round; with an odd number of entrants a phantom takes the fixed
place and whoever meets it rests that round (a bye that scores nothing:
everyone rests once a cycle). Black and white alternate by board
and by round, so that over a cycle each player's colours differ by at most
one and no one has the same colour more than twice in a row. In a double
round robin the second cycle repeats the first with colours reversed.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.domain import Pairing
from server.tournaments.pairings import LOSS, numbered


def rounds_in(entrants: int, cycles: int) -> int:
    """How many rounds a round robin of `entrants` plays over `cycles` cycles."""
    return (entrants + entrants % 2 - 1) * cycles if entrants > 1 else 0


def berger_round(seeds: Sequence[str], round_number: int) -> list[Pairing]:
    """The pairings of round `round_number` (1-based; the rounds of a second cycle follow those of the
    first) for the entrants in seed order. Raises ValueError for fewer than two entrants or a round
    below 1."""
    places: list[str | None] = list(seeds)
    if len(places) % 2:
        places.append(None)
    per_cycle = len(places) - 1
    if per_cycle < 1 or not 1 <= round_number:
        raise ValueError(f"no round {round_number} for {len(seeds)} entrants")
    cycle, index = divmod(round_number - 1, per_cycle)
    fixed, turning = places[-1], places[:-1]
    order = turning[index:] + turning[:index]
    boards: list[tuple[str | None, str | None]] = [(order[0], fixed) if index % 2 == 0 else (fixed, order[0])]
    for place in range(1, len(places) // 2):
        first, second = order[place], order[len(places) - 1 - place]
        boards.append((first, second) if place % 2 == 0 else (second, first))
    if cycle % 2:
        boards = [(white, black) for black, white in boards]
    games = [(black, white) for black, white in boards if black is not None and white is not None]
    byes = [player for board in boards if None in board for player in board if player is not None]
    return numbered(round_number, games, byes, bye_score=LOSS)
