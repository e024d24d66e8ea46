"""`analyze`: the engine's view of a position, searched in the bot pool off the receive loop.

The position is a room's current one, or (1.1 "Analysis of any position")
a stored game's after `ply` moves. Who may ask: anyone for a finished
game; for an unfinished one, spectators and players of a game against a
bot, but not the players of a game between two humans. A search whose
worker dies is tried once more, then answered `busy`, never `internal`.
"""

from __future__ import annotations

import asyncio
import logging

from engine.board import Board
from engine.bots import Decision
from engine.errors import IllegalMoveError
from engine.notation import format_point
from engine.types import Point, Rule
from server.bot_pool import BotBusyError, BotError, BotRequest
from server.connections import Connection
from server.domain import Refusal
from server.protocol import Analysis, AnalysisMoveModel, Analyze, error_message
from server.services import Services, signed_in

logger = logging.getLogger(__name__)

ANALYSIS_ATTEMPTS = 2
"""An analysis whose search fails (its worker died) is tried once more before the answer is `busy`."""


class AnalysisRequests:
    """Serves `analyze`, one background search per request."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._running: set[asyncio.Task[None]] = set()

    async def start(self, connection: Connection, request: Analyze) -> None:
        """Check the request, then search off the receive loop (the client can keep playing)."""
        if request.game_id is not None and request.ply is not None:
            rule, size, moves = await self._stored_position(connection, request.game_id, request.ply)
        else:
            rule, size, moves = self._room_position(connection, str(request.room_id))
        if self._services.bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        level = self._services.roster.analysis_level(rule, size, self._services.settings.analysis_level)
        search = BotRequest(level, rule, size, moves, request.time_ms)
        task = asyncio.get_running_loop().create_task(self._answer(connection, request, search, size))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def close(self) -> None:
        """Stop the searches still running."""
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    def _room_position(self, connection: Connection, room_id: str) -> tuple[Rule, int, tuple[Point, ...]]:
        room = self._services.rooms.facts(room_id)
        if room is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        if not room.analysis_allowed(signed_in(connection)):
            raise Refusal("not_allowed", "players of a game between two humans cannot analyse it")
        if room.decided:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        return room.rule, room.size, room.moves

    async def _stored_position(
        self, connection: Connection, game_id: str, ply: int
    ) -> tuple[Rule, int, tuple[Point, ...]]:
        record = await self._services.storage.game_record(game_id, signed_in(connection))
        if record is None:
            raise Refusal("not_found", f"there is no game {game_id!r}")
        if ply > len(record.moves):
            raise Refusal("bad_request", f"the game has {len(record.moves)} moves, not {ply}")
        if record.result is None:
            room = self._services.rooms.playing(game_id)
            if room is not None and not room.analysis_allowed(signed_in(connection)):
                raise Refusal("not_allowed", "players of a game between two humans cannot analyse it")
        moves = tuple(move.point for move in record.moves[:ply])
        try:
            board = Board.from_moves(moves, record.size, record.rule)
        except (IllegalMoveError, ValueError) as error:
            raise Refusal("bad_request", f"the stored game cannot be replayed: {error}") from None
        if board.result is not None:
            raise Refusal("game_over", "the position is decided: there is nothing to analyse")
        return record.rule, record.size, moves

    async def _answer(self, connection: Connection, request: Analyze, search: BotRequest, size: int) -> None:
        bots = self._services.bots
        assert bots is not None
        for attempt in range(ANALYSIS_ATTEMPTS):
            try:
                decision = await bots.choose(search)
            except BotBusyError:
                break
            except BotError as error:
                logger.warning("analysis attempt %d of %d failed: %s", attempt + 1, ANALYSIS_ATTEMPTS, error)
                continue
            connection.send(_analysis_message(request, decision, size))
            return
        busy = Refusal("busy", "no bot could take the analysis now; try again soon")
        connection.send(error_message(busy, request.id))


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
