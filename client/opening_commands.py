"""The steps of an opening as the player types them (pure: words in, a command or a CommandError out,
and a command in, the wire's step out).

While a game's opening is decided (1.1 openings: swap, swap2, Soosõrv-8),
the player whose decision it is takes one step: `place h8 j9 h10` (the
stones due, in order), `choose black|white`, `declare N` (how many fifth
moves black offers), `offer h10 j6 ...` (those fifths) or `select h10` (the
fifth white takes). `client.commands` reads the first word and hands the
rest to the parser here; which steps are open is the server's to say, and
the room screen shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.values import CommandError, TypedPoint, read_colour, read_count, read_points
from engine.types import Color
from wire.messages import (
    ChooseColorModel,
    DeclareOffersModel,
    OfferFifthsModel,
    OpeningStepModel,
    PlaceStonesModel,
    PointModel,
    SelectFifthModel,
)

MAX_STONES_PLACED = 3
"""The most stones one step places (the first three of swap and swap2)."""
MAX_OFFERS = 8
"""The most fifth moves Soosõrv-8 lets black offer."""


@dataclass(frozen=True, slots=True)
class PlaceStones:
    points: tuple[TypedPoint, ...]
    """Where the stones go, in the order placed (their colours alternate as the opening says)."""


@dataclass(frozen=True, slots=True)
class ChooseColour:
    colour: Color
    """The colour the player takes for the rest of the game."""


@dataclass(frozen=True, slots=True)
class DeclareOffers:
    count: int
    """How many fifth moves black must offer."""


@dataclass(frozen=True, slots=True)
class OfferFifths:
    points: tuple[TypedPoint, ...]


@dataclass(frozen=True, slots=True)
class SelectFifth:
    point: TypedPoint


OpeningCommand = PlaceStones | ChooseColour | DeclareOffers | OfferFifths | SelectFifth


def parse_place(arguments: list[str]) -> PlaceStones:
    """`place POINT...`: one to three stones."""
    if not 1 <= len(arguments) <= MAX_STONES_PLACED:
        raise CommandError("place takes the stones due, in order, like 'place h8 j9 h10'")
    return PlaceStones(read_points(arguments, "place"))


def parse_choose(arguments: list[str]) -> ChooseColour:
    """`choose black|white`."""
    if len(arguments) != 1:
        raise CommandError("choose takes a colour: 'choose black' or 'choose white'")
    return ChooseColour(read_colour(arguments[0]))


def parse_declare(arguments: list[str]) -> DeclareOffers:
    """`declare N`: how many fifth moves black offers (1 to 8)."""
    if len(arguments) != 1:
        raise CommandError(f"declare takes how many fifth moves black offers, 1 to {MAX_OFFERS}: 'declare 2'")
    return DeclareOffers(read_count(arguments[0], "the number of offers", MAX_OFFERS))


def parse_offer(arguments: list[str]) -> OfferFifths:
    """`offer POINT...`: the fifth moves black offers."""
    if not 1 <= len(arguments) <= MAX_OFFERS:
        raise CommandError("offer takes the fifth moves you offer, like 'offer h10 j6'")
    return OfferFifths(read_points(arguments, "offer"))


def parse_select(arguments: list[str]) -> SelectFifth:
    """`select POINT`: the offered fifth move white takes."""
    if len(arguments) != 1:
        raise CommandError("select takes one of the fifth moves offered, like 'select h10'")
    (point,) = read_points(arguments, "select")
    return SelectFifth(point)


def step_of(command: OpeningCommand, size: int) -> OpeningStepModel:
    """The wire's step for `command` on a board of `size`. Raises CommandError for a point off the board."""
    match command:
        case PlaceStones(points):
            return PlaceStonesModel(points=_wire_points(points, size))
        case ChooseColour(colour):
            return ChooseColorModel(color="black" if colour is Color.BLACK else "white")
        case DeclareOffers(count):
            return DeclareOffersModel(count=count)
        case OfferFifths(points):
            return OfferFifthsModel(points=_wire_points(points, size))
        case SelectFifth(point):
            (wire_point,) = _wire_points((point,), size)
            return SelectFifthModel(point=wire_point)


def _wire_points(points: tuple[TypedPoint, ...], size: int) -> list[PointModel]:
    resolved = [point.resolve(size) for point in points]
    return [PointModel(x=point.x, y=point.y) for point in resolved]
