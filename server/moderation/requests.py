"""The wire's moderation requests, served for a connection: who may, what it does, who is told.

A moderator (or an admin) mutes, bans, renames, kicks a spectator, removes
a chat line and closes reports; an admin also reads the audit log and
deletes any game; any player reports and deletes their own casual games
against bots. Nobody acts on a player whose role is as high as their own.
A kicked spectator stays out of that room while the server runs.
Each action is stored and logged first (`actions`), then carried out on
what is live: a banned or renamed player's connections close with the
reason, a banned player's seeks go and their games are forfeited, a
kicked spectator leaves the room, a removed line is taken back from
everyone who saw it. On several nodes, a kick is served by the room's
owner, and a removal or report of a chat line by the node that heard it
(the request forwarded there); bans and renames reach every node
(`sanctions`).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Protocol, assert_never

from engine.record import format_timestamp
from server.domain import EVERYONE, AuditEntry, Refusal, Role, RoomId, utc_now
from server.edge.connections import Connection
from server.hub.services import Asker, Services, signed_in
from server.moderation.actions import Moderation, new_name_of
from server.moderation.chat_lines import ChatLine, node_of_line
from server.moderation.sanctions import Sanctions, SignOut
from server.moderation.views import audit_entry_model, report_model
from server.rooms.room import RoomEvent
from wire.messages import ClientRequest, ServerMessage
from wire.moderation import (
    Ban,
    CloseReport,
    DeleteGames,
    GetAuditLog,
    Kick,
    ListReports,
    ModerationRequest,
    Mute,
    RemoveChat,
    RenamePlayer,
    ReportPlayer,
    Unban,
    Unmute,
)
from wire.moderation_events import (
    AuditLog,
    ChatRemoved,
    GamesDeleted,
    Kicked,
    ModerationDone,
    ReportFiled,
    Reports,
)

logger = logging.getLogger(__name__)

RANKS: dict[Role | None, int] = {None: 0, "moderator": 1, "admin": 2}
"""How far each role reaches: one acts only on players of a lower rank."""
REPORTS_PER_HOUR = 10
"""Reports one player may file in an hour (past it, `rate_limited`), counted in storage: the same
from every node, and across a restart."""


class Moderator(Asker, Protocol):
    """Who a moderation request (or a report) comes from: a connection here, or a player on another
    node whose request was forwarded here (`RemoteModerator`)."""

    def send(self, message: ServerMessage) -> None:
        """Answer them."""


class ModerationRequests:
    """Serves the moderation requests of every connection of one server."""

    def __init__(self, services: Services, sign_out: SignOut) -> None:
        self._services = services
        self.actions = Moderation(services.storage, lambda name: services.roster.is_level(name.lower()))
        self.sanctions = Sanctions(services, sign_out)
        """This node's part of each ban, rename, password reset and deletion of games, wherever it
        was made."""
        self._kicked: set[tuple[RoomId, str]] = set()
        """(room, name in lower case) of each spectator kicked out: kept out of that room while this
        node runs (every node hears of each kick, `kick_out`)."""

    def check_may_join(self, room_id: RoomId, name: str) -> None:
        """Raise Refusal (`not_allowed`) for a player a moderator kicked out of this room."""
        if (room_id, name.lower()) in self._kicked:
            raise Refusal("not_allowed", "a moderator sent you out of this room")

    async def handle(self, connection: Connection, request: ModerationRequest) -> None:
        """Serve one moderation request; raise Refusal to answer it with an error."""
        match request:
            case Mute():
                await self._mute(connection, request)
            case Unmute():
                actor = await self._acting_on(connection, request.player, "moderator")
                player = await self.actions.unmute(actor, request.player, request.reason)
                connection.send(ModerationDone(action="unmute", target=player.name, id=request.id))
            case Ban():
                await self._ban(connection, request)
            case Unban():
                actor = await self._acting_on(connection, request.player, "moderator")
                player = await self.actions.unban(actor, request.player, request.reason)
                connection.send(ModerationDone(action="unban", target=player.name, id=request.id))
            case RenamePlayer():
                await self._rename(connection, request)
            case Kick() if await self._held_elsewhere(request.room_id):
                caller, name = self._services.ref_of(connection.id), signed_in(connection)
                await self._services.hub.moderate_in_room(request.room_id, caller, name, request)
            case Kick():
                await self._kick(connection, request)
            case RemoveChat() if (node := self._kept_elsewhere(request.chat_id)) is not None:
                caller, name = self._services.ref_of(connection.id), signed_in(connection)
                await self._services.hub.moderate_on_node(node, caller, name, request)
            case RemoveChat():
                await self._remove_chat(connection, request)
            case ReportPlayer() if request.chat_id is not None and (node := self._kept_elsewhere(request.chat_id)):
                caller, name = self._services.ref_of(connection.id), signed_in(connection)
                await self._services.hub.moderate_on_node(node, caller, name, request)
            case ReportPlayer():
                await self._report(connection, request)
            case ListReports():
                await self._authority(connection, "moderator")
                reports = await self._services.storage.open_reports(request.limit)
                connection.send(Reports(reports=[report_model(report) for report in reports], id=request.id))
            case CloseReport():
                actor = await self._authority(connection, "moderator")
                report = await self.actions.close_report(actor, request.report_id, request.resolution)
                connection.send(ModerationDone(action="close_report", target=report.report_id, id=request.id))
            case DeleteGames():
                await self._delete_games(connection, request)
            case GetAuditLog():
                await self._authority(connection, "admin")
                entries = await self._services.storage.audit_log(request.limit, request.player)
                connection.send(AuditLog(entries=[audit_entry_model(entry) for entry in entries], id=request.id))
            case _:
                assert_never(request)

    # ------------------------------------------------- from other nodes

    async def serve_forwarded(self, moderator: Moderator, request: ClientRequest) -> None:
        """Serve a request another node forwarded here, where what it is about is kept (a room held
        here, a chat line heard here)."""
        match request:
            case Kick():
                await self._kick(moderator, request)
            case RemoveChat():
                await self._remove_chat(moderator, request)
            case ReportPlayer():
                await self._report(moderator, request)
            case _:
                raise Refusal("bad_request", f"a {request.type!r} request is not served for another node")

    async def carry_out(self, entry: AuditEntry) -> None:
        """Do this node's part of a ban or rename stored by another node (`Sanctions`)."""
        await self.sanctions.carry_out(entry)

    async def kick_out(self, room_id: RoomId, name: str, reason: str) -> None:
        """Keep `name` out of the room from now on, tell their connections here why, and take them
        out of it (through the room's owner, wherever it is held)."""
        self._kicked.add((room_id, name.lower()))
        members = self._services.edge.book.members(room_id)
        watching = [connection_id for connection_id, member in members.items() if member.lower() == name.lower()]
        if not watching:
            return
        told = Kicked(room_id=room_id, reason=reason)
        self._services.deliver([(connection_id, told) for connection_id in watching])
        refs = [self._services.ref_of(connection_id) for connection_id in watching]
        await self._services.hub.take_out(room_id, name, refs, None)

    async def _held_elsewhere(self, room_id: RoomId) -> bool:
        """Whether another node holds the room (a kick there is served by it)."""
        return self._services.rooms.get(room_id) is None and await self._services.hub.held_elsewhere(room_id)

    def _kept_elsewhere(self, chat_id: str) -> str | None:
        """The node that heard a chat line, if it is another one (a removal is served by it)."""
        node = node_of_line(chat_id)
        return None if node in (None, self._services.edge.node) else node

    # ------------------------------------------------------------ authority

    async def _authority(self, connection: Moderator, needed: Role) -> str:
        """The caller's name, if their role reaches `needed`; Refusal (`not_allowed`) otherwise."""
        name = signed_in(connection)
        if RANKS[await self._services.storage.role_of(name)] < RANKS[needed]:
            raise Refusal("not_allowed", f"only {'an admin' if needed == 'admin' else 'a moderator'} may do that")
        return name

    async def _acting_on(self, connection: Moderator, target: str, needed: Role) -> str:
        """The caller's name, if their role reaches `needed` and is above the target's."""
        actor = await self._authority(connection, needed)
        storage = self._services.storage
        actor_role, target_role = await storage.role_of(actor), await storage.role_of(target)
        if RANKS[target_role] >= RANKS[actor_role]:
            raise Refusal("not_allowed", f"{target!r} is {target_role} too: ask the server's operator")
        return actor

    # --------------------------------------------------------------- actions

    async def _mute(self, connection: Connection, request: Mute) -> None:
        actor = await self._acting_on(connection, request.player, "moderator")
        player, until = await self.actions.mute(
            actor, request.player, timedelta(minutes=request.minutes), request.reason
        )
        done = ModerationDone(action="mute", target=player.name, until=format_timestamp(until), id=request.id)
        connection.send(done)

    async def _ban(self, connection: Connection, request: Ban) -> None:
        """Store the ban, then carry it out here and tell the other nodes (`Sanctions`): the
        player's seeks go, their games are lost by forfeit, they leave every room (a seat waiting for
        a game is open again), and each of their connections is closed with the reason."""
        actor = await self._acting_on(connection, request.player, "moderator")
        banned = await self.actions.ban(actor, request.player, request.reason)
        await self._sanction(banned)
        connection.send(ModerationDone(action="ban", target=banned.target, id=request.id))

    async def _rename(self, connection: Connection, request: RenamePlayer) -> None:
        """Store the new name, then close the player's connections on every node, telling them the
        name to sign in as (their token goes with it)."""
        actor = await self._acting_on(connection, request.player, "moderator")
        renamed = await self.actions.rename(actor, request.player, request.new_name, request.reason)
        await self._sanction(renamed)
        done = ModerationDone(action="rename", target=renamed.target, new_name=new_name_of(renamed), id=request.id)
        connection.send(done)

    async def _sanction(self, entry: AuditEntry) -> None:
        """Carry out a stored ban or rename on this node, and tell the others to."""
        self._services.hub.announce_sanction(entry)
        await self.sanctions.carry_out(entry)

    async def _kick(self, moderator: Moderator, request: Kick) -> None:
        """In a room held here: log the kick, then every node keeps the spectator out of the room,
        tells their connections why and takes them out of it."""
        actor = await self._acting_on(moderator, request.player, "moderator")
        room_actor = self._services.rooms.get(request.room_id)
        if room_actor is None:
            raise Refusal("not_found", f"there is no room {request.room_id!r}")
        room = room_actor.room
        present = [name for name in room.presence.connections if name.lower() == request.player.lower()]
        if not present:
            raise Refusal("not_found", f"{request.player!r} is not in room {room.room_id!r}")
        name = present[0]
        if room.seat_of(name) is not None:
            raise Refusal("not_allowed", f"{name!r} plays in this room: only a spectator may be kicked")
        await self.actions.log(actor, "kick", name, request.reason, f"room {room.room_id}")
        self._services.hub.announce_kick(room.room_id, name, request.reason)
        await self.kick_out(room.room_id, name, request.reason)
        moderator.send(ModerationDone(action="kick", target=name, id=request.id))

    async def _remove_chat(self, moderator: Moderator, request: RemoveChat) -> None:
        """Log the removal (with the line's words), then take the line back from those who saw it:
        the lobby's watchers, or the room's members (through its owner, wherever it is held)."""
        line = self._recent_line(request.chat_id)
        actor = await self._acting_on(moderator, line.author, "moderator")
        await self.actions.log(actor, "remove_chat", line.author, request.reason, line.text)
        self._services.chat_lines.forget(line.chat_id)
        removed = ChatRemoved(room_id=line.room_id, chat_id=line.chat_id)
        if line.room_id is None:
            self._services.deliver([(watcher, removed) for watcher in self._services.lobby.watchers])
        else:
            await self._take_back_in_room(line.room_id, removed)
        moderator.send(ModerationDone(action="remove_chat", target=line.author, id=request.id))

    async def _take_back_in_room(self, room_id: RoomId, removed: ChatRemoved) -> None:
        """Tell every member of the room, wherever it is held; a room gone since has nobody left to
        take the line back from."""
        try:
            await self._services.hub.relay(room_id, RoomEvent(removed, EVERYONE))
        except Refusal as refusal:
            if refusal.code != "not_found":
                raise

    async def _report(self, connection: Moderator, request: ReportPlayer) -> None:
        """File a report, with the words of the line reported (on the node that heard it)."""
        reporter = signed_in(connection)
        line = None if request.chat_id is None else self._recent_line(request.chat_id)
        if line is not None and line.author.lower() != request.player.lower():
            raise Refusal("bad_request", f"that line is {line.author!r}'s, not {request.player!r}'s")
        filed = await self._services.storage.reports_filed_since(reporter, utc_now() - timedelta(hours=1))
        if filed >= REPORTS_PER_HOUR:
            raise Refusal("rate_limited", f"at most {REPORTS_PER_HOUR} reports an hour")
        report = await self.actions.file_report(
            reporter,
            request.player,
            request.reason,
            None if line is None else line.room_id,
            None if line is None else line.chat_id,
            None if line is None else line.text,
        )
        connection.send(ReportFiled(report_id=report.report_id, id=request.id))

    async def _delete_games(self, connection: Connection, request: DeleteGames) -> None:
        """A player's own casual games against bots; an admin's, any (logged)."""
        name = signed_in(connection)
        is_admin = await self._services.storage.role_of(name) == "admin"
        reason = request.reason or "deleted by an admin"
        deleted = await self.actions.delete_games(name, request.game_ids, is_admin, reason)
        connection.send(GamesDeleted(game_ids=deleted, id=request.id))

    # ------------------------------------------------------------- effects

    def _recent_line(self, chat_id: str) -> ChatLine:
        line = self._services.chat_lines.get(chat_id)
        if line is None:
            raise Refusal("not_found", f"there is no chat line {chat_id!r} (or it is too old)")
        return line
