"""A tournament survives a restart of the server process in mid-round: pairings, results, clocks."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from test_server_process import launch

CLOCK = {"initial_ms": 600_000, "increment_ms": 0}
QUICK_ROUNDS = ("--tournament-round-pause-s", "0")


async def test_a_server_killed_in_mid_round_takes_the_tournament_up_where_it_was(tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite3"
    first = await launch(db_path, *QUICK_ROUNDS)
    try:
        ann = await first.client("ann")
        players = {name: await first.client(name) for name in ("bob", "cal", "dee", "eve")}
        created = await ann.request(type="create_tournament", name="Night", format="swiss", rounds=2, clock=CLOCK)
        tournament_id = created["tournament"]["tournament_id"]
        for player in players.values():
            await player.request(type="join_tournament", tournament_id=tournament_id)
        await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
        games = {name: await player.expect_next("tournament_game") for name, player in players.items()}
        assert games["bob"]["opponent"] == "cal" and games["dee"]["opponent"] == "eve"
        await players["eve"].request(type="resign", room_id=games["eve"]["room_id"])
        bob_room = games["bob"]["room_id"]
        black = players["bob"] if games["bob"]["color"] == "black" else players["cal"]
        moved = await black.request(type="move", room_id=bob_room, x=7, y=7)
        assert moved["type"] == "moved"
    finally:
        first.process.send_signal(signal.SIGKILL)
        await asyncio.wait_for(first.process.wait(), 30)

    second = await launch(db_path, *QUICK_ROUNDS)
    try:
        back = {name: await second.client(name, player.token) for name, player in players.items()}
        shown = await back["bob"].request(type="get_tournament", tournament_id=tournament_id)
        tournament = shown["tournament"]
        assert (tournament["status"], tournament["round"]) == ("running", 1)
        boards = {(b["black"], b["white"]): b["score"] for b in tournament["pairings"]}
        assert boards == {("bob", "cal"): None, ("dee", "eve"): 1.0}
        state = await back["cal"].request(type="join_room", room_id=bob_room, as_="player")
        assert state["room"]["status"] == "playing" and len(state["room"]["moves"]) == 1
        assert 590_000 <= state["room"]["clock"]["black_ms"] <= 600_000
        await back["cal"].request(type="resign", room_id=bob_room)

        second_round = {name: await back[name].expect_next("tournament_game") for name in ("bob", "dee")}
        assert second_round["bob"]["round"] == 2 and second_round["bob"]["opponent"] == "dee"
        shown = await back["bob"].request(type="get_tournament", tournament_id=tournament_id)
        assert shown["tournament"]["round"] == 2
        points = {row["name"]: row["points"] for row in shown["tournament"]["standings"]}
        assert points == {"bob": 1.0, "dee": 1.0, "cal": 0.0, "eve": 0.0}
    finally:
        second.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(second.process.wait(), 30) == 0
