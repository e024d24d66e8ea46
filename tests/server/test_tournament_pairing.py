"""The pairing rules of each format, as properties over random entrant lists and results."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import PlayerInfo
from engine.types import Color
from server.domain import Entrant, Pairing
from server.tournaments.arena import pair_arena
from server.tournaments.pairings import colour_balance, colour_histories, opponents
from server.tournaments.round_robin import berger_round, rounds_in
from server.tournaments.standings import standings
from server.tournaments.swiss import MOST_AHEAD, MOST_IN_A_ROW, bye_order, pair_swiss

names = st.integers(min_value=2, max_value=14).map(lambda count: [f"p{index}" for index in range(count)])
seeds_of_luck = st.randoms(use_true_random=False)


def played(pairings: Sequence[Pairing], luck: random.Random) -> list[Pairing]:
    """The pairings with a random result on each game."""
    return [p if p.is_bye else replace(p, score=luck.choice((0.0, 0.5, 1.0))) for p in pairings]


def longest_run(colours: Sequence[Color]) -> int:
    return max((len(list(run)) for _, run in itertools.groupby(colours)), default=0)


# ----------------------------------------------------------- round robin


@given(names, st.sampled_from([1, 2]))
def test_a_round_robin_cycle_meets_everyone_once_with_colours_balanced(players: list[str], cycles: int) -> None:
    rounds = range(1, rounds_in(len(players), cycles) + 1)
    schedule = [pairing for number in rounds for pairing in berger_round(players, number)]
    meetings = [frozenset((p.black, p.white)) for p in schedule if p.white is not None]
    expected = {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert sorted(meetings, key=sorted) == sorted(list(expected) * cycles, key=sorted)
    for number in rounds:
        seated = [name for pairing in berger_round(players, number) for name in pairing.players()]
        assert sorted(seated) == sorted(players), "everyone is on one board (or has the bye) each round"
    first_cycle = [pairing for pairing in schedule if pairing.round <= rounds_in(len(players), 1)]
    for name, colours in colour_histories(first_cycle).items():
        assert abs(colour_balance(colours)) <= 1, name
        assert longest_run(colours) <= 2, name
    for name, colours in colour_histories(schedule).items():
        assert abs(colour_balance(colours)) <= 1, name
    rests = [pairing for pairing in schedule if pairing.is_bye]
    assert all(pairing.score == 0.0 for pairing in rests), "a round robin's rest scores nothing"
    assert len(rests) == (len(players) % 2) * len(players) * cycles, "everyone rests once a cycle when odd"
    if cycles == 2:
        first = {(p.black, p.white) for p in schedule[: len(schedule) // 2] if p.white}
        second = {(p.white, p.black) for p in schedule[len(schedule) // 2 :] if p.white}
        assert first == second, "the second cycle is the first with colours reversed"


# ----------------------------------------------------------------- Swiss


def matchings(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every way to pair an even number of players."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [
        [(first, other), *others]
        for index, other in enumerate(rest)
        for others in matchings([*rest[:index], *rest[index + 1 :]])
    ]


def keeps_colour_rules(colours: list[Color], colour: Color) -> bool:
    after = [*colours, colour]
    return abs(colour_balance(after)) <= MOST_AHEAD and longest_run(after[-MOST_IN_A_ROW - 1 :]) <= MOST_IN_A_ROW


def possible_rounds(players: Sequence[str], history: Sequence[Pairing]) -> list[list[tuple[str, str]]]:
    """Every next round by brute force (each bye candidate sitting out when the count is odd)."""
    if len(players) % 2 == 0:
        return matchings(players)
    return [games for out in bye_order(players, history) for games in matchings([p for p in players if p != out])]


def colour_rules_hold(black: str, white: str, colours: dict[str, list[Color]]) -> bool:
    return keeps_colour_rules(colours.get(black, []), Color.BLACK) and keeps_colour_rules(
        colours.get(white, []), Color.WHITE
    )


@settings(max_examples=60, deadline=None)
@given(names.filter(lambda players: len(players) <= 8), seeds_of_luck, st.integers(1, 8))
def test_swiss_rounds_avoid_repeats_keep_colours_and_rotate_the_bye(
    players: list[str], luck: random.Random, rounds: int
) -> None:
    """Each rule holds whenever some round (found by brute force) could keep it."""
    entrants = [Entrant(PlayerInfo(name), seed, 1500.0) for seed, name in enumerate(players, 1)]
    history: list[Pairing] = []
    for number in range(1, rounds + 1):
        ranked = [row.name for row in standings("swiss", entrants, history)]
        met, colours = opponents(history), colour_histories(history)
        candidates = possible_rounds(ranked, history)
        no_repeat = [games for games in candidates if all(b not in met.get(a, set()) for a, b in games)]
        fully_legal = [
            games
            for games in no_repeat
            if all(colour_rules_hold(a, b, colours) or colour_rules_hold(b, a, colours) for a, b in games)
        ]
        pairings = pair_swiss(ranked, history, number)
        assert sorted(name for p in pairings for name in p.players()) == sorted(players)
        games = [(p.black, p.white) for p in pairings if p.white is not None]
        if no_repeat:
            assert [(b, w) for b, w in games if w in met.get(b, set())] == [], "a repeat was avoidable"
        if fully_legal:
            assert all(colour_rules_hold(b, w, colours) for b, w in games), "colours broke the rules"
        byes_before = {p.black for p in history if p.is_bye}
        for pairing in pairings:
            if pairing.is_bye and set(players) - byes_before:
                assert pairing.black not in byes_before, "a second bye while someone has had none"
        history += played(pairings, luck)


def test_the_first_swiss_round_pairs_neighbours_and_gives_the_bye_to_the_last() -> None:
    pairings = pair_swiss(["a", "b", "c", "d", "e"], [], 1)
    assert [(p.black, p.white) for p in pairings] == [("a", "b"), ("c", "d"), ("e", None)]
    assert pairings[-1].score == 1.0


# ----------------------------------------------------------------- arena


@settings(max_examples=60, deadline=None)
@given(names, seeds_of_luck, st.integers(1, 12))
def test_arena_waves_never_rematch_at_once(players: list[str], luck: random.Random, waves: int) -> None:
    history: list[Pairing] = []
    last: dict[str, str] = {}
    for wave in range(1, waves + 1):
        free = [name for name in players if luck.random() < 0.7]
        pairings = pair_arena(free, history, wave)
        seated = [name for p in pairings for name in p.players()]
        assert len(seated) == len(set(seated)) and set(seated) <= set(free)
        for pairing in pairings:
            assert pairing.white is not None
            assert last.get(pairing.black) != pairing.white and last.get(pairing.white) != pairing.black
            last[pairing.black], last[pairing.white] = pairing.white, pairing.black
        unpaired = [name for name in free if name not in seated]
        for a, b in itertools.combinations(unpaired, 2):
            assert last.get(a) == b or last.get(b) == a, "two free players who may meet were left waiting"
        history += played(pairings, luck)


def test_an_arena_pairs_neighbours_in_the_standings() -> None:
    pairings = pair_arena(["a", "b", "c", "d"], [Pairing(1, 1, "a", "b", score=1.0)], 2)
    assert [frozenset(p.players()) for p in pairings] == [frozenset(("a", "c")), frozenset(("b", "d"))]
