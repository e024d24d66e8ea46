"""Outside engines as bot levels, over the wire: our own gomoku-engine configured as an outside
engine, and scripted brains that crash, hang, overrun, print garbage or play an occupied point."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from server_harness import ClientFactory, ServerFactory, WireClient

from brains.process import STDERR_LOG_BURST_BYTES
from engine.types import Rule
from server.bots.engine_config import EngineSpec

SCRIPTED = str(Path(__file__).parents[1] / "brains" / "scripted_brain.py")
ENGINE = (sys.executable, "-m", "tools.brain", "--level", "greedy")


def outside(name: str, command: tuple[str, ...], **fields: Any) -> EngineSpec:
    """An engine with short times, so that a fault costs a test a fraction of a second."""
    defaults: dict[str, Any] = {"time_ms": 300, "tolerance_ms": 700, "start_timeout_s": 30.0}
    return EngineSpec(name, command, **{**defaults, **fields})


def scripted(name: str, *fault: str, **fields: Any) -> EngineSpec:
    return outside(name, (sys.executable, SCRIPTED, *fault), **fields)


async def next_of(wire: WireClient, kind: str) -> dict[str, Any]:
    while (message := await wire.receive())["type"] != kind:
        pass
    return message


async def play_until_over(wire: WireClient, room: dict[str, Any], order: list[tuple[int, int]]) -> dict[str, Any]:
    """Play black's moves from `order` (the first free point each time) until the game ends."""
    room_id = room["room_id"]
    taken = {(stone["x"], stone["y"]) for stone in room["moves"]}
    while True:
        x, y = next(point for point in order if point not in taken)
        played = await wire.request(type="move", room_id=room_id, x=x, y=y)
        if played.get("code") == "game_over":  # the engine's last move ended it
            return await next_of(wire, "game_over")
        assert played["type"] == "moved", played
        taken.add((x, y))
        while (message := await wire.receive())["type"] not in ("moved", "game_over"):
            pass
        if message["type"] == "game_over":
            return message
        taken.add((message["x"], message["y"]))


async def test_a_person_plays_a_configured_engine_to_the_end_rated_like_any_bot(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    described = "Our greedy level, as an outside engine"
    engine = outside("greedy-outside", ENGINE, description=described, sizes=frozenset({9}))
    server = await start_server(bot_workers=1, engines=(engine,))
    alice = await client("alice", server=server)
    bots = (await alice.request(type="list_bots"))["bots"]
    offered = {"level": "greedy-outside", "description": described, "rating": None, "depth": None, "width": None}
    assert bots[-1] == offered  # an outside engine takes no depth nor width

    created = await alice.request(type="create_room", size=9, black="me", white={"bot": "greedy-outside"}, rated=True)
    white = created["room"]["white"]
    assert (white["name"], white["kind"], white["level"]) == ("greedy-outside", "bot", "greedy-outside")
    corners_first = sorted(((x, y) for x in range(9) for y in range(9)), key=lambda p: -abs(p[0] - 4) - abs(p[1] - 4))
    over = await play_until_over(alice, created["room"], corners_first)
    assert over["result"]["reason"] in ("five", "full_board") and "detail" not in over["result"]
    assert set(over["ratings"]) == {"black", "white"}, "a game against an outside engine is rated"

    game = await alice.request(type="get_game", game_id=over["game_id"])
    assert game["record"]["white"] == {"name": "greedy-outside", "kind": "bot", "level": "greedy-outside"}
    board = await alice.request(type="leaderboard", kind="bot")
    assert "greedy-outside" in [entry["name"] for entry in board["players"]]

    assert server.app.bots is not None and server.app.bots.engines is not None
    first_pid = [brain.pid for brain in server.app.bots.engines.stable("greedy-outside").processes]
    rematch = await alice.request(type="rematch", room_id=created["room"]["room_id"])
    assert rematch["room"]["black"]["name"] == "greedy-outside"
    await next_of(alice, "moved")
    again = [brain.pid for brain in server.app.bots.engines.stable("greedy-outside").processes]
    assert again == first_pid, "the next game is played by the same live process, restarted"


async def test_a_brain_that_crashes_mid_game_is_replaced_and_the_game_goes_on(
    start_server: ServerFactory, client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="server.bots.outside_engines")
    server = await start_server(bot_workers=1, engines=(scripted("crasher", "crash", "2"),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "crasher"})
    room_id = created["room"]["room_id"]
    for x in range(4):
        await alice.request(type="move", room_id=room_id, x=x, y=14)
        reply = await next_of(alice, "moved")
        assert reply["color"] == "white", "every process crashes on its second move, and the game still goes on"
    crash_reports = [record.getMessage() for record in caplog.records if "exited with code 3" in record.getMessage()]
    assert crash_reports and "crashing on purpose" in crash_reports[0], "the crash is logged with the brain's stderr"


def stderr_dropped(text: str, engine: str) -> float:
    """`gomoku_engine_stderr_dropped_bytes_total` of the engine, in a `/metrics` text."""
    prefix = f'gomoku_engine_stderr_dropped_bytes_total{{engine="{engine}"}} '
    return sum(float(line.removeprefix(prefix)) for line in text.splitlines() if line.startswith(prefix))


@pytest.mark.parametrize("line_bytes", ["80", "300000"])
async def test_a_brain_flooding_stderr_keeps_playing_and_the_bytes_the_log_drops_are_in_the_metrics(
    start_server: ServerFactory, client: ClientFactory, line_bytes: str
) -> None:
    server = await start_server(bot_workers=1, engines=(scripted("flooder", "flood", line_bytes),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "flooder"})
    room_id = created["room"]["room_id"]
    for x in range(3):
        await alice.request(type="move", room_id=room_id, x=x, y=14)
        assert (await next_of(alice, "moved"))["color"] == "white", "the flooding engine answers every move"
    _, _, metrics = await server.get("/metrics")
    assert stderr_dropped(metrics, "flooder") > STDERR_LOG_BURST_BYTES
    assert "game_over" not in [message["type"] for message in alice.seen], "nobody resigned"


async def test_a_brain_that_overruns_once_is_killed_and_the_move_asked_again(
    start_server: ServerFactory, client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="server.bots.outside_engines")
    server = await start_server(bot_workers=1, engines=(scripted("dawdler", "slow", "2", "20000"),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "dawdler"})
    room_id = created["room"]["room_id"]
    for x in range(2):
        await alice.request(type="move", room_id=room_id, x=x, y=14)
        assert (await next_of(alice, "moved"))["color"] == "white"
    assert any("did not answer within 1.0 s" in record.getMessage() for record in caplog.records)


async def test_in_a_timed_game_an_engine_is_told_the_most_its_move_may_take_and_given_it(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    """Its share of a minute is its 300 ms; a move our own levels would let run on while unsettled
    may take three shares (900 ms): the engine hears that as its `timeout_turn`, and its 1.2 s
    answer (within 900 ms plus its 700 ms tolerance) is taken."""
    server = await start_server(bot_workers=1, engines=(scripted("clocked", "slow", "1", "1200"),))
    alice = await client("alice", server=server)
    clock = {"initial_ms": 60_000, "increment_ms": 0}
    created = await alice.request(type="create_room", black="me", white={"bot": "clocked"}, clock=clock)
    await alice.request(type="move", room_id=created["room"]["room_id"], move="h8")
    assert (await next_of(alice, "moved"))["color"] == "white"
    assert server.app.bots is not None and server.app.bots.engines is not None
    [brain] = server.app.bots.engines.stable("clocked").processes
    told = [line.removeprefix("scripted brain got: ") for line in brain.stderr_tail().split(" | ")]
    assert "INFO timeout_turn 900" in told and "INFO timeout_match 60000" in told
    [left] = [int(line.split()[-1]) for line in told if line.startswith("INFO time_left")]
    assert 55_000 < left <= 60_000


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        (("garbage", "1"), "answered 'hello there', not a move"),
        (("occupied", "1"), "which is illegal: h8 is already taken"),
        (("slow", "0", "20000"), "did not answer within 1.0 s"),
        (("crash", "1"), "exited with code 3"),
        (("mute",), "did not answer within 0.5 s"),
    ],
)
async def test_a_brain_that_fails_again_in_a_fresh_process_resigns_with_the_reason_in_the_record(
    start_server: ServerFactory, client: ClientFactory, fault: tuple[str, ...], reason: str
) -> None:
    start_timeout_s = 0.5 if fault == ("mute",) else 30.0
    server = await start_server(bot_workers=1, engines=(scripted("broken", *fault, start_timeout_s=start_timeout_s),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "broken"})
    await alice.request(type="move", room_id=created["room"]["room_id"], move="h8")
    over = await next_of(alice, "game_over")
    assert (over["result"]["winner"], over["result"]["reason"]) == ("black", "resign")
    assert over["result"]["detail"].startswith("the engine broken failed: ")
    assert over["result"]["detail"].count(reason) == 2, over["result"]["detail"]
    record = (await alice.request(type="get_game", game_id=over["game_id"]))["record"]
    assert record["result"]["detail"] == over["result"]["detail"]


async def test_an_engine_sits_only_in_rooms_it_can_play(start_server: ServerFactory, client: ClientFactory) -> None:
    engine = outside("picky", ENGINE, rules=frozenset({Rule.FREESTYLE, Rule.RENJU}), sizes=frozenset({15}))
    server = await start_server(bot_workers=1, engines=(engine,))
    alice = await client("alice", server=server)

    async def refusal(**room: Any) -> str:
        answer = await alice.request(type="create_room", black="me", white={"bot": "picky"}, **room)
        assert (answer["type"], answer["code"]) == ("error", "not_allowed"), answer
        return str(answer["message"])

    assert "plays freestyle, renju, not standard" in await refusal(rule="standard")
    assert "boards of size 15, not 19" in await refusal(size=19)
    assert "does not take swap2 decisions" in await refusal(opening="swap2")
    assert "cannot play the soosorv8 opening" in await refusal(rule="renju", opening="soosorv8")


async def test_an_engine_that_knows_swap2_takes_its_own_opening_decisions(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, engines=(outside("swapper", ENGINE, swap2=True),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "swapper"}, opening="swap2")
    room_id = created["room"]["room_id"]
    step = {"kind": "place", "points": [{"x": 7, "y": 7}, {"x": 8, "y": 8}, {"x": 6, "y": 9}]}
    await alice.request(type="opening_step", room_id=room_id, step=step)
    decided = await next_of(alice, "opening_step")
    assert decided["by"] == "swapper" and decided["step"]["kind"] in ("place", "choose_color")


async def test_a_name_of_an_engine_is_not_free_for_people_and_an_engine_may_not_take_a_players(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, engines=(outside("rapfi", ENGINE),))
    taken = await (await client(server=server)).request(type="hello", name="Rapfi")
    assert (taken["type"], taken["code"]) == ("error", "name_taken")
    await (await client("alice", server=server)).request(type="list_bots")
    await server.stop()
    with pytest.raises(ValueError, match="'alice' is a player's name"):
        await start_server(bot_workers=1, engines=(outside("alice", ENGINE),))


async def test_the_engine_allowed_to_analyse_answers_analyze(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, engines=(scripted("analyst", "none", analysis=True),))
    alice = await client("alice", server=server)
    created = await alice.request(type="create_room", black="me", white={"bot": "greedy"})
    room_id = created["room"]["room_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await next_of(alice, "moved")
    analysis = await alice.request(type="analyze", room_id=room_id, time_ms=300)
    assert analysis["type"] == "analysis", analysis
    assert analysis["best"]["move"] == "a15", "the scripted analyst plays the first free point in reading order"


async def test_a_process_that_died_between_games_is_replaced_without_a_word(
    start_server: ServerFactory, client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="server.bots.outside_engines")
    server = await start_server(bot_workers=1, engines=(scripted("steady", "none"),))
    alice = await client("alice", server=server)
    room_id = (await alice.request(type="create_room", black="me", white={"bot": "steady"}))["room"]["room_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await next_of(alice, "moved")
    await alice.request(type="resign", room_id=room_id)
    assert server.app.bots is not None and server.app.bots.engines is not None
    (brain,) = server.app.bots.engines.stable("steady").processes
    os.kill(brain.pid, signal.SIGKILL)
    while brain.running:
        await asyncio.sleep(0.01)

    await alice.request(type="rematch", room_id=room_id)
    assert (await next_of(alice, "moved"))["color"] == "black", "a fresh process plays the next game"
    assert not caplog.records, "a process that died while idle is no fault of any game"
