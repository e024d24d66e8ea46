"""`analyze`: the engine's view of a position, searched in the analysis pool off the receive loop.

The position is a room's current one, or (1.1 "Analysis of any position")
a stored game's after `ply` moves. Who may ask (1.2 "Fair play",
`RoomFacts.analysis_refusal`): anyone for a finished game, and for a casual
game against a bot; nobody for an unfinished rated game or an unfinished
game between two people. Analysis never delays a bot's move in a live game:
it runs in a pool of its own (`BotPlayers.analysis_pool`), one at a time per
player (`rate_limited` for more, whatever connection asks), for at most the
server's `analysis_max_ms` (a longer `time_ms` is lowered to it, not
refused: 1.0 clients may ask up to 60 s). A search whose worker dies is
tried once more, then answered `busy`, never `internal`.

On a node of several, a room another node holds is analysed there (`RoomsElsewhere`): that node
checks the rules with the room's facts, searches in its own pool, one analysis per player at a
time, and answers the caller through the bus; so a node without bots gets analyses of the rooms of
a node with them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from engine.board import Board
from engine.bots import Decision
from engine.errors import IllegalMoveError
from engine.notation import format_point
from engine.types import Point, Rule
from server.bots.players import BotPlayers, BotRoster
from server.bots.pool import BotBusyError, BotError, BotRequest, Priority
from server.domain import Caller, RecordReader, Refusal, RoomFacts, RoomId
from server.rooms.actors import RoomRegistry
from wire.messages import Analysis, AnalysisMoveModel, Analyze, ServerMessage, error_message

logger = logging.getLogger(__name__)

ANALYSIS_ATTEMPTS = 2
"""An analysis whose search fails (its worker died) is tried once more before the answer is `busy`."""

Position = tuple[Rule, int, tuple[Point, ...]]
"""A position to analyse: its rule, its board's size and its moves."""

Reply = Callable[[ServerMessage], None]
"""Sends the answer to whoever asked (the connection layer's send, for one connection)."""


class RoomsElsewhere(Protocol):
    """The rooms other nodes hold (the hub)."""

    async def analyse_elsewhere(self, room_id: RoomId, caller: Caller, request: Analyze) -> bool:
        """Hand the analysis of a room not held here to the node that holds it, which answers the
        caller; whether it was handed on (False: the room is held here now, or nowhere)."""
        ...

    async def room_playing_elsewhere(self, game_id: str) -> RoomId | None:
        """The room of another node where the game is going on, if any."""
        ...


class AnalysisRequests:
    """Serves `analyze`, one background search per request, one running per player.

    It is handed the parts of the server it reads and, with each request, who
    asks and how to answer them, so that it knows nothing of connections.
    """

    def __init__(
        self,
        storage: RecordReader,
        rooms: RoomRegistry,
        elsewhere: RoomsElsewhere,
        bots: BotPlayers | None,
        roster: BotRoster,
        level: str | None,
        max_ms: int,
    ) -> None:
        self._storage = storage
        self._rooms = rooms
        self._elsewhere = elsewhere
        self._bots = bots
        """Who searches; None on a server that runs no bots (every `analyze` is refused)."""
        self._roster = roster
        self._level = level
        """The bot level that answers `analyze`; None means the strongest one."""
        self._max_ms = max_ms
        """The longest analysis; a longer `time_ms` is lowered to it."""
        self._running: set[asyncio.Task[None]] = set()
        self._analysing: set[str] = set()
        """The players who have an analysis running (on any of their connections)."""

    async def start(self, caller: Caller, request: Analyze, reply: Reply) -> None:
        """Check the request of the signed-in `caller`, then search off the receive loop (the
        client can keep playing) and `reply` with the answer; or hand it to the node that holds its
        room, which answers the caller."""
        await self._serve(caller, request, reply, forward=True)

    async def serve_forwarded(self, caller: Caller, request: Analyze, reply: Reply) -> None:
        """Serve an analysis another node handed on (its room held here, as the hub checked first):
        as `start`, but never handed on again."""
        await self._serve(caller, request, reply, forward=False)

    async def _serve(self, caller: Caller, request: Analyze, reply: Reply, forward: bool) -> None:
        position = await self._position(caller, request, forward)
        if position is not None:
            self._search(caller.name, request, position, reply)

    async def _position(self, caller: Caller, request: Analyze, forward: bool) -> Position | None:
        """The position to analyse, checked; None if the room that rules it is another node's and
        `forward` allowed handing the request on to it."""
        if request.game_id is not None and request.ply is not None:
            return await self._stored_position(caller, request, request.game_id, request.ply, forward)
        return await self._room_position(caller, request, RoomId(str(request.room_id)), forward)

    def _search(self, player: str, request: Analyze, position: Position, reply: Reply) -> None:
        """Start searching the position in the background, one search at a time per player."""
        if self._bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        if player in self._analysing:
            raise Refusal("rate_limited", "you have an analysis running: wait for its answer before asking another")
        rule, size, moves = position
        level = self._roster.analysis_level(rule, size, self._level)
        time_ms = min(request.time_ms, self._max_ms)
        search = BotRequest(level, rule, size, moves, time_ms, priority=Priority.ANALYSIS)
        self._analysing.add(player)
        task = asyncio.get_running_loop().create_task(self._analyse(reply, player, request, search, size))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def close(self) -> None:
        """Stop the searches still running."""
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    async def _room_position(self, caller: Caller, request: Analyze, room_id: RoomId, forward: bool) -> Position | None:
        room = self._rooms.facts(room_id)
        if room is None and forward:
            if await self._elsewhere.analyse_elsewhere(room_id, caller, request):
                return None
            room = self._rooms.facts(room_id)  # taken over from a dead node just now
        if room is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        _check_fair_play(room, caller.name)
        if room.decided:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        return room.rule, room.size, room.moves

    async def _stored_position(
        self, caller: Caller, request: Analyze, game_id: str, ply: int, forward: bool
    ) -> Position | None:
        record = await self._storage.game_record(game_id, caller.name)
        if record is None:
            raise Refusal("not_found", f"there is no game {game_id!r}")
        if ply > len(record.moves):
            raise Refusal("bad_request", f"the game has {len(record.moves)} moves, not {ply}")
        if record.result is None:
            room = self._rooms.playing(game_id)
            if room is None and forward:
                room_id = await self._elsewhere.room_playing_elsewhere(game_id)
                if room_id is not None and await self._elsewhere.analyse_elsewhere(room_id, caller, request):
                    return None
                room = self._rooms.playing(game_id)  # taken over from a dead node just now
            if room is None:
                raise Refusal("not_allowed", "the game is not finished, and its room is gone: nobody may analyse it")
            _check_fair_play(room, caller.name)
        moves = tuple(move.point for move in record.moves[:ply])
        try:
            board = Board.from_moves(moves, record.size, record.rule)
        except (IllegalMoveError, ValueError) as error:
            raise Refusal("bad_request", f"the stored game cannot be replayed: {error}") from None
        if board.result is not None:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        return record.rule, record.size, moves

    async def _analyse(self, reply: Reply, player: str, request: Analyze, search: BotRequest, size: int) -> None:
        """Search, and answer; the player may ask again as soon as the answer is sent."""
        try:
            answer = await self._answer(request, search, size)
        finally:
            self._analysing.discard(player)
        reply(answer)

    async def _answer(self, request: Analyze, search: BotRequest, size: int) -> ServerMessage:
        bots = self._bots
        assert bots is not None
        for attempt in range(ANALYSIS_ATTEMPTS):
            try:
                decision = await bots.choose(search)
            except BotBusyError:
                break
            except BotError as error:
                logger.warning("analysis attempt %d of %d failed: %s", attempt + 1, ANALYSIS_ATTEMPTS, error)
                continue
            return _analysis_message(request, decision, size)
        busy = Refusal("busy", "no bot could take the analysis now; try again soon")
        return error_message(busy, request.id)


def _check_fair_play(room: RoomFacts, player: str) -> None:
    refusal = room.analysis_refusal(player)
    if refusal is not None:
        raise Refusal("not_allowed", refusal)


def _analysis_message(request: Analyze, decision: Decision, size: int) -> Analysis:
    point_score = None
    if request.point is not None:
        wanted = Point(request.point.x, request.point.y)
        point_score = next((score for point, score in decision.candidates if point == wanted), None)
    best = decision.move
    return Analysis(
        room_id=request.room_id,
        game_id=request.game_id,
        ply=request.ply,
        best=AnalysisMoveModel(x=best.x, y=best.y, move=format_point(best, size)),
        score=decision.score,
        depth=decision.depth,
        nodes=decision.nodes,
        pv=[format_point(point, size) for point in decision.pv],
        point_score=point_score,
        id=request.id,
    )
