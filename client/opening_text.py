"""Sentences about an opening being decided (pure: the server's opening state and steps in, text out).

The server lists exactly the kinds of step open to the player whose
decision it is (`OpeningStateModel.choices`); this module says them, with
the command that takes each to the decider and as plain news to everyone
else, and says what each step taken did.
"""

from __future__ import annotations

from engine.notation import format_point
from engine.types import Point
from wire.messages import (
    ChooseColorModel,
    DeclareOffersModel,
    OfferFifthsModel,
    OpeningChoiceModel,
    OpeningStateModel,
    OpeningStepModel,
    PlaceStonesModel,
    PointModel,
    SelectFifthModel,
)

_ORDINAL = {1: "one", 2: "two", 3: "three"}


def describe_decision(opening: OpeningStateModel, mine: bool, size: int) -> str:
    """Whose decision it is and exactly the steps open to them (with how to type each, when it is the
    player's own); empty once the opening is over."""
    if opening.decider is None or opening.to_decide is None:
        return ""
    choices = [_choice(choice, size) for choice in opening.choices]
    if mine:
        steps = "; or ".join(f"{what}: {how}" for what, how in choices)
        return f"your decision ({opening.to_decide} for now): {steps}"
    steps = ", or ".join(what for what, _ in choices)
    return f"{opening.decider} ({opening.to_decide} for now) decides: {steps}"


def describe_step(by: str, step: OpeningStepModel, size: int) -> str:
    """What a step taken did: `alice placed h8 j9 h10`."""
    match step:
        case PlaceStonesModel():
            return f"{by} placed {_points(step.points, size)}"
        case ChooseColorModel():
            return f"{by} chose {step.color}"
        case DeclareOffersModel():
            return f"{by} declared {step.count} fifth move{'' if step.count == 1 else 's'} for black to offer"
        case OfferFifthsModel():
            return f"{by} offered {_points(step.points, size)} as fifth moves"
        case SelectFifthModel():
            return f"{by} selected the fifth move {_points([step.point], size)}"


def _choice(choice: OpeningChoiceModel, size: int) -> tuple[str, str]:
    """A step open to the decider: what it is, and how to type it."""
    match choice.kind:
        case "place":
            colours = choice.colors or []
            if len(colours) == 1:
                return f"place a {colours[0]} stone", "type its point, like 'h8'"
            stones = f"place {_ORDINAL.get(len(colours), str(len(colours)))} stones, {', then '.join(colours)}"
            return stones, "'place " + " ".join(["POINT"] * len(colours)) + "'"
        case "choose_color":
            return "choose a colour", "'choose black' or 'choose white'"
        case "declare_offers":
            return (
                f"declare how many fifth moves black offers, {choice.least} to {choice.most}",
                "'declare N'",
            )
        case "offer_fifths":
            count = choice.count or 0
            return (
                f"offer {count} fifth move{'' if count == 1 else 's'}, none a mirror image of another",
                "'offer " + " ".join(["POINT"] * count) + "'",
            )
        case "select_fifth":
            return f"select one of the fifth moves offered ({_points(choice.offers or [], size)})", "'select POINT'"


def _points(points: list[PointModel], size: int) -> str:
    return " ".join(format_point(Point(point.x, point.y), size) for point in points)
