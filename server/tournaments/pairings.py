"""The values every format's pairing rules share: a pairing, and what the games so far say of colours.

A `Pairing` is one board of one round: black against white, or a bye when
there is no white (the player scores a win's points without playing). Its
`score` is black's score once the game has ended (1, 0.5 or 0; a bye's is 1).
Arena waves are rounds too: each wave pairs whoever was free then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.types import Color

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of one round."""

    round: int
    """1 for the first round (an arena's first wave)."""
    board: int
    """1 for the first board of the round."""
    black: str
    white: str | None
    """None for a bye: black scores a win without playing."""
    game_id: str | None = None
    """The game once it has been opened (never for a bye)."""
    room_id: str | None = None
    score: float | None = None
    """Black's score once the game has ended (white's is 1 - score); a bye's is WIN at once."""

    @property
    def is_bye(self) -> bool:
        return self.white is None

    @property
    def finished(self) -> bool:
        """Whether the board has its result (a bye always has)."""
        return self.score is not None

    def players(self) -> tuple[str, ...]:
        return (self.black,) if self.white is None else (self.black, self.white)

    def score_of(self, name: str) -> float | None:
        """The player's score on this board (None while unplayed, or if the player is not on it)."""
        if self.score is None:
            return None
        if name == self.black:
            return self.score
        return LOSS + WIN - self.score if name == self.white else None

    def opponent_of(self, name: str) -> str | None:
        return self.white if name == self.black else self.black if name == self.white else None


def bye(round_number: int, board: int, player: str) -> Pairing:
    """A bye: a win's points for the player, no game."""
    return Pairing(round_number, board, player, None, score=WIN)


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


def numbered(round_number: int, games: Sequence[tuple[str, str]], byes: Sequence[str] = ()) -> list[Pairing]:
    """A round's pairings, boards numbered in order: the games (black, white), then the byes."""
    pairings = [Pairing(round_number, board, black, white) for board, (black, white) in enumerate(games, 1)]
    return pairings + [bye(round_number, len(games) + index, player) for index, player in enumerate(byes, 1)]
