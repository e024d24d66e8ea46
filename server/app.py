"""The game server: websocket connections and HTTP on one port, rooms, records and bots.

The connection handler knows no rules. It reads frames (closing on a binary
frame with 1003; websockets itself closes an oversized one with 1009),
limits the request rate, parses each frame with `server.protocol` and hands
the request to one handler per message type. Room requests run through the
room's actor; records come from storage; searches run in the bot pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from engine.bots import Decision
from engine.notation import format_point
from engine.psq import write_psq
from engine.record import ClockSetting, GameRecord, PlayerInfo, record_to_dict
from engine.registry import level_names
from engine.sgf import write_sgf
from engine.types import Point
from server.actors import RoomActor, RoomRegistry
from server.bot_pool import BotBusyError, BotError, BotPool, BotRequest, bot_catalogue
from server.connections import Connection, RateLimit
from server.protocol import (
    MAX_FRAME_BYTES,
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
    ProtocolError,
    Rematch,
    RequestUndo,
    Resign,
    RoomId,
    Rooms,
    ServerMessage,
    Welcome,
    error_message,
    parse_client_message,
)
from server.rooms import Caller, ConnectionId, Outcome, Room, RoomSettings, new_room_id
from server.sessions import sign_in
from server.storage import Storage

logger = logging.getLogger(__name__)

CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_POLICY_VIOLATION = 1008


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Everything about the server that a command-line flag or a test may change."""

    host: str = "127.0.0.1"
    port: int = 8765
    db_path: str = "gomoku.sqlite3"
    bot_workers: int = 1
    """Processes in the bot pool; 0 runs no bots (bot seats and `analyze` are refused)."""
    bot_queue_limit: int | None = None
    """Bot requests that may wait for a worker (None: the pool's default); beyond that, `busy`."""
    room: RoomSettings = field(default_factory=RoomSettings)
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    analysis_level: str | None = None
    """The bot level that answers `analyze`; None means the strongest one."""


class GameServer:
    """Owns the storage, the rooms, the bot pool and the connections of one running server."""

    def __init__(self, settings: ServerSettings, storage: Storage, bots: BotPool | None) -> None:
        self.settings = settings
        self.storage = storage
        self.bots = bots
        self.rooms = RoomRegistry()
        self.connections: dict[ConnectionId, Connection] = {}
        self._ids = itertools.count(1)
        self._background: set[asyncio.Task[None]] = set()
        self._catalogue: list[BotInfoModel] | None = None
        self._handlers: dict[type[Any], Callable[[Connection, Any], Awaitable[None]]] = {
            Hello: self._hello,
            CreateRoom: self._create_room,
            ListRooms: self._list_rooms,
            JoinRoom: self._join_room,
            LeaveRoom: self._leave_room,
            ListBots: self._list_bots,
            Move: self._move,
            Resign: self._room_action,
            OfferDraw: self._room_action,
            AnswerDraw: self._room_action,
            RequestUndo: self._room_action,
            AnswerUndo: self._room_action,
            Rematch: self._room_action,
            ListGames: self._list_games,
            GetGame: self._get_game,
            Analyze: self._analyze,
        }

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def start(cls, settings: ServerSettings) -> tuple[GameServer, Server]:
        """Open the database, bring back unfinished games, start the bot pool and listen."""
        storage = await Storage.open(settings.db_path)
        bots = BotPool(settings.bot_workers, settings.bot_queue_limit) if settings.bot_workers > 0 else None
        app = cls(settings, storage, bots)
        await app.restore_rooms()
        server = await serve(
            app.handle,
            settings.host,
            settings.port,
            process_request=app.process_request,
            max_size=MAX_FRAME_BYTES,
        )
        return app, server

    async def restore_rooms(self) -> None:
        """Every unfinished game comes back as a playing room that its players can rejoin."""
        now = asyncio.get_running_loop().time()
        for game in await self.storage.unfinished_games():
            try:
                room = Room.restore(game, self.settings.room, now)
            except ValueError as error:
                # One unreadable game must not keep every other game (and the server) down.
                logger.error("cannot restore game %s: %s", game.game_id, error)
                continue
            self.rooms.add(RoomActor(room, self.storage, self.deliver, self.bots, self.rooms))
            logger.info("restored game %s in room %s at ply %d", game.game_id, game.room_id, len(game.moves))

    async def close(self) -> None:
        """Stop rooms (after their writes), the bot pool and the database."""
        await self.rooms.close()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        if self.bots is not None:
            await self.bots.close()
        await self.storage.close()

    def deliver(self, messages: list[tuple[ConnectionId, ServerMessage]]) -> None:
        """Hand messages to the connections' send queues (never waits)."""
        for connection_id, message in messages:
            connection = self.connections.get(connection_id)
            if connection is not None:
                connection.send(message)

    # ----------------------------------------------------------- websocket

    async def handle(self, websocket: ServerConnection) -> None:
        """Serve one websocket connection until it closes."""
        rate = RateLimit(self.settings.rate_per_second, self.settings.rate_burst)
        connection = Connection(ConnectionId(next(self._ids)), websocket, rate)
        self.connections[connection.id] = connection
        try:
            await self._receive_loop(connection)
        except ConnectionClosed:
            pass
        finally:
            del self.connections[connection.id]
            await self._disconnect(connection)
            await connection.stop()

    async def _receive_loop(self, connection: Connection) -> None:
        loop = asyncio.get_running_loop()
        async for frame in connection.websocket:
            if isinstance(frame, bytes):
                await _close_and_drain(connection.websocket, CLOSE_UNSUPPORTED_DATA, "binary frames are not accepted")
                return
            if not connection.rate_limit.allow(loop.time()):
                if connection.rate_limit.exhausted:
                    await _close_and_drain(connection.websocket, CLOSE_POLICY_VIOLATION, "too many requests")
                    return
                connection.send(error_message(ProtocolError("rate_limited", "too many requests; slow down")))
                continue
            await self._serve_frame(connection, frame)

    async def _serve_frame(self, connection: Connection, frame: str) -> None:
        request_id: str | int | None = None
        try:
            request = parse_client_message(frame)
            request_id = request.id
            if connection.player is None and not isinstance(request, Hello):
                raise ProtocolError("unauthorized", "say hello first", request_id)
            await self._handlers[type(request)](connection, request)
        except ProtocolError as error:
            connection.send(error_message(error))
        except Exception:
            logger.exception("request failed on connection %d", connection.id)
            connection.send(error_message(ProtocolError("internal", "the server failed on this request", request_id)))

    async def _disconnect(self, connection: Connection) -> None:
        for room_id in list(connection.rooms):
            actor = self.rooms.get(room_id)
            if actor is not None:
                await actor.run(lambda room, now: room.disconnect(connection.id, now))

    # -------------------------------------------------------------- session

    async def _hello(self, connection: Connection, request: Hello) -> None:
        if connection.player is not None:
            raise ProtocolError("not_allowed", f"already signed in as {connection.player!r}", request.id)
        player, token = await sign_in(self.storage, request.name, request.token, request.id)
        connection.player = player.name
        seated: list[str] = [
            actor.room.room_id
            for actor in self.rooms
            if actor.room.status != "finished" and actor.room.seat_of(player.name) is not None
        ]
        welcome = Welcome(player=PlayerModel(name=player.name, rating=player.rating), token=token, rooms=seated)
        connection.send(welcome.model_copy(update={"id": request.id}))

    # ---------------------------------------------------------------- rooms

    def _caller(self, connection: Connection, request: ClientRequest) -> Caller:
        assert connection.player is not None
        return Caller(connection.id, connection.player, request.id)

    # A connection notes a room before acting in it: a seat holder acting from a
    # new connection becomes a member of the room, and must be let go when it closes.

    def _actor(self, room_id: str, request: ClientRequest) -> RoomActor:
        actor = self.rooms.get(room_id)
        if actor is None:
            raise ProtocolError("not_found", f"there is no room {room_id!r}", request.id)
        return actor

    def _seat_spec(self, spec: Any, request: CreateRoom) -> Any:
        if not isinstance(spec, BotSeatSpec):
            return spec
        if self.bots is None:
            raise ProtocolError("not_allowed", "this server runs no bots", request.id)
        if spec.bot not in level_names():
            known = ", ".join(level_names())
            raise ProtocolError("bad_request", f"unknown bot level {spec.bot!r}: expected one of {known}", request.id)
        return PlayerInfo(spec.bot, "bot", spec.bot)

    async def _create_room(self, connection: Connection, request: CreateRoom) -> None:
        black = self._seat_spec(request.black, request)
        white = self._seat_spec(request.white, request)
        clock = None if request.clock is None else ClockSetting(request.clock.initial_ms, request.clock.increment_ms)
        room = Room(new_room_id(), request.rule, request.size, clock, request.private, self.settings.room)
        actor = RoomActor(room, self.storage, self.deliver, self.bots, self.rooms)
        caller = self._caller(connection, request)
        await actor.run(lambda room, now: room.open(caller, black, white, now))
        connection.rooms.add(room.room_id)
        self.rooms.add(actor)

    async def _list_rooms(self, connection: Connection, request: ListRooms) -> None:
        summaries = [
            actor.room.summary()
            for actor in self.rooms
            if not actor.room.private and actor.room.status in ("waiting", "playing")
        ]
        connection.send(Rooms(rooms=summaries, id=request.id))

    async def _join_room(self, connection: Connection, request: JoinRoom) -> None:
        actor = self._actor(request.room_id, request)
        caller = self._caller(connection, request)
        connection.rooms.add(actor.room.room_id)
        await actor.run(lambda room, now: room.join(caller, request.as_ == "player", now))

    async def _leave_room(self, connection: Connection, request: LeaveRoom) -> None:
        actor = self._actor(request.room_id, request)
        caller = self._caller(connection, request)
        await actor.run(lambda room, now: room.leave(caller, now))
        connection.rooms.discard(actor.room.room_id)

    async def _move(self, connection: Connection, request: Move) -> None:
        actor = self._actor(request.room_id, request)
        caller = self._caller(connection, request)
        target: Point | str = request.move if request.move is not None else Point(request.x or 0, request.y or 0)
        connection.rooms.add(actor.room.room_id)
        await actor.run(lambda room, now: room.move(caller, target, now))

    async def _room_action(
        self, connection: Connection, request: Resign | OfferDraw | AnswerDraw | RequestUndo | AnswerUndo | Rematch
    ) -> None:
        actor = self._actor(request.room_id, request)
        caller = self._caller(connection, request)
        connection.rooms.add(actor.room.room_id)
        await actor.run(lambda room, now: _room_action(room, request, caller, now))

    # ----------------------------------------------------------------- bots

    def _bot_catalogue(self) -> list[BotInfoModel]:
        if self._catalogue is None:
            self._catalogue = [
                BotInfoModel(level=info.level, description=info.description, rating=info.rating)
                for info in bot_catalogue()
            ]
        return self._catalogue

    async def _list_bots(self, connection: Connection, request: ListBots) -> None:
        bots = self._bot_catalogue() if self.bots is not None else []
        connection.send(Bots(bots=bots, id=request.id))

    async def _analyze(self, connection: Connection, request: Analyze) -> None:
        actor = self._actor(request.room_id, request)
        room = actor.room
        assert connection.player is not None
        if not room.analysis_allowed(connection.player):
            raise ProtocolError("not_allowed", "players of a game between two humans cannot analyse it", request.id)
        if self.bots is None:
            raise ProtocolError("not_allowed", "this server runs no bots", request.id)
        if room.board.result is not None:
            raise ProtocolError("game_over", "the position is decided: there is nothing to analyse", request.id)
        level = self.settings.analysis_level or level_names()[-1]
        bot_request = BotRequest(level, room.rule, room.size, room.board.moves, request.time_ms)
        size = room.size
        task = asyncio.get_running_loop().create_task(self._answer_analysis(connection, request, bot_request, size))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _answer_analysis(self, connection: Connection, request: Analyze, bot: BotRequest, size: int) -> None:
        """Run the search off the receive loop, so that the client can keep playing meanwhile."""
        assert self.bots is not None
        try:
            decision = await self.bots.choose(bot)
        except BotBusyError:
            connection.send(error_message(ProtocolError("busy", "every bot is busy; try again soon", request.id)))
            return
        except BotError as error:
            connection.send(error_message(ProtocolError("internal", f"the analysis failed: {error}", request.id)))
            return
        connection.send(_analysis_message(request, decision, size))

    # -------------------------------------------------------------- records

    async def _list_games(self, connection: Connection, request: ListGames) -> None:
        games = await self.storage.list_games(request.player, request.limit, request.before)
        if games is None:
            raise ProtocolError("not_found", f"there is no game {request.before!r}", request.id)
        connection.send(Games(games=games, id=request.id))

    async def _get_game(self, connection: Connection, request: GetGame) -> None:
        record = await self.storage.game_record(request.game_id)
        if record is None:
            raise ProtocolError("not_found", f"there is no game {request.game_id!r}", request.id)
        body: dict[str, Any] | str = _render(record, request.format)
        connection.send(GameMessage(game_id=request.game_id, format=request.format, record=body, id=request.id))

    # ----------------------------------------------------------------- http

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer plain HTTP on the websocket's port; let `/ws` through to the handshake."""
        url = urlsplit(request.path)
        path = url.path.rstrip("/") or "/"
        if path == "/ws":
            return None
        if path == "/healthz":
            return _response(connection, HTTPStatus.OK, "ok", "text/plain; charset=utf-8")
        if path == "/api/games":
            return await self._http_list_games(connection, parse_qs(url.query))
        if path.startswith("/api/games/"):
            return await self._http_get_game(connection, path.removeprefix("/api/games/"))
        return _response(connection, HTTPStatus.NOT_FOUND, "not found", "text/plain; charset=utf-8")

    async def _http_list_games(self, connection: ServerConnection, query: dict[str, list[str]]) -> Response:
        player = query.get("player", [""])[-1] or None
        limit_text = query.get("limit", ["50"])[-1] or "50"
        before = query.get("before", [""])[-1] or None
        if not limit_text.isdigit() or not 1 <= int(limit_text) <= 500:
            return _response(connection, HTTPStatus.BAD_REQUEST, "limit must be 1 to 500", "text/plain; charset=utf-8")
        games = await self.storage.list_games(player, int(limit_text), before)
        if games is None:
            return _response(connection, HTTPStatus.NOT_FOUND, "no such game", "text/plain; charset=utf-8")
        body = json.dumps([game.model_dump(mode="json") for game in games])
        return _response(connection, HTTPStatus.OK, body, "application/json")

    async def _http_get_game(self, connection: ServerConnection, name: str) -> Response:
        game_id, _, extension = name.partition(".")
        formats = {"": "json", "psq": "psq", "sgf": "sgf"}
        record = await self.storage.game_record(game_id) if extension in formats else None
        if record is None:
            return _response(connection, HTTPStatus.NOT_FOUND, "no such game", "text/plain; charset=utf-8")
        body = _render(record, formats[extension])
        if isinstance(body, dict):
            return _response(connection, HTTPStatus.OK, json.dumps(body), "application/json")
        content_type = "application/x-go-sgf" if extension == "sgf" else "text/plain; charset=utf-8"
        return _response(connection, HTTPStatus.OK, body, content_type)


async def _close_and_drain(websocket: ServerConnection, code: int, reason: str) -> None:
    """Close, reading and dropping whatever the client still sends until its close frame arrives.

    Frames left unread would fill the receive queue, stop reading, and so
    hide the client's close frame until the close timeout.
    """
    closing = asyncio.ensure_future(websocket.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in websocket:
            pass
    await closing


def _room_action(
    room: Room,
    request: Resign | OfferDraw | AnswerDraw | RequestUndo | AnswerUndo | Rematch,
    caller: Caller,
    now: float,
) -> Outcome:
    """The room method for a play request other than a move."""
    if isinstance(request, Resign):
        return room.resign(caller, now)
    if isinstance(request, OfferDraw):
        return room.offer_draw(caller, now)
    if isinstance(request, AnswerDraw):
        return room.answer_draw(caller, request.accept, now)
    if isinstance(request, RequestUndo):
        return room.request_undo(caller, now)
    if isinstance(request, AnswerUndo):
        return room.answer_undo(caller, request.accept, now)
    return room.rematch(caller, now)


def _render(record: GameRecord, format: str) -> dict[str, Any] | str:
    """A record in one of the wire's formats."""
    if format == "psq":
        return write_psq(record)
    if format == "sgf":
        return write_sgf(record)
    return record_to_dict(record)


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


def _response(connection: ServerConnection, status: HTTPStatus, body: str, content_type: str) -> Response:
    response = connection.respond(status, body)
    del response.headers["Content-Type"]
    response.headers["Content-Type"] = content_type
    return response
