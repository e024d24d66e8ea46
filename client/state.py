"""What the client knows about the room it is in, kept up to date from the server's events.

The server numbers each room's events (`seq`). A `room` snapshot replaces
everything; an event is applied only when it is the next number. An event
already seen is ignored; one that skips a number means something was
missed, and the caller must ask for a fresh snapshot (send `join_room`
again) and ignore the room's events until it arrives.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.board import Board
from engine.record import ClockSetting
from engine.types import Color, Point, Rule
from wire.messages import (
    ClockModel,
    ClockSettingModel,
    DrawOffered,
    GameId,
    GameOver,
    Moved,
    OffersModel,
    OpeningStateModel,
    RatingsModel,
    RematchOffered,
    ResultModel,
    RoomId,
    RoomMessage,
    SeatModel,
    Undone,
    UndoRequested,
)

RoomEvent = Moved | GameOver | DrawOffered | UndoRequested | Undone | RematchOffered
"""Events that change a room and carry its `seq` (`declined` too: see `Declined`)."""


TURN_WAIT_S = 120.0
"""How long a scripted move (or `gomoku play`) waits for the opponent's reply in an untimed game; in a timed
game the wait lasts as long as the opponent's clock (the server ends the game then)."""

TURN_WAIT_MARGIN_S = 10.0
"""In a timed game, how much longer than the opponent's time left a scripted move waits."""


_OFFERS = {"draw_offered": "draw", "undo_requested": "undo", "rematch_offered": "rematch"}
"""What each offer event offers."""


class Outcome(enum.Enum):
    """What became of an event offered to the room view."""

    APPLIED = "applied"
    """It was the next event and is now part of the view."""
    STALE = "stale"
    """Already part of the view (it came before the snapshot); ignored."""
    RESYNC = "resync"
    """It does not follow from the view: ask the server for a snapshot."""


@dataclass
class PendingOffer:
    """An offer waiting for an answer."""

    what: str
    """`draw`, `undo` or `rematch`."""
    by: Color
    """Who made it."""


@dataclass
class ClockView:
    """The clocks as last told by the server, and when (by the client's monotonic clock)."""

    black_ms: int
    white_ms: int
    increment_ms: int
    received_at: float
    running: Color | None

    def left_ms(self, colour: Color, now: float) -> int:
        """Time left for `colour` at `now`: a running clock keeps counting down between events."""
        left = self.black_ms if colour is Color.BLACK else self.white_ms
        if colour is self.running:
            left -= round((now - self.received_at) * 1000)
        return max(left, 0)


@dataclass
class RoomView:
    """The client's copy of one room."""

    room_id: RoomId
    game_id: GameId | None
    rule: Rule
    size: int
    status: str
    black: SeatModel | None
    white: SeatModel | None
    you: str
    """`black`, `white` or `spectator`."""
    board: Board
    clock: ClockView | None
    result: ResultModel | None
    seq: int
    spectators: int
    time_control: ClockSetting | None = None
    """The clock's initial time and increment; None when untimed."""
    rated: bool = False
    pending: PendingOffer | None = None
    opening: OpeningStateModel | None = None
    """The game's opening rule, whose decision it is and the steps open to them (1.1 openings)."""
    claim_at: dict[Color, float] = field(default_factory=dict)
    """When (by the client's monotonic clock) the win may be claimed from each absent player whose
    absence was announced, until the player is told or the absent one comes back."""

    @classmethod
    def from_snapshot(cls, message: RoomMessage, now: float) -> RoomView:
        """A view built from a `room` message alone."""
        room = message.room
        board = Board(room.size, room.rule)
        for stone in room.moves:
            board.push(Point(stone.x, stone.y))
        you = message.you
        return cls(
            room_id=room.room_id,
            game_id=room.game_id,
            rule=room.rule,
            size=room.size,
            status=room.status,
            black=room.black,
            white=room.white,
            you=you,
            board=board,
            clock=_clock_view(room.clock, now, Color.parse(room.to_move) if room.to_move else None),
            result=room.result,
            seq=room.seq,
            spectators=room.spectators,
            time_control=clock_setting(room.time_control) if room.time_control is not None else None,
            rated=room.rated,
            opening=room.opening,
            pending=_pending_offer(room.offers, None if you == "spectator" else Color.parse(you)),
        )

    def keep_notices(self, previous: RoomView) -> None:
        """Keep the absences announced in `previous`, a view of the same game, while they last
        (a snapshot says who is connected, not since when)."""
        if previous.room_id != self.room_id or previous.game_id != self.game_id:
            return
        for colour, claim_at in previous.claim_at.items():
            seat = self.seat(colour)
            if seat is not None and not seat.connected:
                self.claim_at[colour] = claim_at

    @property
    def my_decision(self) -> bool:
        """Whether the opening waits for a decision of the player's."""
        opening = self.opening
        mine = self.my_colour
        return self.status == "opening" and opening is not None and mine is not None and opening.to_decide == str(mine)

    @property
    def my_colour(self) -> Color | None:
        """The colour the player holds, or None for a spectator."""
        return None if self.you == "spectator" else Color.parse(self.you)

    @property
    def to_move(self) -> Color | None:
        """Whose turn it is, or None when no game is being played (or the last move ended it)."""
        return self.board.to_move if self.status == "playing" and self.board.result is None else None

    def seat(self, colour: Color) -> SeatModel | None:
        """Who sits on `colour`'s seat."""
        return self.black if colour is Color.BLACK else self.white

    def check_sequence(self, seq: int) -> Outcome:
        """Whether an event numbered `seq` is the next one, an old one, or shows a gap."""
        if seq <= self.seq:
            return Outcome.STALE
        return Outcome.APPLIED if seq == self.seq + 1 else Outcome.RESYNC

    def apply(self, event: RoomEvent, now: float) -> Outcome:
        """Apply the room's next event; STALE and RESYNC leave the view unchanged."""
        outcome = self.check_sequence(event.seq)
        if outcome is not Outcome.APPLIED:
            return outcome
        if isinstance(event, Moved):
            return self._moved(event, now)
        if isinstance(event, Undone):
            return self._undone(event, now)
        if isinstance(event, GameOver):
            self.status = "finished"
            self.result = event.result
            self.pending = None
            self.claim_at.clear()
            if self.clock is not None:
                self.clock = _stopped(self.clock, now)
            if event.ratings is not None:
                self._rated(event.ratings)
        else:
            self.pending = PendingOffer(_OFFERS[event.type], _colour(event.by))
        self.seq = event.seq
        return Outcome.APPLIED

    def declined(self, seq: int) -> Outcome:
        """The pending offer was declined (a `declined` event numbered `seq`)."""
        outcome = self.check_sequence(seq)
        if outcome is Outcome.APPLIED:
            self.pending = None
            self.seq = seq
        return outcome

    def _rated(self, ratings: RatingsModel) -> None:
        """Both seats carry their new ratings."""
        if self.black is not None:
            self.black = self.black.model_copy(update={"rating": ratings.black.after})
        if self.white is not None:
            self.white = self.white.model_copy(update={"rating": ratings.white.after})

    def _moved(self, event: Moved, now: float) -> Outcome:
        point = Point(event.x, event.y)
        if event.ply != self.board.ply + 1 or event.color != str(self.board.to_move) or not self.board.is_legal(point):
            return Outcome.RESYNC
        self.board.push(point)
        self.pending = None
        self.clock = _clock_view(event.clock, now, self.board.to_move)
        self.seq = event.seq
        return Outcome.APPLIED

    def _undone(self, event: Undone, now: float) -> Outcome:
        removed = {Point(stone.x, stone.y) for stone in event.removed}
        taken_back = self.board.moves[len(self.board.moves) - len(event.removed) :]
        if not event.removed or set(taken_back) != removed:
            return Outcome.RESYNC
        for _ in event.removed:
            self.board.pop()
        self.pending = None
        if event.clock is not None:
            self.clock = _clock_view(event.clock, now, _colour(event.to_move))
        self.seq = event.seq
        return Outcome.APPLIED


def _pending_offer(offers: OffersModel, mine: Color | None) -> PendingOffer | None:
    """The offer a snapshot says is waiting; a rematch the opponent asked for comes before one's own."""
    if offers.draw is not None:
        return PendingOffer("draw", _colour(offers.draw))
    if offers.undo is not None:
        return PendingOffer("undo", _colour(offers.undo))
    askers = sorted((_colour(name) for name in offers.rematch), key=lambda colour: colour is mine)
    return PendingOffer("rematch", askers[0]) if askers else None


def reply_wait_s(room: RoomView, now: float) -> float:
    """How long a move sent by a script waits for the opponent's reply (see TURN_WAIT_S)."""
    opponent = room.my_colour.other if room.my_colour is not None else None
    if room.clock is None or opponent is None:
        return TURN_WAIT_S
    return room.clock.left_ms(opponent, now) / 1000 + TURN_WAIT_MARGIN_S


def _colour(name: str) -> Color:
    return Color.parse(name)


def _clock_view(clock: ClockModel | None, now: float, to_move: Color | None) -> ClockView | None:
    """The clocks of a message; whose time runs comes from the message if it says, else the turn."""
    if clock is None:
        return None
    running = _colour(clock.running) if clock.running is not None else to_move
    return ClockView(clock.black_ms, clock.white_ms, clock.increment_ms, now, running)


def clock_setting(clock: ClockSettingModel) -> ClockSetting:
    """A time control as the wire gives it (`create_room`, the room list), as the engine's value."""
    return ClockSetting(clock.initial_ms, clock.increment_ms)


def _stopped(clock: ClockView, now: float) -> ClockView:
    """The clocks frozen at `now`, as they stand at the end of a game."""
    return ClockView(
        clock.left_ms(Color.BLACK, now), clock.left_ms(Color.WHITE, now), clock.increment_ms, now, running=None
    )
