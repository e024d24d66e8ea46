"""Quick pairing in O(n log n) pairs as comparing every pair of seeks would.

`pairs_by_comparing_all` is the rule written the plain way (every pair of
waiting seeks compared, nearest first): the specification the fast
pairing must keep.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.types import Rule
from server.domain import ConnectionId
from server.lobby.quick_pairing import pair_quick_seeks
from server.lobby.seeks import GameTerms, Seek

FREESTYLE = GameTerms(Rule.FREESTYLE, 15, None, False)
RENJU = GameTerms(Rule.RENJU, 15, None, False)
RATED = GameTerms(Rule.FREESTYLE, 15, None, True)


def seek(number: int, owner: str, rating: int, since: float, terms: GameTerms = FREESTYLE) -> Seek:
    return Seek(
        f"q{number}",
        owner,
        rating,
        ConnectionId(number),
        terms,
        "random",
        None,
        None,
        datetime(2026, 11, 27, tzinfo=UTC),
        since,
        quick=True,
    )


def pairs_by_comparing_all(waiting: list[Seek], now: float) -> list[tuple[str, str]]:
    """Every pair of the same terms and different owners within the wider window, nearest first
    (the older first seek on a tie), taken greedily."""
    by_age = sorted(waiting, key=lambda seek: seek.since)
    candidates = sorted(
        (
            (abs(first.rating - second.rating), first, second)
            for index, first in enumerate(by_age)
            for second in by_age[index + 1 :]
            if first.terms == second.terms
            and first.owner != second.owner
            and abs(first.rating - second.rating) <= max(first.window(now), second.window(now))
        ),
        key=lambda candidate: (candidate[0], candidate[1].since),
    )
    paired: set[str] = set()
    pairs = []
    for _, first, second in candidates:
        if first.seek_id in paired or second.seek_id in paired:
            continue
        paired |= {first.seek_id, second.seek_id}
        pairs.append((first.seek_id, second.seek_id))
    return pairs


def ids(pairs: list[tuple[Seek, Seek]]) -> list[tuple[str, str]]:
    return [(first.seek_id, second.seek_id) for first, second in pairs]


def may_pair(first: Seek, second: Seek, now: float) -> bool:
    return (
        first.terms == second.terms
        and first.owner != second.owner
        and abs(first.rating - second.rating) <= max(first.window(now), second.window(now))
    )


def test_the_nearest_pair_goes_first_and_a_seek_pairs_once() -> None:
    waiting = [seek(1, "ann", 1500, 0.0), seek(2, "bob", 1540, 0.0), seek(3, "cat", 1550, 0.0)]
    assert ids(pair_quick_seeks(waiting, 0.0)) == [("q2", "q3")]


def test_only_seeks_of_the_same_terms_and_different_owners_pair() -> None:
    waiting = [
        seek(1, "ann", 1500, 0.0),
        seek(2, "ann", 1500, 0.0),
        seek(3, "bob", 1500, 0.0, RENJU),
        seek(4, "cat", 1500, 0.0, RATED),
    ]
    assert pair_quick_seeks(waiting, 0.0) == []


def test_a_pair_reaches_past_its_owners_own_seeks() -> None:
    waiting = [seek(1, "ann", 1500, 0.0), seek(2, "ann", 1510, 0.0), seek(3, "ann", 1520, 0.0), seek(4, "bob", 1590, 0)]
    assert ids(pair_quick_seeks(waiting, 0.0)) == [("q3", "q4")]


def test_the_wider_window_of_an_old_seek_lets_a_far_pair_form_once_the_seeks_between_have_paired() -> None:
    old = seek(1, "ann", 1000, -20.0)  # its window is 1,100 points wide by now
    waiting = [old, seek(2, "bob", 1600, 0.0), seek(3, "cat", 1650, 0.0), seek(4, "dan", 1900, 0.0)]
    assert ids(pair_quick_seeks(waiting, 0.0)) == [("q2", "q3"), ("q1", "q4")]


def test_equal_ratings_pair_the_oldest_seeks_together() -> None:
    waiting = [seek(number, f"p{number}", 1500, float(number)) for number in range(6)]
    assert ids(pair_quick_seeks(waiting, 10.0)) == [("q0", "q1"), ("q2", "q3"), ("q4", "q5")]


SeekRow = tuple[str, int, float, GameTerms]
"""A seek's owner, rating, since and terms."""

owners = st.sampled_from(["ann", "bob", "cat", "dan", "eve"])
terms = st.sampled_from([FREESTYLE, RENJU, RATED])
seek_lists = st.lists(st.tuples(owners, st.integers(1000, 2000), st.floats(-10.0, 0.0), terms), max_size=40).map(
    lambda rows: [seek(number, *row) for number, row in enumerate(rows)]
)


@settings(max_examples=300, deadline=None)
@given(seek_lists)
def test_with_distinct_ratings_the_pairs_are_those_of_comparing_every_pair(waiting: list[Seek]) -> None:
    distinct = list({seek.rating: seek for seek in waiting}.values())
    assert ids(pair_quick_seeks(distinct, 0.0)) == pairs_by_comparing_all(distinct, 0.0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(owners, st.integers(1480, 1520), st.floats(-3.0, 0.0), terms), max_size=40))
def test_with_ties_every_pair_may_pair_and_no_pair_that_may_is_left(rows: list[SeekRow]) -> None:
    waiting = [seek(number, *row) for number, row in enumerate(rows)]
    pairs = pair_quick_seeks(waiting, 0.0)
    assert all(may_pair(first, second, 0.0) and first.since <= second.since for first, second in pairs)
    used = [seek.seek_id for pair in pairs for seek in pair]
    assert len(used) == len(set(used)), "a seek pairs once"
    left = [seek for seek in waiting if seek.seek_id not in used]
    assert not any(may_pair(a, b, 0.0) for index, a in enumerate(left) for b in left[index + 1 :])
    expected_differences = sorted(abs(a.rating - b.rating) for a, b in pairs)
    reference = {seek.seek_id: seek for seek in waiting}
    by_reference = sorted(abs(reference[a].rating - reference[b].rating) for a, b in pairs_by_comparing_all(waiting, 0))
    assert expected_differences == by_reference, "the same differences, whoever the tied partners are"
