"""A room's opening phase: the engine's opening state, and which seated player is first and second.

The rules are `engine.openings` (an immutable state machine); this module
gives a room what it needs around them: who is the first player (the one
seated black when the game starts: they place the first stones) and the
second, which seats they hold as the colours are decided, the steps taken
with names for the record, and the refusal a wrong step gets on the wire.
The room (`server.rooms.room`) owns one while its game's opening runs and
plays out what each step does: stones on the board, seats, clocks.
"""

from __future__ import annotations

from engine.errors import (
    ForbiddenMoveError,
    NotYourDecisionError,
    OccupiedError,
    OffBoardError,
    OpeningError,
)
from engine.opening_record import OpeningRecord, OpeningStepRecord
from engine.openings import OpeningRule, OpeningState, Player, Step, apply, start_opening
from engine.record import PlayerInfo
from engine.types import Color, Rule
from server.domain import ErrorCode, Refusal

_STONE_CODES: tuple[tuple[type[Exception], ErrorCode], ...] = (
    (NotYourDecisionError, "not_your_turn"),
    (OffBoardError, "out_of_board"),
    (OccupiedError, "occupied"),
    (ForbiddenMoveError, "forbidden"),
)
"""Refusals the wire names; any other refused step is `not_allowed`."""


class OpeningPhase:
    """The opening of one game in a room."""

    def __init__(self, state: OpeningState, first: PlayerInfo, second: PlayerInfo) -> None:
        self.state = state
        self.sides = {Player.FIRST: first, Player.SECOND: second}
        self.taken: list[OpeningStepRecord] = []
        """The steps taken so far, with who took them."""

    @classmethod
    def begin(cls, rule: OpeningRule, size: int, game_rule: Rule, black: PlayerInfo, white: PlayerInfo) -> OpeningPhase:
        """The opening of a game that starts now: the player seated black is the first."""
        return cls(start_opening(rule, size, game_rule), black, white)

    @classmethod
    def resume(
        cls, record: OpeningRecord, size: int, game_rule: Rule, black: PlayerInfo, white: PlayerInfo
    ) -> OpeningPhase:
        """An opening read back from storage, with its seats as stored (they follow its colours)."""
        state = record.replay(size, game_rule)
        first, second = (black, white) if state.black is Player.FIRST else (white, black)
        phase = cls(state, first, second)
        phase.taken = list(record.steps)
        return phase

    def copy(self) -> OpeningPhase:
        """An independent copy (for a room's checkpoint)."""
        twin = OpeningPhase(self.state, self.sides[Player.FIRST], self.sides[Player.SECOND])
        twin.taken = list(self.taken)
        return twin

    @property
    def running(self) -> bool:
        """Whether decisions are still awaited."""
        return not self.state.is_finished

    def seats(self) -> tuple[PlayerInfo, PlayerInfo]:
        """Black's and white's seat as the opening has them now (tentative while it runs)."""
        return self.sides[self.state.black], self.sides[self.state.white]

    def side_of(self, name: str) -> Player | None:
        """Which side the player named is, if either."""
        for side, seat in self.sides.items():
            if seat.name == name:
                return side
        return None

    def decider(self) -> tuple[Player, PlayerInfo, Color] | None:
        """Who decides now: their side, their seat and their (tentative) colour; None once over."""
        side = self.state.to_decide
        if side is None:
            return None
        return side, self.sides[side], self.state.color_of(side)

    def check(self, side: Player, step: Step) -> OpeningState:
        """The state after `side` takes `step`; raises Refusal (nothing changes) when it may not."""
        try:
            return apply(self.state, side, step)
        except (OpeningError, ValueError) as error:
            code: ErrorCode = next((code for kind, code in _STONE_CODES if isinstance(error, kind)), "not_allowed")
            raise Refusal(code, str(error)) from None

    def take(self, side: Player, step: Step, after: OpeningState) -> OpeningStepRecord:
        """Move on to `after` (checked) and remember who took the step."""
        taken = OpeningStepRecord(self.sides[side].name, side, step)
        self.state = after
        self.taken.append(taken)
        return taken

    def record(self) -> OpeningRecord:
        """The opening so far, as a game record keeps it."""
        return OpeningRecord(self.state.rule, tuple(self.taken))
