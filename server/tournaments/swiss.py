"""Swiss pairing: score groups, no repeat while one is avoidable, colours balanced, byes rotating.

The active players come ranked (points, tie-breaks, rating, entry); each
in turn, from the top, is paired with the nearest player below it in that
order that the rules allow, so players meet their own score group first
and the next group down when their group runs out. A depth-first search
goes back on a choice that leaves the rest unpairable. The rules are tried
strictest first, and relaxed only when no pairing satisfies them:

1. no repeat pairing, and colours balanced: nobody gets one colour three
   times in a row or ends more than two games of one colour ahead;
2. no repeat pairing;
3. anything (a small field late in a long event).

With an odd number of players the bye goes to the lowest-ranked player who
has not had one (whom the rest can be paired around); only when everyone has
had one does a second go round, again from the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.types import Color
from server.domain import Pairing
from server.tournaments.pairings import colour_balance, colour_histories, numbered, opponents

SEARCH_BUDGET = 20_000
"""The most pairings tried at one strictness before the next, looser one is tried instead."""
MOST_IN_A_ROW = 2
MOST_AHEAD = 2


class Strictness(Enum):
    BALANCED = "no repeat, colours balanced"
    NO_REPEAT = "no repeat"
    ANYTHING = "anything"


class _OutOfBudget(Exception):
    """The search tried SEARCH_BUDGET pairings without finding one."""


@dataclass(slots=True)
class _Search:
    met: dict[str, set[str]]
    colours: dict[str, list[Color]]
    round_number: int
    strictness: Strictness
    tried: int = 0

    def colours_for(self, higher: str, lower: str) -> tuple[str, str] | None:
        """(black, white) for two players, or None if the strictness forbids pairing them."""
        if self.strictness is not Strictness.ANYTHING and lower in self.met.get(higher, set()):
            return None
        options = sorted(((higher, lower), (lower, higher)), key=lambda option: self._preference(option, higher))
        if self.strictness is Strictness.BALANCED:
            options = [option for option in options if self._balanced(option)]
        return options[0] if options else None

    def _preference(self, option: tuple[str, str], higher: str) -> tuple[int, int, int]:
        """Lower is better: black to whoever has had more whites, then whoever had white last; else
        the higher-ranked player has black in odd rounds and white in even ones."""
        black, white = option
        black_had, white_had = self.colours.get(black, []), self.colours.get(white, [])
        last_black = black_had[-1] if black_had else None
        by_round = 0 if (black == higher) == (self.round_number % 2 == 1) else 1
        return (colour_balance(black_had) - colour_balance(white_had), int(last_black is Color.BLACK), by_round)

    def _balanced(self, option: tuple[str, str]) -> bool:
        black, white = option
        return _keeps_balance(self.colours.get(black, []), Color.BLACK) and _keeps_balance(
            self.colours.get(white, []), Color.WHITE
        )

    def match(self, players: Sequence[str]) -> list[tuple[str, str]] | None:
        """Pairs for every player (in ranking order), or None if there are none at this strictness."""
        if not players:
            return []
        first, rest = players[0], players[1:]
        for index, other in enumerate(rest):
            self.tried += 1
            if self.tried > SEARCH_BUDGET:
                raise _OutOfBudget
            game = self.colours_for(first, other)
            if game is None:
                continue
            others = self.match([*rest[:index], *rest[index + 1 :]])
            if others is not None:
                return [game, *others]
        return None


def _keeps_balance(colours: Sequence[Color], colour: Color) -> bool:
    after = [*colours, colour]
    in_a_row = len(after) > MOST_IN_A_ROW and all(c is colour for c in after[-MOST_IN_A_ROW - 1 :])
    return not in_a_row and abs(colour_balance(after)) <= MOST_AHEAD


def pair_swiss(ranked: Sequence[str], history: Sequence[Pairing], round_number: int) -> list[Pairing]:
    """The pairings of the next round for the active players, in ranking order (best first), after
    the rounds in `history`. Raises ValueError for fewer than two players."""
    if len(ranked) < 2:
        raise ValueError("a Swiss round needs at least two players")
    met, colours = opponents(history), colour_histories(history)
    for strictness in Strictness:
        search = _Search(met, colours, round_number, strictness)
        found = _pair_with_bye(list(ranked), history, search.match)
        if found is not None:
            games, byes = found
            return numbered(round_number, games, byes)
    raise AssertionError("pairing anyone with anyone always succeeds")


def _pair_with_bye(
    ranked: list[str],
    history: Sequence[Pairing],
    match: Callable[[Sequence[str]], list[tuple[str, str]] | None],
) -> tuple[list[tuple[str, str]], list[str]] | None:
    """The games and the bye (if the count is odd), or None if the strictness allows no pairing."""
    try:
        if len(ranked) % 2 == 0:
            games = match(ranked)
            return None if games is None else (games, [])
        for player in bye_order(ranked, history):
            games = match([other for other in ranked if other != player])
            if games is not None:
                return games, [player]
    except _OutOfBudget:
        return None
    return None


def bye_order(ranked: Sequence[str], history: Sequence[Pairing]) -> list[str]:
    """Who may have the bye, in the order to try: the fewest byes so far, then the lowest ranked."""
    byes: dict[str, int] = {}
    for pairing in history:
        if pairing.is_bye:
            byes[pairing.black] = byes.get(pairing.black, 0) + 1
    fewest = min(byes.get(player, 0) for player in ranked)
    return [player for player in reversed(ranked) if byes.get(player, 0) == fewest]
