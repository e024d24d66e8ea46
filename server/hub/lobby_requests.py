"""What players do outside a game: the lobby (seeks, quick pairing), who is online, chat, the leaderboard.

The `Lobby` (`server.lobby.hall`) keeps the state and its rules; this module
serves the requests about it, delivers what it says, and starts the games
it pairs: a room with both players seated, each told on the connection it
asked from (or, if that has closed, on every connection it has open). Chat
needs no state but a per-player pace (slower for a player who has not
played yet): a room's chat reaches its members, the lobby's its watchers.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from typing import assert_never

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerKind, format_timestamp
from engine.types import Rule
from server.domain import EVERYONE, Caller, ConnectionId, Refusal, new_room_id, utc_now
from server.hub.services import Requester, Services, hold_new_room, signed_in
from server.lobby.hall import Pairing, new_seek_id
from server.lobby.pacing import RecentCounts
from server.lobby.seeks import GameTerms, Seek
from server.moderation.gate import check_may_chat
from server.rooms import views
from server.rooms.room import Outcome, Room, RoomEvent
from wire.messages import (
    AcceptSeek,
    CancelSeek,
    ChatMessage,
    ChatRequest,
    ClockSettingModel,
    Leaderboard,
    LeaderboardMessage,
    OnlinePlayerModel,
    OnlinePlayers,
    QuickPair,
    SeekCreated,
    SeekRemoved,
    SeekRequest,
    ServerMessage,
    UnwatchLobby,
    WatchLobby,
    WhoIsOnline,
)

logger = logging.getLogger(__name__)


LobbyRequest = WatchLobby | UnwatchLobby | SeekRequest | CancelSeek | AcceptSeek | QuickPair | WhoIsOnline | ChatRequest
"""The requests the lobby's node serves (in a cluster, one node runs the lobby for all)."""


RECENT_LOBBY_LINES = 20
"""How many of the lobby's last chat lines one who starts watching it gets (a moderator's removed
lines left out)."""


class LobbyRequests:
    """Serves the lobby, the online list, chat and the leaderboard."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._lines_said: RecentCounts[str] = RecentCounts(services.settings.limits.chat_window_s)
        """Chat lines each player has said within the chat window."""
        self._lobby_lines: deque[ChatMessage] = deque(maxlen=RECENT_LOBBY_LINES)
        """The lobby's last lines, for whoever starts watching (kept in memory only, as chat is)."""

    async def serve(self, connection: Requester, request: LobbyRequest) -> None:
        """Serve a lobby request; raise Refusal to answer it with an error."""
        match request:
            case WatchLobby():
                self.watch(connection, request)
            case UnwatchLobby():
                self.unwatch(connection, request)
            case SeekRequest():
                await self.seek(connection, request)
            case CancelSeek():
                self.cancel(connection, request)
            case AcceptSeek():
                await self.accept(connection, request)
            case QuickPair():
                await self.quick_pair(connection, request)
            case WhoIsOnline():
                await self.who_is_online(connection, request)
            case ChatRequest():
                await self.chat(connection, request)
            case _:
                assert_never(request)

    # ------------------------------------------------------------- watching

    def watch(self, connection: Requester, request: WatchLobby) -> None:
        signed_in(connection)
        snapshot = self._services.lobby.watch(connection.id, request.batches)
        connection.send(snapshot.model_copy(update={"id": request.id}))
        for line in self._lobby_lines:  # what was said before: a late arrival reads the conversation
            if line.chat_id is not None and self._services.chat_lines.get(line.chat_id) is not None:
                connection.send(line)

    def unwatch(self, connection: Requester, request: UnwatchLobby) -> None:
        self._services.lobby.unwatch(connection.id)

    def connection_closed(self, connection: Requester) -> None:
        """Forget a closed connection: it stops watching, and with its player's last one go the
        player's seeks and what the server keeps of the player (read again if it comes back)."""
        lobby = self._services.lobby
        self._services.deliver(lobby.connection_closed(connection.id, connection.player))

    # ---------------------------------------------------------------- seeks

    async def seek(self, connection: Requester, request: SeekRequest) -> None:
        name = signed_in(connection)
        lobby = self._services.lobby
        limit = self._services.settings.limits.seeks_per_player
        rating = await self._rating(name)
        if lobby.seeks_of(name) >= limit:  # checked after the await: the seek is added at once
            raise Refusal("limit_reached", f"you have {limit} seeks waiting, the most per player: cancel one first")
        seek = Seek(
            seek_id=new_seek_id(),
            owner=name,
            rating=rating,
            connection=connection.id,
            terms=_terms(request.rule, request.size, request.clock, request.rated, OpeningRule(request.opening)),
            color=request.color,
            rating_min=request.rating_min,
            rating_max=request.rating_max,
            created_at=utc_now(),
            since=asyncio.get_running_loop().time(),
            owner_kind=connection.player_kind,
            address=connection.address,
        )
        self._services.deliver(lobby.add(seek))
        connection.send(SeekCreated(seek=views.seek_model(seek), id=request.id))

    def cancel(self, connection: Requester, request: CancelSeek) -> None:
        """Withdraw one's seek: `seek_removed` to every watcher and to the owner, whose copy on this
        connection answers the request."""
        deliveries = self._services.lobby.cancel(request.seek_id, signed_in(connection))
        others = [(target, message) for target, message in deliveries if target != connection.id]
        self._services.deliver(others)
        connection.send(SeekRemoved(seek_id=request.seek_id, id=request.id))

    async def accept(self, connection: Requester, request: AcceptSeek) -> None:
        name = signed_in(connection)
        seek = self._services.lobby.take(request.seek_id, name, await self._rating(name))
        await self._pair(Pairing(seek, name, connection.id, 0), request.id)

    async def quick_pair(self, connection: Requester, request: QuickPair) -> None:
        name = signed_in(connection)
        lobby = self._services.lobby
        limits = self._services.settings.limits
        rating = await self._rating(name)
        terms = _terms(request.rule, request.size, request.clock, request.rated)
        now = asyncio.get_running_loop().time()
        match = lobby.quick_match(name, rating, terms, now)
        if match is not None:
            await self._pair(Pairing(match, name, connection.id, rating), request.id)
            return
        if lobby.seeks_of(name) >= limits.seeks_per_player:
            raise Refusal("limit_reached", "you have as many seeks waiting as a player may: cancel one first")
        if lobby.quick_seeks_from(connection.address) >= limits.quick_seeks_per_address:
            most = limits.quick_seeks_per_address
            raise Refusal("limit_reached", f"{most} quick seeks wait from your address, the most allowed")
        seek = Seek(
            new_seek_id(),
            name,
            rating,
            connection.id,
            terms,
            "random",
            None,
            None,
            utc_now(),
            now,
            quick=True,
            owner_kind=connection.player_kind,
            address=connection.address,
        )
        self._services.deliver(lobby.add(seek))
        connection.send(SeekCreated(seek=views.seek_model(seek), id=request.id))

    async def tick(self) -> None:
        """Pair the quick seeks that have come within reach, pace the online count and send the
        tick's batch (before any game is stored, so that batches keep their pace). A pairing whose
        game cannot start (a player has just left, the database is busy) is dropped, and the seeks
        of its players still here wait again."""
        pairings, deliveries = self._services.lobby.tick(asyncio.get_running_loop().time())
        self._services.deliver(deliveries)
        for pairing in pairings:
            try:
                await self._pair(pairing, None)
            except Refusal as refusal:
                logger.info("no game for %s and %s: %s", pairing.seek.owner, pairing.taker, refusal.message)
            except Exception:
                logger.exception("the lobby could not start the game of %s and %s", pairing.seek.owner, pairing.taker)

    async def _pair(self, pairing: Pairing, request_id: str | int | None) -> None:
        """Start the pairing's game; if it cannot start, its seeks go back to the lobby (those of a
        player still here) and the error propagates."""
        try:
            await self._start_game(pairing, request_id)
        except BaseException:
            self._services.deliver(self._services.lobby.restore(pairing.seeks))
            raise

    async def _start_game(self, pairing: Pairing, request_id: str | int | None) -> None:
        """Open a room for the seek's owner and the taker, both seated, and start the game.

        Who sits where is looked up when the room opens, not before: each
        player on the connection it asked from if it is still open, else on
        every connection it has open. Raises Refusal (`not_found`) when a
        player has none left: a seat on a closed connection would be a ghost
        that nobody is told of and that never counts as away. The lobby
        hears that the seeks have gone with the game, just before it.
        """
        seek = pairing.seek
        services = self._services
        owner_standing = await services.ratings.standing(seek.owner)
        taker_standing = await services.ratings.standing(pairing.taker)
        owner_color = seek.color if seek.color != "random" else secrets.choice(("black", "white"))
        if seek.terms.opening is not OpeningRule.NONE:
            owner_color = "black"  # the owner is the first player, who places the first stones
        terms = seek.terms
        settings = services.settings.room
        room = Room(
            new_room_id(),
            terms.rule,
            terms.size,
            terms.clock,
            False,
            settings,
            rated=terms.rated,
            opening=terms.opening,
        )
        standings = [owner_standing, taker_standing]
        actor = services.rooms.actor_for(room)

        def open_game(room: Room, now: float) -> Outcome:
            owner = self._seated(seek.owner, seek.connection, owner_standing.kind)
            taker = self._seated(pairing.taker, pairing.taker_connection, taker_standing.kind)
            black, white = (owner, taker) if owner_color == "black" else (taker, owner)
            taker_ref = services.ref_of(pairing.taker_connection)
            asked = taker[0] if request_id is not None and taker[0].ref == taker_ref else None
            room.know(standings)
            outcome = room.open_paired(black[0], white[0], seek.owner, asked, now)
            for other_tab in black[1:] + white[1:]:
                joined = room.join(other_tab, True, now)
                outcome.events += joined.events
                outcome.records += joined.records
            return outcome

        def announce_seeks_gone() -> None:
            services.deliver(services.lobby.removed(pairing.seeks))

        await services.hub.claim(room.room_id)
        await actor.run(open_game, request_id, before_publishing=announce_seeks_gone)
        await hold_new_room(services, actor)

    def _seated(self, name: str, asked_from: ConnectionId, kind: PlayerKind) -> list[Caller]:
        """The connections to seat a player on: the one it asked from if open, else all it has open."""
        if self._services.lobby.is_open(asked_from):
            return [Caller(self._services.ref_of(asked_from), name, kind)]
        connections = sorted(self._services.lobby.connections_of(name))
        if not connections:
            raise Refusal("not_found", f"{name!r} has just left")
        return [Caller(self._services.ref_of(connection), name, kind) for connection in connections]

    # -------------------------------------------------------------- players

    async def who_is_online(self, connection: Requester, request: WhoIsOnline) -> None:
        signed_in(connection)
        names = sorted(self._services.lobby.online, key=str.lower)
        playing = await self._services.hub.playing_names()
        players = [
            OnlinePlayerModel(
                name=name, rating=await self._rating(name), status="playing" if name in playing else "idle"
            )
            for name in names[: request.limit]
        ]
        connection.send(OnlinePlayers(count=len(names), players=players, id=request.id))

    async def leaderboard(self, connection: Requester, request: Leaderboard) -> None:
        standings = await self._services.storage.leaderboard(request.limit, request.kind)
        entries = [views.leaderboard_entry(standing) for standing in standings]
        connection.send(LeaderboardMessage(players=entries, id=request.id))

    async def _rating(self, name: str) -> int:
        return round((await self._services.ratings.standing(name)).rating.rating)

    # ----------------------------------------------------------------- chat

    async def chat(self, connection: Requester, request: ChatRequest) -> None:
        name = signed_in(connection)
        await check_may_chat(self._services.storage, name, utc_now())
        played = (await self._services.ratings.standing(name)).games > 0
        if request.room_id is not None:
            await self._chat_in_room(connection, request, played)
            return
        audience = set(self._services.lobby.watchers) | {connection.id}
        self._pace_chat(name, played)
        line = self._services.chat_lines.said(request.room_id, name, request.text)
        said = ChatMessage(
            room_id=request.room_id, from_=name, text=request.text, at=format_timestamp(utc_now()), chat_id=line.chat_id
        )
        deliveries: list[tuple[ConnectionId, ServerMessage]] = [
            (member, said) for member in audience if member != connection.id
        ]
        deliveries.append((connection.id, said.model_copy(update={"id": request.id})))
        self._services.deliver(deliveries)
        self._lobby_lines.append(said)

    async def _chat_in_room(self, connection: Requester, request: ChatRequest, played: bool) -> None:
        """Chat in a room, held here or (in a cluster) by another node: this node knows whether the
        connection is in it, and the room's node publishes the line to all its members, on every
        node, the copy that answers the request to the caller."""
        room_id = request.room_id
        assert room_id is not None
        if connection.id not in self._services.edge.book.members(room_id):
            if self._services.rooms.facts(room_id) is not None or await self._services.hub.held_elsewhere(room_id):
                raise Refusal("not_allowed", "join the room to chat in it")
            raise Refusal("not_found", f"there is no room {room_id!r}")
        name = signed_in(connection)
        self._pace_chat(name, played)
        line = self._services.chat_lines.said(room_id, name, request.text)  # kept here: removed through this node
        at = format_timestamp(utc_now())
        said = ChatMessage(room_id=room_id, from_=name, text=request.text, at=at, chat_id=line.chat_id)
        caller = self._services.ref_of(connection.id)
        await self._services.hub.relay(room_id, RoomEvent(said, EVERYONE, answers=caller, request_id=request.id))

    def _pace_chat(self, name: str, played: bool) -> None:
        """Count a chat line; raise Refusal (`rate_limited`) past the pace: fewer lines for a player
        who has not played a rated game yet, so that new names are no way round the limit."""
        limits = self._services.settings.limits
        most = limits.chat_lines if played else limits.new_player_chat_lines
        now = asyncio.get_running_loop().time()
        if self._lines_said.count(name, now) >= most:
            newcomer = "" if played else " until you have played a rated game"
            raise Refusal("rate_limited", f"at most {most} lines per {limits.chat_window_s:g} s{newcomer}")
        self._lines_said.add(name, now)


def _terms(
    rule: Rule, size: int, clock: ClockSettingModel | None, rated: bool, opening: OpeningRule = OpeningRule.NONE
) -> GameTerms:
    setting = None if clock is None else ClockSetting(clock.initial_ms, clock.increment_ms)
    return GameTerms(rule, size, setting, rated, opening)
