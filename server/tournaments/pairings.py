"""What every format's pairing rules share: byes, what the games so far say of colours and opponents.

A pairing (`server.domain.Pairing`) is one board of one round: black against
white, or a bye when there is no white (the player scores a win's points
without playing). Arena waves are rounds too: each wave pairs whoever was
free then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.types import Color
from server.domain import Pairing

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


def bye(round_number: int, board: int, player: str, score: float = WIN) -> Pairing:
    """A bye: no game, and `score` for the player (a Swiss bye is a win; a round robin's rest, nothing)."""
    return Pairing(round_number, board, player, None, score=score)


def colour_histories(history: Iterable[Pairing]) -> dict[str, list[Color]]:
    """Each player's colours in the games paired so far, in order (byes have none)."""
    colours: dict[str, list[Color]] = {}
    for pairing in sorted(history, key=lambda pairing: (pairing.round, pairing.board)):
        if pairing.white is not None:
            colours.setdefault(pairing.black, []).append(Color.BLACK)
            colours.setdefault(pairing.white, []).append(Color.WHITE)
    return colours


def opponents(history: Iterable[Pairing]) -> dict[str, set[str]]:
    """Whom each player has been paired against so far."""
    met: dict[str, set[str]] = {}
    for pairing in history:
        if pairing.white is not None:
            met.setdefault(pairing.black, set()).add(pairing.white)
            met.setdefault(pairing.white, set()).add(pairing.black)
    return met


def colour_balance(colours: Sequence[Color]) -> int:
    """Blacks minus whites."""
    return sum(1 if colour is Color.BLACK else -1 for colour in colours)


def numbered(
    round_number: int, games: Sequence[tuple[str, str]], byes: Sequence[str] = (), bye_score: float = WIN
) -> list[Pairing]:
    """A round's pairings, boards numbered in order: the games (black, white), then the byes."""
    pairings = [Pairing(round_number, board, black, white) for board, (black, white) in enumerate(games, 1)]
    rest = [bye(round_number, len(games) + index, player, bye_score) for index, player in enumerate(byes, 1)]
    return pairings + rest
