"""A bot pays on its clock for the time it thinks, not for the time its search waited for a worker; and
an idle game between two bots ends drawn without being rated.

Rooms are driven with numbers for time (no sockets, no sleeping); the pool's
waiting line is driven by searches the test holds and lets go.
"""

from __future__ import annotations

import asyncio

from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.bots.pool import BotPool, Priority
from server.domain import Caller, ConnectionId, GameFinished, PresenceReport, caller_ref, new_room_id
from server.rooms.room import Room, RoomSettings

ALICE = Caller(caller_ref(ConnectionId(1)), "alice")
GREEDY = PlayerInfo("greedy", "bot", "greedy")
MEDIUM = PlayerInfo("medium", "bot", "medium")
CLOCK = ClockSetting(10_000, 0)
"""Ten seconds each, no increment."""


def game_against_greedy() -> Room:
    """Alice black against greedy, timed; Alice has played h8 at time 0, the bot is to move."""
    room = Room(new_room_id(), Rule.FREESTYLE, 15, CLOCK, False, RoomSettings())
    room.open(ALICE, "me", GREEDY, 0.0)
    room.move(ALICE, Point(7, 7), 0.0)
    return room


def test_a_bots_clock_stops_while_its_search_waits_for_a_worker_and_runs_once_it_has_one() -> None:
    room = game_against_greedy()
    turn = room.bot_turn(1.0)
    assert turn is not None and room.clock is not None

    room.bot_waits_for_worker(turn.version, 1.0)
    assert room.next_deadline() is None, "no flag can fall while the bot waits"
    assert room.on_timer(60.0).records == [], "a minute in line: the game goes on"
    room.bot_search_started(turn.version, 60.0)
    room.bot_move(turn.version, Point(8, 8), 62.0)

    assert room.clock.stored_ms(Color.WHITE) == 10_000 - 1_000 - 2_000, "charged for 1 s before the line, 2 s after"
    assert room.status == "playing"


def test_a_search_that_found_a_worker_at_once_is_charged_from_the_start_of_the_turn() -> None:
    room = game_against_greedy()
    turn = room.bot_turn(0.0)
    assert turn is not None and room.clock is not None
    room.bot_search_started(turn.version, 0.5)
    room.bot_move(turn.version, Point(8, 8), 3.0)
    assert room.clock.stored_ms(Color.WHITE) == 7_000


def test_a_held_clock_is_not_started_again_by_a_search_for_an_older_position() -> None:
    room = game_against_greedy()
    turn = room.bot_turn(0.0)
    assert turn is not None and room.clock is not None
    room.bot_waits_for_worker(turn.version, 0.0)
    room.resign(ALICE, 5.0)
    room.bot_search_started(turn.version, 6.0)
    assert room.clock.running is None and room.status == "finished"


def test_an_idle_game_between_two_bots_ends_drawn_and_is_not_rated() -> None:
    settings = RoomSettings(bot_game_idle_s=600.0)
    room = Room(new_room_id(), Rule.FREESTYLE, 15, None, False, settings, rated=True)
    room.open(ALICE, GREEDY, MEDIUM, 0.0)
    room.bot_move(room.version, Point(7, 7), 1.0)
    room.bot_move(room.version, Point(8, 8), 2.0)
    room.leave(ALICE, 3.0)
    room.presence_changed(PresenceReport({"alice": 0}, on_purpose=True), 3.0)  # the edge counts her out

    ended = room.on_timer(603.0)

    (finish,) = [record for record in ended.records if isinstance(record, GameFinished)]
    assert finish.result == GameResult(None, EndReason.DRAW_AGREED)
    assert not finish.rated, "nobody played it out: its end says nothing of the bots' strength"


class RecordingWatcher:
    """Writes down what the pool tells it."""

    def __init__(self) -> None:
        self.heard: list[str] = []
        self.told = asyncio.Event()

    async def waiting(self) -> None:
        self.heard.append("waiting")
        self.told.set()

    async def started(self) -> None:
        self.heard.append("started")


async def test_the_pool_tells_a_search_when_it_waits_for_a_worker_and_when_it_gets_one() -> None:
    pool = BotPool(workers=1)
    release = asyncio.Event()
    watcher = RecordingWatcher()

    async def held_search() -> str:
        await release.wait()
        return "first"

    async def quick_search() -> str:
        return "second"

    try:
        at_once = RecordingWatcher()
        first = asyncio.create_task(pool.run_outside(Priority.PERSON, held_search, at_once))
        second = asyncio.create_task(pool.run_outside(Priority.PERSON, quick_search, watcher))
        await watcher.told.wait()
        assert watcher.heard == ["waiting"] and at_once.heard == ["started"]
        release.set()
        assert (await first, await second) == ("first", "second")
        assert watcher.heard == ["waiting", "started"]
    finally:
        await pool.close()
