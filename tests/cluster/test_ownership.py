"""Room ownership under leases, on a real PostgreSQL: the fence refuses a node's writes once its lease
or a room is gone, a dead node's rooms are claimed and restored, a node whose lease expired comes back
owning nothing. A lease "expires" here as a paused node's would, by the database's clock, written
directly, so that no test waits seconds for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest

from engine.record import PlayerInfo
from engine.types import Color, Point, Rule
from server.cluster.lease_settings import LeaseSettings
from server.cluster.ownership import Ownership
from server.domain import GameId, GameStarted, MovePlayed, RoomId, new_game_id, new_room_id
from server.storage.database import Storage
from server.storage.writer import Fenced, StorageUnavailable

FAST = LeaseSettings(heartbeat_s=0.05, expiry_s=30.0)
"""A quick watch and a lease that does not run out by itself during a test."""


class Keeper:
    """Stands for the server's rooms: records what the ownership hands it."""

    def __init__(self) -> None:
        self.restored: set[RoomId] = set()
        self.dropped: set[RoomId] = set()
        self.dropped_any = asyncio.Event()
        self.restored_any = asyncio.Event()
        self.failures_left = 0
        """How many restores fail before they succeed."""

    async def restore(self, rooms: set[RoomId]) -> None:
        if rooms and self.failures_left > 0:  # the database went away between the claim and the restore
            self.failures_left -= 1
            raise StorageUnavailable("the database cannot be reached")
        self.restored |= rooms
        if rooms:
            self.restored_any.set()

    async def drop(self, rooms: set[RoomId]) -> None:
        self.dropped |= rooms
        self.dropped_any.set()


class Node:
    """A node as the server makes one: its storage, fenced by its ownership."""

    def __init__(self, storage: Storage, ownership: Ownership, keeper: Keeper) -> None:
        self.storage, self.ownership, self.keeper = storage, ownership, keeper


@pytest.fixture
async def nodes(postgres_url: str) -> AsyncIterator[dict[str, Node]]:
    """Node `a`, started; a test adds the others it starts, and all are stopped at the end."""
    started = {"a": await _start(postgres_url, "a")}
    yield started
    for node in started.values():
        await node.ownership.close()
        await node.storage.close()


def game_in(room_id: RoomId, game_id: GameId) -> GameStarted:
    return GameStarted(
        game_id, room_id, Rule.FREESTYLE, 15, PlayerInfo("alice"), PlayerInfo("bob"), None, datetime.now(UTC), False
    )


def move(game_id: GameId, ply: int) -> MovePlayed:
    return MovePlayed(game_id, ply, Point(ply, ply), Color.BLACK if ply % 2 else Color.WHITE, 100, None)


async def expire_lease(url: str, node_id: str) -> None:
    """The node's lease runs out, as it does for a node paused past its expiry."""
    connection = await asyncpg.connect(url)
    await connection.execute("UPDATE cluster_nodes SET lease_expires_ms = 0 WHERE node_id = $1", node_id)
    await connection.close()


async def moves_stored(storage: Storage, game_id: GameId) -> int:
    record = await storage.game_record(game_id, None)
    assert record is not None
    return len(record.moves)


async def test_a_node_owns_the_rooms_it_creates_and_writes_nothing_once_its_lease_is_gone(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    room_id, game_id = new_room_id(), new_game_id()
    await a.storage.apply([game_in(room_id, game_id), move(game_id, 1)])
    assert a.ownership.owned == {room_id: 1}

    await expire_lease(postgres_url, "a")

    with pytest.raises(Fenced, match="lease"):
        await a.storage.apply([move(game_id, 2)])
    assert await moves_stored(a.storage, game_id) == 1


async def test_a_dead_nodes_rooms_are_claimed_and_its_late_write_is_refused(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    room_id, game_id = new_room_id(), new_game_id()
    await a.storage.apply([game_in(room_id, game_id), move(game_id, 1)])
    await expire_lease(postgres_url, "a")  # a paused node: it does not know yet

    b = nodes["b"] = await _start(postgres_url, "b")
    await b.ownership.begin()
    assert b.keeper.restored == {room_id} and b.ownership.owned == {room_id: 2}

    with pytest.raises(Fenced):
        await a.storage.apply([move(game_id, 2)])
    await b.storage.apply([move(game_id, 2)])
    assert await moves_stored(b.storage, game_id) == 2


async def test_a_running_node_takes_over_the_rooms_of_a_node_whose_lease_runs_out(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    b = nodes["b"] = await _start(postgres_url, "b")
    await b.ownership.begin()
    room_id, game_id = new_room_id(), new_game_id()
    await a.storage.apply([game_in(room_id, game_id)])
    assert b.keeper.restored == set()

    await expire_lease(postgres_url, "a")
    await asyncio.wait_for(b.keeper.restored_any.wait(), 10)  # within a heartbeat or so

    assert b.keeper.restored == {room_id} and b.ownership.owned == {room_id: 2}


async def test_a_take_over_whose_restore_fails_is_tried_again_and_the_heartbeat_goes_on(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    b = nodes["b"] = await _start(postgres_url, "b")
    b.keeper.failures_left = 1
    await b.ownership.begin()
    room_id = new_room_id()
    await a.storage.apply([game_in(room_id, new_game_id())])

    await expire_lease(postgres_url, "a")
    await asyncio.wait_for(b.keeper.restored_any.wait(), 10)  # the failed restore, then a later heartbeat's

    assert b.keeper.failures_left == 0 and b.keeper.restored == {room_id}


async def test_a_node_that_lost_its_lease_drops_its_rooms_and_comes_back_owning_nothing(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    room_id, game_id = new_room_id(), new_game_id()
    await a.storage.apply([game_in(room_id, game_id)])
    b = nodes["b"] = await _start(postgres_url, "b")
    await b.ownership.begin()
    await expire_lease(postgres_url, "a")
    epoch = a.ownership.epoch

    await a.ownership.begin()  # its next heartbeat finds the lease gone
    await asyncio.wait_for(a.keeper.dropped_any.wait(), 10)

    assert a.keeper.dropped == {room_id}
    assert a.ownership.epoch == epoch + 1 and room_id not in a.ownership.owned


async def test_nodes_claiming_at_once_split_a_dead_nodes_rooms_without_sharing_one(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    a = nodes["a"]
    rooms = [new_room_id() for _ in range(20)]
    await a.storage.apply([game_in(room_id, new_game_id()) for room_id in rooms])
    await expire_lease(postgres_url, "a")
    claimers = [await _start(postgres_url, name) for name in ("b", "c", "d")]
    nodes.update(zip("bcd", claimers, strict=True))

    await asyncio.gather(*(node.ownership.begin() for node in claimers))

    claimed = [node.keeper.restored for node in claimers]
    assert sum(len(rooms) for rooms in claimed) == len(rooms)
    assert set().union(*claimed) == set(rooms)


async def test_a_node_whose_lease_renewal_gets_no_answer_drops_its_rooms_once_the_lease_has_run_out(
    nodes: dict[str, Node], postgres_url: str
) -> None:
    """A statement the database never answers (on a connection it dropped while shutting down, here
    one waiting for a lock) must not stop the heartbeat: it times out, and past the lease's expiry
    the node stops serving its rooms."""
    b = nodes["b"] = await _start(postgres_url, "b", LeaseSettings(heartbeat_s=0.05, expiry_s=1.0))
    room_id = new_room_id()
    await b.storage.apply([game_in(room_id, new_game_id())])
    await b.ownership.begin()
    blocker = await asyncpg.connect(postgres_url)
    try:
        async with blocker.transaction():
            await blocker.execute("LOCK TABLE cluster_nodes IN ACCESS EXCLUSIVE MODE")  # renewals wait
            await asyncio.wait_for(b.keeper.dropped_any.wait(), 10)
    finally:
        await blocker.close()

    assert b.keeper.dropped == {room_id} and not b.ownership.owned


async def _start(url: str, name: str, lease: LeaseSettings = FAST) -> Node:
    """A node as the server makes one: it joins, and its storage's writes are fenced."""
    storage = await Storage.open(url)
    keeper = Keeper()
    ownership = await Ownership.join(url, name, lease, keeper)
    storage.fence_writes(ownership.fence)
    return Node(storage, ownership, keeper)
