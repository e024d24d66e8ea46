"""Competition opening rules: who places the first stones and who plays which colour.

An opening is an immutable state machine. `start_opening` gives its first
state; `apply(state, player, step)` checks one decision and returns the next
state, or raises and leaves everything as it was. While the opening runs,
the state says whose decision it is (`to_decide`) and which steps are open
to them (`open_steps`); once it is over (`is_finished`) it says the moves
of the game so far, who plays black, and whose turn it is. Every state keeps
the steps taken so far, so a game record can store how the opening went.
The module runs to about 500 lines because the four rules are one state
machine; most of the length is the small value types and their docstrings.

The players are FIRST (the tentative black: whoever created the game) and
SECOND. Stones always alternate black, white, black..., whoever places
them; a player who "chooses a colour" takes that colour for the rest of the
game, and the other player gets the other one.

The rules, as implemented and checked against their published texts:

* `none`: no opening; FIRST plays black, black to move.
* `swap`: FIRST places three stones (black, white, black) anywhere; SECOND
  chooses a colour; white moves next. (The gomoku "swap" as BrainKing's
  rule text words it: the starting player places two of their own stones
  and one of the opponent's, and the opponent either goes on or swaps.)
* `swap2`: FIRST places three stones (black, white, black); SECOND then
  either chooses a colour (white moves next, so choosing white means
  SECOND plays the 4th stone as the game's next move, choosing black means
  FIRST does), or places two more stones (the 4th, white, then the 5th,
  black) and leaves the choice of colour to FIRST, after which white plays
  the 6th move. Checked against Wikipedia's "Gomoku" (swap2, the rule of
  the Gomoku World Championships since 2009: play black, play white and
  place one more stone, or place two more stones and let the first player
  choose) and Gomocup's (gomocup.org, "Experimental Tournament" news of
  April 2020: the manager's SWAP2BOARD asks the second player for SWAP, a
  4th move, or the 4th and 5th stones, then asks the first player for SWAP
  or the 6th move). Gomocup folds "stay white" and the 4th move into one
  answer; here staying white is a choice of colour and the 4th stone is
  the first move of the game proper, which comes to the same.
* `soosorv8` (renju only): FIRST places one of the 26 standard openings
  (see engine.renju_openings); SECOND may swap (chooses a colour); white
  places the 4th stone anywhere on the board and declares how many fifth
  moves black must offer, 1 to 8; the other player (black) may swap; black
  offers that many fifth moves, no two of them the same up to a symmetry
  of the four-stone position; white chooses one of them, which becomes the
  5th move, and plays the 6th move as the game's next move. Checked against
  Wikipedia's "Soosõrv opening rule" (Soosõrv-N, certified by the RIF in
  2011; Soosõrv-8 is the Renju World Championship rule since 2017), a
  Polish renju site's rule page (gomoku.5v.pl, which words both swaps as
  handing the decision to the other player), and the rule list on renju.net
  (its Yamaguchi rule words the fifth-move condition the same way,
  "symmetrical moves not allowed"). The RIF's own rule text was not
  available to check; on its tricky points those sources agree: the 4th
  stone may go anywhere, each swap belongs to the player who did not just
  move, and "symmetrical" offers are ones that a symmetry of the position
  maps onto each other.

Renju's forbidden points apply to black's opening stones as to any black
move (none of the rule texts makes an exception), so every stone is checked on a
Board. With at most three black stones on the board no point can in fact be
forbidden yet, so the check never fires in these rules.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeAlias

from engine.board import DEFAULT_SIZE, Board
from engine.errors import (
    NotOfferedError,
    NotStandardOpeningError,
    NotYourDecisionError,
    OpeningOverError,
    StepNotOpenError,
    SymmetricOffersError,
    WrongCountError,
)
from engine.notation import format_point
from engine.renju_openings import recognise_opening
from engine.symmetry import symmetries_keeping
from engine.types import Color, Point, Rule

FEWEST_FIFTHS = 1
"""Soosõrv-8: the least number of fifth moves white may ask for."""
MOST_FIFTHS = 8
"""Soosõrv-8: the most (the 8 of the rule's name)."""


class OpeningRule(enum.StrEnum):
    """How the first stones and the colours are decided (see the module docstring)."""

    NONE = "none"
    """No opening: black (FIRST) moves first."""
    SWAP = "swap"
    """Three stones by FIRST, then SECOND chooses a colour."""
    SWAP2 = "swap2"
    """Three stones by FIRST, then SECOND chooses a colour or adds two stones for FIRST to choose."""
    SOOSORV8 = "soosorv8"
    """Renju's Soosõrv-8: a standard opening, two swaps, up to 8 fifth moves offered."""

    @classmethod
    def parse(cls, text: str) -> OpeningRule:
        """Read an opening rule's name; raise ValueError naming the accepted ones."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(rule.value for rule in cls)
            raise ValueError(f"unknown opening rule {text!r}: expected one of {names}") from None


class Player(enum.StrEnum):
    """One of the two players, named by their part in the opening, not by colour."""

    FIRST = "first"
    """Who created the game: places the first stones and is black unless a swap says otherwise."""
    SECOND = "second"
    """The opponent."""

    @property
    def other(self) -> Player:
        """The other player."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST


# ---------------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class PlaceStones:
    """Put stones on the board in this order; their colours continue the alternation."""

    points: tuple[Point, ...]
    """Where the stones go, first placed first."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Take a colour for the rest of the game; the other player gets the other one."""

    color: Color
    """The colour the deciding player will play."""


@dataclass(frozen=True, slots=True)
class DeclareOffers:
    """Soosõrv-8: say how many fifth moves black must offer."""

    count: int
    """1 to 8."""


@dataclass(frozen=True, slots=True)
class OfferFifths:
    """Soosõrv-8: offer fifth moves for white to choose from."""

    points: tuple[Point, ...]
    """The offered points, as many as declared, none the mirror image of another."""


@dataclass(frozen=True, slots=True)
class SelectFifth:
    """Soosõrv-8: choose which offered fifth move is played."""

    point: Point
    """One of the offered points."""


Step: TypeAlias = PlaceStones | ChooseColor | DeclareOffers | OfferFifths | SelectFifth
"""One decision of a player in the opening."""


@dataclass(frozen=True, slots=True)
class TakenStep:
    """A step as it was taken, for the record."""

    player: Player
    """Who took it."""
    step: Step
    """What they did."""


# ----------------------------------------------------------------- open steps


@dataclass(frozen=True, slots=True)
class MayPlaceStones:
    """The decider may place stones of these colours, in this order."""

    colors: tuple[Color, ...]
    """The colours of the stones due, first placed first."""

    def __str__(self) -> str:
        return f"place {len(self.colors)} stone(s): {', '.join(str(color) for color in self.colors)}"


@dataclass(frozen=True, slots=True)
class MayChooseColor:
    """The decider may take either colour."""

    def __str__(self) -> str:
        return "choose a colour"


@dataclass(frozen=True, slots=True)
class MayDeclareOffers:
    """The decider (white) may declare how many fifth moves black must offer."""

    least: int
    """The smallest count allowed."""
    most: int
    """The largest count allowed."""

    def __str__(self) -> str:
        return f"declare how many fifth moves black offers ({self.least} to {self.most})"


@dataclass(frozen=True, slots=True)
class MayOfferFifths:
    """The decider (black) may offer this many fifth moves."""

    count: int
    """How many fifth moves are due."""

    def __str__(self) -> str:
        return f"offer {self.count} fifth move(s)"


@dataclass(frozen=True, slots=True)
class MaySelectFifth:
    """The decider (white) may choose one of these offered fifth moves."""

    offers: tuple[Point, ...]
    """The fifth moves on offer."""

    def __str__(self) -> str:
        return f"choose one of {len(self.offers)} offered fifth move(s)"


OpenStep: TypeAlias = MayPlaceStones | MayChooseColor | MayDeclareOffers | MayOfferFifths | MaySelectFifth
"""A kind of step open to the decider now, with what it must satisfy."""


# ---------------------------------------------------------------------- stages


class Stage(enum.Enum):
    """Where the opening stands: which decision is awaited."""

    OPENING_STONES = enum.auto()
    """FIRST places the first three stones."""
    FIRST_SWAP = enum.auto()
    """swap and soosorv8: SECOND chooses a colour."""
    SWAP2_OPTIONS = enum.auto()
    """swap2: SECOND chooses a colour, or places two more stones."""
    SWAP2_LAST_CHOICE = enum.auto()
    """swap2, after two more stones: FIRST chooses a colour."""
    FOURTH_STONE = enum.auto()
    """soosorv8: white places the 4th stone."""
    DECLARE_OFFERS = enum.auto()
    """soosorv8: white declares how many fifth moves black offers."""
    SECOND_SWAP = enum.auto()
    """soosorv8: black (the other player) chooses a colour."""
    OFFER_FIFTHS = enum.auto()
    """soosorv8: black offers the fifth moves."""
    SELECT_FIFTH = enum.auto()
    """soosorv8: white chooses one offered fifth move."""
    FINISHED = enum.auto()
    """The opening is over; the game goes on with `to_move`."""


_FLOW: Mapping[tuple[OpeningRule, Stage], Mapping[type[Step], Stage]] = {
    (OpeningRule.SWAP, Stage.OPENING_STONES): {PlaceStones: Stage.FIRST_SWAP},
    (OpeningRule.SWAP, Stage.FIRST_SWAP): {ChooseColor: Stage.FINISHED},
    (OpeningRule.SWAP2, Stage.OPENING_STONES): {PlaceStones: Stage.SWAP2_OPTIONS},
    (OpeningRule.SWAP2, Stage.SWAP2_OPTIONS): {ChooseColor: Stage.FINISHED, PlaceStones: Stage.SWAP2_LAST_CHOICE},
    (OpeningRule.SWAP2, Stage.SWAP2_LAST_CHOICE): {ChooseColor: Stage.FINISHED},
    (OpeningRule.SOOSORV8, Stage.OPENING_STONES): {PlaceStones: Stage.FIRST_SWAP},
    (OpeningRule.SOOSORV8, Stage.FIRST_SWAP): {ChooseColor: Stage.FOURTH_STONE},
    (OpeningRule.SOOSORV8, Stage.FOURTH_STONE): {PlaceStones: Stage.DECLARE_OFFERS},
    (OpeningRule.SOOSORV8, Stage.DECLARE_OFFERS): {DeclareOffers: Stage.SECOND_SWAP},
    (OpeningRule.SOOSORV8, Stage.SECOND_SWAP): {ChooseColor: Stage.OFFER_FIFTHS},
    (OpeningRule.SOOSORV8, Stage.OFFER_FIFTHS): {OfferFifths: Stage.SELECT_FIFTH},
    (OpeningRule.SOOSORV8, Stage.SELECT_FIFTH): {SelectFifth: Stage.FINISHED},
}
"""For each rule and stage, the kinds of step open there and the stage each leads to."""

_STONES_DUE: Mapping[Stage, int] = {Stage.OPENING_STONES: 3, Stage.SWAP2_OPTIONS: 2, Stage.FOURTH_STONE: 1}
"""How many stones a PlaceStones step puts down at each stage that allows one."""

_DECIDED_BY_FIRST = frozenset({Stage.OPENING_STONES, Stage.SWAP2_LAST_CHOICE})
_DECIDED_BY_SECOND = frozenset({Stage.FIRST_SWAP, Stage.SWAP2_OPTIONS})
_DECIDED_BY_BLACK = frozenset({Stage.SECOND_SWAP, Stage.OFFER_FIFTHS})
_DECIDED_BY_WHITE = frozenset({Stage.FOURTH_STONE, Stage.DECLARE_OFFERS, Stage.SELECT_FIFTH})
"""Who decides at each stage: a player by their part, or whoever holds a colour now."""


# ---------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class OpeningState:
    """The opening of one game, between two decisions.

    Make one with `start_opening` and move it on with `apply`; to restore an
    opening from storage, replay its `steps` the same way.
    """

    rule: OpeningRule
    """The opening rule."""
    size: int
    """Width and height of the board."""
    game_rule: Rule
    """The rule of the game the opening begins (for the legality of stones)."""
    stage: Stage
    """Which decision is awaited."""
    moves: tuple[Point, ...] = ()
    """The stones on the board so far, in order: black, white, black..."""
    black: Player = Player.FIRST
    """Who plays black: tentative while the opening runs, final once it is over."""
    offers_due: int = 0
    """Soosõrv-8: how many fifth moves white asked for (0 until declared)."""
    offers: tuple[Point, ...] = ()
    """Soosõrv-8: the fifth moves black offered (empty until offered)."""
    steps: tuple[TakenStep, ...] = ()
    """Every step taken so far, in order."""

    @property
    def is_finished(self) -> bool:
        """Whether the opening is over and the game goes on normally."""
        return self.stage is Stage.FINISHED

    @property
    def white(self) -> Player:
        """Who plays white (tentative while the opening runs)."""
        return self.black.other

    def color_of(self, player: Player) -> Color:
        """The colour `player` plays (tentative while the opening runs)."""
        return Color.BLACK if player is self.black else Color.WHITE

    @property
    def to_decide(self) -> Player | None:
        """Who makes the next decision of the opening, or None once it is over."""
        if self.stage in _DECIDED_BY_FIRST:
            return Player.FIRST
        if self.stage in _DECIDED_BY_SECOND:
            return Player.SECOND
        if self.stage in _DECIDED_BY_BLACK:
            return self.black
        if self.stage in _DECIDED_BY_WHITE:
            return self.white
        return None

    @property
    def open_steps(self) -> tuple[OpenStep, ...]:
        """The kinds of step `to_decide` may take now (none once the opening is over)."""
        return tuple(self._open_step(kind) for kind in _FLOW.get((self.rule, self.stage), {}))

    @property
    def to_move(self) -> Color | None:
        """The colour to move in the game once the opening is over; None while it runs."""
        if not self.is_finished:
            return None
        return Color.BLACK if len(self.moves) % 2 == 0 else Color.WHITE

    @property
    def player_to_move(self) -> Player | None:
        """The player to move in the game once the opening is over; None while it runs."""
        color = self.to_move
        if color is None:
            return None
        return self.black if color is Color.BLACK else self.white

    def board(self) -> Board:
        """A new Board holding the opening's stones (the game's board once the opening is over)."""
        return Board.from_moves(self.moves, self.size, self.game_rule)

    def _open_step(self, kind: type[Step]) -> OpenStep:
        """What a step of this kind must satisfy here."""
        if kind is PlaceStones:
            placed = len(self.moves)
            return MayPlaceStones(tuple(_color_of_stone(placed + i) for i in range(_STONES_DUE[self.stage])))
        if kind is ChooseColor:
            return MayChooseColor()
        if kind is DeclareOffers:
            return MayDeclareOffers(FEWEST_FIFTHS, MOST_FIFTHS)
        if kind is OfferFifths:
            return MayOfferFifths(self.offers_due)
        return MaySelectFifth(self.offers)


def start_opening(rule: OpeningRule, size: int = DEFAULT_SIZE, game_rule: Rule = Rule.FREESTYLE) -> OpeningState:
    """The opening of a new game before any decision (already over for `none`).

    Raises ValueError for a board Board would refuse, and for soosorv8
    outside renju (its standard openings are renju's).
    """
    Board(size, game_rule)  # refuses a size or a size-and-rule pair no game could have
    if rule is OpeningRule.SOOSORV8 and game_rule is not Rule.RENJU:
        raise ValueError(f"the soosorv8 opening is for renju games, not {game_rule}")
    stage = Stage.FINISHED if rule is OpeningRule.NONE else Stage.OPENING_STONES
    return OpeningState(rule, size, game_rule, stage)


def apply(state: OpeningState, player: Player, step: Step) -> OpeningState:
    """The opening after `player` takes `step`; `state` itself never changes.

    Raises OpeningOverError once the opening is over, NotYourDecisionError
    when the other player decides now, StepNotOpenError for a kind of step
    not open now, WrongCountError for the wrong number of stones, offers or
    a declared count out of range, NotStandardOpeningError (soosorv8) for
    three stones that are no standard renju opening, SymmetricOffersError
    and NotOfferedError for soosorv8's fifth moves, and OffBoardError,
    OccupiedError or ForbiddenMoveError for a stone that could not be played
    there.
    """
    decider = state.to_decide
    if decider is None:
        raise OpeningOverError("the opening is over: the game goes on with ordinary moves")
    if player is not decider:
        raise NotYourDecisionError(f"the {decider} player decides now, not the {player}")
    flow = _FLOW[(state.rule, state.stage)]
    if type(step) not in flow:
        choices = "; ".join(str(option) for option in state.open_steps)
        raise StepNotOpenError(f"the {player} player may now: {choices}")
    match step:
        case PlaceStones():
            after = _place(state, step)
        case ChooseColor():
            after = _choose(state, player, step)
        case DeclareOffers():
            after = _declare(state, step)
        case OfferFifths():
            after = _offer(state, step)
        case SelectFifth():
            after = _select(state, step)
    return replace(after, stage=flow[type(step)], steps=state.steps + (TakenStep(player, step),))


# ------------------------------------------------------------ taking a step


def _place(state: OpeningState, step: PlaceStones) -> OpeningState:
    due = _STONES_DUE[state.stage]
    if len(step.points) != due:
        raise WrongCountError(f"{due} stone(s) are due here, not {len(step.points)}")
    board = state.board()
    for point in step.points:
        board.play(point)
    if state.stage is Stage.OPENING_STONES and state.rule is OpeningRule.SOOSORV8:
        if recognise_opening(board.moves) is None:
            raise NotStandardOpeningError(
                f"{_names(board.moves, state.size)} is no standard renju opening: black on h8, "
                "white on a point next to it, black's second stone within the central 5x5 square"
            )
    return replace(state, moves=board.moves)


def _choose(state: OpeningState, player: Player, step: ChooseColor) -> OpeningState:
    return replace(state, black=player if step.color is Color.BLACK else player.other)


def _declare(state: OpeningState, step: DeclareOffers) -> OpeningState:
    if not FEWEST_FIFTHS <= step.count <= MOST_FIFTHS:
        raise WrongCountError(f"black offers {FEWEST_FIFTHS} to {MOST_FIFTHS} fifth moves, not {step.count}")
    return replace(state, offers_due=step.count)


def _offer(state: OpeningState, step: OfferFifths) -> OpeningState:
    if len(step.points) != state.offers_due:
        raise WrongCountError(f"{state.offers_due} fifth move(s) were asked for, not {len(step.points)}")
    board = state.board()
    for point in step.points:
        board.check_move(point)
    _check_not_symmetric(state, step.points)
    return replace(state, offers=step.points)


def _select(state: OpeningState, step: SelectFifth) -> OpeningState:
    if step.point not in state.offers:
        raise NotOfferedError(
            f"{_names([step.point], state.size)} was not offered; the offers are {_names(state.offers, state.size)}"
        )
    return replace(state, moves=state.moves + (step.point,))


def _check_not_symmetric(state: OpeningState, offers: tuple[Point, ...]) -> None:
    """Raise SymmetricOffersError if two offers are one point, or mirror images in the position."""
    keeping = symmetries_keeping(state.moves[0::2], state.moves[1::2], state.size)
    for index, offer in enumerate(offers):
        for other in offers[index + 1 :]:
            if offer == other:
                raise SymmetricOffersError(f"{_names([offer], state.size)} is offered twice")
            for symmetry in keeping:
                if symmetry.apply(offer, state.size) == other:
                    raise SymmetricOffersError(
                        f"{_names([offer, other], state.size)} are the same move in this position "
                        f"({symmetry.name} maps the stones onto themselves and one offer onto the other)"
                    )


def _color_of_stone(index: int) -> Color:
    """The colour of the stone placed `index`-th (from 0): black, white, black..."""
    return Color.BLACK if index % 2 == 0 else Color.WHITE


def _names(points: tuple[Point, ...] | list[Point], size: int) -> str:
    return " ".join(format_point(point, size) for point in points)
