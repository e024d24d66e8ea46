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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from engine.board import Board
from engine.bots import Decision
from engine.errors import IllegalMoveError
from engine.notation import format_point
from engine.types import Point, Rule
from server.bots.players import BotPlayers, BotRoster
from server.bots.pool import BotBusyError, BotError, BotRequest, Priority
from server.domain import RecordReader, Refusal, RoomFacts
from server.rooms.actors import RoomRegistry
from wire.messages import Analysis, AnalysisMoveModel, Analyze, ServerMessage, error_message

logger = logging.getLogger(__name__)

ANALYSIS_ATTEMPTS = 2
"""An analysis whose search fails (its worker died) is tried once more before the answer is `busy`."""

Reply = Callable[[ServerMessage], None]
"""Sends the answer to whoever asked (the connection layer's send, for one connection)."""


class AnalysisRequests:
    """Serves `analyze`, one background search per request, one running per player.

    It is handed the parts of the server it reads and, with each request, who
    asks and how to answer them, so that it knows nothing of connections.
    """

    def __init__(
        self,
        storage: RecordReader,
        rooms: RoomRegistry,
        bots: BotPlayers | None,
        roster: BotRoster,
        level: str | None,
        max_ms: int,
    ) -> None:
        self._storage = storage
        self._rooms = rooms
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

    async def start(self, player: str, request: Analyze, reply: Reply) -> None:
        """Check the request of the signed-in `player`, then search off the receive loop (the
        client can keep playing) and `reply` with the answer."""
        if request.game_id is not None and request.ply is not None:
            rule, size, moves = await self._stored_position(player, request.game_id, request.ply)
        else:
            rule, size, moves = self._room_position(player, str(request.room_id))
        if self._bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        if player in self._analysing:
            raise Refusal("rate_limited", "you have an analysis running: wait for its answer before asking another")
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

    def _room_position(self, player: str, room_id: str) -> tuple[Rule, int, tuple[Point, ...]]:
        room = self._rooms.facts(room_id)
        if room is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        _check_fair_play(room, player)
        if room.decided:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        return room.rule, room.size, room.moves

    async def _stored_position(self, player: str, game_id: str, ply: int) -> tuple[Rule, int, tuple[Point, ...]]:
        record = await self._storage.game_record(game_id, player)
        if record is None:
            raise Refusal("not_found", f"there is no game {game_id!r}")
        if ply > len(record.moves):
            raise Refusal("bad_request", f"the game has {len(record.moves)} moves, not {ply}")
        if record.result is None:
            room = self._rooms.playing(game_id)
            if room is None:
                raise Refusal("not_allowed", "the game is not finished, and its room is gone: nobody may analyse it")
            _check_fair_play(room, player)
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
