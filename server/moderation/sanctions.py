"""Bans, renames and password resets carried out on what is live, by every node of the server, each
once.

A ban or a rename is stored first (with its audit entry, `actions`), then each node carries out its
own part of it: the seeks of the player go from the lobby (on the node that runs it), their games in
the rooms held here are lost by forfeit, this node's connections of theirs leave their rooms (the
rooms' owners forfeit and take them out: a seat waiting for a game is open again), and are closed
with the reason. The node that took the moderator's request carries it out at once and tells the
others (`Hub.announce_sanction`, a broadcast on the bus); every node also reads the sanctions
logged lately (`watch`), which brings it those made by `gomoku-admin` in another process, and
those whose broadcast it missed while the bus was away. The entry's id makes each node carry out
each one once. One more comes by that read alone: a password reset (`gomoku-admin`) signs the
player's every device out, this node's connections of theirs told and closed. (Deleted games need
nothing of any node: standings are read from the database wherever they are shown.)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from datetime import timedelta

from server.chores import pause
from server.domain import AuditAction, AuditEntry, CallerRef, ConnectionId, RoomId, node_of, utc_now
from server.hub.services import Services
from server.moderation.actions import new_name_of
from wire.moderation_events import Renamed

logger = logging.getLogger(__name__)

SignOut = Callable[[str, Collection[str] | None], Awaitable[None]]
"""Closes this node's connections of a player signed in as these devices (None: every one), saying
why (`AccountRequests.signed_out`)."""

CARRIED_OUT: tuple[AuditAction, ...] = ("ban", "rename", "reset_password")
"""The actions every node carries out on what it holds (`storage.sanctions_since` reads these): a
password reset signs every device out."""
WATCH_EVERY_S = 2.0
"""How often each node reads the bans and renames logged lately (one indexed read of a few rows)."""
RECENT = timedelta(seconds=60)
"""How far back each read goes: a sanction logged by another process (whose clock may differ a
little) is carried out if it is younger than this; the ids of those carried out are kept as long."""


class Sanctions:
    """This node's part of each ban and rename, carried out once per audit entry."""

    def __init__(self, services: Services, sign_out: SignOut) -> None:
        self._services = services
        self._sign_out = sign_out
        self._carried_out: dict[str, AuditEntry] = {}
        """The entries carried out here lately, by id (forgotten once older than RECENT)."""

    async def carry_out(self, entry: AuditEntry) -> None:
        """Do this node's part of a stored ban, rename, password reset or deletion of games, unless
        it did already."""
        if entry.entry_id in self._carried_out or entry.action not in CARRIED_OUT:
            return
        self._carried_out[entry.entry_id] = entry
        match entry.action:
            case "ban":
                await self._ban(entry.target, entry.reason)
            case "rename":
                await self._rename(entry.target, new_name_of(entry), entry.reason)
            case "reset_password":
                await self._sign_out(entry.target, None)

    async def watch(self) -> None:
        """Every WATCH_EVERY_S, carry out the sanctions (CARRIED_OUT) logged in the last RECENT that
        this node has not (runs for the server's whole life)."""
        while True:
            await pause(WATCH_EVERY_S)
            try:
                await self.catch_up()
            except Exception:  # the database away: the next read goes on
                logger.exception("cannot read the latest bans and renames")

    async def catch_up(self) -> None:
        """Carry out the sanctions logged in the last RECENT that this node has not."""
        since = utc_now() - RECENT
        self._carried_out = {key: entry for key, entry in self._carried_out.items() if entry.at >= since}
        for entry in await self._services.storage.sanctions_since(since):
            await self.carry_out(entry)

    # ------------------------------------------------------------- effects

    async def _ban(self, name: str, reason: str) -> None:
        """The player's seeks go, their games here are lost by forfeit, their connections here leave
        every room (wherever it is held) and are closed with the reason."""
        self._withdraw_seeks(name)
        detail = f"forfeited: {name} was banned"
        await self._forfeit_games(name, detail)
        await self._leave_rooms(name, detail)
        self._disconnect(name, f"banned: {reason}")

    async def _rename(self, old: str, new: str, reason: str) -> None:
        """The player's seeks go; their seats in the rooms held here are the new name's (a seat
        waiting for an opponent, or for a rematch, follows the player); their connections here are
        told the new name and closed (their token goes with them)."""
        self._withdraw_seeks(old)
        await self._rename_seats(old, new)
        told = Renamed(name=new, reason=reason)
        self._services.deliver([(connection_id, told) for connection_id in self._connections_here(old)])
        self._disconnect(old, f"renamed by a moderator: sign in as {new}")

    async def _rename_seats(self, old: str, new: str) -> None:
        """Give `new` each seat `old` holds in the rooms held here. The rename is stored already: a
        room that cannot take it now is logged, and keeps the old name's seat."""
        for room_id in self._services.rooms.holding(old):
            actor = self._services.rooms.get(room_id)
            if actor is None:
                continue
            try:
                await actor.run(lambda room, now: room.rename_seat(old, new, now))
            except Exception:
                logger.exception("room %s: cannot give %s's seat to their new name %s", room_id, old, new)

    def _withdraw_seeks(self, name: str) -> None:
        """The player's seeks leave the lobby, if it runs on this node (elsewhere there are none)."""
        lobby = self._services.lobby
        for seek in [seek for seek in lobby.seeks.values() if seek.owner == name]:
            self._services.deliver(lobby.cancel(seek.seek_id, name))

    async def _forfeit_games(self, name: str, detail: str) -> None:
        """End each game `name` plays in a room held here as their loss. The ban is stored already: a
        room whose result cannot be stored now is logged, and its game goes on."""
        for room_id in self._services.rooms.seated(name):
            actor = self._services.rooms.get(room_id)
            if actor is None:
                continue
            try:
                await actor.run(lambda room, now: room.forfeit(name, detail, now))
            except Exception:
                logger.exception("room %s: cannot forfeit the game of banned %s", room_id, name)

    async def _leave_rooms(self, name: str, detail: str) -> None:
        """Take the player's connections here out of every room they are in, through the room's
        owner (here or on another node), which ends their game there first."""
        book = self._services.edge.book
        in_rooms: dict[RoomId, list[CallerRef]] = {}
        for connection_id in self._connections_here(name):
            for room_id in book.rooms_of(connection_id):
                in_rooms.setdefault(room_id, []).append(self._services.ref_of(connection_id))
        for room_id, refs in in_rooms.items():
            try:
                await self._services.hub.take_out(room_id, name, refs, detail)
            except Exception:  # the room's node cannot be reached: the connection closes all the same
                logger.exception("room %s: cannot take banned %s out", room_id, name)

    def _disconnect(self, name: str, reason: str) -> None:
        for connection_id in self._connections_here(name):
            self._services.disconnect(connection_id, reason)

    def _connections_here(self, name: str) -> list[ConnectionId]:
        """The player's connections on this node (the lobby's node knows other nodes' too: those
        are their own nodes' to close)."""
        node = self._services.edge.node
        return [c for c in self._services.lobby.connections_of(name) if node_of(self._services.ref_of(c)) == node]
