"""Bots deciding openings: at every decision of every rule the step is legal, the same for a seed,
and sensible where the position leaves no doubt.

Each decision is taken by an engine level (`master`) and by a classic bot
(`alphabeta`, which judges with the engine's `easy` search), on node
budgets so that the answers are the same on every machine. Points are in
renju-book notation on 15x15 (a15 is the top left corner).
"""

from collections.abc import Sequence

import pytest

from engine import Color, Point, Rule, parse_point
from engine.errors import OpeningOverError
from engine.limits import SearchLimits, counting_clock
from engine.opening_book import BOOK_SIZE, book
from engine.opening_bot import BOOK_CHOICES, decide_opening, play_out_opening
from engine.openings import (
    ChooseColor,
    DeclareOffers,
    OfferFifths,
    OpeningRule,
    OpeningState,
    PlaceStones,
    Player,
    SelectFifth,
    Stage,
    Step,
    apply,
    start_opening,
)
from engine.renju_openings import recognise_opening
from engine.symmetry import SYMMETRIES

FIRST, SECOND = Player.FIRST, Player.SECOND
BLACK, WHITE = Color.BLACK, Color.WHITE
LEVELS = ["master", "alphabeta"]
"""An engine level and a classic bot."""
LIMITS = SearchLimits(nodes=2_500)
"""A small budget: a depth or three, a fraction of a second."""


def points(text: str, size: int = 15) -> tuple[Point, ...]:
    return tuple(parse_point(word, size) for word in text.split())


def opening(rule: OpeningRule, steps: Sequence[tuple[Player, Step]], game_rule: Rule = Rule.FREESTYLE) -> OpeningState:
    """The opening after these steps, each checked by apply."""
    state = start_opening(rule, 15, Rule.RENJU if rule is OpeningRule.SOOSORV8 else game_rule)
    for player, step in steps:
        state = apply(state, player, step)
    return state


def soosorv8(*steps: tuple[Player, Step]) -> OpeningState:
    return opening(OpeningRule.SOOSORV8, steps)


# Every decision point, reached with plain steps: (name, state).
KANSEI = PlaceStones(points("h8 h9 h10"))
DECISION_POINTS = [
    ("swap: three stones", opening(OpeningRule.SWAP, [])),
    ("swap: the choice", opening(OpeningRule.SWAP, [(FIRST, PlaceStones(points("h8 h9 d7")))])),
    ("swap2: three stones", opening(OpeningRule.SWAP2, [])),
    ("swap2: the options", opening(OpeningRule.SWAP2, [(FIRST, PlaceStones(points("h8 i9 d5")))])),
    (
        "swap2: the last choice",
        opening(OpeningRule.SWAP2, [(FIRST, PlaceStones(points("h8 i9 d5"))), (SECOND, PlaceStones(points("g7 f8")))]),
    ),
    ("swap2 under renju: the options", opening(OpeningRule.SWAP2, [(FIRST, KANSEI)], Rule.RENJU)),
    ("soosorv8: three stones", soosorv8()),
    ("soosorv8: the first swap", soosorv8((FIRST, KANSEI))),
    ("soosorv8: the 4th stone", soosorv8((FIRST, KANSEI), (SECOND, ChooseColor(WHITE)))),
    (
        "soosorv8: the count",
        soosorv8((FIRST, KANSEI), (SECOND, ChooseColor(WHITE)), (SECOND, PlaceStones(points("h6")))),
    ),
    (
        "soosorv8: the second swap",
        soosorv8(
            (FIRST, KANSEI),
            (SECOND, ChooseColor(WHITE)),
            (SECOND, PlaceStones(points("h6"))),
            (SECOND, DeclareOffers(3)),
        ),
    ),
    (
        "soosorv8: eight offers in a symmetric position",
        soosorv8(
            (FIRST, KANSEI),
            (SECOND, ChooseColor(WHITE)),
            (SECOND, PlaceStones(points("h6"))),
            (SECOND, DeclareOffers(8)),
            (FIRST, ChooseColor(BLACK)),
        ),
    ),
    (
        "soosorv8: the choice of a fifth",
        soosorv8(
            (FIRST, KANSEI),
            (SECOND, ChooseColor(BLACK)),
            (FIRST, PlaceStones(points("h6"))),
            (FIRST, DeclareOffers(3)),
            (SECOND, ChooseColor(WHITE)),
            (FIRST, OfferFifths(points("g9 f10 j7"))),
        ),
    ),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "state"), DECISION_POINTS, ids=[name for name, _ in DECISION_POINTS])
def test_every_decision_is_legal_and_the_same_for_a_seed(level: str, name: str, state: OpeningState) -> None:
    decider = state.to_decide
    assert decider is not None
    step = decide_opening(state, level, LIMITS, seed=5)
    after = apply(state, decider, step)  # raises if the step is not legal here
    assert after.steps[-1].step == step
    assert decide_opening(state, level, LIMITS, seed=5) == step


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rule", [OpeningRule.SWAP, OpeningRule.SWAP2, OpeningRule.SOOSORV8])
def test_bots_play_every_opening_to_its_end(level: str, rule: OpeningRule) -> None:
    state = opening(rule, [])
    finished = play_out_opening(state, {FIRST: level, SECOND: "medium"}, LIMITS, seed=1)
    assert finished.is_finished
    assert len(finished.moves) in (3, 5)
    assert finished.board().result is None


# ------------------------------------------------------------ the first stones


@pytest.mark.parametrize("level", ["master", "easy", "greedy"])
def test_the_three_stones_are_one_of_the_levels_most_balanced_book_openings(level: str) -> None:
    choices = BOOK_CHOICES.get(level, 24)
    allowed = {frozenset(_orientations(book_opening.stones)) for book_opening in book(Rule.FREESTYLE)[:choices]}
    placed = set()
    for seed in range(8):
        step = decide_opening(opening(OpeningRule.SWAP2, []), level, LIMITS, seed)
        assert isinstance(step, PlaceStones)
        assert any(step.points in orientations for orientations in allowed)
        placed.add(step.points)
    assert len(placed) > 1, "seeds vary the opening and its orientation"


def _orientations(stones: tuple[Point, ...]) -> list[tuple[Point, ...]]:
    return [symmetry.apply_all(stones, BOOK_SIZE) for symmetry in SYMMETRIES]


def test_soosorv8_opens_with_a_standard_renju_opening() -> None:
    for seed in range(6):
        step = decide_opening(soosorv8(), "master", LIMITS, seed)
        assert isinstance(step, PlaceStones)
        assert recognise_opening(step.points) is not None


@pytest.mark.parametrize("size", [5, 9, 16, 19])
def test_on_other_boards_the_opening_stands_in_the_middle(size: int) -> None:
    state = start_opening(OpeningRule.SWAP, size)
    step = decide_opening(state, "master", LIMITS, seed=2)
    assert isinstance(step, PlaceStones)
    apply(state, FIRST, step)
    first = step.points[0]
    assert {first.x, first.y} <= {size // 2, (size - 1) // 2}, "black's first stone on a middle point"


# ------------------------------------------------------------- choosing colours


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rule", [OpeningRule.SWAP, OpeningRule.SWAP2])
def test_the_second_player_takes_black_when_black_is_clearly_winning(level: str, rule: OpeningRule) -> None:
    # Black's two stones touch in the centre; white's is lost in the corner.
    state = opening(rule, [(FIRST, PlaceStones(points("h8 a15 i9")))])
    assert decide_opening(state, level, LIMITS, seed=0) == ChooseColor(BLACK)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rule", [OpeningRule.SWAP, OpeningRule.SWAP2])
def test_the_second_player_stays_white_when_black_is_clearly_lost(level: str, rule: OpeningRule) -> None:
    # White holds the centre and moves; black's stones are in two corners.
    state = opening(rule, [(FIRST, PlaceStones(points("a15 h8 o1")))])
    assert decide_opening(state, level, LIMITS, seed=0) == ChooseColor(WHITE)


@pytest.mark.parametrize(("level", "stones"), [("master", "h8 h9 e4"), ("alphabeta", "h8 h9 m8")])
def test_in_swap2_a_balanced_opening_gets_two_more_stones(level: str, stones: str) -> None:
    state = opening(OpeningRule.SWAP2, [(FIRST, PlaceStones(points(stones)))])
    step = decide_opening(state, level, LIMITS, seed=0)
    assert isinstance(step, PlaceStones)
    after = apply(state, SECOND, step)
    assert after.stage is Stage.SWAP2_LAST_CHOICE


@pytest.mark.parametrize("level", LEVELS)
def test_after_two_more_stones_the_first_player_takes_the_better_colour(level: str) -> None:
    good_for_black = opening(
        OpeningRule.SWAP2, [(FIRST, PlaceStones(points("h8 a15 i9"))), (SECOND, PlaceStones(points("a14 j10")))]
    )
    good_for_white = opening(
        OpeningRule.SWAP2, [(FIRST, PlaceStones(points("a15 h8 o1"))), (SECOND, PlaceStones(points("i9 a1")))]
    )
    assert decide_opening(good_for_black, level, LIMITS, seed=0) == ChooseColor(BLACK)
    assert decide_opening(good_for_white, level, LIMITS, seed=0) == ChooseColor(WHITE)


# ----------------------------------------------------------------- Soosõrv-8


def _after_fourth(fourth: str, opening_stones: str, count: int | None = None) -> OpeningState:
    steps: list[tuple[Player, Step]] = [
        (FIRST, PlaceStones(points(opening_stones))),
        (SECOND, ChooseColor(WHITE)),
        (SECOND, PlaceStones(points(fourth))),
    ]
    if count is not None:
        steps.append((SECOND, DeclareOffers(count)))
    return soosorv8(*steps)


@pytest.mark.parametrize("level", LEVELS)
def test_white_asks_for_every_offer_when_its_4th_stone_left_black_far_ahead(level: str) -> None:
    # 7D Kinsei with white's 4th stone thrown away in the corner.
    assert decide_opening(_after_fourth("a1", "h8 h9 j8"), level, LIMITS, seed=0) == DeclareOffers(8)


@pytest.mark.parametrize("level", LEVELS)
def test_black_swaps_when_the_offers_asked_for_leave_it_behind(level: str) -> None:
    # 1I Chosei, white's 4th on i10: black has two good fifths (i11, i8), the third best is bad.
    assert decide_opening(_after_fourth("i10", "h8 i9 j10", count=1), level, LIMITS, seed=0) == ChooseColor(BLACK)
    assert decide_opening(_after_fourth("i10", "h8 i9 j10", count=3), level, LIMITS, seed=0) == ChooseColor(WHITE)


@pytest.mark.parametrize("level", LEVELS)
def test_white_chooses_the_offer_that_leaves_black_weakest(level: str) -> None:
    state = soosorv8(
        (FIRST, PlaceStones(points("h8 h9 j8"))),
        (SECOND, ChooseColor(WHITE)),
        (SECOND, PlaceStones(points("a1"))),
        (SECOND, DeclareOffers(2)),
        (FIRST, ChooseColor(BLACK)),
        # i8 makes black an open three in the centre; a15 is a stone thrown away.
        (FIRST, OfferFifths(points("i8 a15"))),
    )
    assert decide_opening(state, level, LIMITS, seed=0) == SelectFifth(parse_point("a15", 15))


def test_black_offers_every_fifth_due_when_its_search_named_fewer() -> None:
    # One node: no depth finishes, the judge knows a single move, the other seven are the legal
    # points nearest the stones, none a mirror image of another (apply would refuse it).
    state = _after_fourth("h6", "h8 h9 h10", count=8)
    state = apply(state, FIRST, ChooseColor(BLACK))
    step = decide_opening(state, "master", SearchLimits(nodes=1), seed=0)
    assert isinstance(step, OfferFifths) and len(step.points) == 8
    assert apply(state, FIRST, step).stage is Stage.SELECT_FIFTH


# ----------------------------------------------------------------- the interface


def test_a_finished_opening_has_no_decision_left() -> None:
    with pytest.raises(OpeningOverError):
        decide_opening(start_opening(OpeningRule.NONE), "master", LIMITS, seed=0)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        decide_opening(opening(OpeningRule.SWAP, []), "grandmaster", LIMITS, seed=0)


def test_a_time_limit_alone_gives_the_same_decision_on_a_clock_that_counts_nodes() -> None:
    state = opening(OpeningRule.SWAP2, [(FIRST, PlaceStones(points("h8 i9 d5")))])
    limits = SearchLimits(time_ms=300)
    assert decide_opening(state, "hard", limits, 0, counting_clock()) == decide_opening(
        state, "hard", limits, 0, counting_clock()
    )
