"""Room actors and the registry: stored before anyone hears of it, timers and bots that keep a game moving.

The actor's storage and bot pool are scripted here (`ScriptedStore`,
`ScriptedBots`): a test decides when a write fails, when a bot answers and
what it says, so that timing, retries and stale answers are reproduced
exactly, without a database or worker processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from edge_inbox import EdgeInbox

from engine.bots import Decision
from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, Point, Rule
from server.bots.pool import BotBusyError, BotError, BotRequest, WaitWatcher
from server.domain import (
    Caller,
    ConnectionId,
    GameFinished,
    MovePlayed,
    PresenceReport,
    RatingsChanged,
    Refusal,
    RoomId,
    StoreRecord,
    caller_ref,
    new_room_id,
)
from server.hub.commands import Hub
from server.players.ratings import RatingBook
from server.rooms import actors
from server.rooms.actors import RoomActor, RoomRegistry
from server.rooms.room import Room, RoomChange, RoomSettings
from server.storage.database import Storage, StorageUnavailable

ALICE = Caller(caller_ref(ConnectionId(1)), "alice")
BOB = Caller(caller_ref(ConnectionId(2)), "bob")
CAROL_CONNECTION = ConnectionId(3)
CAROL = Caller(caller_ref(CAROL_CONNECTION), "carol")
GREEDY = PlayerInfo("greedy", "bot", "greedy")
WAIT_S = 10.0
"""How long a test waits for something it expects (generous: the machine is shared)."""


class ScriptedStore:
    """Storage that keeps records in a list and fails the writes a test asks it to."""

    def __init__(self) -> None:
        self.records: list[StoreRecord] = []
        self.failures: list[Exception] = []
        """Exceptions to raise on the next writes, in order."""

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        if records and self.failures:
            raise self.failures.pop(0)
        self.records.extend(records)
        return ()


class HeldStore(ScriptedStore):
    """Storage whose writes, once `held`, wait until the test lets them through (`go_on`)."""

    def __init__(self) -> None:
        super().__init__()
        self.held = False
        self.writing = asyncio.Event()
        """Set when a held write has begun."""
        self.go_on = asyncio.Event()

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        if self.held:
            self.writing.set()
            await self.go_on.wait()
        return await super().apply(records)


class ScriptedBots:
    """A bot pool whose answers the test hands over one request at a time."""

    def __init__(self) -> None:
        self.requests: asyncio.Queue[tuple[BotRequest, asyncio.Future[Decision]]] = asyncio.Queue()
        self.watchers: list[WaitWatcher | None] = []
        """The watcher of each request, in order: the test tells it of waits, as the pool would."""

    async def choose(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Decision:
        answer: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self.watchers.append(watcher)
        await self.requests.put((request, answer))
        return await answer

    async def next_request(self) -> tuple[BotRequest, asyncio.Future[Decision]]:
        async with asyncio.timeout(WAIT_S):
            return await self.requests.get()


class Inbox(EdgeInbox):
    """What the actor published, as each of Alice, Bob and Carol read it, with a way to wait for a
    kind of message."""

    def __init__(self) -> None:
        super().__init__()
        self.connect(ALICE, BOB, CAROL)
        self._arrived = asyncio.Event()

    def publish(self, room_id: RoomId, changes: list[RoomChange]) -> PresenceReport | None:
        self._arrived.set()
        return super().publish(room_id, changes)

    async def wait_for(self, caller: Caller, kind: str) -> dict[str, Any]:
        async with asyncio.timeout(WAIT_S):
            while True:
                for message in self.of(caller):
                    if message["type"] == kind:
                        return message
                self._arrived.clear()
                await self._arrived.wait()


@pytest.fixture
def store() -> ScriptedStore:
    return ScriptedStore()


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actors, "BOT_RETRY_DELAY_S", 0.001)
    monkeypatch.setattr(actors, "BOT_BUSY_WAIT_CAP_S", 0.001)


def new_room(clock: ClockSetting | None = None, private: bool = False) -> Room:
    return Room(new_room_id(), Rule.FREESTYLE, 15, clock, private, RoomSettings())


async def open_room(registry: RoomRegistry, room: Room, black: Any = "me", white: Any = "open") -> RoomActor:
    actor = registry.actor_for(room)
    await actor.run(lambda room, now: room.open(ALICE, black, white, now))
    registry.add(actor)
    return actor


@pytest.fixture
def bots() -> ScriptedBots:
    return ScriptedBots()


@pytest.fixture
async def registry(store: ScriptedStore, inbox: Inbox, bots: ScriptedBots) -> Iterator[RoomRegistry]:
    rooms = RoomRegistry(store, inbox.publish, bots)
    yield rooms
    await rooms.close()


# ------------------------------------------------------------ stored first


async def test_a_move_that_cannot_be_stored_is_neither_sent_nor_kept(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    inbox = Inbox()
    registry = RoomRegistry(storage, inbox.publish, None)
    actor = await open_room(registry, new_room())
    await actor.run(lambda room, now: room.join(BOB, True, now))
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    heard = len(inbox.of(BOB))

    await storage.close()
    with pytest.raises(StorageUnavailable):
        await actor.run(lambda room, now: room.move(BOB, Point(8, 8), now))

    assert len(inbox.of(BOB)) == heard
    assert actor.room.board.moves == (Point(7, 7),)
    assert actor.room.seq == 1
    await registry.close()


async def test_the_answer_to_a_request_carries_its_id_and_nothing_else_does(
    registry: RoomRegistry, inbox: Inbox
) -> None:
    actor = await open_room(registry, new_room())
    await actor.run(lambda room, now: room.join(BOB, True, now), request_id="join-1")
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now), request_id=41)

    alice = [(message["type"], message.get("id")) for message in inbox.of(ALICE)]
    bob = [(message["type"], message.get("id")) for message in inbox.of(BOB)]
    assert alice == [("room", None), ("room", None), ("moved", 41)]
    assert bob == [("room", "join-1"), ("moved", None)]


async def test_a_failed_write_leaves_the_room_as_it_was_and_the_next_one_goes_through(
    registry: RoomRegistry, store: ScriptedStore, inbox: Inbox
) -> None:
    actor = await open_room(registry, new_room())
    await actor.run(lambda room, now: room.join(BOB, True, now))
    store.failures.append(OSError("disk full"))

    with pytest.raises(OSError):
        await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    assert actor.room.board.ply == 0 and "moved" not in inbox.types(BOB)

    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    assert [type(record) for record in store.records][-1] is MovePlayed
    assert inbox.types(BOB)[-1] == "moved"


# ------------------------------------------------------------------- time


async def test_a_clock_runs_out_with_nobody_sending_anything(
    registry: RoomRegistry, store: ScriptedStore, inbox: Inbox
) -> None:
    actor = await open_room(registry, new_room(clock=ClockSetting(50, 0)))
    await actor.run(lambda room, now: room.join(BOB, True, now))

    over = await inbox.wait_for(BOB, "game_over")

    assert over["result"] == {"winner": "white", "reason": "timeout", "line": None}
    finished = [record for record in store.records if isinstance(record, GameFinished)]
    assert [record.result.reason for record in finished] == [EndReason.TIMEOUT]
    assert actor.room.status == "finished"


# ------------------------------------------------------------------- bots


async def test_a_bot_moves_when_it_is_its_turn(registry: RoomRegistry, bots: ScriptedBots, inbox: Inbox) -> None:
    actor = await open_room(registry, new_room(), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))

    request, answer = await bots.next_request()
    assert (request.level, request.moves) == ("greedy", (Point(7, 7),))
    answer.set_result(Decision(Point(8, 8), 0))

    await _until(lambda: inbox.types(ALICE).count("moved") == 2)
    moved = [message for message in inbox.of(ALICE) if message["type"] == "moved"]
    assert (moved[1]["x"], moved[1]["y"], moved[1]["color"]) == (8, 8, "white")
    assert actor.room.board.to_move is Color.BLACK


async def test_a_bots_clock_is_held_while_the_pool_says_its_search_waits(
    registry: RoomRegistry, bots: ScriptedBots
) -> None:
    actor = await open_room(registry, new_room(clock=ClockSetting(60_000, 0)), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    _, answer = await bots.next_request()
    watcher = bots.watchers[-1]
    assert watcher is not None and actor.room.clock is not None

    await watcher.waiting()
    assert actor.room.clock.running is None
    await watcher.started()
    assert actor.room.clock.running is Color.WHITE
    answer.set_result(Decision(Point(8, 8), 0))
    await _until(lambda: actor.room.board.ply == 2)


async def test_a_bots_clock_is_held_while_a_busy_pool_keeps_refusing_its_search(
    registry: RoomRegistry, bots: ScriptedBots, fast_retries: None
) -> None:
    actor = await open_room(registry, new_room(clock=ClockSetting(60_000, 0)), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    _, answer = await bots.next_request()
    answer.set_exception(BotBusyError("every worker is busy"))
    _, answer = await bots.next_request()
    watcher = bots.watchers[-1]
    assert watcher is not None and actor.room.clock is not None

    assert actor.room.clock.running is None, "held while the pool was busy"
    await watcher.started()
    assert actor.room.clock.running is Color.WHITE
    answer.set_result(Decision(Point(8, 8), 0))
    await _until(lambda: actor.room.board.ply == 2)


async def test_a_search_for_a_position_taken_back_is_dropped_and_the_bot_asked_again(
    registry: RoomRegistry, bots: ScriptedBots
) -> None:
    actor = await open_room(registry, new_room(), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    _, first_answer = await bots.next_request()
    first_answer.set_result(Decision(Point(8, 8), 0))
    await _until(lambda: actor.room.board.ply == 2)

    await actor.run(lambda room, now: room.move(ALICE, Point(6, 6), now))
    stale_request, stale_answer = await bots.next_request()
    await actor.run(lambda room, now: room.request_undo(ALICE, now))
    assert actor.room.board.ply == 2 and stale_answer.cancelled()

    await actor.run(lambda room, now: room.move(ALICE, Point(9, 9), now))
    fresh_request, fresh_answer = await bots.next_request()
    assert fresh_request.moves[-1] == Point(9, 9) != stale_request.moves[-1]
    fresh_answer.set_result(Decision(Point(10, 10), 0))
    await _until(lambda: actor.room.board.ply == 4)
    assert actor.room.board.moves[-1] == Point(10, 10)


async def test_a_busy_pool_is_asked_again_until_the_bot_answers(
    registry: RoomRegistry, bots: ScriptedBots, fast_retries: None
) -> None:
    actor = await open_room(registry, new_room(), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    for _ in range(5):
        _, answer = await bots.next_request()
        answer.set_exception(BotBusyError("every worker is busy"))
    _, answer = await bots.next_request()
    answer.set_result(Decision(Point(8, 8), 0))
    await _until(lambda: actor.room.board.ply == 2)
    assert actor.room.status == "playing"


async def test_a_bot_that_keeps_failing_resigns_so_its_opponent_is_not_left_waiting(
    registry: RoomRegistry, bots: ScriptedBots, inbox: Inbox, fast_retries: None
) -> None:
    actor = await open_room(registry, new_room(), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    for _ in range(actors.BOT_ATTEMPTS):
        _, answer = await bots.next_request()
        answer.set_exception(BotError("the worker died"))

    over = await inbox.wait_for(ALICE, "game_over")
    assert over["result"]["winner"] == "black" and over["result"]["reason"] == "resign"
    assert actor.room.status == "finished"


async def test_closing_a_room_cancels_its_search(registry: RoomRegistry, bots: ScriptedBots) -> None:
    actor = await open_room(registry, new_room(), white=GREEDY)
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    _, answer = await bots.next_request()

    await actor.close()

    assert answer.cancelled()
    with pytest.raises(Refusal) as refused:
        await actor.run(lambda room, now: room.resign(ALICE, now))
    assert refused.value.code == "unavailable"
    assert actor.room.status == "playing", "a closed room takes no more changes"


async def test_a_dropped_room_leaves_the_registry_before_it_closes_and_a_request_waiting_for_it_is_refused(
    inbox: Inbox,
) -> None:
    """Another node serves the room now: from the moment it is dropped no request finds it here,
    and one that reached its actor before, and waits while it stores its clocks and closes, is
    answered `unavailable` (try again: the next try finds the room where it is served)."""
    store = HeldStore()
    registry = RoomRegistry(store, inbox.publish, None)
    actor = await open_room(registry, new_room())
    room_id = actor.room.room_id
    store.held = True
    dropping = asyncio.create_task(registry.drop(room_id))
    async with asyncio.timeout(WAIT_S):
        await store.writing.wait()  # the actor stores its clocks as it closes, under its lock
    assert registry.get(room_id) is None and registry.facts(room_id) is None
    waiting = asyncio.create_task(actor.run(lambda room, now: room.join(BOB, True, now), request_id="join-1"))

    store.go_on.set()
    assert await dropping
    with pytest.raises(Refusal) as refused:
        await waiting
    assert refused.value.code == "unavailable"
    assert inbox.of(BOB) == []
    assert not await registry.drop(room_id)


# --------------------------------------------------------------- registry


async def test_the_registry_lists_public_unfinished_rooms_and_finds_a_players_seats(registry: RoomRegistry) -> None:
    public = await open_room(registry, new_room())
    hidden = await open_room(registry, new_room(private=True))
    finished = await open_room(registry, new_room())
    await finished.run(lambda room, now: room.join(BOB, True, now))
    await finished.run(lambda room, now: room.resign(ALICE, now))

    listed, cursor = registry.listed(limit=100)
    assert [facts.room_id for facts in listed] == [public.room.room_id] and cursor is None
    assert sorted(registry.seated("alice")) == sorted([public.room.room_id, hidden.room.room_id])
    assert registry.seated("bob") == []


async def test_the_edge_knows_which_rooms_a_connection_is_in_and_tells_a_room_it_closed(
    registry: RoomRegistry, store: ScriptedStore, inbox: Inbox
) -> None:
    first = await open_room(registry, new_room())
    second = await open_room(registry, new_room())
    await first.run(lambda room, now: room.join(CAROL, False, now))
    await second.run(lambda room, now: room.join(CAROL, False, now))
    assert inbox.edge.book.rooms_of(CAROL_CONNECTION) == sorted([first.room.room_id, second.room.room_id])
    assert second.room.spectator_count() == 1

    await first.run(lambda room, now: room.leave(CAROL, now))
    assert inbox.edge.book.rooms_of(CAROL_CONNECTION) == [second.room.room_id]
    assert first.room.spectator_count() == 0
    hub = Hub(registry, RatingBook(store))
    for room_id, report in inbox.close(CAROL):
        await hub.report(room_id, report)
    assert inbox.edge.book.rooms_of(CAROL_CONNECTION) == [] and second.room.spectator_count() == 0


async def test_a_finished_room_nobody_is_in_is_forgotten(registry: RoomRegistry) -> None:
    actor = await open_room(registry, new_room())
    room_id = actor.room.room_id
    await actor.run(lambda room, now: room.join(BOB, True, now))
    await actor.run(lambda room, now: room.resign(ALICE, now))
    await actor.run(lambda room, now: room.leave(ALICE, now))
    assert registry.get(room_id) is actor

    await actor.run(lambda room, now: room.leave(BOB, now))

    assert registry.get(room_id) is None and registry.facts(room_id) is None


async def test_the_registry_reads_a_room_as_last_stored_never_half_way_through_a_change(
    registry: RoomRegistry, store: ScriptedStore
) -> None:
    actor = await open_room(registry, new_room())
    await actor.run(lambda room, now: room.join(BOB, True, now))
    store.failures.append(OSError("database is locked"))

    with pytest.raises(OSError):
        await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))

    facts = registry.facts(actor.room.room_id)
    assert facts is not None and facts.moves == ()


async def _until(condition: Any) -> None:
    async with asyncio.timeout(WAIT_S):
        while not condition():
            await asyncio.sleep(0.001)
