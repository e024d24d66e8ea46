"""How a game's opening is recorded: its rule, and each step with who took it.

A game played under an opening rule (`engine.openings`) keeps the steps
that decided its first stones and its colours. `OpeningRecord` is that part
of a `GameRecord`; its dictionary form is the wire's and the JSON file's:

    {"rule": "swap2", "steps": [
        {"by": "alice", "side": "first", "step": {"kind": "place", "points": [{"x": 7, "y": 7}, ...]}},
        {"by": "bob", "side": "second", "step": {"kind": "choose_color", "color": "white"}}]}

A step's dictionary (`step_to_dict`) is the wire's opening step object:
`place` and `offer_fifths` with `points`, `choose_color` with `color`,
`declare_offers` with `count`, `select_fifth` with `point`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMoveError, RecordFormatError
from engine.notation import format_point
from engine.openings import (
    ChooseColor,
    DeclareOffers,
    OfferFifths,
    OpeningRule,
    OpeningState,
    PlaceStones,
    Player,
    SelectFifth,
    Step,
    apply,
    start_opening,
)
from engine.types import Color, Point, Rule


@dataclass(frozen=True, slots=True)
class OpeningStepRecord:
    """One step of a game's opening, as it was taken."""

    player: str
    """The name of who took it."""
    side: Player
    """Their part in the opening: the first player (who placed the first stones) or the second."""
    step: Step
    """What they did."""


@dataclass(frozen=True, slots=True)
class OpeningRecord:
    """A game's opening: its rule and its steps, in order."""

    rule: OpeningRule
    steps: tuple[OpeningStepRecord, ...] = ()

    def replay(self, size: int, game_rule: Rule) -> OpeningState:
        """The opening's state after its steps. Raises ValueError (an OpeningError, an
        IllegalMoveError) at the first step that was not legal where it stands."""
        state = start_opening(self.rule, size, game_rule)
        for taken in self.steps:
            state = apply(state, taken.side, taken.step)
        return state


def step_to_dict(step: Step) -> dict[str, Any]:
    """A step as the wire and the JSON record write it."""
    if isinstance(step, PlaceStones):
        return {"kind": "place", "points": [_point(point) for point in step.points]}
    if isinstance(step, ChooseColor):
        return {"kind": "choose_color", "color": str(step.color)}
    if isinstance(step, DeclareOffers):
        return {"kind": "declare_offers", "count": step.count}
    if isinstance(step, OfferFifths):
        return {"kind": "offer_fifths", "points": [_point(point) for point in step.points]}
    return {"kind": "select_fifth", "point": _point(step.point)}


def step_from_dict(data: Mapping[str, Any]) -> Step:
    """Read a step written by `step_to_dict`. Raises ValueError (RecordFormatError) saying what is
    wrong with it."""
    kind = data.get("kind")
    try:
        if kind == "place":
            return PlaceStones(tuple(_read_point(item) for item in data["points"]))
        if kind == "choose_color":
            return ChooseColor(Color.parse(str(data["color"])))
        if kind == "declare_offers":
            count = data["count"]
            if not isinstance(count, int) or isinstance(count, bool):
                raise ValueError(f"count must be an integer, not {count!r}")
            return DeclareOffers(count)
        if kind == "offer_fifths":
            return OfferFifths(tuple(_read_point(item) for item in data["points"]))
        if kind == "select_fifth":
            return SelectFifth(_read_point(data["point"]))
    except (KeyError, TypeError) as error:
        raise RecordFormatError(f"an opening step of kind {kind!r} is missing or mistyped: {error}") from None
    raise RecordFormatError(f"unknown opening step kind {kind!r}")


def opening_to_dict(opening: OpeningRecord) -> dict[str, Any]:
    """An opening as the JSON record writes it."""
    return {
        "rule": opening.rule.value,
        "steps": [
            {"by": taken.player, "side": taken.side.value, "step": step_to_dict(taken.step)} for taken in opening.steps
        ],
    }


def opening_from_dict(data: object) -> OpeningRecord:
    """Read an opening written by `opening_to_dict`. Raises RecordFormatError saying what is wrong."""
    if not isinstance(data, Mapping):
        raise RecordFormatError("opening must be an object")
    try:
        rule = OpeningRule.parse(str(data.get("rule")))
        raw_steps = data.get("steps", [])
        if not isinstance(raw_steps, list):
            raise RecordFormatError("opening.steps must be a list")
        steps = tuple(_read_taken(item, index) for index, item in enumerate(raw_steps))
    except ValueError as error:
        raise RecordFormatError(f"opening: {error}") from None
    return OpeningRecord(rule, steps)


def check_opening(opening: OpeningRecord, size: int, game_rule: Rule, moves: tuple[Point, ...]) -> OpeningState:
    """Check that an opening could have been played and that its stones are the game's first moves;
    its final state. Raises RecordFormatError saying what disagrees."""
    try:
        state = opening.replay(size, game_rule)
    except (ValueError, IllegalMoveError) as error:
        raise RecordFormatError(f"the opening cannot be replayed: {error}") from None
    if moves[: len(state.moves)] != state.moves:
        raise RecordFormatError("the opening's stones are not the game's first moves")
    if not state.is_finished and len(moves) > len(state.moves):
        raise RecordFormatError("moves follow an opening that was not finished")
    return state


def describe(opening: OpeningRecord, size: int) -> list[str]:
    """One line per step, for formats that can only hold text (`alice (first) places h8 h9 i8`)."""

    def names(points: tuple[Point, ...]) -> str:
        return " ".join(format_point(point, size) for point in points)

    lines = []
    for taken in opening.steps:
        step = taken.step
        if isinstance(step, PlaceStones):
            action = f"places {names(step.points)}"
        elif isinstance(step, ChooseColor):
            action = f"chooses {step.color}"
        elif isinstance(step, DeclareOffers):
            action = f"asks for {step.count} fifth move(s)"
        elif isinstance(step, OfferFifths):
            action = f"offers {names(step.points)}"
        else:
            action = f"selects {names((step.point,))}"
        lines.append(f"{taken.player} ({taken.side.value}) {action}")
    return lines


def _point(point: Point) -> dict[str, int]:
    return {"x": point.x, "y": point.y}


def _read_point(item: object) -> Point:
    if not isinstance(item, Mapping):
        raise RecordFormatError(f"a point must be an object with x and y, not {item!r}")
    x, y = item.get("x"), item.get("y")
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (x, y)):
        raise RecordFormatError(f"a point's x and y must be integers, not {item!r}")
    assert isinstance(x, int) and isinstance(y, int)
    return Point(x, y)


def _read_taken(item: object, index: int) -> OpeningStepRecord:
    if not isinstance(item, Mapping):
        raise RecordFormatError(f"opening.steps[{index}] must be an object")
    step = item.get("step")
    if not isinstance(step, Mapping):
        raise RecordFormatError(f"opening.steps[{index}].step must be an object")
    return OpeningStepRecord(str(item.get("by", "")), Player(str(item.get("side"))), step_from_dict(step))
