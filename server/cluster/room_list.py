"""The cluster's room list: each node writes the lines of the rooms it holds into Redis, any node reads all.

A line is an unfinished room's `list_rooms` summary (none for a private room) and the names of the
people seated in it (for `welcome`'s rooms), as JSON, written when the room's facts change (the
changes of one tick in one transaction) and dropped when the room finishes or is forgotten. Each
node's lines are one hash that expires unless the node rewrites it every RENEW_EVERY_S: the rooms
of a node that died leave the list with it, and after a restart of Redis the list is whole again
within that time.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from server.bots.players import BotRoster
from server.chores import pause
from server.cluster.bus_messages import BusUnavailable
from server.cluster.directory import OWNER_TTL_S, RENEW_EVERY_S
from server.cluster.fan_out import RoomFanOut
from server.domain import RecordStore, RoomFacts, RoomId, is_server_bot
from server.hub.room_caps import Cap, caps_of
from server.rooms import views
from server.rooms.actors import MoveChooser, RoomRegistry
from wire.messages import RoomSummaryModel

logger = logging.getLogger(__name__)


class RoomLines(Protocol):
    """Where the lines are kept (the bus's Redis)."""

    async def write_rooms(
        self, rooms: dict[str, str | None], ttl_s: float, replace: bool = False, taken_over: bool = False
    ) -> None:
        """Write this node's lines (None drops one; `replace` drops the others; `taken_over` drops
        the other nodes' lines of these rooms); raises BusUnavailable."""

    async def every_nodes_rooms(self) -> list[str]:
        """Every node's lines; raises BusUnavailable."""


def _line(facts: RoomFacts, node: str) -> str | None:
    """The room's line, or None if it is finished."""
    if facts.status == "finished":
        return None
    summary = None if facts.private else views.room_summary(facts).model_dump(mode="json", by_alias=True)
    seated = [seat.name for seat in facts.seats if seat is not None and not is_server_bot(seat)]
    line = {"room_id": facts.room_id, "game_id": facts.game_id, "node": node, "summary": summary, "seated": seated}
    return json.dumps(line | {"created_by": facts.created_by, "bots_only": facts.bots_only})


class SharedRoomList:
    """This node's part of the cluster's room list, and the whole list as read from Redis."""

    def __init__(self, lines: RoomLines, node: str, held: Callable[[], Iterable[RoomFacts]]) -> None:
        self._lines = lines
        self._node = node
        self._held = held
        self._pending: dict[str, str | None] = {}
        self._written: dict[str, str] = {}
        """Each room's line as last handed to a write: a change that leaves it as it was (most
        moves) writes nothing."""
        self._writing = asyncio.Lock()
        """Writes go in the order of their ticks."""
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, facts: RoomFacts) -> None:
        """A room held here has changed: its line is written at the end of the tick."""
        self._later(facts.room_id, _line(facts, self._node))

    def gone(self, room_id: RoomId) -> None:
        """A room held here is forgotten: its line goes."""
        self._later(room_id, None)

    async def taken_over(self, rooms: set[RoomId]) -> None:
        """Rooms claimed from a dead node: at once, their lines leave its part of the list, and those
        restored here join this node's, so that no room is listed twice nor a dead one listed (its
        node's lines would last until they expire). Raises BusUnavailable."""
        if not rooms:
            return
        held = {facts.room_id: facts for facts in self._held() if facts.room_id in rooms}
        lines: dict[str, str | None] = {
            room_id: None if room_id not in held else _line(held[room_id], self._node) for room_id in rooms
        }
        async with self._writing:
            await self._lines.write_rooms(lines, OWNER_TTL_S, taken_over=True)

    async def listed(self, limit: int, after: str | None) -> tuple[list[RoomSummaryModel], RoomId | None]:
        """A page of every node's rooms, in room id order after `after`, and the next page's cursor
        (None on the last), as `RoomRegistry.listed` pages one node's. Raises BusUnavailable."""
        summaries = [line["summary"] for line in await self._read() if line["summary"] is not None]
        listed = [RoomSummaryModel.model_validate(summary) for summary in summaries]
        rooms = sorted((room for room in listed if after is None or room.room_id > after), key=lambda r: r.room_id)
        page = rooms[:limit]
        return page, page[-1].room_id if len(rooms) > limit else None

    async def seated(self, name: str) -> list[RoomId]:
        """The unfinished rooms of every node where `name` holds a seat, as `RoomRegistry.seated`
        finds one node's. Raises BusUnavailable."""
        return [RoomId(line["room_id"]) for line in await self._read() if name in line["seated"]]

    async def open_elsewhere(self) -> Counter[Cap]:
        """The unfinished rooms the other nodes hold, under each cap they count towards. Raises
        BusUnavailable."""
        lines = [line for line in await self._read() if line["node"] != self._node]
        return Counter(cap for line in lines for cap in caps_of(line["created_by"], line["bots_only"]))

    async def playing_elsewhere(self, game_id: str) -> RoomId | None:
        """The room of another node where the game `game_id` is going on, if any. Raises
        BusUnavailable."""
        elsewhere = [line for line in await self._read() if line["node"] != self._node]
        return next((RoomId(line["room_id"]) for line in elsewhere if line.get("game_id") == game_id), None)

    async def playing_names(self) -> set[str]:
        """The people seated in an unfinished room of any node, as `RoomRegistry.playing_names`
        finds one node's. Raises BusUnavailable."""
        return {name for line in await self._read() for name in line["seated"]}

    async def _read(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in await self._lines.every_nodes_rooms()]

    async def keep(self) -> None:
        """Every RENEW_EVERY_S, write this node's lines anew (which keeps them from expiring)."""
        while True:
            lines: dict[str, str | None] = {facts.room_id: _line(facts, self._node) for facts in self._held()}
            try:
                async with self._writing:
                    await self._lines.write_rooms(lines, OWNER_TTL_S, replace=True)
            except BusUnavailable as error:
                logger.warning("room list: cannot write this node's rooms: %s", error)
            await pause(RENEW_EVERY_S)

    def _later(self, room_id: str, line: str | None) -> None:
        if line is not None and self._written.get(room_id) == line:
            return
        if line is None:
            self._written.pop(room_id, None)
        else:
            self._written[room_id] = line
        if not self._pending:
            task = asyncio.get_running_loop().create_task(self._write())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._pending[room_id] = line

    async def _write(self) -> None:
        await asyncio.sleep(0)  # the rest of the tick's changes join this write
        async with self._writing:
            pending, self._pending = self._pending, {}
            try:
                await self._lines.write_rooms(pending, OWNER_TTL_S)
            except BusUnavailable as error:
                logger.warning("room list: %d rooms not written (the next renewal will): %s", len(pending), error)


class ListedRoomRegistry(RoomRegistry):
    """The room registry of a node in a cluster: the rooms it holds also keep their lines in the
    cluster's room list (`room_list`)."""

    def __init__(
        self, store: RecordStore, fan_out: RoomFanOut, bots: MoveChooser | None, roster: BotRoster, lines: RoomLines
    ) -> None:
        super().__init__(store, fan_out.publish, bots, roster)
        self._fan_out = fan_out
        self.room_list = SharedRoomList(lines, fan_out.node, self._held_facts)

    def room_changed(self, facts: RoomFacts) -> None:
        super().room_changed(facts)
        if self.get(facts.room_id) is not None:
            self.room_list.changed(facts)

    def room_disposable(self, room_id: RoomId) -> None:
        super().room_disposable(room_id)
        self.room_list.gone(room_id)
        self._fan_out.forget(room_id)

    def _held_facts(self) -> list[RoomFacts]:
        return [facts for actor in self if (facts := self.facts(actor.room.room_id)) is not None]
