"""The asyncio side of rooms: one lock, one timer and at most one bot search per room.

A RoomActor serialises everything that changes its room. For each change it
stores the room's records, and only then publishes the room's events to the
edge (so no client ever sees a move that a crash could lose), tells the room
what the edge now counts of its connections, tells the registry what others
may now know of the room, re-arms the room's timer for its next deadline (a flag falling, an absent player's
time running out) and starts a bot search when a bot is to move.

The actor sees storage and the bot pool through two small interfaces
(`RecordStore`, `MoveChooser`), so that its tests script them. The
RoomRegistry holds the actors by room id and answers the questions other
parts of the server ask about rooms, from each room's last stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from typing import Protocol

from engine.bots import Decision
from engine.openings import Step
from engine.types import Point
from server.bots.players import BotRoster
from server.bots.pool import BotBusyError, BotError, BotGaveUp, BotRequest, WaitWatcher
from server.domain import (
    BotTurn,
    Caller,
    PresenceReport,
    RecordStore,
    Refusal,
    RoomFacts,
    RoomId,
    Standing,
    is_server_bot,
)
from server.players.ratings import announce
from server.rooms.room import Outcome, Room, RoomChange, RoomRequest
from server.storage.writer import StorageUnavailable

logger = logging.getLogger(__name__)

Publish = Callable[[RoomId, list[RoomChange]], PresenceReport | None]
"""Hands a room's changes to the edge, once for all their audiences; what the edge now counts of the
room's connections, if that changed."""
RoomAction = Callable[[Room, float], Outcome]

BOT_ATTEMPTS = 3
"""How many failed searches in a row make a bot resign."""
BOT_RETRY_DELAY_S = 0.5
"""Pause before asking again when the bot pool was busy or failed."""
BOT_BUSY_WAIT_CAP_S = 2.0
"""Longest pause between asks while the bot pool stays busy."""
TIMER_SLACK_S = 0.002
"""Fire timers a little after the deadline, so that the deadline has surely passed."""
STORE_RETRY_FIRST_S = 0.25
"""After a change the database could not take, the pause before a timer or a bot tries again;
it doubles with each failure in a row, up to STORE_RETRY_LONGEST_S."""
STORE_RETRY_LONGEST_S = 4.0


def _nothing() -> None:
    """Nothing to tell before a room's own events."""


class RoomClosed(Refusal):
    """The room's actor has closed (the room dropped, another node serving it now, or the server
    stopping): a request that reached it is answered `unavailable`, and the caller's next try finds
    the room wherever it is served now."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the room is no longer served here; try again")


class MoveChooser(Protocol):
    """Who chooses a bot's moves and opening steps (the server's BotPlayers)."""

    async def choose(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Decision:
        """The bot's decision; raises BotBusyError when full and BotError when it fails. `watcher`
        is told if the search waits for a worker, and when it gets one."""

    async def decide_opening(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Step:
        """The bot's step in the request's opening; raises and tells `watcher` as `choose` does."""


class RoomListener(Protocol):
    """What an actor tells its registry."""

    def room_changed(self, facts: RoomFacts) -> None:
        """A change to the room has been stored: these are its facts now."""

    def room_disposable(self, room_id: RoomId) -> None:
        """The room has nobody left who needs it."""


class RoomActor:
    """Owns one Room: applies actions under its lock, stores, delivers, arms timers, runs bots."""

    def __init__(
        self,
        room: Room,
        store: RecordStore,
        publish: Publish,
        bots: MoveChooser | None,
        listener: RoomListener,
        roster: BotRoster | None = None,
    ) -> None:
        """An actor for `room`; `roster` says how long its bots think (default: our own levels)."""
        self.room = room
        self._roster = roster or BotRoster()
        self._store = store
        self._publish = publish
        self._bots = bots
        self._listener = listener
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version: int | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._failed_writes = 0
        """Changes in a row the database could not take."""

    async def apply(
        self, caller: Caller, request: RoomRequest, standings: tuple[Standing, ...] = (), sent_again: bool = False
    ) -> None:
        """Serve a request about the room (`Room.apply`, or `Room.apply_again` for one `sent_again`),
        for a caller whose standing the room learns."""

        def act(room: Room, now: float) -> Outcome:
            room.know(standings)
            return room.apply_again(caller, request, now) if sent_again else room.apply(caller, request, now)

        await self.run(act, request.id)

    async def report_presence(self, report: PresenceReport) -> None:
        """Tell the room what the edge counts of its connections now (some closed); nothing once it
        has closed (where it is served now, its members are counted again as they join again)."""
        with contextlib.suppress(RoomClosed):
            await self.run(lambda room, now: room.presence_changed(report, now))

    async def run(
        self, action: RoomAction, request_id: str | int | None = None, before_publishing: Callable[[], None] = _nothing
    ) -> None:
        """Apply `action` to the room, then store, publish and re-arm (`before_publishing` tells what
        must be read first, once the change is stored).

        The message that answers the request carries `request_id`. A
        Refusal raised by the action propagates with nothing changed; so
        does StorageUnavailable, after which the room is as it was before,
        and nobody has been told of a change that is not on disk. An actor
        that has closed (it may close while a request waits for its lock)
        raises RoomClosed: a request is never left without an answer.
        """
        async with self._lock:
            if self._closed:
                raise RoomClosed()
            before = self.room.checkpoint()
            try:
                outcome = action(self.room, asyncio.get_running_loop().time())
                await self._save(outcome)
            except BaseException as error:
                self.room = before
                if isinstance(error, StorageUnavailable):
                    self._write_failed(error)
                raise
            self._write_succeeded()
            before_publishing()
            self._publish_all(outcome.stamped(request_id))
            self._after_change()

    def _publish_all(self, changes: list[RoomChange]) -> None:
        """Publish the changes, then what the room makes of the edge's new count of its connections
        (which stores nothing: presence is not a record)."""
        report = self._publish(self.room.room_id, changes)
        if report is not None:
            counted = self.room.presence_changed(report, asyncio.get_running_loop().time())
            assert not counted.records, "a presence change stores nothing"
            self._publish(self.room.room_id, counted.events)

    async def _save(self, outcome: Outcome) -> None:
        """Store the outcome's records. A rated game they finish is rated in the same transaction:
        the room learns its players' new standings, and its `game_over` messages say the change."""
        for change in await self._store.apply(outcome.records):
            self.room.know(change.after)
            announce(outcome, change)

    def start(self) -> None:
        """Arm the timer and any bot search for a room that was just created or restored."""
        self._after_change()

    async def close(self) -> None:
        """Store the clocks as they stand, then stop the timer and bot search (after any change in
        progress has been stored)."""
        async with self._lock:
            if not self._closed:
                await self._save_clocks()
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            tasks = list(self._tasks)
            if self._bot_task is not None:
                tasks.append(self._bot_task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _save_clocks(self) -> None:
        records = self.room.save_clocks(asyncio.get_running_loop().time()).records
        try:
            await self._store.apply(records)
        except StorageUnavailable as error:
            room = self.room
            logger.warning("room %s, game %s: clocks not saved at shutdown (%s)", room.room_id, room.game_id, error)

    def stop_timer(self) -> None:
        """Disarm the room's timer (the room is being forgotten)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _after_change(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._listener.room_changed(self.room.facts())
        self._arm_timer(loop)
        self._schedule_bot(now)
        if self.room.is_disposable(now):
            self._listener.room_disposable(self.room.room_id)

    def _arm_timer(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.room.next_deadline()
        if deadline is not None:
            self._timer = loop.call_at(deadline + TIMER_SLACK_S, self._spawn_tick)

    def _spawn_tick(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self._tick())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick(self) -> None:
        """End what the clock or an absence ends; if the database cannot take it now, try again
        after a pause (a bug is logged, and retried the same way, so that no room is left wedged)."""
        try:
            await self.run(lambda room, now: room.on_timer(now))
        except RoomClosed:
            return
        except StorageUnavailable:
            self._retry_tick()
        except Exception:
            logger.exception("room %s, game %s: the timer failed", self.room.room_id, self.room.game_id)
            self._retry_tick()

    def _retry_tick(self) -> None:
        if self._timer is None and not self._closed:
            self._timer = asyncio.get_running_loop().call_later(self._retry_pause(), self._spawn_tick)

    async def _run_until_stored(self, action: RoomAction) -> None:
        """Run an action no request waits for (a bot's move), trying again after a pause for as long
        as the database cannot take it."""
        while True:
            try:
                await self.run(action)
                return
            except RoomClosed:
                return
            except StorageUnavailable:
                await asyncio.sleep(self._retry_pause())

    def _retry_pause(self) -> float:
        doublings = max(0, self._failed_writes - 1)
        return float(min(STORE_RETRY_FIRST_S * 2.0**doublings, STORE_RETRY_LONGEST_S))

    def _write_failed(self, error: StorageUnavailable) -> None:
        """Log the first failure of a streak (the next ones would only repeat it)."""
        if self._failed_writes == 0:
            room = self.room
            logger.warning("room %s, game %s: cannot store a change (%s); retrying", room.room_id, room.game_id, error)
        self._failed_writes += 1

    def _write_succeeded(self) -> None:
        if self._failed_writes:
            room = self.room
            count = self._failed_writes
            logger.info("room %s, game %s: stored again after %d failed attempts", room.room_id, room.game_id, count)
        self._failed_writes = 0

    # ---------------------------------------------------------------- bots

    def _schedule_bot(self, now: float) -> None:
        turn = self.room.bot_turn(now) if self._bots is not None else None
        version = None if turn is None else turn.version
        if version == self._bot_version:
            return
        current = asyncio.current_task()
        if self._bot_task is not None and self._bot_task is not current:
            self._bot_task.cancel()
        self._bot_task = None
        self._bot_version = version
        if turn is not None:
            self._bot_task = asyncio.get_running_loop().create_task(self._think(turn))

    async def _think(self, turn: BotTurn) -> None:
        """Ask the pool for the bot's move until it answers; a bot that keeps failing resigns, and
        says why in the game's result.

        A busy pool is not the bot's fault: the request waits and tries again,
        and the bot's clock, if any, is held while its search waits for a
        worker, in line or refused busy (`_HeldClock`). An outside engine
        retries by itself and gives up at once when that failed too.
        """
        assert self._bots is not None
        request = self._roster.search_request(turn, self.room.settings.bot_time_ms)
        held_clock = _HeldClock(self, turn.version)
        failures = 0
        busy_waits = 0
        reason = f"the bot {turn.level} failed {BOT_ATTEMPTS} times"
        while failures < BOT_ATTEMPTS:
            try:
                if turn.opening is not None:
                    step = await self._bots.decide_opening(request, held_clock)
                    await self._run_until_stored(functools.partial(_take_bot_step, version=turn.version, step=step))
                    return
                decision = await self._bots.choose(request, held_clock)
            except BotBusyError:
                await held_clock.waiting()
                busy_waits += 1
                await asyncio.sleep(min(BOT_RETRY_DELAY_S * busy_waits, BOT_BUSY_WAIT_CAP_S))
                continue
            except BotGaveUp as error:
                logger.warning("bot %s gives up in room %s: %s", turn.level, self.room.room_id, error)
                reason = str(error)
                break
            except BotError as error:
                failures += 1
                logger.warning("bot %s failed in room %s: %s", turn.level, self.room.room_id, error)
                reason = f"the bot {turn.level} failed {failures} times, the last: {error}"
                await asyncio.sleep(BOT_RETRY_DELAY_S)
                continue
            if turn.not_before is not None:
                await asyncio.sleep(max(0.0, turn.not_before - asyncio.get_running_loop().time()))
            await self._run_until_stored(functools.partial(_play_bot_move, version=turn.version, point=decision.move))
            return
        await self._run_until_stored(lambda room, now: room.bot_failed(turn.version, now, reason))


class _HeldClock:
    """Stops a bot's clock while its search waits for a worker, and runs it again once the search
    has one (`Room.bot_waits_for_worker`): the bot pays for its thinking, not for the queue."""

    def __init__(self, actor: RoomActor, version: int) -> None:
        self._actor = actor
        self._version = version

    async def waiting(self) -> None:
        version = self._version
        await self._actor.run(lambda room, now: room.bot_waits_for_worker(version, now))  # nothing to store

    async def started(self) -> None:
        version = self._version
        if self._actor.room.bot_clock_held == version:  # the usual case, nothing held, costs nothing
            await self._actor.run(lambda room, now: room.bot_search_started(version, now))


def _play_bot_move(room: Room, now: float, *, version: int, point: Point) -> Outcome:
    return room.bot_move(version, point, now)


def _take_bot_step(room: Room, now: float, *, version: int, step: Step) -> Outcome:
    return room.bot_opening_step(version, step, now)


class RoomRegistry:
    """Every live room, by id, and what the rest of the server may ask about them.

    Answers come from each room's facts as of its last stored change
    (`RoomFacts`), never from a room in the middle of a change. The
    connections in each room are the edge's to know, not the registry's.
    """

    def __init__(
        self,
        store: RecordStore,
        publish: Publish,
        bots: MoveChooser | None,
        roster: BotRoster | None = None,
    ) -> None:
        """Rooms whose changes go to `store` (which rates their rated games), whose events go to
        `publish`, and whose bots ask `bots` (for as long as `roster` says)."""
        self._store = store
        self._publish = publish
        self._bots = bots
        self._roster = roster or BotRoster()
        self._actors: dict[RoomId, RoomActor] = {}
        self._facts: dict[RoomId, RoomFacts] = {}
        self._result_watchers: list[Callable[[RoomFacts], None]] = []

    def actor_for(self, room: Room) -> RoomActor:
        """An actor for a new or restored room, not yet held (see `add`)."""
        return RoomActor(room, self._store, self._publish, self._bots, self, self._roster)

    def add(self, actor: RoomActor) -> None:
        """Hold a room's actor and start its timers."""
        self._actors[actor.room.room_id] = actor
        actor.start()

    def get(self, room_id: str) -> RoomActor | None:
        """The actor of a room, or None."""
        return self._actors.get(RoomId(room_id))

    def facts(self, room_id: str) -> RoomFacts | None:
        """What is known of a room as of its last stored change, or None."""
        return self._facts.get(RoomId(room_id))

    def listed(self, limit: int, after: str | None = None) -> tuple[list[RoomFacts], RoomId | None]:
        """A page of the rooms `list_rooms` shows (public ones, waiting or playing), in room id
        order from just after `after`, and the cursor of the next page (None on the last)."""
        rooms = sorted(
            (
                facts
                for facts in self._facts.values()
                if not facts.private and facts.status != "finished" and (after is None or facts.room_id > after)
            ),
            key=lambda facts: facts.room_id,
        )
        page = rooms[:limit]
        return page, page[-1].room_id if len(rooms) > limit else None

    def seated(self, name: str) -> list[RoomId]:
        """Rooms where `name` holds a seat in an unfinished game."""
        return [
            facts.room_id
            for facts in self._facts.values()
            if facts.status != "finished" and facts.seat_of(name) is not None
        ]

    def holding(self, name: str) -> list[RoomId]:
        """Rooms where `name` holds a seat, whatever their game's state (a rename moves them)."""
        return [facts.room_id for facts in self._facts.values() if facts.seat_of(name) is not None]

    def count_open(self, created_by: str | None = None, bots_only: bool = False) -> int:
        """Rooms waiting or playing, opened by `created_by` (anyone if None), only those where two
        bots play if `bots_only`."""
        return sum(
            1
            for facts in self._facts.values()
            if facts.status != "finished"
            and (created_by is None or facts.created_by == created_by)
            and (facts.bots_only or not bots_only)
        )

    def playing(self, game_id: str) -> RoomFacts | None:
        """The room where the game `game_id` is going on (its opening or its moves), if it is."""
        return next(
            (facts for facts in self._facts.values() if facts.game_id == game_id and facts.status != "finished"),
            None,
        )

    def playing_names(self) -> set[str]:
        """The people seated in an unfinished game (their status is `playing`)."""
        return {
            seat.name
            for facts in self._facts.values()
            if facts.status != "finished"
            for seat in facts.seats
            if seat is not None and not is_server_bot(seat)
        }

    def count_by_status(self) -> dict[str, int]:
        """How many live rooms are waiting, playing and finished."""
        counts: dict[str, int] = {}
        for facts in self._facts.values():
            counts[facts.status] = counts.get(facts.status, 0) + 1
        return counts

    def __iter__(self) -> Iterator[RoomActor]:
        return iter(list(self._actors.values()))

    def watch_results(self, watcher: Callable[[RoomFacts], None]) -> None:
        """Tell `watcher` of each game that ends (the room's facts, once its result is stored)."""
        self._result_watchers.append(watcher)

    def room_changed(self, facts: RoomFacts) -> None:
        """Keep a room's facts up to date; tell the result watchers of a game that has just ended."""
        if facts.room_id in self._actors:
            before = self._facts.get(facts.room_id)
            self._facts[facts.room_id] = facts
            just_ended = before is None or before.game_id != facts.game_id or before.result is None
            if facts.result is not None and just_ended:
                for watcher in self._result_watchers:
                    watcher(facts)

    def room_disposable(self, room_id: RoomId) -> None:
        """Forget a room nobody needs; its timers stop."""
        actor = self._actors.pop(room_id, None)
        self._facts.pop(room_id, None)
        if actor is not None:
            actor.stop_timer()

    async def drop(self, room_id: RoomId) -> bool:
        """Stop serving a room another node serves now; whether it was held here. The registry loses
        it before its actor closes, so that no request reaches that actor from then on, and one
        already waiting for it is refused (`RoomClosed`)."""
        actor = self._actors.get(room_id)
        if actor is None:
            return False
        self.room_disposable(room_id)
        await actor.close()
        return True

    async def save_clocks(self) -> None:
        """Store the running clocks of every timed game (see `Room.save_clocks`); a room whose
        write fails is left for the next time."""
        for actor in list(self._actors.values()):
            facts = self._facts.get(actor.room.room_id)
            if facts is None or facts.status != "playing" or facts.clock is None:
                continue
            with contextlib.suppress(StorageUnavailable):
                await actor.run(lambda room, now: room.save_clocks(now))

    async def close(self) -> None:
        """Stop every room's timers and bot searches, after their changes in progress are stored."""
        actors = list(self._actors.values())
        self._actors.clear()
        await asyncio.gather(*(actor.close() for actor in actors))
