"""Arena pairing: whoever is free plays at once, someone near them in the standings, never the same
opponent twice in a row.

A wave takes the free players in standings order; each in turn, from the
top, is paired with the nearest free player below it who was not its last
opponent (nor it theirs). One left without a partner waits for the next wave
(the director runs one as soon as a game ends). Black goes to whoever has
had fewer blacks, the higher-ranked player when even.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.types import Color
from server.domain import Pairing
from server.tournaments.pairings import colour_balance, colour_histories, numbered


def last_opponents(history: Sequence[Pairing]) -> dict[str, str]:
    """Each player's opponent in its latest game (byes do not count)."""
    last: dict[str, str] = {}
    for pairing in sorted(history, key=lambda pairing: (pairing.round, pairing.board)):
        if pairing.white is not None:
            last[pairing.black], last[pairing.white] = pairing.white, pairing.black
    return last


def pair_arena(free: Sequence[str], history: Sequence[Pairing], wave: int) -> list[Pairing]:
    """The games of wave `wave` among the free players, in standings order (best first)."""
    last = last_opponents(history)
    colours = colour_histories(history)
    waiting = list(free)
    games: list[tuple[str, str]] = []
    while waiting:
        player = waiting.pop(0)
        partner = next((other for other in waiting if last.get(player) != other and last.get(other) != player), None)
        if partner is None:
            continue
        waiting.remove(partner)
        games.append(_colours(player, partner, colours))
    return numbered(wave, games)


def _colours(higher: str, lower: str, colours: Mapping[str, list[Color]]) -> tuple[str, str]:
    if colour_balance(colours.get(lower, [])) < colour_balance(colours.get(higher, [])):
        return lower, higher
    return higher, lower
