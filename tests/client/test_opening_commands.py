"""Reading the steps of an opening as typed (place, choose, declare, offer, select) and the opening
option of create and seek."""

from __future__ import annotations

import pytest

from client.commands import CommandError, CreateRoomCommand, parse_command
from client.opening_commands import (
    ChooseColour,
    DeclareOffers,
    OfferFifths,
    PlaceStones,
    SelectFifth,
    step_of,
)
from client.player_commands import SeekCommand
from client.values import GameTerms, read_point
from engine.types import Color, Rule
from wire.messages import (
    ChooseColorModel,
    DeclareOffersModel,
    OfferFifthsModel,
    PlaceStonesModel,
    PointModel,
    SelectFifthModel,
)


def test_create_and_seek_take_an_opening_rule() -> None:
    assert parse_command("create opening swap2") == CreateRoomCommand(
        Rule.FREESTYLE, 15, "me", "open", None, False, opening="swap2"
    )
    assert parse_command("seek rule renju opening SOOSORV8") == SeekCommand(
        GameTerms(Rule.RENJU, opening="soosorv8"), "random", None, None
    )


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("create opening soosorv8", "soosorv8 is an opening of renju"),
        ("create opening swap3", "unknown opening 'swap3'"),
        ("create opening", "needs a value"),
        ("pair opening swap", "pair takes rule, size, clock and rated"),
    ],
)
def test_an_opening_the_server_would_refuse_is_explained(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_each_step_is_read_with_its_points_in_the_order_typed() -> None:
    assert parse_command("place h8 7,6 J8") == PlaceStones((read_point("h8"), read_point("7,6"), read_point("j8")))
    assert parse_command("choose White") == ChooseColour(Color.WHITE)
    assert parse_command("declare 8") == DeclareOffers(8)
    assert parse_command("offer h10 j6") == OfferFifths((read_point("h10"), read_point("j6")))
    assert parse_command("select h10") == SelectFifth(read_point("h10"))


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("place", "the stones due"),
        ("place h8 h9 h10 h11", "the stones due"),
        ("place h8 there", "points like h8 or 7,7, not 'there'"),
        ("choose", "'choose black' or 'choose white'"),
        ("choose green", "unknown colour"),
        ("declare 9", "from 1 to 8"),
        ("declare", "1 to 8"),
        ("offer", "fifth moves you offer"),
        ("select h10 j6", "one of the fifth moves"),
    ],
)
def test_a_malformed_step_is_explained(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_a_step_becomes_the_wires_with_points_on_the_board() -> None:
    place = parse_command("place h8 a1")
    assert isinstance(place, PlaceStones)
    assert step_of(place, 15) == PlaceStonesModel(points=[PointModel(x=7, y=7), PointModel(x=0, y=14)])
    assert step_of(ChooseColour(Color.BLACK), 15) == ChooseColorModel(color="black")
    assert step_of(DeclareOffers(2), 15) == DeclareOffersModel(count=2)
    offer = parse_command("offer 0,0")
    assert isinstance(offer, OfferFifths) and step_of(offer, 15) == OfferFifthsModel(points=[PointModel(x=0, y=0)])
    select = parse_command("select o15")
    assert isinstance(select, SelectFifth) and step_of(select, 15) == SelectFifthModel(point=PointModel(x=14, y=0))
    with pytest.raises(CommandError, match="9x9"):
        step_of(select, 9)
