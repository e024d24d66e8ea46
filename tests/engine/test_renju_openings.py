"""The 26 standard renju openings and the recogniser, with the board symmetries under them.

Names and numbers follow Wikipedia's "Renju opening pattern" (1D Kansei to
13D Yusei, 1I Chosei to 13I Suisei); the completeness test shows that the
table covers every legal placement of the three stones exactly once, so a
wrong square in it could not go unnoticed.
"""

import pytest

from engine import Board, Color, Point, Rule, parse_point
from engine.renju_openings import CENTRE, STANDARD_OPENINGS, OpeningFamily, RenjuOpening, recognise_opening
from engine.symmetry import SYMMETRIES, Symmetry, symmetries_keeping


def points(text: str, size: int = 15) -> tuple[Point, ...]:
    return tuple(parse_point(word, size) for word in text.split())


def opening_named(name: str) -> RenjuOpening:
    return next(opening for opening in STANDARD_OPENINGS if opening.name == name)


# ------------------------------------------------------------------ symmetry


def test_the_eight_symmetries_are_different_and_keep_the_centre() -> None:
    corner_and_edge = points("a15 h15")
    images = {symmetry.apply_all(corner_and_edge, 15) for symmetry in SYMMETRIES}
    assert len(images) == 8
    assert all(symmetry.apply(CENTRE, 15) == CENTRE for symmetry in SYMMETRIES)
    assert SYMMETRIES[0].name == "identity"


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("identity", "b14"),
        ("mirror left-right", "n14"),
        ("mirror top-bottom", "b2"),
        ("rotate 180", "n2"),
        ("rotate 90 clockwise", "n14"),
        ("rotate 90 anticlockwise", "b2"),
    ],
)
def test_each_symmetry_moves_a_point_as_its_name_says(name: str, image: str) -> None:
    symmetry = next(symmetry for symmetry in SYMMETRIES if symmetry.name == name)
    assert symmetry.apply(parse_point("b14", 15), 15) == parse_point(image, 15)


def test_rotations_turn_the_top_edge_the_right_way() -> None:
    by_name = {symmetry.name: symmetry for symmetry in SYMMETRIES}
    top = parse_point("h15", 15)
    assert by_name["rotate 90 clockwise"].apply(top, 15) == parse_point("o8", 15)
    assert by_name["rotate 90 anticlockwise"].apply(top, 15) == parse_point("a8", 15)
    assert by_name["mirror in the diagonal a15-o1"].apply(parse_point("o15", 15), 15) == parse_point("a1", 15)
    assert by_name["mirror in the diagonal a1-o15"].apply(parse_point("a15", 15), 15) == parse_point("o1", 15)


def test_every_symmetry_works_on_any_board_size() -> None:
    for size in (5, 8, 19):
        corners = {Point(0, 0), Point(size - 1, 0), Point(0, size - 1), Point(size - 1, size - 1)}
        for symmetry in SYMMETRIES:
            assert set(symmetry.apply_all(corners, size)) == corners


def names(symmetries: tuple[Symmetry, ...]) -> set[str]:
    return {symmetry.name for symmetry in symmetries}


def test_the_symmetries_keeping_a_position_respect_colours() -> None:
    assert len(symmetries_keeping([CENTRE], [], 15)) == 8
    assert names(symmetries_keeping(points("h8"), points("h9"), 15)) == {"identity", "mirror left-right"}
    diagonal = {"identity", "mirror in the diagonal a1-o15"}
    assert names(symmetries_keeping(points("h8"), points("i9"), 15)) == diagonal
    assert names(symmetries_keeping(points("h8 j10"), points("i9"), 15)) == diagonal
    assert names(symmetries_keeping(points("h8 i10"), points("i9"), 15)) == {"identity"}
    # The mirror in column h maps g9 onto i9, but they hold different colours.
    assert names(symmetries_keeping(points("h8"), points("g9 i9"), 15)) == {"identity", "mirror left-right"}
    assert names(symmetries_keeping(points("h8 g9"), points("i9"), 15)) == {"identity"}


# ------------------------------------------------------------- the 26 openings


def test_there_are_thirteen_of_each_family_numbered_1_to_13() -> None:
    for family in OpeningFamily:
        numbers = [opening.number for opening in STANDARD_OPENINGS if opening.family is family]
        assert numbers == list(range(1, 14))
    assert len({opening.name for opening in STANDARD_OPENINGS}) == 26


@pytest.mark.parametrize("opening", STANDARD_OPENINGS, ids=lambda opening: opening.code)
def test_each_opening_is_three_legal_renju_stones_by_the_rules(opening: RenjuOpening) -> None:
    first, white, second = opening.stones
    assert first == CENTRE
    step = (abs(white.x - first.x), abs(white.y - first.y))
    assert step == ((0, 1) if opening.family is OpeningFamily.DIRECT else (1, 1))
    assert max(abs(second.x - 7), abs(second.y - 7)) <= 2
    board = Board.from_moves(opening.stones, 15, Rule.RENJU)
    assert board.to_move is Color.WHITE and board.result is None
    assert recognise_opening(opening.stones) is opening


def test_no_two_openings_are_the_same_up_to_symmetry() -> None:
    seen: dict[tuple[Point, ...], str] = {}
    for opening in STANDARD_OPENINGS:
        for symmetry in SYMMETRIES:
            image = symmetry.apply_all(opening.stones, 15)
            assert seen.setdefault(image, opening.code) == opening.code


def test_the_table_covers_every_legal_placement_exactly_once() -> None:
    """All 8 x 23 placements (white around h8, black's second in the 5x5) are some opening."""
    around = [Point(7 + dx, 7 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    central = [Point(x, y) for x in range(5, 10) for y in range(5, 10)]
    found: dict[str, int] = {}
    for white in around:
        for second in central:
            if second in (CENTRE, white):
                continue
            opening = recognise_opening((CENTRE, white, second))
            assert opening is not None, (white, second)
            found[opening.code] = found.get(opening.code, 0) + 1
    assert len(found) == 26
    assert sum(found.values()) == 8 * 23
    # An opening on white's axis of symmetry has 4 images, any other 8.
    on_axis = {"1D", "8D", "11D", "1I", "11I", "13I"}
    assert {code for code, count in found.items() if count == 4} == on_axis


@pytest.mark.parametrize(
    ("name", "moves", "code"),
    [
        ("Kansei", "h8 h9 h10", "1D"),
        ("Keigetsu", "h8 h9 i10", "2D"),
        ("Kagetsu", "h8 h9 i9", "4D"),
        ("Ugetsu", "h8 h9 i8", "6D"),
        ("Zuisei", "h8 h9 h6", "11D"),
        ("Yusei", "h8 h9 j6", "13D"),
        ("Chosei", "h8 i9 j10", "1I"),
        ("Kyogetsu", "h8 i9 j9", "2I"),
        ("Ryusei", "h8 i9 j6", "5I"),
        ("Hogetsu", "h8 i9 i7", "7I"),
        ("Meigetsu", "h8 i9 g6", "12I"),
        ("Suisei", "h8 i9 f6", "13I"),
    ],
)
def test_well_known_openings_stand_where_the_books_put_them(name: str, moves: str, code: str) -> None:
    opening = opening_named(name)
    assert opening.stones == points(moves)
    assert opening.code == code


def test_an_opening_prints_its_code_name_and_moves() -> None:
    assert str(opening_named("Kagetsu")) == "4D Kagetsu (h8 h9 i9)"


# ----------------------------------------------------------------- recognising


@pytest.mark.parametrize("opening", STANDARD_OPENINGS, ids=lambda opening: opening.code)
def test_every_opening_is_recognised_under_all_eight_symmetries(opening: RenjuOpening) -> None:
    for symmetry in SYMMETRIES:
        assert recognise_opening(symmetry.apply_all(opening.stones, 15)) is opening


def test_kagetsu_turned_a_quarter_is_still_kagetsu() -> None:
    # White on i8 (right of h8), black's second on i7: Kagetsu rotated clockwise.
    assert recognise_opening(points("h8 i8 i7")) is opening_named("Kagetsu")


@pytest.mark.parametrize(
    "moves",
    [
        "h8 h9",  # too few stones
        "h8 h9 h10 h11",  # too many
        "g8 g9 g10",  # black's first stone off the centre
        "h8 h10 h11",  # white not next to black
        "h8 h9 h11",  # black's second outside the 5x5 square
        "h8 i9 k10",  # likewise, on the other family
        "h8 h9 h8",  # black's second on its first
        "h8 h9 h9",  # black's second on white
    ],
)
def test_other_placements_are_no_standard_opening(moves: str) -> None:
    assert recognise_opening(points(moves)) is None


def test_the_stones_must_come_in_order_black_white_black() -> None:
    assert recognise_opening(points("h9 h8 h10")) is None
