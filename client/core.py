"""The client's logic without I/O: lines typed and messages received in, actions out.

`ClientCore` never touches the socket, the terminal or the disk. It answers
each input (a line, the end of input, a message, the connection opening or
dropping, time passing) with a list of `client.actions` that
`client.session` carries out. So the whole behaviour of the client,
including reconnecting, catching up after a missed event, and pacing a
script's lines, can be tested by feeding it lines and messages.

It is one module past 500 lines on purpose: it is one state machine, and
its parts act on each other. A welcome rejoins the room, watches the lobby
again and lets waiting lines go; a room message answers a create or a seek
and ends a scripted move's wait; an answer can complete a quit. Split up,
each part would need the others' state. What can stand alone does: the
room's state (`client.state`), the lobby's (`client.lobby`), the texts
(`client.screens`, `client.text`, `client.players_text`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from client import commands as cmd
from client import opening_commands as opening
from client import player_commands as players
from client.actions import Action, Fetch, Quit, RememberToken, SaveFile, Send, Show, Status
from client.lobby import LobbyView
from client.moderation_commands import DeleteGamesCommand, deleted_text
from client.opening_text import describe_decision, describe_step
from client.players_text import describe_chat, describe_leaderboard, describe_online, describe_profile
from client.replay import REPLAY_HELP, Replay
from client.review import ReviewGameCommand, review_text
from client.screens import analysis_text, event_screen, room_screen, seat_names, status_line
from client.state import Outcome, RoomView, reply_wait_s
from client.text import (
    describe_bots,
    describe_games,
    describe_refused_sign_in,
    describe_rooms,
    format_rating,
    record_text,
)
from client.web_api import HttpAnswer, player_path
from engine.errors import RecordFormatError
from engine.record import record_from_dict
from engine.types import Color
from wire.messages import (
    AcceptSeek,
    Analysis,
    AnswerDraw,
    AnswerUndo,
    Bots,
    BotSeatSpec,
    CancelSeek,
    ChatMessage,
    ChatRequest,
    ClaimWin,
    ClientMessage,
    ClockSettingModel,
    CreateRoom,
    Declined,
    DrawOffered,
    ErrorMessage,
    GameId,
    GameMessage,
    GameOver,
    Games,
    GetGame,
    Hello,
    JoinRoom,
    Leaderboard,
    LeaderboardMessage,
    LeaveRoom,
    Left,
    ListBots,
    ListGames,
    ListRooms,
    Lobby,
    LobbyChanges,
    Moved,
    OfferDraw,
    OnlineCount,
    OnlinePlayers,
    OpeningStep,
    OpeningStepped,
    OpponentAway,
    OpponentBack,
    ProfileModel,
    QuickPair,
    Rematch,
    RematchOffered,
    RequestUndo,
    Resign,
    RoomId,
    RoomMessage,
    Rooms,
    RoomSummaryModel,
    SeatSpec,
    SeekAdded,
    SeekCreated,
    SeekRemoved,
    SeekRequest,
    ServerEvent,
    Spectators,
    Undone,
    UndoRequested,
    UnwatchLobby,
    WatchLobby,
    Welcome,
    WhoIsOnline,
)
from wire.messages import Analyze as AnalyzeRequest
from wire.messages import Move as MoveRequest
from wire.moderation import DeleteGames
from wire.moderation_events import GamesDeleted, Kicked, Renamed
from wire.review import GameReviewMessage
from wire.review_requests import ReviewGame


@dataclass(frozen=True, slots=True)
class _Export:
    path: Path


@dataclass(frozen=True, slots=True)
class _StartReplay:
    pass


@dataclass(frozen=True, slots=True)
class _RoomPages:
    """The pages of the room list received so far; the next is asked for after `after`."""

    rooms: tuple[RoomSummaryModel, ...]
    after: RoomId | None


@dataclass(frozen=True, slots=True)
class _GamesPage:
    """A page of a player's games: what to ask for the page after it."""

    request: ListGames


@dataclass(frozen=True, slots=True)
class _CancelSeek:
    """A cancel_seek sent by the player: its answer is the seek's removal."""


_Awaited = _Export | _StartReplay | _RoomPages | _GamesPage | _CancelSeek
"""What the answer to a request is for, beyond showing it."""


@dataclass(frozen=True, slots=True)
class _TurnWait:
    """A scripted move sent: the next line waits until the player's turn comes back."""

    move_id: int | None
    """The id of the move request, whose answer comes first; None for a move held back because
    the opponent was to move."""
    until: float
    """When to stop waiting for the opponent and go on."""


_Question = Literal["resign", "leave", "quit"]
"""What a yes or no may confirm."""

_QUESTIONS: dict[_Question, str] = {
    "resign": "resign this game? (yes/no)",
    "leave": "leaving resigns this game: leave the room? (yes/no)",
    "quit": "your game goes on if you quit{clock}: come back soon (start gomoku again) or lose it. Quit? (yes/no)",
}
_QUIT_CLOCK = ", and so does your clock"
"""Said in the quit question of a timed game."""

QUIT_WAIT_S = 5.0
"""After `quit`, how long the answers to requests already sent may take before the client ends anyway."""

_NOT_IN_ROOM = "you are not in a room: 'create' one or 'join' one first"


class ClientCore:
    """One player's client session, from `hello` to `quit`, across reconnections."""

    def __init__(
        self,
        name: str,
        token: str | None,
        clock: Callable[[], float] = time.monotonic,
        *,
        scripted_input: bool = False,
    ) -> None:
        """`scripted_input`: the lines come from a script, not a person at a terminal, so a move
        holds back the lines after it until the opponent has replied (or the game is over)."""
        self.name = name
        self.token = token
        self.room: RoomView | None = None
        """The room the player is in, or None."""
        self.replay: Replay | None = None
        """The game being replayed, or None."""
        self._clock = clock
        self._resyncing = False
        self._signed_in = False
        self._connection_lost = False
        self._deferred: list[str | None] = []
        """Lines typed before the server welcomed this client, or while it answers a `create` or
        `join` that later lines may depend on; handled, in order, once it has. None stands for
        the end of input."""
        self._entering: int | None = None
        """The id of the create_room or join_room request awaiting its answer."""
        self._question: _Question | None = None
        """What the player was just asked to confirm with yes or no."""
        self._hello_id: int | None = None
        self._next_id = 0
        self._waiting: dict[int, _Awaited] = {}
        self.lobby = LobbyView(name)
        """The seeks the client knows of, the player's own among them."""
        self._lobby_batches = False
        """Whether the server sends the lobby's changes in batches (1.2), as its welcome says."""
        self._awaiting_game: int | None = None
        """With scripted input, the id of the seek or quick pairing whose game the next lines wait for."""
        self._fetching: dict[int, str] = {}
        """The profiles asked for over HTTP and not yet shown, by request number."""
        self._more_games: ListGames | None = None
        """The request for the page after the last games list shown, or None after its last page."""
        self._unanswered: set[int] = set()
        self._scripted_input = scripted_input
        self._turn_wait: _TurnWait | None = None
        self._waited_out = False
        """Whether the wait for the opponent timed out: the move held back then goes anyway."""
        self._status: str | None = None
        """The status line shown now."""
        self._quit_by: float | None = None
        """Once the player has quit: when to stop waiting for the answers to requests already sent."""

    # ---------------------------------------------------------------- inputs

    def connected(self) -> list[Action]:
        """The connection is open (first time or again): say hello."""
        self._resyncing = False
        self._signed_in = False
        self._connection_lost = False
        self._entering = None
        self._unanswered.clear()
        self._hello_id = self._new_id()
        self._unanswered.add(self._hello_id)
        return [Send(Hello(name=self.name, token=self.token, id=self._hello_id))]

    def disconnected(self) -> list[Action]:
        """The connection dropped; requests in flight will get no answer."""
        self._signed_in = False
        self._connection_lost = True
        self._entering = None
        self._awaiting_game = None
        self._waiting.clear()
        self._unanswered.clear()
        if self._quit_by is not None:
            return [Quit()]
        actions: list[Action] = [Show("connection lost; reconnecting...")]
        withdrawn = self.lobby.connection_lost()
        return actions + [Show(withdrawn)] if withdrawn else actions

    def handle_line(self, line: str) -> list[Action]:
        """What to do about a line the player typed: now, or after the lines still waiting before it."""
        if self._connection_lost and line.strip().lower() in cmd.QUIT_WORDS:
            return [Quit()]  # nothing sent will be answered on a lost connection
        if self._deferred:
            self._deferred.append(line)
            return []
        return self._act_on(line)

    def end_of_input(self) -> list[Action]:
        """No more lines will come: quit once the lines before have been answered."""
        if self._connection_lost:
            return [Quit()]
        if self._deferred or not self._ready:
            self._deferred.append(None)
            return []
        return self._begin_quit()

    def handle_message(self, message: ServerEvent) -> list[Action]:
        """What to do about a message from the server (then about lines that waited for it)."""
        if isinstance(message.id, int):
            self._unanswered.discard(message.id)
            if message.id == self._entering:
                self._entering = None
            if message.id == self._awaiting_game and isinstance(message, ErrorMessage):
                self._awaiting_game = None
        actions = self._dispatch(message)
        self._end_turn_wait_on_reply()
        return actions + self._handle_deferred() + self._quit_when_answered()

    def tick(self) -> list[Action]:
        """Time has passed (the session calls this a few times a second): act on what was due,
        and redraw the status line when the running clock shows another value."""
        now = self._clock()
        if self._quit_by is not None and now >= self._quit_by:
            return [Quit()]
        actions: list[Action] = []
        if self._turn_wait is not None and now >= self._turn_wait.until:
            self._turn_wait = None
            self._waited_out = True
            opponent = self.room.to_move if self.room is not None else None
            actions.append(Show(f"no reply from {opponent or 'the opponent'}: going on with the next line"))
            actions += self._handle_deferred()
        actions += self._claims_open(now)
        status = self._status_now(now)
        if status != self._status:
            self._status = status
            actions.append(Status(status))
        return actions

    def fetched(self, answer: HttpAnswer) -> list[Action]:
        """The answer to a `Fetch`: a profile, or why there is none."""
        name = self._fetching.pop(answer.request, None)
        self._unanswered.discard(answer.request)
        if name is None:
            return []
        if answer.status == 200:
            try:
                text = describe_profile(ProfileModel.model_validate_json(answer.body))
            except ValidationError as error:
                text = f"the server sent a profile this client cannot read: {_first_problem(error)}"
        elif answer.status == 404:
            text = f"there is no player named {name!r}"
        elif answer.status is None:
            text = f"no profile: {answer.body}"
        else:
            text = f"no profile: the server answered HTTP {answer.status}"
        return [Show(text)] + self._quit_when_answered()

    def _claims_open(self, now: float) -> list[Action]:
        """Tell the player, once, that the win may now be claimed from an absent opponent."""
        room = self.room
        if room is None or room.my_colour is None or room.status != "playing":
            return []
        opponent = room.my_colour.other
        claim_at = room.claim_at.get(opponent)
        if claim_at is None or now < claim_at:
            return []
        del room.claim_at[opponent]
        return [Show(_claim_is_open(opponent, seat_names(room)[opponent]))]

    def _status_now(self, now: float) -> str | None:
        """The status line while a clock is running in the room, else None (also while the connection
        is down: the clocks are the server's, and it may not be counting)."""
        room = self.room
        if room is None or room.clock is None or room.clock.running is None:
            return None
        if room.status not in ("playing", "opening"):
            return None
        if not self._signed_in:
            return None
        return status_line(room, now)

    @property
    def _ready(self) -> bool:
        """Whether a typed line can be acted on now rather than deferred."""
        return self._signed_in and self._entering is None and self._turn_wait is None and self._awaiting_game is None

    def _hold_for_opponent(self) -> bool:
        """Whether a scripted move must wait for the opponent's move first (after the wait has timed
        out once for this move, it goes anyway)."""
        room = self.room
        waited_out, self._waited_out = self._waited_out, False
        if not self._scripted_input or room is None or room.my_colour is None or waited_out:
            return False
        if room.to_move in (None, room.my_colour):
            return False
        now = self._clock()
        self._turn_wait = _TurnWait(None, now + reply_wait_s(room, now))
        return True

    def _end_turn_wait_on_reply(self) -> None:
        """A scripted move's wait ends when it was refused, the opponent has replied, or the game is over."""
        wait = self._turn_wait
        if wait is None or (wait.move_id is not None and wait.move_id in self._unanswered) or self._resyncing:
            return
        room = self.room
        if room is None or room.my_colour is None or room.to_move in (None, room.my_colour):
            self._turn_wait = None

    def _act_on(self, line: str) -> list[Action]:
        """Carry out a line, or defer it if it needs the server and the server is not ready for it."""
        if self.replay is not None:
            if line.strip().lower() in ("q", "quit", "stop"):
                self.replay = None
                return [Show("replay closed")]
            if self.replay.navigate(line):
                return [Show(self.replay.screen())]
        try:
            command = cmd.parse_command(line)
        except cmd.CommandError as error:
            self._question = None
            return [Show(str(error))]
        if command is None:
            return []
        question, self._question = self._question, None
        if isinstance(command, cmd.Answer):
            return self._answer(command.accept, question)
        if not self._ready and not isinstance(command, cmd.LOCAL_COMMANDS):
            self._deferred.insert(0, line)  # it was first in line (from handle_line, the only one)
            return []
        if isinstance(command, cmd.PlayMove) and self._hold_for_opponent():
            self._deferred.insert(0, line)
            return []
        try:
            return self._command(command)
        except cmd.CommandError as error:
            return [Show(str(error))]
        except ValidationError as error:  # a value the parser let through but the protocol does not allow
            return [Show(f"that cannot be sent: {_first_problem(error)}")]

    def _handle_deferred(self) -> list[Action]:
        actions: list[Action] = []
        while self._ready and self._deferred and self._quit_by is None:
            line = self._deferred.pop(0)
            actions += self._begin_quit() if line is None else self._act_on(line)
        return actions

    def _begin_quit(self) -> list[Action]:
        """Quit now, or once the requests already sent have been answered (QUIT_WAIT_S at most)."""
        self._deferred.clear()
        if not self._unanswered:
            return [Quit()]
        self._quit_by = self._clock() + QUIT_WAIT_S
        return []

    def _quit_when_answered(self) -> list[Action]:
        if self._quit_by is not None and not self._unanswered:
            return [Quit()]
        return []

    def _dispatch(self, message: ServerEvent) -> list[Action]:
        match message:
            case Welcome():
                return self._welcome(message)
            case ErrorMessage():
                return self._error(message)
            case RoomMessage():
                return self._room(message)
            case Moved() | GameOver() | DrawOffered() | UndoRequested() | Undone() | RematchOffered() | Declined():
                return self._room_event(message)
            case Spectators():
                if self.room is not None and self.room.room_id == message.room_id:
                    self.room.spectators = message.count
                return []
            case Left():
                if self.room is not None and self.room.room_id == message.room_id:
                    self.room = None
                return [Show(f"you left room {message.room_id}")]
            case Rooms():
                return self._rooms_page(message)
            case Bots():
                return [Show(describe_bots(message.bots))]
            case Games():
                return self._games_page(message)
            case GameMessage():
                return self._game(message)
            case Analysis():
                return [Show(analysis_text(message))]
            case GameReviewMessage():
                return [Show(review_text(message.review).rstrip("\n"))]
            case OpponentAway() | OpponentBack():
                return self._presence(message)
            case OpeningStepped():
                return self._opening_stepped(message)
            case Lobby() | SeekAdded() | SeekRemoved() | SeekCreated() | OnlineCount():
                return self._lobby_message(message)
            case LobbyChanges():
                return self._lobby_changes(message)
            case OnlinePlayers():
                return [Show(describe_online(message.count, message.players))]
            case LeaderboardMessage():
                return [Show(describe_leaderboard(message.players))]
            case ChatMessage():
                return [Show(describe_chat(message, self.room is not None))]
            case GamesDeleted():
                return [Show(deleted_text(message.game_ids))]
            case Renamed():
                return self._renamed(message)
            case Kicked():
                return [Show(f"a moderator sent you out of room {message.room_id}: {message.reason}")]
        return []

    def _renamed(self, message: Renamed) -> list[Action]:
        """A moderator renamed me: my token goes with the new name, which the next hello (once the
        server has closed this connection) signs in with."""
        self.name = message.name
        remember = [] if self.token is None else [RememberToken(self.token)]
        return [*remember, Show(f"a moderator renamed you to {message.name}: {message.reason}")]

    # ------------------------------------------------------------- commands

    def _command(self, command: cmd.Command) -> list[Action]:
        match command:
            case cmd.ShowHelp():
                return [Show(cmd.HELP)]
            case cmd.QuitClient():
                if self._playing():
                    timed = self.room is not None and self.room.clock is not None
                    return self._ask("quit", _QUESTIONS["quit"].format(clock=_QUIT_CLOCK if timed else ""))
                return self._begin_quit()
            case cmd.ListRoomsCommand():
                return self._send_waiting(ListRooms(), _RoomPages((), None))
            case cmd.ListBotsCommand():
                return self._send(ListBots())
            case cmd.CreateRoomCommand():
                return self._send_entering(_create_room(command))
            case cmd.JoinRoomCommand():
                role: Literal["player", "spectator"] = "spectator" if command.spectator else "player"
                return self._send_entering(JoinRoom(room_id=command.room_id, as_=role))
            case cmd.ListGamesCommand():
                games = ListGames(player=command.player or self.name, limit=command.limit)
                return self._send_waiting(games, _GamesPage(games))
            case cmd.MoreGamesCommand():
                if self._more_games is None:
                    return [Show("no more games to show: 'games [PLAYER]' lists them from the newest")]
                return self._send_waiting(self._more_games, _GamesPage(self._more_games))
            case cmd.ExportGameCommand():
                return self._send_waiting(
                    GetGame(game_id=command.game_id, format=command.format), _Export(command.path)
                )
            case cmd.ReplayCommand():
                return self._send_waiting(GetGame(game_id=command.game_id, format="json"), _StartReplay())
            case cmd.AnalyzeGameCommand():
                return self._send(AnalyzeRequest(game_id=command.game_id, ply=command.ply, time_ms=command.time_ms))
            case ReviewGameCommand():
                return self._send(ReviewGame(game_id=command.game_id))
            case cmd.HintCommand() if self.replay is not None and self.replay.record.game_id:
                game_id, ply = GameId(self.replay.record.game_id), self.replay.ply
                return self._send(AnalyzeRequest(game_id=game_id, ply=ply, time_ms=command.time_ms))
            case DeleteGamesCommand():
                return self._send(DeleteGames(game_ids=list(command.game_ids)))
            case players.SayCommand():
                room_id = self.room.room_id if self.room is not None else None
                return self._send(ChatRequest(room_id=room_id, text=command.text))
            case players.ProfileCommand():
                request = self._new_id()
                self._fetching[request] = command.name or self.name
                self._unanswered.add(request)
                return [Fetch(player_path(command.name or self.name), request)]
            case (
                players.SeekCommand()
                | players.QuickPairCommand()
                | players.WatchLobbyCommand()
                | players.UnwatchLobbyCommand()
                | players.CancelSeekCommand()
                | players.AcceptSeekCommand()
                | players.OnlineCommand()
                | players.LeaderboardCommand()
            ):
                return self._lobby_command(command)
        return self._room_command(command)

    def _lobby_command(
        self,
        command: players.SeekCommand
        | players.QuickPairCommand
        | players.WatchLobbyCommand
        | players.UnwatchLobbyCommand
        | players.CancelSeekCommand
        | players.AcceptSeekCommand
        | players.OnlineCommand
        | players.LeaderboardCommand,
    ) -> list[Action]:
        """Commands about the lobby and the other players."""
        match command:
            case players.SeekCommand():
                return self._seek_game(_seek(command))
            case players.QuickPairCommand():
                terms = command.terms
                return self._seek_game(
                    QuickPair(rule=terms.rule, size=terms.size, clock=_clock_model(terms.clock), rated=terms.rated)
                )
            case players.WatchLobbyCommand():
                return self._send(self._watch_lobby())
            case players.UnwatchLobbyCommand():
                self.lobby.unwatched()
                return self._tell(UnwatchLobby()) + [Show("you no longer watch the lobby")]
            case players.CancelSeekCommand():
                seek_ids = [command.seek] if command.seek is not None else list(self.lobby.mine)
                if not seek_ids:
                    return [Show("you have no seek waiting")]
                actions: list[Action] = []
                for seek_id in seek_ids:
                    actions += self._send_waiting(CancelSeek(seek_id=seek_id), _CancelSeek())
                return actions
            case players.AcceptSeekCommand():
                return self._send_entering(AcceptSeek(seek_id=self.lobby.seek_id_for(command.seek)))
            case players.OnlineCommand():
                return self._send(WhoIsOnline())
            case players.LeaderboardCommand():
                return self._send(Leaderboard(limit=command.limit, kind=command.kind))

    def _seek_game(self, request: SeekRequest | QuickPair) -> list[Action]:
        """Offer a game in the lobby; with scripted input, the next lines wait for the game."""
        actions = self._send(request)
        if self._scripted_input:
            self._awaiting_game = self._next_id
        return actions

    def _room_command(self, command: cmd.Command) -> list[Action]:
        """Commands about the room the player is in."""
        room = self.room
        if room is None:
            return [Show(_NOT_IN_ROOM)]
        room_id = room.room_id
        match command:
            case cmd.LeaveRoomCommand():
                if self._playing():
                    return self._ask("leave", _QUESTIONS["leave"])
                return self._send(LeaveRoom(room_id=room_id))
            case cmd.PlayMove() if room.status == "opening":
                return self._opening_move(room, command)
            case (
                opening.PlaceStones()
                | opening.ChooseColour()
                | opening.DeclareOffers()
                | opening.OfferFifths()
                | opening.SelectFifth()
            ):
                return self._send(OpeningStep(room_id=room_id, step=opening.step_of(command, room.size)))
            case cmd.PlayMove():
                point = command.resolve(room.size)
                actions = self._send(MoveRequest(room_id=room_id, x=point.x, y=point.y))
                if self._scripted_input and room.my_colour is not None:
                    self._turn_wait = _TurnWait(self._next_id, self._clock() + reply_wait_s(room, self._clock()))
                return actions
            case cmd.ResignCommand():
                return self._ask("resign", _QUESTIONS["resign"])
            case cmd.OfferDrawCommand():
                return self._send(OfferDraw(room_id=room_id))
            case cmd.RequestUndoCommand():
                return self._send(RequestUndo(room_id=room_id))
            case cmd.RematchCommand():
                return self._send(Rematch(room_id=room_id))
            case cmd.ShowBoard():
                return [Show(self._room_screen(room))]
            case cmd.ShowClocks():
                return [Show(status_line(room, self._clock()) or "no game yet")]
            case cmd.HintCommand():
                return self._send(AnalyzeRequest(room_id=room_id, time_ms=command.time_ms))
            case cmd.ClaimWinCommand():
                return self._send(ClaimWin(room_id=room_id))
        raise AssertionError(f"unhandled command {command!r}")

    def _playing(self) -> bool:
        """Whether the player holds a seat in a game being played."""
        room = self.room
        return room is not None and room.my_colour is not None and room.status == "playing"

    def _ask(self, question: _Question, text: str) -> list[Action]:
        """Ask the player to confirm with yes or no (any other line drops the question)."""
        self._question = question
        return [Show(text)]

    def _answer(self, accept: bool, question: _Question | None) -> list[Action]:
        """A yes or no: to the question just asked, else to the opponent's pending offer."""
        room = self.room
        if question == "quit":
            return self._begin_quit() if accept else [Show("you play on")]
        if question is not None and room is not None:
            if not accept:
                return [Show("you play on")]
            if question == "resign":
                return self._send(Resign(room_id=room.room_id))
            return self._send(LeaveRoom(room_id=room.room_id))
        if room is None or room.pending is None or room.pending.by is room.my_colour or room.my_colour is None:
            return [Show("there is no question to answer")]
        what = room.pending.what
        room.pending = None
        if what == "draw":
            return self._send(AnswerDraw(room_id=room.room_id, accept=accept))
        if what == "undo":
            return self._send(AnswerUndo(room_id=room.room_id, accept=accept))
        return self._send(Rematch(room_id=room.room_id)) if accept else [Show("rematch declined")]

    # ------------------------------------------------------------- messages

    def _welcome(self, message: Welcome) -> list[Action]:
        if self._hello_id is not None:
            self._unanswered.discard(self._hello_id)  # the answer to hello, whatever its id
        self.token = message.token
        rating = format_rating(message.player.rating, message.player.rd)
        actions: list[Action] = [
            RememberToken(message.token),
            Show(f"signed in as {message.player.name} (rating {rating}); 'help' lists the commands"),
        ]
        self._signed_in = True
        self._lobby_batches = "lobby_batches" in message.features
        if self.lobby.watching:
            actions += self._send(self._watch_lobby())
        if self.room is not None:
            actions += self._resync(self.room)
        elif message.rooms:
            actions += self._back_to_unfinished_game(message.rooms)
        return actions

    def _back_to_unfinished_game(self, room_ids: list[RoomId]) -> list[Action]:
        """Go back into the player's unfinished game at once (its clock may be running), naming any other."""
        first, *others = room_ids
        text = f"back to your unfinished game in room {first}"
        if others:
            text += f"; also unfinished: {', '.join(others)} ('join ROOM' to go there)"
        return [Show(text)] + self._send_entering(JoinRoom(room_id=first, as_="player"))

    def _error(self, message: ErrorMessage) -> list[Action]:
        if message.id is not None and message.id == self._hello_id:
            return [Show(describe_refused_sign_in(self.name, message)), Quit(status=1)]
        if isinstance(message.id, int):
            self._waiting.pop(message.id, None)
        if self._resyncing and message.code == "not_found":
            self._resyncing = False
            self.room = None
            return [Show("the room is gone")]
        return [Show(f"{message.message} ({message.code})")]

    def _room(self, message: RoomMessage) -> list[Action]:
        previous = self.room
        room = self.room = RoomView.from_snapshot(message, self._clock())
        if previous is not None:
            room.keep_notices(previous)
        self._resyncing = False
        self._awaiting_game = None
        actions: list[Action] = []
        role = "watching" if message.you == "spectator" else f"playing {message.you}"
        if previous is None or previous.room_id != room.room_id:
            actions.append(Show(f"room {room.room_id}: you are {role}"))
        elif previous.game_id != room.game_id:
            actions.append(Show(f"new game in room {room.room_id}: you are {role}"))
        elif previous.status == "opening" and room.status != "opening":
            actions.append(Show(f"the opening is decided: you are {role}"))
        return actions + [Show(self._room_screen(room))]

    def _room_screen(self, room: RoomView) -> str:
        return room_screen(room, self._clock())

    def _opening_stepped(self, message: OpeningStepped) -> list[Action]:
        """A step of the opening was taken: say what it did (the room's fresh snapshot follows)."""
        room = self.room
        if room is None or room.room_id != message.room_id:
            return []
        room.seq = max(room.seq, message.seq)
        return [Show(describe_step(message.by, message.step, room.size))]

    def _opening_move(self, room: RoomView, move: cmd.PlayMove) -> list[Action]:
        """A point typed during the opening: the stone due, when one alone is; else what to type."""
        places = [choice for choice in room.opening.choices if choice.kind == "place"] if room.opening else []
        if len(places) == 1 and len(places[0].colors or []) == 1:
            return self._room_command(opening.PlaceStones((move.where,)))
        decision = describe_decision(room.opening, room.my_decision, room.size) if room.opening else ""
        return [Show(f"the opening is being decided, not played: {decision}")]

    def _presence(self, message: OpponentAway | OpponentBack) -> list[Action]:
        """A player of the room has gone away (the win may be claimed from them later), or come back."""
        room = self.room
        if room is None or room.room_id != message.room_id:
            return []
        colour = Color.parse(message.color)
        who = f"{colour} ({seat_names(room)[colour]})"
        if isinstance(message, OpponentBack):
            room.claim_at.pop(colour, None)
            return [Show(f"{who} is back")]
        already_told = colour in room.claim_at
        room.claim_at[colour] = self._clock() + message.claim_at_ms / 1000
        if already_told:
            return []  # the server repeats the notice after each snapshot: only the time is news
        if room.my_colour is not colour.other:
            return [Show(f"{who} is away")]
        if message.claim_at_ms <= 0:
            del room.claim_at[colour]
            return [Show(_claim_is_open(colour, seat_names(room)[colour]))]
        return [Show(f"{who} is away: you may claim the win in {message.claim_at_ms / 1000:g} s ('claim')")]

    def _lobby_message(self, message: Lobby | SeekAdded | SeekRemoved | SeekCreated | OnlineCount) -> list[Action]:
        """What the lobby says, through the client's view of it."""
        match message:
            case Lobby():
                text: str | None = self.lobby.shown(message)
            case SeekAdded():
                text = self.lobby.added(message.seek)
            case SeekCreated():
                text = self.lobby.created(message.seek)
            case SeekRemoved():
                awaited = self._waiting.pop(message.id, None) if isinstance(message.id, int) else None
                text = self.lobby.removed(message.seek_id, cancelled_by_player=isinstance(awaited, _CancelSeek))
                # a script's seek that leaves the lobby was taken: its game's room comes next
            case OnlineCount():
                text = self.lobby.online(message.count)
        return [Show(text)] if text else []

    def _lobby_changes(self, batch: LobbyChanges) -> list[Action]:
        """A batch of the lobby's changes (1.2); after a batch missed, the lobby is watched again."""
        if not self.lobby.follows(batch):
            self.lobby.lost_track()
            return self._send(self._watch_lobby())
        return [Show(text) for text in self.lobby.changed(batch)]

    def _watch_lobby(self) -> WatchLobby:
        """The request to watch the lobby: in batches from a server that sends them."""
        return WatchLobby(batches=self._lobby_batches)

    def _room_event(
        self, event: Moved | GameOver | DrawOffered | UndoRequested | Undone | RematchOffered | Declined
    ) -> list[Action]:
        room = self.room
        if room is None or room.room_id != event.room_id or self._resyncing:
            return []
        now = self._clock()
        outcome = room.declined(event.seq) if isinstance(event, Declined) else room.apply(event, now)
        if outcome is Outcome.STALE:
            return []
        if outcome is Outcome.RESYNC:
            return [Show("catching up with the room...")] + self._resync(room)
        return [Show(event_screen(room, event, now))]

    def _resync(self, room: RoomView) -> list[Action]:
        """Ask for a fresh snapshot of the room, keeping the player's role in it; lines typed
        meanwhile wait for it (after a server restart or a take-over, its `seq` jumps ahead)."""
        self._resyncing = True
        return self._send_entering(
            JoinRoom(room_id=room.room_id, as_="spectator" if room.you == "spectator" else "player")
        )

    def _rooms_page(self, message: Rooms) -> list[Action]:
        """A page of the room list: ask for the next one, or show them all after the last."""
        pages = self._waiting.pop(message.id, None) if isinstance(message.id, int) else None
        rooms = (pages.rooms if isinstance(pages, _RoomPages) else ()) + tuple(message.rooms)
        if isinstance(pages, _RoomPages) and message.next is not None and message.next != pages.after:
            return self._send_waiting(ListRooms(after=message.next), _RoomPages(rooms, message.next))
        return [Show(describe_rooms(list(rooms)))]

    def _games_page(self, message: Games) -> list[Action]:
        """A page of a player's games, and how to see the next."""
        page = self._waiting.pop(message.id, None) if isinstance(message.id, int) else None
        self._more_games = None
        if isinstance(page, _GamesPage) and message.next is not None:
            self._more_games = page.request.model_copy(update={"before": message.next, "id": None})
        more = "\n(older games: 'games more')" if self._more_games is not None and message.games else ""
        return [Show(describe_games(message.games) + more)]

    def _game(self, message: GameMessage) -> list[Action]:
        waiting = self._waiting.pop(message.id, None) if isinstance(message.id, int) else None
        if isinstance(waiting, _Export):
            return [SaveFile(waiting.path, record_text(message.record))]
        if isinstance(waiting, _StartReplay):
            try:
                self.replay = Replay(record_from_dict(message.record))
            except RecordFormatError as error:
                return [Show(f"game {message.game_id} cannot be replayed: {error}")]
            return [Show(REPLAY_HELP), Show(self.replay.screen())]
        return []

    # -------------------------------------------------------------- helpers

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _send(self, message: ClientMessage) -> list[Action]:
        """Send a request, numbered so that its answer and errors can be told apart."""
        request_id = self._new_id()
        self._unanswered.add(request_id)
        return [Send(message.model_copy(update={"id": request_id}))]

    def _tell(self, message: ClientMessage) -> list[Action]:
        """Send a request the server does not answer (so nothing waits for its answer)."""
        return [Send(message.model_copy(update={"id": self._new_id()}))]

    def _send_entering(self, message: CreateRoom | JoinRoom | AcceptSeek) -> list[Action]:
        """Send a request that puts the player in a room; later lines wait for its answer."""
        actions = self._send(message)
        self._entering = self._next_id
        return actions

    def _send_waiting(self, message: ClientMessage, waiting: _Awaited) -> list[Action]:
        """Send a request whose answer is awaited for an action."""
        actions = self._send(message)
        sent = actions[0]
        assert isinstance(sent, Send) and isinstance(sent.message.id, int)
        self._waiting[sent.message.id] = waiting
        return actions


def _create_room(command: cmd.CreateRoomCommand) -> CreateRoom:
    return CreateRoom(
        rule=command.rule,
        size=command.size,
        black=_seat_spec(command.black),
        white=_seat_spec(command.white),
        clock=_clock_model(command.clock),
        private=command.private,
        rated=command.rated,
        opening=command.opening,
    )


def _seek(command: players.SeekCommand) -> SeekRequest:
    terms = command.terms
    return SeekRequest(
        rule=terms.rule,
        size=terms.size,
        clock=_clock_model(terms.clock),
        rated=terms.rated,
        color=command.colour,
        rating_min=command.rating_min,
        rating_max=command.rating_max,
        opening=terms.opening,
    )


def _clock_model(clock: tuple[int, int] | None) -> ClockSettingModel | None:
    """A time control as commands hold it, (initial_ms, increment_ms) or None, as the wire's."""
    return None if clock is None else ClockSettingModel(initial_ms=clock[0], increment_ms=clock[1])


def _claim_is_open(colour: Color, name: str) -> str:
    """What the player is told once the win may be claimed from the absent `colour`."""
    return f"{colour} ({name}) has been away long enough: 'claim' wins the game, or wait for them"


def _first_problem(error: ValidationError) -> str:
    detail = error.errors()[0]
    where = ".".join(str(part) for part in detail["loc"])
    return f"{where}: {detail['msg']}" if where else detail["msg"]


def _seat_spec(seat: cmd.Seat) -> SeatSpec:
    if isinstance(seat, cmd.BotSeat):
        return BotSeatSpec(bot=seat.level, depth=seat.depth, width=seat.width)
    return seat
