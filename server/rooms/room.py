"""Rooms: one game at a time, two seats, any number of spectators.

A Room is a plain object with no socket, no database and no timer, and it
names no connection. A request comes in by one door, `apply` (a caller
reference, the request, the time); a tick of time, a bot's move and the
edge's count of connections have methods of their own. Each returns an
`Outcome`: events for audiences (everyone in the room, one caller), which
one answers the request, callers entering or leaving, and the records to
store. The asyncio layer (`server.rooms.actors`) stores the records first, then
publishes the events to the edge, then arms a timer for `next_deadline()`.
A refused request raises `Refusal` before anything changes.

The Room keeps seats, presence (the counts the edge reports) and the flow
of the game; the rules of the board are the engine's, and what a client is
shown is built by `server.rooms.views`.

Time is given by the caller as monotonic seconds (`now`), so a test can
play a whole timed game, run out a clock or abandon a seat without waiting.

One module, past 500 lines, because a room is one state machine: every
request's checks and effects read the same seats, members, board, clock
and pending offers, and each public method reads top to bottom as the rule
it enforces. Split by concern, those invariants would be scattered.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, assert_never

from engine.board import Board
from engine.errors import ForbiddenMoveError, GameOverError, IllegalMoveError, OccupiedError, OffBoardError
from engine.notation import format_point, looks_like_point, parse_point
from engine.opening_record import step_from_dict
from engine.openings import OpeningRule, OpeningState, Player, Step
from engine.record import ClockSetting, PlayerInfo
from engine.rules import no_five_possible
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import (
    EVERYONE,
    Audience,
    BotTurn,
    Caller,
    CallerRef,
    ClocksSaved,
    Enter,
    ErrorCode,
    Exit,
    GameFinished,
    GameStarted,
    MovePlayed,
    MovesTakenBack,
    OneCaller,
    OpeningStepTaken,
    PresenceReport,
    Refusal,
    RestoredGame,
    RoomFacts,
    RoomId,
    RoomStatus,
    SeatsDecided,
    Standing,
    StoreRecord,
    is_server_bot,
    new_game_id,
    utc_now,
)
from server.rooms import views
from server.rooms.clock import GameClock, elapsed_ms
from server.rooms.opening_phase import OpeningPhase
from server.rooms.presence import Presence
from wire.messages import (
    AnswerDraw,
    AnswerUndo,
    ClaimWin,
    Declined,
    DrawOffered,
    GameOver,
    JoinRoom,
    LeaveRoom,
    Left,
    Move,
    Moved,
    OfferDraw,
    OpeningStep,
    OpeningStepped,
    OpponentAway,
    OpponentBack,
    Rematch,
    RematchOffered,
    RequestUndo,
    Resign,
    ServerMessage,
    Spectators,
    Undone,
    UndoRequested,
)

Role = Literal["black", "white", "spectator"]

RoomRequest = (
    JoinRoom
    | LeaveRoom
    | Move
    | Resign
    | OfferDraw
    | AnswerDraw
    | RequestUndo
    | AnswerUndo
    | Rematch
    | ClaimWin
    | OpeningStep
)
"""The requests about one room (each names it by `room_id`)."""


# ------------------------------------------------------------------- values


def restored_seq(restored_at: datetime) -> int:
    """The `seq` a room brought back from its stored game starts at: the wall clock, in microseconds
    since 1970, when it is brought back.

    A client must never see a room's `seq` go backwards, and its previous server (before a
    restart, or a dead node before a take-over) sent events that were never stored: offers,
    declines, chat, anything after its last commit. Nothing stored can bound them; time can. That
    server started the room's `seq` at its own creation (0) or restoration time (this value then)
    and raised it by one an event, and a room never sends a million events a second: its `seq`
    stayed below the wall clock in microseconds at its last event, earlier than this restoration.
    Across nodes this holds while their clocks agree within the lease's expiry, which passes
    between a node's last event and the take-over (NTP keeps them within milliseconds). The
    values stay below 2**53, exact in every JSON reader, for another two centuries.
    """
    return int(restored_at.timestamp() * 1_000_000)


@dataclass(frozen=True, slots=True)
class RoomEvent:
    """One message of a room's, for an audience (the edge turns it into text once for all of it)."""

    message: ServerMessage
    audience: Audience = EVERYONE
    roles: Mapping[str, Role] | None = None
    """For a `room` snapshot, the seated players' roles: each recipient's copy says its own
    (`you`), anyone not named is a spectator."""
    answers: CallerRef | None = None
    """The caller whose copy answers its request (and carries `request_id`)."""
    request_id: str | int | None = None


RoomChange = RoomEvent | Enter | Exit
"""What an outcome hands the edge, in order: events, and connections entering or leaving the room."""


@dataclass(slots=True)
class Outcome:
    """What a request did: events to publish, in order, and records to store first."""

    events: list[RoomChange] = field(default_factory=list)
    records: list[StoreRecord] = field(default_factory=list)

    def send(self, message: ServerMessage, audience: Audience = EVERYONE, answers: CallerRef | None = None) -> None:
        """Publish one message to an audience; the copy of `answers` (if any) answers its request."""
        self.events.append(RoomEvent(message, audience, answers=answers))

    def reply(self, caller: Caller, message: ServerMessage) -> None:
        """Publish the message that answers the request, to the caller alone."""
        self.send(message, OneCaller(caller.ref), answers=caller.ref)

    def stamped(self, request_id: str | int | None) -> list[RoomChange]:
        """The changes, the answer carrying `request_id`."""
        if request_id is None:
            return self.events
        return [
            dataclasses.replace(event, request_id=request_id)
            if isinstance(event, RoomEvent) and event.answers is not None
            else event
            for event in self.events
        ]


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """Server settings every room follows."""

    abandon_after_s: float = 120.0
    """How long a disconnected player may stay away while the opponent is connected."""
    bot_time_ms: int | None = None
    """The most a bot may think per move (None: the level's own time, or its share of the clock)."""
    bot_move_pause_s: float = 1.0
    """In a game between two bots, the least time between two moves, so that people can follow it."""
    claim_after_s: float = 30.0
    """How long a seat's player must have been away before the opponent may claim the win."""
    bot_game_idle_s: float = 600.0
    """A game between two bots that nobody has watched for this long ends drawn (the bots agree),
    unrated."""


_ILLEGAL_MOVE_CODES: tuple[tuple[type[IllegalMoveError], ErrorCode], ...] = (
    (OffBoardError, "out_of_board"),
    (OccupiedError, "occupied"),
    (ForbiddenMoveError, "forbidden"),
    (GameOverError, "game_over"),
)


# --------------------------------------------------------------------- room


class Room:
    """One room's seats, members and game, and every rule about them."""

    def __init__(
        self,
        room_id: RoomId,
        rule: Rule,
        size: int,
        clock: ClockSetting | None,
        private: bool,
        settings: RoomSettings,
        wall_clock: Callable[[], datetime] = utc_now,
        rated: bool = False,
        opening: OpeningRule = OpeningRule.NONE,
    ) -> None:
        self.room_id = room_id
        self.rule = rule
        self.size = size
        self.clock_setting = clock
        self.private = private
        self.rated = rated
        """Whether its games change the players' ratings."""
        self.opening_rule = opening
        """The opening rule each of its games starts with."""
        self.opening: OpeningPhase | None = None
        """The current game's opening (its steps stay after it is over, for snapshots)."""
        self.settings = settings
        self._wall_clock = wall_clock
        self.seats: dict[Color, PlayerInfo | None] = {Color.BLACK: None, Color.WHITE: None}
        self.standings: dict[str, Standing] = {}
        """The standings (ratings) of the players it has seen, for its snapshots."""
        self.created_by: str | None = None
        """The player who opened the room (None for a room restored from before this was kept)."""
        self.scheduled = False
        """Whether the server scheduled the game (a tournament's): between two bots it goes on while
        nobody watches it (instead of pausing, and ending drawn when left idle), and a player who is
        away loses once the claim time has passed (nobody needs to claim it), not the abandon time."""
        self.presence = Presence()
        """Who is in the room, who is away."""
        self.game_id = new_game_id()
        self.board = Board(size, rule)
        self.status: RoomStatus = "waiting"
        self.result: GameResult | None = None
        self.clock: GameClock | None = None
        self.started_at: datetime | None = None
        self.turn_started = 0.0
        self.draw_offer: Color | None = None
        self.undo_request: Color | None = None
        self.rematch_asks: set[Color] = set()
        self.seq = 0
        self.version = 0
        """Changes whenever the position or the game changes; a bot's answer is for one version."""
        self.bot_clock_held: int | None = None
        """The version whose bot's clock is stopped while its search waits for a worker."""

    # ------------------------------------------------------------ creation

    def open(
        self,
        caller: Caller,
        black: Literal["me", "open"] | PlayerInfo,
        white: Literal["me", "open"] | PlayerInfo,
        now: float,
    ) -> Outcome:
        """Seat the creator and the bots, and start the game if both seats are filled."""
        self.created_by = caller.name
        for color, spec in ((Color.BLACK, black), (Color.WHITE, white)):
            if spec == "me":
                self.seats[color] = caller.seat
            elif isinstance(spec, PlayerInfo):
                self.seats[color] = spec
        outcome = Outcome()
        self._attach(caller, now, outcome)
        self.presence.told_count(self.spectator_count())
        if self._both_seated():
            self._start(now, outcome)
        self._snapshot(OneCaller(caller.ref), now, outcome, answers=caller.ref)
        return outcome

    def open_paired(self, black: Caller, white: Caller, opener: str, answering: Caller | None, now: float) -> Outcome:
        """Seat two players who agreed to play (an accepted seek, a quick pairing) and start the game:
        each gets the room on the connection it asked from (the snapshot answering the request
        goes to `answering`). `opener` is whoever offered the game."""
        return self.open_scheduled(black.seat, white.seat, (black, white), opener, now, answering)

    def open_scheduled(
        self,
        black: PlayerInfo,
        white: PlayerInfo,
        present: Sequence[Caller],
        opener: str,
        now: float,
        answering: Caller | None = None,
        scheduled: bool = False,
    ) -> Outcome:
        """Seat two players and start the game: each of the seated players' connections in `present`
        enters the room and gets it. A seat whose player has none here (a tournament's pairing of
        someone offline) is away from the start, and loses as an absent player does (in a game the
        server `scheduled`, once the claim time has passed)."""
        self.created_by = opener
        self.scheduled = scheduled
        outcome = Outcome()
        self.seats[Color.BLACK], self.seats[Color.WHITE] = black, white
        for caller in present:
            self._attach(caller, now, outcome)
        self._start(now, outcome)
        for caller in present:
            self._snapshot(OneCaller(caller.ref), now, outcome, answers=caller.ref if caller == answering else None)
        return outcome

    @classmethod
    def restore(cls, game: RestoredGame, settings: RoomSettings, now: float, restored_at: datetime) -> Room:
        """The room of a game stored before the server stopped (or its node died): playing if the
        game is unfinished, finished (waiting for its players to come back for a rematch) if not.

        Nobody is connected yet; the side to move's time runs from `now`, so
        the time the server was down is charged to no one. Its `seq` starts at
        `restored_seq(restored_at)`, above anything the room's previous server
        can have sent.
        """
        opening_rule = OpeningRule.NONE if game.opening is None else game.opening.rule
        room = cls(game.room_id, game.rule, game.size, game.clock, game.private, settings, rated=game.rated)
        room.opening_rule = opening_rule
        room.game_id = game.game_id
        room.seats = {Color.BLACK: game.black, Color.WHITE: game.white}
        room.created_by = game.created_by
        room.scheduled = game.tournament_id is not None
        room.board = Board.from_moves(game.moves, game.size, game.rule)
        room.started_at = game.started_at
        room.seq = restored_seq(restored_at)
        room.turn_started = now
        room.presence.empty_since = now
        if game.clock is not None:
            black_ms, white_ms = game.clock_ms or (game.clock.initial_ms, game.clock.initial_ms)
            room.clock = GameClock(game.clock, black_ms, white_ms)
        if game.opening is not None:
            room.opening = OpeningPhase.resume(game.opening, game.size, game.rule, game.black, game.white)
        if game.result is not None:
            room.status = "finished"
            room.result = game.result
            return room
        room.status = "opening" if room.opening is not None and room.opening.running else "playing"
        if room.clock is not None:
            room.clock.start(room._color_to_act(), now)
        for color in Color:
            if not room.seat_connected(color):
                room.presence.seat_away(color, now)
        return room

    def checkpoint(self) -> Room:
        """An independent copy of the room, to go back to if storing a change fails."""
        twin = copy.copy(self)
        twin.seats = dict(self.seats)
        twin.presence = self.presence.copy()
        twin.board = self.board.copy()
        twin.clock = None if self.clock is None else dataclasses.replace(self.clock)
        twin.rematch_asks = set(self.rematch_asks)
        twin.standings = dict(self.standings)
        twin.opening = None if self.opening is None else self.opening.copy()
        return twin

    # ---------------------------------------------------------- the door

    def apply(self, caller: Caller, request: RoomRequest, now: float) -> Outcome:
        """Serve one request about this room for `caller` at `now`: the one way a request gets in."""
        match request:
            case JoinRoom():
                return self.join(caller, request.as_ == "player", now)
            case LeaveRoom():
                return self.leave(caller, now)
            case Move():
                return self.move(caller, _move_target(request), now)
            case Resign():
                return self.resign(caller, now)
            case OfferDraw():
                return self.offer_draw(caller, now)
            case AnswerDraw():
                return self.answer_draw(caller, request.accept, now)
            case RequestUndo():
                return self.request_undo(caller, now)
            case AnswerUndo():
                return self.answer_undo(caller, request.accept, now)
            case Rematch():
                return self.rematch(caller, now)
            case ClaimWin():
                return self.claim_win(caller, now)
            case OpeningStep():
                return self.opening_step(caller, step_from_dict(request.step.model_dump()), now)
            case _:
                assert_never(request)

    def apply_again(self, caller: Caller, request: RoomRequest, now: float) -> Outcome:
        """Serve a request sent again because its answer was lost while the room changed nodes (only
        a move is: `server.cluster.forwarded`): a move the caller played already is told, not
        refused (`move_again`); anything else is served as `apply` serves it."""
        if isinstance(request, Move):
            return self.move_again(caller, _move_target(request), now)
        return self.apply(caller, request, now)

    def move_again(self, caller: Caller, point: Point | str, now: float) -> Outcome:
        """A move whose first answer was lost: if the caller's latest stone in this game stands on the
        point, that move was played (and stored) before, and the caller alone is told so (its
        `moved`, with the clocks and `seq` of now); otherwise it is played now, as any move."""
        color = self._player_color(caller)
        target = self._read_point(point)
        moves = self.board.moves
        latest = next((ply for ply in range(len(moves), 0, -1) if self.board.stone_at(moves[ply - 1]) is color), None)
        if latest is None or moves[latest - 1] != target:
            return self.move(caller, point, now)
        outcome = Outcome()
        played = Moved(
            room_id=self.room_id,
            game_id=self.game_id,
            ply=latest,
            color=views.color_name(color),
            x=target.x,
            y=target.y,
            move=format_point(target, self.size),
            clock=views.clock_model(self.clock, now),
            seq=self.seq,
        )
        outcome.reply(caller, played)
        return outcome

    # --------------------------------------------------------- membership

    def join(self, caller: Caller, as_player: bool, now: float) -> Outcome:
        """Take an open seat, come back to one's seat, or watch."""
        outcome = Outcome()
        before = self._presence()
        seated = self.seat_of(caller.name)
        if seated is None and as_player:
            open_seats = [color for color in Color if self.seats[color] is None]
            if self.status != "waiting" or not open_seats:
                raise Refusal("room_full", "no seat is open in this room")
            self.seats[open_seats[0]] = caller.seat
        back = self._attach(caller, now, outcome)
        if self.status == "waiting" and self._both_seated():
            self._start(now, outcome)
        self._announce_presence(before, outcome, caller, now)
        self._announce_back(back, outcome)
        return outcome

    def leave(self, caller: Caller, now: float) -> Outcome:
        """Leave the room; a player leaving a started, unfinished game resigns it."""
        outcome = Outcome()
        color = self.seat_of(caller.name)
        if color is not None and self.in_game:
            self._end(GameResult(color.other, EndReason.RESIGN), now, outcome, None)
        before = self._presence()
        if color is not None and self.status == "waiting":
            self.seats[color] = None
        outcome.events.append(Exit(caller.ref, caller.name))  # the edge's count of its connections follows
        outcome.reply(caller, Left(room_id=self.room_id))
        self._announce_presence(before, outcome, None, now)
        return outcome

    def presence_changed(self, report: PresenceReport, now: float) -> Outcome:
        """The edge has counted the players' connections in the room anew (connections entered, left
        or closed): a seat whose player has none left during a game is away from now (others are
        told), one whose player is back is no longer, and a changed spectator count is told."""
        outcome = Outcome()
        before = self._presence()
        back = [
            color
            for name, connections in report.connections.items()
            if (color := self._count(name, connections, now, report.on_purpose)) is not None
        ]
        self._announce_presence(before, outcome, None, now)  # a seat gone away comes with its notice
        for color in back:
            self._announce_back(color, outcome)
        return outcome

    def claim_win(self, caller: Caller, now: float) -> Outcome:
        """Win a game whose opponent has been away for `claim_after_s`; refused before then, and
        while the opponent is connected."""
        color = self._player_color(caller)
        self._require_playing(caller)
        since = self.presence.away_since.get(color.other)
        if since is None or self.seat_connected(color.other):
            raise Refusal("not_allowed", "your opponent is connected: there is nothing to claim")
        wait_s = since + self.settings.claim_after_s - now
        if wait_s > 0:
            raise Refusal("not_allowed", f"your opponent may still come back: you can claim in {math.ceil(wait_s)} s")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        self._end(GameResult(color, EndReason.ABANDONED), now, outcome, caller)
        return outcome

    # --------------------------------------------------------------- play

    def move(self, caller: Caller, point: Point | str, now: float) -> Outcome:
        """Play a move for the caller's colour (given as a point or as `h8`)."""
        color = self._player_color(caller)
        self._require_playing(caller)
        if self.status == "opening":
            raise Refusal("not_allowed", "the opening is being decided: take an opening step (opening_step)")
        if self.board.to_move is not color:
            raise Refusal("not_your_turn", f"it is {self.board.to_move}'s turn")
        target = self._read_point(point)
        try:
            self.board.check_move(target)
        except IllegalMoveError as error:
            raise Refusal(self._illegal_move_code(error), str(error)) from None
        outcome = Outcome()
        self._enter(caller, now, outcome)
        if self.clock is not None and self.clock.has_flagged(now):
            self._end(GameResult(color.other, EndReason.TIMEOUT), now, outcome, caller)
        else:
            self._play(color, target, now, outcome, caller)
        return outcome

    def resign(self, caller: Caller, now: float) -> Outcome:
        """The caller gives up; the opponent wins."""
        color = self._player_color(caller)
        self._require_playing(caller)
        outcome = Outcome()
        self._enter(caller, now, outcome)
        self._end(GameResult(color.other, EndReason.RESIGN), now, outcome, caller)
        return outcome

    def forfeit(self, name: str, detail: str, now: float) -> Outcome:
        """`name` loses the game going on by forfeit (a moderator banned them): the opponent wins, and
        the result says why in `detail`. Nothing happens when `name` plays no game here."""
        outcome = Outcome()
        color = self.seat_of(name)
        if color is not None and self.in_game:
            self._end(GameResult(color.other, EndReason.RESIGN, detail=detail), now, outcome, None)
        return outcome

    def rename_seat(self, old: str, new: str, now: float) -> Outcome:
        """A moderator renamed `old` to `new`: a seat `old` holds (waiting for an opponent, or after a
        game, for a rematch) is `new`'s from now, the room's opener and standings too, and everyone
        here is shown the room again. Nothing happens when `old` holds no seat here."""
        outcome = Outcome()
        if self.seat_of(old) is None:
            return outcome
        for color, seat in self.seats.items():
            if seat is not None and not is_server_bot(seat) and seat.name == old:
                self.seats[color] = dataclasses.replace(seat, name=new)
        if self.created_by == old:
            self.created_by = new
        if old in self.standings:
            self.standings[new] = dataclasses.replace(self.standings.pop(old), name=new)
        self._snapshot(EVERYONE, now, outcome)
        return outcome

    def offer_draw(self, caller: Caller, now: float) -> Outcome:
        """Offer a draw; offering back to an opponent's pending offer accepts it.

        A bot declines, unless no five can be made any more by either side.
        """
        color = self._player_color(caller)
        self._require_playing(caller)
        if self.draw_offer is color:
            raise Refusal("not_allowed", "your draw offer is already pending")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        if self.draw_offer is color.other:
            self._end(GameResult(None, EndReason.DRAW_AGREED), now, outcome, caller)
        elif self._is_bot(color.other) and not no_five_possible(self.board.cells, self.size):
            self._declined("draw", outcome, caller)
        elif self._is_bot(color.other):
            self._end(GameResult(None, EndReason.DRAW_AGREED), now, outcome, caller)
        else:
            self.draw_offer = color
            self.seq += 1
            offer = DrawOffered(room_id=self.room_id, by=views.color_name(color), seq=self.seq)
            self._broadcast(offer, outcome, caller)
        return outcome

    def answer_draw(self, caller: Caller, accept: bool, now: float) -> Outcome:
        """Accept or decline the opponent's pending draw offer."""
        color = self._player_color(caller)
        self._require_playing(caller)
        if self.draw_offer is not color.other:
            raise Refusal("no_pending_offer", "your opponent has not offered a draw")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        if accept:
            self._end(GameResult(None, EndReason.DRAW_AGREED), now, outcome, caller)
        else:
            self.draw_offer = None
            self._declined("draw", outcome, caller)
        return outcome

    def request_undo(self, caller: Caller, now: float) -> Outcome:
        """Ask to take back one's last move (and the reply to it). Bots accept at once."""
        color = self._player_color(caller)
        self._require_playing(caller)
        if self.rated:
            raise Refusal("not_allowed", "moves cannot be taken back in a rated game")
        if self.opening is not None and self.board.ply <= len(self.opening.state.moves):
            raise Refusal("not_allowed", "the opening's stones cannot be taken back")
        if self.board.ply < (1 if color is Color.BLACK else 2):
            raise Refusal("not_allowed", "you have no move to take back")
        if self.undo_request is not None:
            raise Refusal("not_allowed", "an undo request is already pending")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        if self._is_bot(color.other):
            self._take_back(color, now, outcome, caller)
        else:
            self.undo_request = color
            self.seq += 1
            request = UndoRequested(room_id=self.room_id, by=views.color_name(color), seq=self.seq)
            self._broadcast(request, outcome, caller)
        return outcome

    def answer_undo(self, caller: Caller, accept: bool, now: float) -> Outcome:
        """Accept or decline the opponent's pending undo request."""
        color = self._player_color(caller)
        self._require_playing(caller)
        requester = self.undo_request
        if requester is not color.other:
            raise Refusal("no_pending_offer", "your opponent has not asked to undo")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        self.undo_request = None
        if accept:
            self._take_back(requester, now, outcome, caller)
        else:
            self._declined("undo", outcome, caller)
        return outcome

    def rematch(self, caller: Caller, now: float) -> Outcome:
        """Ask for a new game with colours swapped; it starts when both players (or a bot) agree."""
        color = self._player_color(caller)
        if self.status != "finished":
            raise Refusal("not_allowed", "a rematch can only follow a finished game")
        if color in self.rematch_asks:
            raise Refusal("not_allowed", "you have already asked for a rematch")
        outcome = Outcome()
        self._enter(caller, now, outcome)
        self.rematch_asks.add(color)
        if color.other in self.rematch_asks or self._is_bot(color.other):
            self._new_game(now, outcome, caller)
        else:
            self.seq += 1
            offer = RematchOffered(room_id=self.room_id, by=views.color_name(color), seq=self.seq)
            self._broadcast(offer, outcome, caller)
        return outcome

    # ------------------------------------------------------------ opening

    def opening_step(self, caller: Caller, step: Step, now: float) -> Outcome:
        """Take one decision of the opening phase (1.1 openings) for the caller."""
        self._player_color(caller)
        if self.status != "opening" or self.opening is None:
            raise Refusal("not_allowed", "there is no opening being decided in this room")
        side = self.opening.side_of(caller.name)
        assert side is not None, "a seated player is one of the opening's sides"
        after = self.opening.check(side, step)
        outcome = Outcome()
        self._enter(caller, now, outcome)
        self._take_opening_step(side, step, after, now, outcome, caller)
        return outcome

    def bot_opening_step(self, version: int, step: Step, now: float) -> Outcome:
        """Take a bot's opening decision if the opening is still where it was asked about."""
        outcome = Outcome()
        turn = self.bot_turn(now)
        if turn is None or turn.version != version or turn.opening is None or self.opening is None:
            return outcome
        side = turn.opening.to_decide
        assert side is not None, "a bot turn in the opening has a decider"
        try:
            after = self.opening.check(side, step)
        except Refusal:
            return outcome
        self._take_opening_step(side, step, after, now, outcome, None)
        return outcome

    def _take_opening_step(
        self, side: Player, step: Step, after: OpeningState, now: float, outcome: Outcome, caller: Caller | None
    ) -> None:
        """Play out one opening step: its record, its stones, the seats and clocks, the news."""
        assert self.opening is not None
        if self.clock is not None and self.clock.has_flagged(now):
            running = self.clock.running or self._color_to_act()
            self._end(GameResult(running.other, EndReason.TIMEOUT), now, outcome, caller)
            return
        thinking_ms = elapsed_ms(self.turn_started, now)
        before = self.opening.state
        black_before = before.black
        taken = self.opening.take(side, step, after)
        outcome.records.append(OpeningStepTaken(self.game_id, len(self.opening.taken) - 1, taken))
        for point in after.moves[len(before.moves) :]:
            color = self.board.to_move
            self.board.play(point)
            outcome.records.append(MovePlayed(self.game_id, self.board.ply, point, color, thinking_ms, None))
            thinking_ms = 0
        if after.black is not black_before:
            black, white = self.opening.seats()
            self.seats = {Color.BLACK: black, Color.WHITE: white}
            self.presence.swap_sides()
            if self.clock is not None:
                self.clock.swap_sides(now)
            outcome.records.append(SeatsDecided(self.game_id, black, white))
        if not self.opening.running:
            self.status = "playing"
        if self.clock is not None:
            self.clock.start(self._color_to_act(), now)
            outcome.records.append(ClocksSaved(self.game_id, self._clock_ms(now)))
        self.turn_started = now
        self.version += 1
        self.seq += 1
        wire_step = views.opening_step_model(step)
        stepped = OpeningStepped(room_id=self.room_id, seq=self.seq, by=taken.player, step=wire_step)
        self._broadcast(stepped, outcome, caller)
        self._snapshot(EVERYONE, now, outcome)

    def _both_sides_acted(self) -> bool:
        """Whether each player has moved or taken an opening step (a game where one has not is an abort).

        In every opening rule the first step is the first player's and the second the other's."""
        if self.opening is not None:
            return len(self.opening.taken) >= 2
        return self.board.ply >= 2

    def _color_to_act(self) -> Color:
        """The colour whose clock runs: the opening's decider's while it runs, else the side to move."""
        decider = None if self.opening is None else self.opening.decider()
        return self.board.to_move if decider is None else decider[2]

    @property
    def in_game(self) -> bool:
        """Whether a game is going on (its opening being decided, or its moves being played)."""
        return self.status in ("opening", "playing")

    # --------------------------------------------------------------- bots

    def bot_turn(self, now: float) -> BotTurn | None:
        """What to ask the bot pool when a bot is to move, else None.

        A game between two bots pauses while nobody watches it (so that it
        costs nothing), and goes on when someone comes to watch.
        """
        if not self.in_game or (self._pauses_unwatched() and self.presence.empty):
            return None
        color = self._color_to_act()
        seat = self.seats[color]
        if seat is None or seat.kind != "bot" or seat.level is None:
            return None
        clock_ms = None
        if self.clock is not None:
            clock_ms = (self.clock.left_ms(color, now), self.clock.setting.increment_ms)
        bots_only = self._is_bot(color.other)
        not_before = None
        if self.settings.bot_move_pause_s > 0 and bots_only:
            not_before = self.turn_started + self.settings.bot_move_pause_s
        moves = self.board.moves
        opening = self.opening.state if self.opening is not None and self.opening.running else None
        match_ms = None if self.clock_setting is None else self.clock_setting.initial_ms
        return BotTurn(
            self.version,
            color,
            seat.level,
            self.rule,
            self.size,
            moves,
            clock_ms,
            bots_only,
            not_before,
            opening,
            self.game_id,
            match_ms,
            seat.depth,
            seat.width,
        )

    def bot_move(self, version: int, point: Point, now: float) -> Outcome:
        """Play a bot's chosen move if the position is still the one it was asked about."""
        outcome = Outcome()
        turn = self.bot_turn(now)
        if turn is None or turn.version != version or turn.opening is not None or not self.board.is_legal(point):
            return outcome
        if self.clock is not None and self.clock.has_flagged(now):
            self._end(GameResult(turn.color.other, EndReason.TIMEOUT), now, outcome, None)
        else:
            self._play(turn.color, point, now, outcome, None)
        return outcome

    def bot_waits_for_worker(self, version: int, now: float) -> Outcome:
        """The bot's search for `version` waits for a worker (the pool is busy with other games):
        its clock stops until the search starts (`bot_search_started`). A bot is charged for the
        time it thinks, not for the time other games kept the workers: else a crowded server would
        make it lose on time."""
        turn = self.bot_turn(now)
        if turn is not None and turn.version == version and self.clock is not None:
            if self.clock.running is turn.color:
                self.clock.stop(now)
                self.bot_clock_held = version
        return Outcome()

    def bot_search_started(self, version: int, now: float) -> Outcome:
        """A bot's search for `version` has a worker: a clock held for it runs again from now."""
        if self.bot_clock_held == version == self.version and self.in_game and self.clock is not None:
            self.clock.start(self._color_to_act(), now)
        self.bot_clock_held = None
        return Outcome()

    def bot_failed(self, version: int, now: float, reason: str | None = None) -> Outcome:
        """A bot could not move at all: it resigns, so that its opponent is not left waiting; the
        `reason` goes into the result (and so into the record)."""
        outcome = Outcome()
        turn = self.bot_turn(now)
        if turn is not None and turn.version == version:
            self._end(GameResult(turn.color.other, EndReason.RESIGN, detail=reason), now, outcome, None)
        return outcome

    # --------------------------------------------------------------- time

    def next_deadline(self) -> float | None:
        """The next moment `on_timer` has something to do (a flag, an abandonment, an expiry, a
        spectator count to tell)."""
        presence = self.presence
        moments: list[float] = [] if presence.count_due is None else [presence.count_due]
        if self.in_game:
            if self.clock is not None and (flag := self.clock.flag_at()) is not None:
                moments.append(flag)
            for color, since in presence.away_since.items():
                if self.seat_connected(color.other):
                    moments.append(since + self._away_limit_s())
            if self._pauses_unwatched() and presence.empty_since is not None and presence.empty:
                moments.append(presence.empty_since + self.settings.bot_game_idle_s)
        elif presence.empty_since is not None and presence.empty:
            moments.append(presence.empty_since + self.settings.abandon_after_s)
        return min(moments, default=None)

    def on_timer(self, now: float) -> Outcome:
        """End the game when a clock has run out or a player has stayed away too long; tell a
        spectator count that had to wait."""
        outcome = Outcome()
        if self.presence.count_due is not None and now >= self.presence.count_due:
            self._announce_spectators(outcome, now)
        if not self.in_game:
            return outcome
        if self.clock is not None and self.clock.running is not None and self.clock.has_flagged(now):
            self._end(GameResult(self.clock.running.other, EndReason.TIMEOUT), now, outcome, None)
            return outcome
        for color, since in sorted(self.presence.away_since.items()):
            if self.seat_connected(color.other) and now >= since + self._away_limit_s():
                self._end(GameResult(color.other, EndReason.ABANDONED), now, outcome, None)
                return outcome
        if self._pauses_unwatched() and self.presence.empty_for(self.settings.bot_game_idle_s, now):
            self._end(GameResult(None, EndReason.DRAW_AGREED), now, outcome, None, rateable=False)
        return outcome

    def is_disposable(self, now: float) -> bool:
        """Whether the registry may forget the room: nobody needs it any more."""
        if not self.presence.empty:
            return False
        if self.status == "finished":
            return self.presence.left_on_purpose or self.presence.empty_for(self.settings.abandon_after_s, now)
        if self.status == "waiting":
            nobody_seated = all(seat is None or is_server_bot(seat) for seat in self.seats.values())
            return nobody_seated or self.presence.empty_for(self.settings.abandon_after_s, now)
        return False

    def save_clocks(self, now: float) -> Outcome:
        """Store the clocks of a timed game as they stand now (the game goes on unchanged), so that
        the time the player to move has thought stays spent if the server stops: done when it
        stops, and every few seconds in case it is killed."""
        outcome = Outcome()
        if self.in_game and self.clock is not None:
            outcome.records.append(ClocksSaved(self.game_id, self._clock_ms(now)))
        return outcome

    # ------------------------------------------------------------ queries

    def seat_of(self, name: str) -> Color | None:
        """The colour of the seat `name` holds here (as a person or a bot account), if any."""
        for color, seat in self.seats.items():
            if seat is not None and not is_server_bot(seat) and seat.name == name:
                return color
        return None

    def roles(self) -> dict[str, Role]:
        """The seated players' roles (anyone else in the room is a spectator)."""
        roles: dict[str, Role] = {}
        for color in Color:
            seat = self.seats[color]
            if seat is not None and not is_server_bot(seat):
                roles.setdefault(seat.name, views.color_name(color))
        return roles

    def spectator_count(self) -> int:
        """Connections in the room that hold no seat."""
        connections = self.presence.connections
        return self.presence.total - sum(connections.get(name, 0) for name in self.roles())

    def know(self, standings: Iterable[Standing]) -> None:
        """Remember players' standings (ratings), to show them in the seats."""
        for standing in standings:
            self.standings[standing.name] = standing

    def seat_connected(self, color: Color) -> bool:
        """Whether the seat's player is here: a bot level always is, anyone else with any connection."""
        seat = self.seats[color]
        if seat is None:
            return False
        if is_server_bot(seat):
            return True
        return self.presence.is_here(seat.name)

    def facts(self) -> RoomFacts:
        """What others may know of the room as it is now (see RoomFacts)."""
        return RoomFacts(
            room_id=self.room_id,
            rule=self.rule,
            size=self.size,
            clock=self.clock_setting,
            private=self.private,
            status=self.status,
            seats=(self.seats[Color.BLACK], self.seats[Color.WHITE]),
            connected=(self.seat_connected(Color.BLACK), self.seat_connected(Color.WHITE)),
            spectators=self.spectator_count(),
            moves=self.board.moves,
            decided=self.board.result is not None,
            created_by=self.created_by,
            rated=self.rated,
            game_id=self.game_id,
            opening=self.opening_rule,
            result=self.result if self.status == "finished" else None,
            scheduled=self.scheduled,
        )

    # ------------------------------------------------------------- helpers

    def _player_color(self, caller: Caller) -> Color:
        """The colour of the seat the caller holds; `not_a_player` if none."""
        color = self.seat_of(caller.name)
        if color is None:
            raise Refusal("not_a_player", "you hold no seat in this room")
        return color

    def _enter(self, caller: Caller, now: float, outcome: Outcome) -> None:
        """A seat holder acting from a connection not yet in the room joins it with that connection.

        Called once a request has passed every check, so that a refused
        request changes nothing.
        """
        if self.presence.is_here(caller.name):
            outcome.events.append(Enter(caller.ref, caller.name))  # nothing to tell if it was in already
            return
        before = self._presence()
        back = self._attach(caller, now, outcome)
        if self._presence() != before:
            self._snapshot(EVERYONE, now, outcome)
        self._announce_back(back, outcome)

    def _require_playing(self, caller: Caller) -> None:
        """Refuse a game action when no game is going on (the opening phase counts as going on)."""
        if self.status == "waiting":
            raise Refusal("not_started", "the game has not started: a seat is still open")
        if self.status == "finished":
            raise Refusal("game_over", "the game is over")

    def _read_point(self, point: Point | str) -> Point:
        if isinstance(point, Point):
            return point
        if not looks_like_point(point):
            raise Refusal("bad_request", f"{point!r} is not a move: write a column letter and a row, like 'h8'")
        try:
            return parse_point(point, self.size)
        except ValueError as error:
            raise Refusal("out_of_board", str(error)) from None

    @staticmethod
    def _illegal_move_code(error: IllegalMoveError) -> ErrorCode:
        for kind, code in _ILLEGAL_MOVE_CODES:
            if isinstance(error, kind):
                return code
        return "bad_request"

    def _play(self, color: Color, point: Point, now: float, outcome: Outcome, caller: Caller | None) -> None:
        thinking_ms = elapsed_ms(self.turn_started, now)
        self.board.play(point)
        if self.clock is not None:
            self.clock.after_move(color, now)
        self.turn_started = now
        self.version += 1
        ply = self.board.ply
        outcome.records.append(MovePlayed(self.game_id, ply, point, color, thinking_ms, self._clock_ms(now)))
        self.seq += 1
        moved = Moved(
            room_id=self.room_id,
            game_id=self.game_id,
            ply=ply,
            color=views.color_name(color),
            x=point.x,
            y=point.y,
            move=format_point(point, self.size),
            clock=views.clock_model(self.clock, now),
            seq=self.seq,
        )
        self._broadcast(moved, outcome, caller)
        if self.board.result is not None:
            self._end(self.board.result, now, outcome, None)
            return
        if self.draw_offer is color.other:
            self.draw_offer = None
            self._declined("draw", outcome, None)
        if self.undo_request is not None:
            self.undo_request = None
            self._declined("undo", outcome, None)

    def _take_back(self, requester: Color, now: float, outcome: Outcome, caller: Caller | None) -> None:
        count = 2 if self.board.to_move is requester else 1
        removed = []
        for _ in range(count):
            ply = self.board.ply
            removed.append(views.stone_model(ply, self.board.pop()))
        if self.clock is not None:
            self.clock.start(requester, now)
        self.turn_started = now
        self.version += 1
        self.draw_offer = None
        outcome.records.append(MovesTakenBack(self.game_id, self.board.ply, self._clock_ms(now)))
        self.seq += 1
        undone = Undone(
            room_id=self.room_id,
            removed=removed,
            to_move=views.color_name(self.board.to_move),
            seq=self.seq,
            clock=views.clock_model(self.clock, now),
        )
        self._broadcast(undone, outcome, caller)

    def _declined(self, what: Literal["draw", "undo"], outcome: Outcome, caller: Caller | None) -> None:
        self.seq += 1
        self._broadcast(Declined(room_id=self.room_id, what=what, seq=self.seq), outcome, caller)

    def _start(self, now: float, outcome: Outcome) -> None:
        black, white = self.seats[Color.BLACK], self.seats[Color.WHITE]
        assert black is not None and white is not None, "a game starts only with both seats filled"
        self.status = "playing"
        self.opening = None
        if self.opening_rule is not OpeningRule.NONE:
            self.opening = OpeningPhase.begin(self.opening_rule, self.size, self.rule, black, white)
            self.status = "opening"
        self.started_at = self._wall_clock()
        self.turn_started = now
        self.presence.empty_since = None
        self.version += 1
        if self.clock_setting is not None:
            self.clock = GameClock.fresh(self.clock_setting)
            self.clock.start(self._color_to_act(), now)
        self.presence.away_since = {color: now for color in Color if not self.seat_connected(color)}
        outcome.records.append(
            GameStarted(
                self.game_id,
                self.room_id,
                self.rule,
                self.size,
                black,
                white,
                self.clock_setting,
                self.started_at,
                self.private,
                self.created_by,
                self.rated,
                self.opening_rule,
            )
        )

    def _end(
        self, result: GameResult, now: float, outcome: Outcome, caller: Caller | None, rateable: bool = True
    ) -> None:
        """End the game; it is rated if the room is, both sides acted (else it is an abort) and it
        is `rateable`: a game between two bots that nobody watched is ended by the server as a draw,
        which says nothing of the bots' strength (and would let anyone steer their ratings by
        leaving such games alone), so it is not."""
        self.status = "finished"
        self.result = result
        if self.clock is not None:
            self.clock.stop(now)
        self.draw_offer = None
        self.undo_request = None
        self.rematch_asks = set()
        self.presence.away_since = {}
        self.version += 1
        rated = rateable and self.rated and self._both_sides_acted()
        outcome.records.append(GameFinished(self.game_id, result, self._wall_clock(), self._clock_ms(now), rated))
        self.seq += 1
        over = GameOver(room_id=self.room_id, game_id=self.game_id, seq=self.seq, result=views.result_model(result))
        self._broadcast(over, outcome, caller)

    def _new_game(self, now: float, outcome: Outcome, caller: Caller) -> None:
        self.seats = {Color.BLACK: self.seats[Color.WHITE], Color.WHITE: self.seats[Color.BLACK]}
        self.game_id = new_game_id()
        self.scheduled = False  # a rematch is the players' own game
        self.board = Board(self.size, self.rule)
        self.result = None
        self.clock = None
        self.rematch_asks = set()
        self._start(now, outcome)
        self._snapshot(EVERYONE, now, outcome, answers=caller.ref)

    def _broadcast(self, message: ServerMessage, outcome: Outcome, caller: Caller | None) -> None:
        """Send to every member; the copy for the request's sender (if any) answers the request."""
        outcome.send(message, EVERYONE, None if caller is None else caller.ref)

    def _attach(self, caller: Caller, now: float, outcome: Outcome) -> Color | None:
        """The caller's connection enters; the seat whose player it brings back during a game, if any."""
        outcome.events.append(Enter(caller.ref, caller.name))
        return self._count(caller.name, max(1, self.presence.connections.get(caller.name, 0)), now, False)

    def _count(self, name: str, connections: int, now: float, on_purpose: bool) -> Color | None:
        """`name` has `connections` connections in the room now: a seat left with none during a game
        is away from now, one whose player comes back is not; the seat whose player this brings
        back during a game, if any."""
        color = self.seat_of(name)
        was_away = color in self.presence.away_since
        was_here = self.presence.is_here(name)
        self.presence.count(name, connections, now, on_purpose)
        if color is None or was_here == (connections > 0):
            return None
        if connections == 0:
            if self.in_game and not self.seat_connected(color):
                self.presence.seat_away(color, now)
            return None
        self.presence.seat_back(color, now)
        return color if was_away and self.in_game else None

    def _announce_back(self, color: Color | None, outcome: Outcome) -> None:
        if color is not None:
            outcome.send(OpponentBack(room_id=self.room_id, color=views.color_name(color)))

    def _presence(self) -> tuple[tuple[PlayerInfo | None, bool], ...]:
        """Seats and their connectedness, to tell whether a snapshot must go out."""
        return tuple((self.seats[color], self.seat_connected(color)) for color in Color) + ((None, self.in_game),)

    def _announce_presence(
        self, before: tuple[object, ...], outcome: Outcome, caller: Caller | None, now: float
    ) -> None:
        """Send the joiner its snapshot, and others a snapshot or a spectator count when those changed."""
        answers = None if caller is None else caller.ref
        if self._presence() != before:
            self._snapshot(EVERYONE, now, outcome, answers)
        elif caller is not None:
            self._snapshot(OneCaller(caller.ref), now, outcome, answers)
        self._announce_spectators(outcome, now)

    def _snapshot(self, audience: Audience, now: float, outcome: Outcome, answers: CallerRef | None = None) -> None:
        """Send a member the room as it stands (as the request's answer if `answers`), then an
        `opponent_away` for each seat whose player is away: the snapshot shows the seat
        disconnected but not when the win may be claimed, and a member who joined (or reloaded)
        after the drop has no other way to learn it."""
        snapshot = views.room_message(self, now)
        outcome.events.append(RoomEvent(snapshot, audience, self.roles(), answers))
        for notice in self._away_notices(now):
            outcome.send(notice, audience)

    def _away_notices(self, now: float) -> list[OpponentAway]:
        """An `opponent_away` for each seat whose player is away, with how long until the win may
        be claimed from them (0 once it may)."""
        return [
            OpponentAway(
                room_id=self.room_id,
                color=views.color_name(color),
                claim_at_ms=max(0, round((since + self.settings.claim_after_s - now) * 1000)),
            )
            for color, since in sorted(self.presence.away_since.items())
        ]

    def _announce_spectators(self, outcome: Outcome, now: float) -> None:
        """Tell members the spectator count when it has changed, at most once every
        SPECTATOR_COUNT_EVERY_S: a crowd joining costs a few messages, not one per join to each
        of them (a newcomer learns the count from its snapshot)."""
        count = self.spectator_count()
        if not self.presence.count_to_tell(count, now):
            return
        outcome.send(Spectators(room_id=self.room_id, count=count))

    def _bots_only(self) -> bool:
        return self._is_bot(Color.BLACK) and self._is_bot(Color.WHITE)

    def _pauses_unwatched(self) -> bool:
        """Whether the game pauses while nobody watches it: one between two bots, unless scheduled."""
        return self._bots_only() and not self.scheduled

    def _away_limit_s(self) -> float:
        """How long a seat's player may be away, the opponent here, before the game is lost."""
        return self.settings.claim_after_s if self.scheduled else self.settings.abandon_after_s

    def _both_seated(self) -> bool:
        return all(seat is not None for seat in self.seats.values())

    def _is_bot(self, color: Color) -> bool:
        """Whether the server plays this seat (a bot level: it answers offers at once)."""
        return is_server_bot(self.seats[color])

    def _clock_ms(self, now: float) -> tuple[int, int] | None:
        if self.clock is None:
            return None
        return (self.clock.left_ms(Color.BLACK, now), self.clock.left_ms(Color.WHITE, now))


def _move_target(request: Move) -> Point | str:
    """The move as a point, or as the notation the client wrote (the room reads it for its size)."""
    if request.move is not None:
        return request.move
    assert request.x is not None and request.y is not None, "the protocol checks a move has one form"
    return Point(request.x, request.y)
