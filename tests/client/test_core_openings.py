"""An opening being decided, as the client shows it and takes its steps, without sockets: whose
decision it is and exactly the choices open, each step taken told, and the colours after a swap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import pytest
from core_harness import sent, shown, signed_in_core

from client.actions import Status
from client.core import ClientCore
from engine.types import Rule
from wire.messages import (
    ChooseColorModel,
    ClockModel,
    CreateRoom,
    Lobby,
    OpeningChoiceModel,
    OpeningStateModel,
    OpeningStep,
    OpeningStepped,
    PlaceStonesModel,
    PointModel,
    RoomMessage,
    SeekerModel,
    SeekModel,
    SeekRequest,
    SelectFifthModel,
)

SnapshotFactory = Callable[..., RoomMessage]
Colour = Literal["black", "white"]

FIRST_THREE = OpeningChoiceModel(kind="place", colors=["black", "white", "black"])
"""swap2's first decision: three stones."""
SECOND_CHOICES = [OpeningChoiceModel(kind="choose_color"), OpeningChoiceModel(kind="place", colors=["white", "black"])]
"""swap2's second decision: a colour, or two more stones."""


@pytest.fixture
def core() -> ClientCore:
    return signed_in_core()


def opening_room(
    snapshot: SnapshotFactory,
    moves: str,
    deciding: Colour,
    choices: list[OpeningChoiceModel],
    you: str = "black",
    rule: Literal["swap", "swap2", "soosorv8"] = "swap2",
    seq: int = 1,
) -> RoomMessage:
    """A room of alice (black) and bob (white) whose opening waits for `deciding`."""
    message = snapshot(moves, you=you, seq=seq, status="playing")
    decider = "alice" if deciding == "black" else "bob"
    opening = OpeningStateModel(rule=rule, to_decide=deciding, decider=decider, choices=choices, steps=[])
    room = message.room.model_copy(update={"status": "opening", "to_move": None, "opening": opening})
    return message.model_copy(update={"room": room})


def test_the_decider_is_told_exactly_the_steps_open_and_how_to_type_them(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    text = shown(core.handle_message(opening_room(snapshot, "", "black", [FIRST_THREE])))
    assert "room r1, freestyle 15x15, opening swap2: black alice, white bob" in text
    assert text.splitlines()[-2:] == [
        "opening swap2, your decision",
        "your decision (black for now): place three stones, black, then white, then black: 'place POINT POINT POINT'",
    ]


def test_the_other_player_and_spectators_are_told_whose_decision_it_is(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    for you in ("black", "spectator"):
        text = shown(core.handle_message(opening_room(snapshot, "h8 a1 i8", "white", SECOND_CHOICES, you=you)))
        assert text.splitlines()[-2:] == [
            "opening swap2, white (bob) to decide",
            "bob (white for now) decides: choose a colour, or place two stones, white, then black",
        ]


def test_a_second_player_may_choose_a_colour_or_place_two_stones(core: ClientCore, snapshot: SnapshotFactory) -> None:
    text = shown(core.handle_message(opening_room(snapshot, "h8 a1 i8", "white", SECOND_CHOICES, you="white")))
    assert text.splitlines()[-1] == (
        "your decision (white for now): choose a colour: 'choose black' or 'choose white'; "
        "or place two stones, white, then black: 'place POINT POINT'"
    )
    (choose,) = sent(core.handle_line("choose black"))
    assert isinstance(choose, OpeningStep) and choose.room_id == "r1"
    assert choose.step == ChooseColorModel(color="black")


def test_stones_are_placed_in_the_order_typed(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(opening_room(snapshot, "", "black", [FIRST_THREE]))
    (place,) = sent(core.handle_line("place h8 a1 7,6"))
    assert isinstance(place, OpeningStep)
    assert place.step == PlaceStonesModel(points=[PointModel(x=7, y=7), PointModel(x=0, y=14), PointModel(x=7, y=6)])


def test_a_point_typed_alone_places_the_one_stone_due(core: ClientCore, snapshot: SnapshotFactory) -> None:
    fourth = [OpeningChoiceModel(kind="place", colors=["white"])]
    room = opening_room(snapshot, "h8 h9 h10", "white", fourth, you="white", rule="soosorv8")
    assert "place a white stone: type its point, like 'h8'" in shown(core.handle_message(room))
    (place,) = sent(core.handle_line("j9"))
    assert isinstance(place, OpeningStep) and place.step == PlaceStonesModel(points=[PointModel(x=9, y=6)])


def test_a_point_typed_alone_when_more_are_due_is_explained_not_sent(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    core.handle_message(opening_room(snapshot, "", "black", [FIRST_THREE]))
    actions = core.handle_line("h8")
    assert sent(actions) == []
    assert shown(actions).startswith("the opening is being decided, not played: your decision (black for now)")


def test_soosorv8s_declarations_offers_and_selection_are_spelt_out(core: ClientCore, snapshot: SnapshotFactory) -> None:
    declare = [OpeningChoiceModel(kind="declare_offers", least=1, most=8)]
    room = opening_room(snapshot, "h8 h9 h10 j9", "white", declare, you="white", rule="soosorv8")
    assert "declare how many fifth moves black offers, 1 to 8: 'declare N'" in shown(core.handle_message(room))
    offer = [OpeningChoiceModel(kind="offer_fifths", count=2)]
    room = opening_room(snapshot, "h8 h9 h10 j9", "black", offer, rule="soosorv8")
    assert "offer 2 fifth moves, none a mirror image of another: 'offer POINT POINT'" in shown(
        core.handle_message(room)
    )
    offers = [PointModel(x=9, y=5), PointModel(x=5, y=9)]
    select = [OpeningChoiceModel(kind="select_fifth", offers=offers)]
    room = opening_room(snapshot, "h8 h9 h10 j9", "white", select, you="white", rule="soosorv8")
    assert "select one of the fifth moves offered (j10 f6): 'select POINT'" in shown(core.handle_message(room))
    (selected,) = sent(core.handle_line("select j10"))
    assert isinstance(selected, OpeningStep) and selected.step == SelectFifthModel(point=PointModel(x=9, y=5))


def test_each_step_taken_is_told_then_the_room_is_shown_again(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(opening_room(snapshot, "", "black", [FIRST_THREE], seq=1))
    three = PlaceStonesModel(points=[PointModel(x=7, y=7), PointModel(x=0, y=14), PointModel(x=8, y=7)])
    assert shown(core.handle_message(OpeningStepped(room_id="r1", seq=2, by="alice", step=three))) == (
        "alice placed h8 a1 i8"
    )
    chose = OpeningStepped(room_id="r1", seq=3, by="bob", step=ChooseColorModel(color="black"))
    assert shown(core.handle_message(chose)) == "bob chose black"


def test_a_swap_of_colours_tells_the_player_their_new_colour(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(opening_room(snapshot, "h8 a1 i8", "white", SECOND_CHOICES, seq=2))
    swapped = snapshot("h8 a1 i8", you="white", seq=3)
    text = shown(core.handle_message(swapped))
    assert text.splitlines()[0] == "the opening is decided: you are playing white"
    assert text.splitlines()[-1] == "move 4, your move"


def test_the_deciders_clock_runs_on_the_status_line(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = signed_in_core(lambda: now[0])
    clock = ClockModel(black_ms=60_000, white_ms=60_000, increment_ms=0, running="black")
    room = opening_room(snapshot, "", "black", [FIRST_THREE])
    client.handle_message(room.model_copy(update={"room": room.room.model_copy(update={"clock": clock})}))
    now[0] = 2.5
    (status,) = [action for action in client.tick() if isinstance(action, Status)]
    assert status.text == "black 0:57 | white 1:00 -- opening swap2, your decision"


def test_a_seek_with_an_opening_says_who_places_the_first_stones(core: ClientCore) -> None:
    bobs = SeekModel(
        seek_id="s1",
        by=SeekerModel(name="bob", rating=1540),
        rule=Rule.RENJU,
        size=15,
        clock=None,
        rated=False,
        color="random",
        rating_min=None,
        rating_max=None,
        created_at="2026-11-24T10:00:00Z",
        opening="soosorv8",
    )
    assert shown(core.handle_message(Lobby(online=2, seeks=[bobs]))).splitlines()[-1] == (
        "  s1: bob (1540), renju 15x15, casual, opening soosorv8 (bob places the first stones)"
    )
    (request,) = sent(core.handle_line("seek rule renju opening soosorv8"))
    assert isinstance(request, SeekRequest) and request.opening == "soosorv8"
    (create,) = sent(core.handle_line("create opening swap"))
    assert isinstance(create, CreateRoom) and create.opening == "swap"
