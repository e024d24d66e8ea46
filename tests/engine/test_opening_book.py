"""The bots' opening book: its candidates, its data, and moving an opening onto another board."""

import itertools

import pytest

from engine import Point, Rule, parse_point
from engine.opening_book import BOOK_CENTRE, BOOK_SIZE, BookOpening, book, candidate_openings
from engine.renju_openings import STANDARD_OPENINGS, recognise_opening
from engine.symmetry import SYMMETRIES


def test_the_candidates_are_distinct_up_to_symmetry_and_hold_the_26_renju_openings() -> None:
    candidates = candidate_openings()
    assert len(candidates) == 128
    for one, other in itertools.combinations(candidates, 2):
        assert all(symmetry.apply_all(one, BOOK_SIZE) != other for symmetry in SYMMETRIES)
    recognised = [recognise_opening(stones) for stones in candidates]
    assert sorted(opening.code for opening in recognised if opening is not None) == sorted(
        opening.code for opening in STANDARD_OPENINGS
    )
    assert all(stones[0] == BOOK_CENTRE for stones in candidates)


@pytest.mark.parametrize("rule", list(Rule))
def test_the_book_appraises_every_candidate_once_most_balanced_first(rule: Rule) -> None:
    openings = book(rule)
    assert sorted(opening.stones for opening in openings) == sorted(candidate_openings())
    balance = [abs(opening.value) for opening in openings]
    assert balance == sorted(balance)
    assert all(opening.depth >= 1 for opening in openings)


def test_an_opening_moves_to_the_centre_of_another_board_and_turns() -> None:
    opening = BookOpening((parse_point("h8", 15), parse_point("h9", 15), parse_point("d7", 15)), 0, 4)
    assert str(opening) == "h8 h9 d7"
    assert opening.on_board(15) == opening.stones
    assert opening.on_board(19) == (Point(9, 9), Point(9, 8), Point(5, 10))
    turned = opening.on_board(15, SYMMETRIES[1])  # mirror left-right
    assert turned == (Point(7, 7), Point(7, 6), Point(11, 8))
    assert opening.fits(9) and not opening.fits(7)
