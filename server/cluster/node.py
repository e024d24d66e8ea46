"""One node of a cluster: the parts `--bus` adds to a server, built together and started together."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING

from server.bots.players import BotPlayers, BotRoster
from server.cluster.address_counts import SharedAddressCounts
from server.cluster.bus_hub import ClusterHub
from server.cluster.bus_lobby import BusLobby, TournamentService, start_bus
from server.cluster.directory import BusRoomDirectory, OwnershipDirectory, RoomDirectory, RoomOwners
from server.cluster.fan_out import RoomFanOut
from server.cluster.lease_settings import LeaseSettings
from server.cluster.room_list import ListedRoomRegistry
from server.cluster.served_here import ForwardedAnalyses
from server.domain import ConnectionId, Records, RoomId
from server.edge.connections import Connection
from server.edge.subscriptions import Edge
from server.hub.lobby_requests import LobbyRequests
from server.lobby.hall import Lobby
from server.players.ratings import RatingBook

if TYPE_CHECKING:
    from server.cluster.bus import RedisBus


class ClusterNode:
    """The rooms, hub and lobby link of a node that shares its players with others through `bus`."""

    def __init__(
        self,
        bus: RedisBus,
        edge: Edge,
        storage: Records,
        bots: BotPlayers | None,
        roster: BotRoster,
        ratings: RatingBook,
        lobby: Lobby,
        connections: Mapping[ConnectionId, Connection],
        lease: LeaseSettings,
    ) -> None:
        self.bus = bus
        fan_out = RoomFanOut(edge, bus)
        self.rooms = ListedRoomRegistry(storage, fan_out, bots, roster, bus)
        self._redis_directory = BusRoomDirectory(bus, bus.node, self._held_rooms)
        self.directory: RoomDirectory = self._redis_directory
        """Who owns each room: Redis keys, unless the rooms are owned in PostgreSQL (`own_rooms_by`)."""
        self.hub = ClusterHub(self.rooms, ratings, fan_out, bus, self.directory, connections, edge)
        self.lobby = BusLobby(bus, bus, lobby, connections, lease)
        self.addresses = SharedAddressCounts(bus, lease)
        """Open connections per address, over every node."""

    def own_rooms_by(self, owners: RoomOwners) -> None:
        """Take each room's owner from PostgreSQL's ownership (leases and fencing epochs) rather than
        from Redis keys; called once the node holds its lease, before any room opens here."""
        self.directory = OwnershipDirectory(owners)
        self.hub.use_directory(self.directory)

    async def start(
        self, requests: LobbyRequests, tournaments: TournamentService, analyses: ForwardedAnalyses
    ) -> list[asyncio.Task[None]]:
        """Find (or take) the lobby, start the bus, and the chores that renew what this node keeps
        in Redis (returned, for the server to stop). `requests` and `tournaments` serve the lobby
        and the tournaments when they run here, `analyses` the analyses other nodes hand on."""
        self.lobby.serve_with(requests, tournaments)
        self.hub.serve_analyses_with(analyses)
        await self.lobby.claim_or_follow()
        start_bus(self.bus, self.hub, self.lobby)
        loop = asyncio.get_running_loop()
        chores = [loop.create_task(self.lobby.keep()), loop.create_task(self.rooms.room_list.keep())]
        chores.append(loop.create_task(self.addresses.keep()))
        if self.directory is self._redis_directory:
            chores.append(loop.create_task(self._redis_directory.renew()))
        return chores

    async def close(self) -> None:
        """Give the lobby up if it runs here, then close the bus (its chores are stopped already)."""
        await self.lobby.release()
        await self.bus.close()

    def _held_rooms(self) -> list[RoomId]:
        """The rooms this node holds (their owner keys are renewed)."""
        return [actor.room.room_id for actor in self.rooms]
