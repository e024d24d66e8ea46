"""Opening rules (none, swap, swap2, soosorv8): every branch played through, every illegal step refused.

Each test plays an opening step by step the way a server would, as FIRST
(who created the game, tentatively black) and SECOND. Points are written in
renju-book notation on a 15x15 board unless said otherwise.
"""

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Color, IllegalMoveError, OccupiedError, OffBoardError, Point, Rule, parse_point
from engine.errors import (
    NotOfferedError,
    NotStandardOpeningError,
    NotYourDecisionError,
    OpeningError,
    OpeningOverError,
    StepNotOpenError,
    SymmetricOffersError,
    WrongCountError,
)
from engine.openings import (
    ChooseColor,
    DeclareOffers,
    MayChooseColor,
    MayDeclareOffers,
    MayOfferFifths,
    MayPlaceStones,
    MaySelectFifth,
    OfferFifths,
    OpeningRule,
    OpeningState,
    PlaceStones,
    Player,
    SelectFifth,
    Stage,
    Step,
    TakenStep,
    apply,
    start_opening,
)
from engine.renju_openings import STANDARD_OPENINGS, RenjuOpening
from engine.symmetry import SYMMETRIES, symmetries_keeping

FIRST, SECOND = Player.FIRST, Player.SECOND
BLACK, WHITE = Color.BLACK, Color.WHITE


def points(text: str, size: int = 15) -> tuple[Point, ...]:
    return tuple(parse_point(word, size) for word in text.split())


def point(text: str) -> Point:
    return parse_point(text, 15)


def place(text: str) -> PlaceStones:
    return PlaceStones(points(text))


def play(state: OpeningState, *steps: tuple[Player, Step]) -> OpeningState:
    for player, step in steps:
        state = apply(state, player, step)
    return state


def swap_opening() -> OpeningState:
    return start_opening(OpeningRule.SWAP)


def swap2_opening(size: int = 15) -> OpeningState:
    return start_opening(OpeningRule.SWAP2, size)


def soosorv_opening() -> OpeningState:
    return start_opening(OpeningRule.SOOSORV8, 15, Rule.RENJU)


def soosorv_at_offers(opening: str = "h8 i9 j10", fourth: str = "g7", count: int = 2) -> OpeningState:
    """Soosõrv-8 with no swaps, up to black (FIRST) offering `count` fifth moves."""
    return play(
        soosorv_opening(),
        (FIRST, place(opening)),
        (SECOND, ChooseColor(WHITE)),
        (SECOND, place(fourth)),
        (SECOND, DeclareOffers(count)),
        (FIRST, ChooseColor(BLACK)),
    )


# ------------------------------------------------------------------------ none


def test_none_has_no_opening_phase() -> None:
    state = start_opening(OpeningRule.NONE, 19, Rule.STANDARD)
    assert state.is_finished and state.stage is Stage.FINISHED
    assert state.to_decide is None and state.open_steps == ()
    assert state.moves == () and state.steps == ()
    assert state.black is FIRST and state.white is SECOND
    assert state.to_move is BLACK and state.player_to_move is FIRST
    assert state.board().size == 19 and state.board().rule is Rule.STANDARD


def test_none_refuses_every_step() -> None:
    with pytest.raises(OpeningOverError, match="the opening is over"):
        apply(start_opening(OpeningRule.NONE), FIRST, place("h8"))


# ------------------------------------------------------------------------ swap


def test_swap_begins_with_first_placing_black_white_black() -> None:
    state = swap_opening()
    assert not state.is_finished
    assert state.to_decide is FIRST
    assert state.open_steps == (MayPlaceStones((BLACK, WHITE, BLACK)),)
    assert state.to_move is None and state.player_to_move is None


def test_swap_second_stays_white() -> None:
    state = play(swap_opening(), (FIRST, place("h8 h9 j10")))
    assert state.to_decide is SECOND
    assert state.open_steps == (MayChooseColor(),)
    state = apply(state, SECOND, ChooseColor(WHITE))
    assert state.is_finished
    assert state.moves == points("h8 h9 j10")
    assert state.black is FIRST
    assert state.to_move is WHITE and state.player_to_move is SECOND


def test_swap_second_takes_black() -> None:
    state = play(swap_opening(), (FIRST, place("a1 o15 b2")), (SECOND, ChooseColor(BLACK)))
    assert state.is_finished
    assert state.black is SECOND and state.white is FIRST
    assert state.color_of(FIRST) is WHITE and state.color_of(SECOND) is BLACK
    assert state.to_move is WHITE and state.player_to_move is FIRST


def test_the_steps_taken_are_kept_in_order() -> None:
    state = play(swap_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(BLACK)))
    assert state.steps == (
        TakenStep(FIRST, place("h8 h9 j10")),
        TakenStep(SECOND, ChooseColor(BLACK)),
    )


def test_the_finished_opening_gives_the_games_board() -> None:
    state = play(swap_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(WHITE)))
    board = state.board()
    assert board.moves == state.moves
    assert board.to_move is state.to_move
    assert board.stone_at(point("h9")) is WHITE


# ----------------------------------------------------------------------- swap2


def test_swap2_second_may_choose_a_colour_or_place_two_more_stones() -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")))
    assert state.to_decide is SECOND
    assert set(state.open_steps) == {MayChooseColor(), MayPlaceStones((WHITE, BLACK))}


def test_swap2_option_a_second_stays_white_and_plays_the_fourth_stone() -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(WHITE)))
    assert state.is_finished
    assert len(state.moves) == 3
    assert state.black is FIRST
    assert state.to_move is WHITE and state.player_to_move is SECOND


def test_swap2_option_b_second_swaps_and_first_plays_the_fourth_stone() -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(BLACK)))
    assert state.is_finished
    assert state.black is SECOND
    assert state.to_move is WHITE and state.player_to_move is FIRST


@pytest.mark.parametrize(("first_takes", "first_moves_next"), [(WHITE, True), (BLACK, False)])
def test_swap2_option_c_two_more_stones_then_first_chooses(first_takes: Color, first_moves_next: bool) -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")), (SECOND, place("g7 f6")))
    assert state.moves == points("h8 h9 j10 g7 f6")
    assert state.board().stone_at(point("g7")) is WHITE
    assert state.board().stone_at(point("f6")) is BLACK
    assert state.to_decide is FIRST
    assert state.open_steps == (MayChooseColor(),)
    state = apply(state, FIRST, ChooseColor(first_takes))
    assert state.is_finished
    assert state.color_of(FIRST) is first_takes
    assert state.to_move is WHITE, "white plays the 6th move"
    assert state.player_to_move is (FIRST if first_moves_next else SECOND)
    assert len(state.steps) == 3


def test_swap2_works_on_any_board_and_rule() -> None:
    state = play(
        start_opening(OpeningRule.SWAP2, 7, Rule.STANDARD),
        (FIRST, PlaceStones(points("a1 g7 d4", 7))),
        (SECOND, PlaceStones(points("a7 g1", 7))),
        (FIRST, ChooseColor(BLACK)),
    )
    assert state.board().size == 7 and len(state.moves) == 5


# -------------------------------------------------------------------- soosorv8


@pytest.mark.parametrize("first_swap", [False, True])
@pytest.mark.parametrize("second_swap", [False, True])
def test_soosorv8_every_combination_of_swaps(first_swap: bool, second_swap: bool) -> None:
    state = play(soosorv_opening(), (FIRST, place("h8 h9 i9")))
    assert state.to_decide is SECOND and state.open_steps == (MayChooseColor(),)

    state = apply(state, SECOND, ChooseColor(BLACK if first_swap else WHITE))
    white = FIRST if first_swap else SECOND
    assert state.white is white
    assert state.to_decide is white
    assert state.open_steps == (MayPlaceStones((WHITE,)),)

    state = apply(state, white, place("k4"))  # anywhere on the board
    assert state.to_decide is white
    assert state.open_steps == (MayDeclareOffers(1, 8),)

    state = apply(state, white, DeclareOffers(3))
    assert state.to_decide is white.other, "the other player may swap"
    assert state.open_steps == (MayChooseColor(),)

    state = apply(state, white.other, ChooseColor(WHITE if second_swap else BLACK))
    black = white if second_swap else white.other
    assert state.black is black
    assert state.to_decide is black
    assert state.open_steps == (MayOfferFifths(3),)

    state = apply(state, black, OfferFifths(points("g7 j7 h6")))
    assert state.to_decide is black.other
    assert state.open_steps == (MaySelectFifth(points("g7 j7 h6")),)

    state = apply(state, black.other, SelectFifth(point("j7")))
    assert state.is_finished
    assert state.moves == points("h8 h9 i9 k4 j7")
    assert state.offers == points("g7 j7 h6")
    assert state.black is black
    assert state.to_move is WHITE and state.player_to_move is black.other
    assert [taken.player for taken in state.steps] == [FIRST, SECOND, white, white, white.other, black, black.other]


@pytest.mark.parametrize("opening", STANDARD_OPENINGS, ids=lambda opening: opening.code)
def test_soosorv8_accepts_every_standard_opening_in_any_orientation(opening: RenjuOpening) -> None:
    for symmetry in SYMMETRIES:
        stones = symmetry.apply_all(opening.stones, 15)
        state = apply(soosorv_opening(), FIRST, PlaceStones(stones))
        assert state.moves == stones


def test_soosorv8_fifth_moves_may_mirror_each_other_when_the_position_does_not() -> None:
    # White's 4th stone off the diagonal breaks the symmetry of Chosei (h8 i9 j10).
    state = apply(soosorv_at_offers(fourth="k9"), FIRST, OfferFifths(points("h7 g8")))
    assert state.offers == points("h7 g8")


def test_soosorv8_eight_different_fifth_moves() -> None:
    state = soosorv_at_offers(fourth="k4", count=8)
    state = apply(state, FIRST, OfferFifths(points("g7 g8 g9 h7 h6 i8 i7 j8")))
    assert apply(state, SECOND, SelectFifth(point("j8"))).moves[-1] == point("j8")


# -------------------------------------------------------------- illegal steps


def refused(state: OpeningState, player: Player, step: Step, error: type[ValueError], match: str | None = None) -> None:
    with pytest.raises(error, match=match):
        apply(state, player, step)


def test_a_state_cannot_be_changed_in_place() -> None:
    state = swap_opening()
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.moves = points("h8")  # type: ignore[misc]


def test_after_a_refused_step_the_old_state_goes_on_as_before() -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")))
    refused(state, FIRST, ChooseColor(BLACK), NotYourDecisionError)
    refused(state, SECOND, place("h8 g7"), OccupiedError)
    finished = apply(state, SECOND, ChooseColor(BLACK))
    assert finished.is_finished and finished.steps[-1] == TakenStep(SECOND, ChooseColor(BLACK))
    assert len(state.steps) == 1


THREE = (FIRST, place("h8 h9 j10"))
"""FIRST's three opening stones (3D Sosei, a standard renju opening)."""

WAITING: dict[str, Callable[[], OpeningState]] = {
    "swap: three stones": swap_opening,
    "swap: colour": lambda: play(swap_opening(), THREE),
    "swap2: three stones": swap2_opening,
    "swap2: options": lambda: play(swap2_opening(), THREE),
    "swap2: last choice": lambda: play(swap2_opening(), THREE, (SECOND, place("a1 a2"))),
    "soosorv8: opening": soosorv_opening,
    "soosorv8: first swap": lambda: play(soosorv_opening(), THREE),
    "soosorv8: fourth stone": lambda: play(soosorv_opening(), THREE, (SECOND, ChooseColor(BLACK))),
    "soosorv8: declare": lambda: play(soosorv_opening(), THREE, (SECOND, ChooseColor(BLACK)), (FIRST, place("a1"))),
    "soosorv8: second swap": lambda: play(
        soosorv_opening(), THREE, (SECOND, ChooseColor(BLACK)), (FIRST, place("a1")), (FIRST, DeclareOffers(2))
    ),
    "soosorv8: offers": soosorv_at_offers,
    "soosorv8: select": lambda: play(soosorv_at_offers(), (FIRST, OfferFifths(points("h7 h6")))),
}
"""An opening waiting at each decision of each rule, by name."""

ONE_OF_EACH_KIND: tuple[Step, ...] = (
    place("a15"),
    ChooseColor(BLACK),
    DeclareOffers(2),
    OfferFifths(points("a15 a14")),
    SelectFifth(point("h7")),
)


def test_the_waiting_openings_cover_every_decision() -> None:
    stages = {WAITING[name]().stage for name in WAITING}
    assert stages == set(Stage) - {Stage.FINISHED}


def is_open(state: OpeningState, step: Step) -> bool:
    """Whether a step of this kind is among the state's open steps."""
    kinds = {
        MayPlaceStones: PlaceStones,
        MayChooseColor: ChooseColor,
        MayDeclareOffers: DeclareOffers,
        MayOfferFifths: OfferFifths,
        MaySelectFifth: SelectFifth,
    }
    return any(kinds[type(open_step)] is type(step) for open_step in state.open_steps)


@pytest.mark.parametrize("waiting", WAITING)
def test_the_player_who_does_not_decide_now_is_refused(waiting: str) -> None:
    state = WAITING[waiting]()
    decider = state.to_decide
    assert decider is not None
    for step in ONE_OF_EACH_KIND:
        if is_open(state, step):
            refused(state, decider.other, step, NotYourDecisionError, f"the {decider} player decides now")


@pytest.mark.parametrize("waiting", WAITING)
def test_every_kind_of_step_that_is_not_open_is_refused(waiting: str) -> None:
    state = WAITING[waiting]()
    decider = state.to_decide
    assert decider is not None
    closed = [step for step in ONE_OF_EACH_KIND if not is_open(state, step)]
    assert len(closed) in (3, 4)
    for step in closed:
        refused(state, decider, step, StepNotOpenError, f"the {decider} player may now: ")


def test_the_refusal_says_which_steps_are_open() -> None:
    state = play(swap2_opening(), (FIRST, place("h8 h9 j10")))
    with pytest.raises(StepNotOpenError) as refusal:
        apply(state, SECOND, DeclareOffers(2))
    assert str(refusal.value) == "the second player may now: choose a colour; place 2 stone(s): white, black"


@pytest.mark.parametrize(
    ("waiting", "stones"),
    [
        ("swap: three stones", "h8 h9"),
        ("swap: three stones", "h8 h9 j10 j11"),
        ("swap: three stones", ""),
        ("swap2: options", "a1"),
        ("swap2: options", "a1 a2 a3"),
        ("soosorv8: opening", "h8 h9"),
        ("soosorv8: fourth stone", "a1 a2"),
    ],
)
def test_the_wrong_number_of_stones_is_refused(waiting: str, stones: str) -> None:
    state = WAITING[waiting]()
    assert state.to_decide is not None
    refused(state, state.to_decide, place(stones), WrongCountError, "stone\\(s\\) are due here")


def test_stones_off_the_board_are_refused() -> None:
    refused(swap_opening(), FIRST, PlaceStones((point("h8"), point("h9"), Point(15, 3))), OffBoardError)
    refused(swap_opening(), FIRST, PlaceStones((Point(-1, 0), point("h9"), point("h10"))), OffBoardError)


def test_stones_on_stones_are_refused() -> None:
    refused(swap_opening(), FIRST, place("h8 h8 h9"), OccupiedError, "h8 is already taken")
    after_three = play(swap2_opening(), (FIRST, place("h8 h9 j10")))
    refused(after_three, SECOND, place("a1 j10"), OccupiedError, "j10 is already taken")


@pytest.mark.parametrize(
    "stones",
    [
        "g8 g9 g10",  # black's first stone off the centre
        "h8 h10 h11",  # white not next to black
        "h8 h9 h11",  # black's second outside the central 5x5 square
        "h8 i9 k10",
    ],
)
def test_soosorv8_refuses_three_stones_that_are_no_standard_opening(stones: str) -> None:
    refused(soosorv_opening(), FIRST, place(stones), NotStandardOpeningError, "no standard renju opening")


@pytest.mark.parametrize("count", [0, 9, -1])
def test_soosorv8_refuses_a_declared_count_outside_1_to_8(count: int) -> None:
    state = play(soosorv_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(WHITE)), (SECOND, place("a1")))
    refused(state, SECOND, DeclareOffers(count), WrongCountError, "1 to 8 fifth moves")


@pytest.mark.parametrize("offers", ["h7", "h7 h6 h5", ""])
def test_soosorv8_refuses_a_number_of_offers_other_than_declared(offers: str) -> None:
    refused(soosorv_at_offers(count=2), FIRST, OfferFifths(points(offers)), WrongCountError, "2 fifth move")


def test_soosorv8_refuses_two_offers_that_mirror_each_other_in_a_symmetric_position() -> None:
    # Chosei (h8 i9 j10) and white's g7 all lie on the diagonal a1-o15 through h8:
    # h7 and g8 are mirror images across it, so they are one and the same offer.
    state = soosorv_at_offers(opening="h8 i9 j10", fourth="g7")
    assert len(symmetries_keeping(state.moves[0::2], state.moves[1::2], 15)) == 2
    refused(state, FIRST, OfferFifths(points("h7 g8")), SymmetricOffersError, "h7 g8 are the same move")
    assert apply(state, FIRST, OfferFifths(points("h7 h6"))).offers == points("h7 h6")


def test_soosorv8_refuses_mirrored_offers_in_a_direct_opening_too() -> None:
    # Kansei (h8 h9 h10) with white's 4th on h11 is symmetric about column h: g7 and i7 mirror.
    state = soosorv_at_offers(opening="h8 h9 h10", fourth="h11", count=3)
    refused(state, FIRST, OfferFifths(points("f5 g7 i7")), SymmetricOffersError, "mirror left-right")


def test_soosorv8_refuses_the_same_offer_twice() -> None:
    refused(soosorv_at_offers(fourth="k9"), FIRST, OfferFifths(points("h7 h7")), SymmetricOffersError, "offered twice")


def test_soosorv8_refuses_an_offer_on_a_stone_or_off_the_board() -> None:
    state = soosorv_at_offers()
    refused(state, FIRST, OfferFifths(points("h7 g7")), OccupiedError, "g7 is already taken")
    refused(state, FIRST, OfferFifths((point("h7"), Point(3, 20))), OffBoardError)


def test_soosorv8_refuses_a_fifth_move_that_was_not_offered() -> None:
    state = play(soosorv_at_offers(), (FIRST, OfferFifths(points("h7 h6"))))
    refused(state, SECOND, SelectFifth(point("j7")), NotOfferedError, "j7 was not offered; the offers are h7 h6")


def test_the_finished_opening_refuses_further_steps() -> None:
    state = play(swap_opening(), (FIRST, place("h8 h9 j10")), (SECOND, ChooseColor(WHITE)))
    refused(state, SECOND, place("a1"), OpeningOverError)
    refused(state, FIRST, ChooseColor(BLACK), OpeningOverError)


def test_soosorv8_is_for_renju_only() -> None:
    with pytest.raises(ValueError, match="soosorv8 opening is for renju"):
        start_opening(OpeningRule.SOOSORV8, 15, Rule.FREESTYLE)


def test_the_board_size_is_checked_when_the_opening_starts() -> None:
    with pytest.raises(ValueError, match="board size"):
        start_opening(OpeningRule.SWAP, 4)
    with pytest.raises(ValueError, match="renju is played on 15x15"):
        start_opening(OpeningRule.SWAP, 19, Rule.RENJU)


def test_opening_rules_read_their_names() -> None:
    assert OpeningRule.parse(" Swap2 ") is OpeningRule.SWAP2
    assert [rule.value for rule in OpeningRule] == ["none", "swap", "swap2", "soosorv8"]
    with pytest.raises(ValueError, match="expected one of none, swap, swap2, soosorv8"):
        OpeningRule.parse("pro")


def test_every_opening_error_is_a_value_error_and_stone_errors_are_move_errors() -> None:
    for error in (NotYourDecisionError, StepNotOpenError, WrongCountError, SymmetricOffersError, OpeningOverError):
        assert issubclass(error, OpeningError) and issubclass(error, ValueError)
    assert issubclass(OccupiedError, IllegalMoveError) and not issubclass(OccupiedError, OpeningError)


# ---------------------------------------------------------------- properties


def legal_step(data: st.DataObject, state: OpeningState) -> Step:
    """A random step that the rules allow in `state`."""
    open_step = data.draw(st.sampled_from(state.open_steps))
    board = state.board()
    empty = list(board.empty_points())
    match open_step:
        case MayChooseColor():
            return ChooseColor(data.draw(st.sampled_from([BLACK, WHITE])))
        case MayDeclareOffers(least=least, most=most):
            return DeclareOffers(data.draw(st.integers(least, most)))
        case MaySelectFifth(offers=offers):
            return SelectFifth(data.draw(st.sampled_from(offers)))
        case MayPlaceStones(colors=colors):
            if state.rule is OpeningRule.SOOSORV8 and state.stage is Stage.OPENING_STONES:
                opening = data.draw(st.sampled_from(STANDARD_OPENINGS))
                return PlaceStones(data.draw(st.sampled_from(SYMMETRIES)).apply_all(opening.stones, state.size))
            chosen = data.draw(
                st.lists(st.sampled_from(empty), min_size=len(colors), max_size=len(colors), unique=True)
            )
            return PlaceStones(tuple(chosen))
        case MayOfferFifths(count=count):
            keeping = symmetries_keeping(state.moves[0::2], state.moves[1::2], state.size)
            offers: list[Point] = []
            while len(offers) < count:
                candidate = data.draw(st.sampled_from(empty))
                if all(symmetry.apply(candidate, state.size) not in offers for symmetry in keeping):
                    offers.append(candidate)
            return OfferFifths(tuple(offers))


def any_step(data: st.DataObject, size: int) -> Step:
    """A random step of any kind, legal or not."""
    points_drawn = st.lists(st.builds(Point, st.integers(-1, size), st.integers(-1, size)), max_size=4).map(tuple)
    return data.draw(
        st.one_of(
            st.builds(PlaceStones, points_drawn),
            st.builds(ChooseColor, st.sampled_from([BLACK, WHITE])),
            st.builds(DeclareOffers, st.integers(-1, 10)),
            st.builds(OfferFifths, points_drawn),
            st.builds(SelectFifth, st.builds(Point, st.integers(0, size - 1), st.integers(0, size - 1))),
        )
    )


@st.composite
def started_openings(draw: st.DrawFn) -> OpeningState:
    rule = draw(st.sampled_from(list(OpeningRule)))
    if rule is OpeningRule.SOOSORV8:
        return start_opening(rule, 15, Rule.RENJU)
    game_rule = draw(st.sampled_from(list(Rule)))
    size = 15 if game_rule is Rule.RENJU else draw(st.integers(5, 19))
    return start_opening(rule, size, game_rule)


@given(started_openings(), st.data())
def test_random_openings_end_in_a_consistent_position(state: OpeningState, data: st.DataObject) -> None:
    start = state
    while not state.is_finished:
        # Now and then a random step by a random player: refused without a trace, or legal.
        if data.draw(st.booleans()):
            player = data.draw(st.sampled_from([FIRST, SECOND]))
            try:
                state = apply(state, player, any_step(data, state.size))
            except (OpeningError, IllegalMoveError):
                pass
            continue
        decider = state.to_decide
        assert decider is not None
        state = apply(state, decider, legal_step(data, state))

    assert len(state.moves) == len(set(state.moves))
    assert len(state.moves) in {OpeningRule.NONE: {0}, OpeningRule.SWAP: {3}, OpeningRule.SWAP2: {3, 5}}.get(
        state.rule, {5}
    )
    board = state.board()  # plays every stone with its checks: on the board, empty, alternating black first
    assert board.moves == state.moves and board.result is None
    assert board.to_move is state.to_move
    assert state.to_move is (BLACK if state.rule is OpeningRule.NONE else WHITE)
    assert state.player_to_move is (state.black if state.to_move is BLACK else state.white)
    # The steps kept are enough to play the opening again.
    assert play(start, *((taken.player, taken.step) for taken in state.steps)) == state
