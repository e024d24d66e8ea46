"""What the server does for each request, once it has been read and its sender signed in.

`RequestHandlers.handle` is one `match` over the closed set of requests of
`wire.messages`. Signing in, rooms and records are served here: room
requests go to the hub as commands (the room's actor stores, then publishes),
queries about rooms are answered by the registry, records come from
storage. The lobby, the online list, chat and the leaderboard are
`server.hub.lobby_requests`; analysis is `server.bots.analysis`. A handler refuses a
request by raising `Refusal`; the connection layer answers it with an
`error` carrying the request's id.
"""

from __future__ import annotations

import asyncio
from typing import Literal, assert_never, get_args

from engine.build import build_kind
from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerInfo
from server.accounts.service import Accounts
from server.bots.analysis import AnalysisRequests
from server.bots.players import BotInfo
from server.domain import Refusal, new_room_id
from server.edge.connections import Connection
from server.hub.account_requests import AccountRequests
from server.hub.commands import RoomCommand
from server.hub.lobby_requests import LobbyRequest, LobbyRequests
from server.hub.room_caps import RoomCaps
from server.hub.services import Services, caller_of, hold_new_room, signed_in
from server.imports.service import Importer
from server.moderation.requests import ModerationRequests
from server.players.sessions import NewNames
from server.rooms import views
from server.rooms.room import Outcome, Room, RoomRequest
from server.tournaments.requests import TournamentRequests
from wire.accounts import DeleteAccount, GetAccount, ListDevices, SetPassword, SignOut
from wire.imports import GamesImported, ImportGames
from wire.messages import (
    AcceptSeek,
    Analyze,
    AnswerDraw,
    AnswerUndo,
    BotInfoModel,
    Bots,
    BotSeatSpec,
    CancelSeek,
    ChatRequest,
    ClaimWin,
    ClientRequest,
    CreateRoom,
    Feature,
    GameMessage,
    Games,
    GetGame,
    Hello,
    JoinRoom,
    Leaderboard,
    LeaveRoom,
    ListBots,
    ListGames,
    ListRooms,
    Move,
    OfferDraw,
    OpeningStep,
    PlayerModel,
    QuickPair,
    RangeModel,
    Rematch,
    RequestUndo,
    Resign,
    Rooms,
    SeatSpec,
    SeekRequest,
    UnwatchLobby,
    WatchLobby,
    Welcome,
    WhoIsOnline,
)
from wire.moderation import (
    Ban,
    CloseReport,
    DeleteGames,
    GetAuditLog,
    Kick,
    ListReports,
    Mute,
    RemoveChat,
    RenamePlayer,
    ReportPlayer,
    Unban,
    Unmute,
)
from wire.review_requests import GetPuzzle, NextPuzzle, ReviewGame, TryPuzzle
from wire.tournaments import TournamentRequest

FEATURES: tuple[Feature, ...] = tuple(feature for feature in get_args(Feature) if feature != "cluster")
"""The additions to the contract this server supports, as `welcome` lists them: every one the wire
knows, but `cluster`, which only a node of several lists."""


class RequestHandlers:
    """Serves the requests of every connection of one server."""

    def __init__(self, services: Services, accounts: Accounts, tournaments: TournamentRequests) -> None:
        self._services = services
        self.accounts = AccountRequests(services, accounts)
        self.tournaments = tournaments
        self.lobby = LobbyRequests(services)
        self.moderation = ModerationRequests(services, self.accounts.signed_out)
        self.analysis = AnalysisRequests(
            services.storage,
            services.rooms,
            services.hub,
            services.bots,
            services.roster,
            services.settings.analysis_level,
            services.settings.analysis_max_ms,
        )
        self._caps = RoomCaps(services.settings.limits, services.rooms)
        self._importer = Importer(services.storage)
        self._new_names = NewNames(services.settings.limits.new_names_per_address_per_hour)
        self._catalogue = [_bot_info_model(info) for info in services.roster.catalogue()]
        self._engine_build = build_kind()
        """How the bot pool's engine runs (its workers import the same install as this process)."""

    async def handle(self, connection: Connection, request: ClientRequest) -> None:
        """Serve one request; raise Refusal to answer it with an error."""
        if isinstance(request, TournamentRequest):
            await self.tournaments.handle(connection, request)
            return
        match request:
            case Hello():
                await self._hello(connection, request)
            case CreateRoom():
                await self._create_room(connection, request)
            case ListRooms():
                summaries, cursor = await self._services.hub.listed_rooms(request.limit, request.after)
                connection.send(Rooms(rooms=summaries, next=cursor, id=request.id))
            case (
                JoinRoom()
                | LeaveRoom()
                | Move()
                | Resign()
                | OfferDraw()
                | AnswerDraw()
                | RequestUndo()
                | AnswerUndo()
                | Rematch()
                | ClaimWin()
                | OpeningStep()
            ):
                await self._in_room(connection, request)
            case ListBots():
                bots = self._catalogue if self._services.bots is not None else []
                connection.send(Bots(bots=bots, engine_build=self._engine_build, id=request.id))
            case ListGames():
                await self._list_games(connection, request)
            case GetGame():
                await self._get_game(connection, request)
            case Analyze():
                await self.analysis.start(caller_of(connection, self._services.edge.node), request, connection.send)
            case Leaderboard():
                await self.lobby.leaderboard(connection, request)
            case (
                WatchLobby()
                | UnwatchLobby()
                | SeekRequest()
                | CancelSeek()
                | AcceptSeek()
                | QuickPair()
                | WhoIsOnline()
            ):
                await self._in_lobby(connection, request)
            case ChatRequest() if request.room_id is None:
                await self._in_lobby(connection, request)
            case ChatRequest():
                await self.lobby.chat(connection, request)
            case SetPassword():
                await self.accounts.set_password(connection, request)
            case ListDevices():
                await self.accounts.list_devices(connection, request)
            case SignOut():
                await self.accounts.sign_out(connection, request)
            case DeleteAccount():
                await self.accounts.delete_account(connection, request)
            case GetAccount():
                await self.accounts.get_account(connection, request)
            case (
                Mute()
                | Unmute()
                | Ban()
                | Unban()
                | RenamePlayer()
                | Kick()
                | RemoveChat()
                | ReportPlayer()
                | ListReports()
                | CloseReport()
                | DeleteGames()
                | GetAuditLog()
            ):
                await self.moderation.handle(connection, request)
            case ReviewGame() | NextPuzzle() | GetPuzzle() | TryPuzzle():
                await self._review(connection, request)
            case ImportGames():
                games = await self._importer.import_games(signed_in(connection), request)
                connection.send(GamesImported(games=games, id=request.id))
            case _:
                assert_never(request)

    async def _review(self, connection: Connection, request: ReviewGame | NextPuzzle | GetPuzzle | TryPuzzle) -> None:
        review = self._services.review
        if review is None:
            raise Refusal("not_allowed", "this server offers no reviews or puzzles")
        await review.handle(signed_in(connection), request, connection.send)

    def connection_closed(self, connection: Connection) -> None:
        """Forget a closed connection outside its rooms (the lobby; rooms are told by their actors)."""
        self.lobby.connection_closed(connection)
        self.accounts.connection_closed(connection)
        self.tournaments.connection_closed(connection)
        if self._services.lobby_elsewhere is not None and connection.player is not None:
            self._services.lobby_elsewhere.closed(connection)

    async def _in_lobby(self, connection: Connection, request: LobbyRequest) -> None:
        """Serve a lobby request here, or hand it to the node that runs the cluster's lobby."""
        if not await self._services.forwarded(connection, request):
            await self.lobby.serve(connection, request)

    async def close(self) -> None:
        """Stop the analyses still running."""
        await self.analysis.close()

    # -------------------------------------------------------------- session

    async def _hello(self, connection: Connection, request: Hello) -> None:
        if connection.player is not None:
            raise Refusal("not_allowed", f"already signed in as {connection.player!r}")
        services = self._services

        def admit_new() -> None:
            self._new_names.admit(connection.address, asyncio.get_running_loop().time())

        signed = await self.accounts.sign_in(connection, request, admit_new)
        player, token = signed.player, signed.token
        connection.player = player.name
        connection.player_kind = player.kind
        services.lobby.signed_in(connection.id, player.name)
        if services.lobby_elsewhere is not None:
            services.lobby_elsewhere.signed_in(connection)
        rating, rd, games = views.rounded(await services.ratings.standing(player.name))
        welcome = Welcome(
            player=PlayerModel(name=player.name, kind=player.kind, rating=rating, rd=rd, games=games),
            token=token,
            rooms=await services.hub.seated(player.name),
            features=[*FEATURES, "cluster"] if services.settings.one_of_several_nodes else list(FEATURES),
            password=signed.device_id is not None,
            role=await services.storage.role_of(player.name),
            id=request.id,
        )
        connection.send(welcome)

    # ---------------------------------------------------------------- rooms

    async def _create_room(self, connection: Connection, request: CreateRoom) -> None:
        services = self._services
        name = signed_in(connection)
        black = self._seat(request.black, request)
        white = self._seat(request.white, request)
        bots = [seat for seat in (black, white) if isinstance(seat, PlayerInfo)]
        clock = None if request.clock is None else ClockSetting(request.clock.initial_ms, request.clock.increment_ms)
        elsewhere = await services.hub.open_elsewhere()
        with self._caps.reserve(name, bots_only=len(bots) == 2, elsewhere=elsewhere):
            if request.rated and len(bots) == 2 and bots[0] == bots[1]:
                raise Refusal("not_allowed", "a rated game needs two different players")
            if bots and services.bots is not None and services.bots.saturated:
                raise Refusal("busy", "every bot is busy right now; try again soon")
            room = Room(
                new_room_id(),
                request.rule,
                request.size,
                clock,
                request.private,
                services.settings.room,
                rated=request.rated,
                opening=OpeningRule(request.opening),
            )
            standings = [await services.ratings.standing(bot) for bot in bots] + [await services.ratings.standing(name)]
            actor = services.rooms.actor_for(room)
            caller = caller_of(connection, services.edge.node)

            def open_room(room: Room, now: float) -> Outcome:
                room.know(standings)
                return room.open(caller, black, white, now)

            await services.hub.claim(room.room_id)
            await actor.run(open_room, request.id)
            await hold_new_room(services, actor)

    def _seat(self, spec: SeatSpec, request: CreateRoom) -> Literal["me", "open"] | PlayerInfo:
        if not isinstance(spec, BotSeatSpec):
            return spec
        if self._services.bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        self._services.roster.check_seat(spec.bot, request.rule, request.size, OpeningRule(request.opening))
        self._services.roster.check_search(spec.bot, spec.depth, spec.width, request.rated)
        return PlayerInfo(spec.bot, "bot", spec.bot, spec.depth, spec.width)

    async def _in_room(self, connection: Connection, request: RoomRequest) -> None:
        """Hand a request to its room as a command, from the connection's player (the hub reads
        the standing of one who asks for a seat, where the room is)."""
        caller = caller_of(connection, self._services.edge.node)
        if isinstance(request, JoinRoom):
            self.moderation.check_may_join(request.room_id, caller.name)
        await self._services.hub.command(RoomCommand(request.room_id, caller, request))

    # -------------------------------------------------------------- records

    async def _list_games(self, connection: Connection, request: ListGames) -> None:
        storage = self._services.storage
        page = await storage.list_games(request.player, request.limit, request.before, connection.player)
        if page is None:
            raise Refusal("not_found", f"there is no game {request.before!r}")
        games = [views.game_summary(game) for game in page.games]
        connection.send(Games(games=games, next=page.next, id=request.id))

    async def _get_game(self, connection: Connection, request: GetGame) -> None:
        record = await self._services.storage.game_record(request.game_id, signed_in(connection))
        if record is None:
            raise Refusal("not_found", f"there is no game {request.game_id!r}")
        body = views.render_record(record, request.format)
        connection.send(GameMessage(game_id=request.game_id, format=request.format, record=body, id=request.id))


def _bot_info_model(info: BotInfo) -> BotInfoModel:
    """One entry of `bots`, with the bounds of the depth and width a seat may set, if any."""
    depth, width = (None, None) if info.search is None else info.search
    return BotInfoModel(
        level=info.level,
        description=info.description,
        rating=info.rating,
        depth=None if depth is None else RangeModel(min=depth[0], max=depth[1]),
        width=None if width is None else RangeModel(min=width[0], max=width[1]),
    )
