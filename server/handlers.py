"""What the server does for each request, once it has been read and its sender signed in.

`RequestHandlers.handle` is one `match` over the closed set of requests of
`server.protocol`. Room requests run through the room's actor (which
stores, then delivers); queries about rooms are answered by the registry;
records come from storage; searches run in the bot pool. A handler refuses
a request by raising `Refusal`; the connection layer answers it with an
`error` carrying the request's id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, assert_never

from engine.bots import Decision
from engine.notation import format_point
from engine.record import ClockSetting, PlayerInfo
from engine.registry import level_names
from engine.types import Point
from server import views
from server.actors import RoomActor, RoomRegistry
from server.bot_pool import BotBusyError, BotError, BotPool, BotRequest
from server.bots import bot_catalogue, is_level
from server.connections import Connection
from server.domain import Caller, Refusal, RoomId, new_room_id
from server.protocol import (
    Analysis,
    AnalysisMoveModel,
    Analyze,
    AnswerDraw,
    AnswerUndo,
    BotInfoModel,
    Bots,
    BotSeatSpec,
    ClientRequest,
    CreateRoom,
    Feature,
    GameMessage,
    Games,
    GetGame,
    Hello,
    JoinRoom,
    LeaveRoom,
    ListBots,
    ListGames,
    ListRooms,
    Move,
    OfferDraw,
    PlayerModel,
    Rematch,
    RequestUndo,
    Resign,
    Rooms,
    SeatSpec,
    Welcome,
    error_message,
)
from server.rooms import Outcome, Room, RoomSettings
from server.sessions import sign_in
from server.storage import Storage

FEATURES: tuple[Feature, ...] = ("paging",)
"""The 1.1 additions this server supports, as `welcome` lists them."""

ANALYSIS_ATTEMPTS = 2
"""An analysis whose search fails (its worker died) is tried once more before the answer is `busy`."""

logger = logging.getLogger(__name__)

RoomRequest = Callable[[Room, Caller, float], Outcome]
"""What a request does to a room, for a caller, at a moment."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one player, one address or the whole server may take; past each, `limit_reached`."""

    connections_per_address: int = 256
    """Open websocket connections from one IP address (`--max-connections-per-address`)."""
    rooms_per_player: int = 10
    """Rooms a player has opened that are waiting or playing (`--max-rooms-per-player`)."""
    bot_games_per_player: int = 3
    """Unfinished games between two bots a player has opened (`--max-bot-games-per-player`)."""
    bot_games: int = 32
    """Unfinished games between two bots on the whole server (`--max-bot-games`)."""


@dataclass(frozen=True, slots=True)
class HandlerSettings:
    """The server settings request handlers follow."""

    room: RoomSettings = field(default_factory=RoomSettings)
    limits: Limits = field(default_factory=Limits)
    analysis_level: str | None = None
    """The bot level that answers `analyze`; None means the strongest one."""


class RequestHandlers:
    """Serves the requests of every connection of one server."""

    def __init__(
        self, settings: HandlerSettings, storage: Storage, rooms: RoomRegistry, bots: BotPool | None
    ) -> None:
        self._settings = settings
        self._storage = storage
        self._rooms = rooms
        self._bots = bots
        self._catalogue = [
            BotInfoModel(level=info.level, description=info.description, rating=info.rating)
            for info in bot_catalogue()
        ]
        self._analyses: set[asyncio.Task[None]] = set()

    async def handle(self, connection: Connection, request: ClientRequest) -> None:
        """Serve one request; raise Refusal to answer it with an error."""
        match request:
            case Hello():
                await self._hello(connection, request)
            case CreateRoom():
                await self._create_room(connection, request)
            case ListRooms():
                page, cursor = self._rooms.listed(request.limit, request.after)
                connection.send(Rooms(rooms=[views.room_summary(facts) for facts in page], next=cursor, id=request.id))
            case JoinRoom():
                as_player = request.as_ == "player"
                await self._in_room(connection, request, lambda room, caller, now: room.join(caller, as_player, now))
            case LeaveRoom():
                await self._in_room(connection, request, lambda room, caller, now: room.leave(caller, now))
            case ListBots():
                connection.send(Bots(bots=self._catalogue if self._bots is not None else [], id=request.id))
            case Move():
                target = _move_target(request)
                await self._in_room(connection, request, lambda room, caller, now: room.move(caller, target, now))
            case Resign():
                await self._in_room(connection, request, lambda room, caller, now: room.resign(caller, now))
            case OfferDraw():
                await self._in_room(connection, request, lambda room, caller, now: room.offer_draw(caller, now))
            case AnswerDraw():
                accept = request.accept
                await self._in_room(
                    connection, request, lambda room, caller, now: room.answer_draw(caller, accept, now)
                )
            case RequestUndo():
                await self._in_room(connection, request, lambda room, caller, now: room.request_undo(caller, now))
            case AnswerUndo():
                accept = request.accept
                await self._in_room(
                    connection, request, lambda room, caller, now: room.answer_undo(caller, accept, now)
                )
            case Rematch():
                await self._in_room(connection, request, lambda room, caller, now: room.rematch(caller, now))
            case ListGames():
                await self._list_games(connection, request)
            case GetGame():
                await self._get_game(connection, request)
            case Analyze():
                self._analyze(connection, request)
            case _:
                assert_never(request)

    async def close(self) -> None:
        """Stop the analyses still running."""
        for task in list(self._analyses):
            task.cancel()
        await asyncio.gather(*self._analyses, return_exceptions=True)

    # -------------------------------------------------------------- session

    async def _hello(self, connection: Connection, request: Hello) -> None:
        if connection.player is not None:
            raise Refusal("not_allowed", f"already signed in as {connection.player!r}")
        player, token = await sign_in(self._storage, request.name, request.token)
        connection.player = player.name
        welcome = Welcome(
            player=PlayerModel(name=player.name, rating=player.rating),
            token=token,
            rooms=list(self._rooms.seated(player.name)),
            features=list(FEATURES),
            id=request.id,
        )
        connection.send(welcome)

    # ---------------------------------------------------------------- rooms

    async def _create_room(self, connection: Connection, request: CreateRoom) -> None:
        black = self._seat(request.black)
        white = self._seat(request.white)
        bots = [seat for seat in (black, white) if isinstance(seat, PlayerInfo)]
        assert connection.player is not None
        self._check_room_limits(connection.player, bots_only=len(bots) == 2)
        if bots and self._bots is not None and self._bots.saturated:
            raise Refusal("busy", "every bot is busy right now; try again soon")
        clock = None if request.clock is None else ClockSetting(request.clock.initial_ms, request.clock.increment_ms)
        room = Room(new_room_id(), request.rule, request.size, clock, request.private, self._settings.room)
        actor = self._rooms.actor_for(room)
        caller = _caller(connection)
        await actor.run(lambda room, now: room.open(caller, black, white, now), request.id)
        self._rooms.add(actor)

    def _check_room_limits(self, player: str, bots_only: bool) -> None:
        limits = self._settings.limits
        if self._rooms.count_open(created_by=player) >= limits.rooms_per_player:
            raise Refusal(
                "limit_reached", f"you have {limits.rooms_per_player} rooms open, the most per player: close one first"
            )
        if not bots_only:
            return
        if self._rooms.count_open(created_by=player, bots_only=True) >= limits.bot_games_per_player:
            raise Refusal(
                "limit_reached",
                f"you have {limits.bot_games_per_player} games between bots running, the most per player",
            )
        if self._rooms.count_open(bots_only=True) >= limits.bot_games:
            raise Refusal(
                "limit_reached", f"{limits.bot_games} games between bots are running, the most this server allows"
            )

    def _seat(self, spec: SeatSpec) -> Literal["me", "open"] | PlayerInfo:
        if not isinstance(spec, BotSeatSpec):
            return spec
        if self._bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        if not is_level(spec.bot):
            known = ", ".join(level_names())
            raise Refusal("bad_request", f"unknown bot level {spec.bot!r}: expected one of {known}")
        return PlayerInfo(spec.bot, "bot", spec.bot)

    async def _in_room(
        self,
        connection: Connection,
        request: JoinRoom | LeaveRoom | Move | Resign | OfferDraw | AnswerDraw | RequestUndo | AnswerUndo | Rematch,
        action: RoomRequest,
    ) -> None:
        """Run a request in its room, as the connection's player."""
        actor = self._actor(request.room_id)
        caller = _caller(connection)
        await actor.run(lambda room, now: action(room, caller, now), request.id)

    def _actor(self, room_id: str) -> RoomActor:
        actor = self._rooms.get(room_id)
        if actor is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        return actor

    # -------------------------------------------------------------- records

    async def _list_games(self, connection: Connection, request: ListGames) -> None:
        page = await self._storage.list_games(request.player, request.limit, request.before, connection.player)
        if page is None:
            raise Refusal("not_found", f"there is no game {request.before!r}")
        games = [views.game_summary(game) for game in page.games]
        connection.send(Games(games=games, next=page.next, id=request.id))

    async def _get_game(self, connection: Connection, request: GetGame) -> None:
        record = await self._storage.game_record(request.game_id)
        if record is None:
            raise Refusal("not_found", f"there is no game {request.game_id!r}")
        body = views.render_record(record, request.format)
        connection.send(GameMessage(game_id=request.game_id, format=request.format, record=body, id=request.id))

    # ------------------------------------------------------------- analysis

    def _analyze(self, connection: Connection, request: Analyze) -> None:
        """Start the search off the receive loop, so that the client can keep playing meanwhile."""
        room = self._rooms.facts(request.room_id)
        if room is None:
            raise Refusal("not_found", f"there is no room {request.room_id!r}")
        assert connection.player is not None
        if not room.analysis_allowed(connection.player):
            raise Refusal("not_allowed", "players of a game between two humans cannot analyse it")
        if self._bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        if room.decided:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        level = self._settings.analysis_level or level_names()[-1]
        search = BotRequest(level, room.rule, room.size, room.moves, request.time_ms)
        task = asyncio.get_running_loop().create_task(self._answer_analysis(connection, request, search, room.size))
        self._analyses.add(task)
        task.add_done_callback(self._analyses.discard)

    async def _answer_analysis(self, connection: Connection, request: Analyze, search: BotRequest, size: int) -> None:
        """Run the search; a failed one (its worker died, say) is tried once more, then answered `busy`."""
        assert self._bots is not None
        for attempt in range(ANALYSIS_ATTEMPTS):
            try:
                decision = await self._bots.choose(search)
            except BotBusyError:
                break
            except BotError as error:
                logger.warning("analysis attempt %d of %d failed: %s", attempt + 1, ANALYSIS_ATTEMPTS, error)
                continue
            connection.send(_analysis_message(request, decision, size))
            return
        busy = Refusal("busy", "no bot could take the analysis now; try again soon")
        connection.send(error_message(busy, request.id))


def _move_target(request: Move) -> Point | str:
    """The move as a point, or as the notation the client wrote (the room reads it for its size)."""
    if request.move is not None:
        return request.move
    assert request.x is not None and request.y is not None, "the protocol checks a move has one form"
    return Point(request.x, request.y)


def _caller(connection: Connection) -> Caller:
    assert connection.player is not None, "requests other than hello come from signed-in connections"
    return Caller(connection.id, connection.player)


def _analysis_message(request: Analyze, decision: Decision, size: int) -> Analysis:
    point_score = None
    if request.point is not None:
        wanted = Point(request.point.x, request.point.y)
        point_score = next((score for point, score in decision.candidates if point == wanted), None)
    best = decision.move
    return Analysis(
        room_id=RoomId(request.room_id),
        best=AnalysisMoveModel(x=best.x, y=best.y, move=format_point(best, size)),
        score=decision.score,
        depth=decision.depth,
        nodes=decision.nodes,
        pv=[format_point(point, size) for point in decision.pv],
        point_score=point_score,
        id=request.id,
    )
