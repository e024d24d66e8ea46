"""Tournaments over the wire: a Swiss of bots played to its end, people who withdraw or never come,
and the HTTP views of it all."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from typing import Any

import pytest
from server_harness import ClientFactory, ServerFactory, WireClient

from server.tournaments.director import TournamentSettings

SIX_BOTS = ["greedy", "static", "easy", "medium", "hard", "master"]
"""Levels that think within their share of a short clock."""
QUICK = TournamentSettings(round_pause_s=0.0, arena_wave_s=0.0)
CLOCK = {"initial_ms": 60_000, "increment_ms": 0}
BLITZ = {"initial_ms": 5_000, "increment_ms": 0}
"""So short that every game between bots ends within seconds, on time if not before."""
PATIENCE = 10


async def next_batch(watcher: WireClient) -> dict[str, Any]:
    """The next `tournament_changes`, waiting up to PATIENCE of the harness's receive timeouts (bot
    games on a loaded machine can take longer than one)."""
    for _ in range(PATIENCE - 1):
        try:
            return await watcher.expect_next("tournament_changes")
        except TimeoutError:
            continue
    return await watcher.expect_next("tournament_changes")


async def follow_to_the_end(watcher: WireClient, tournament_id: str) -> list[dict[str, Any]]:
    """Every batch of the watched tournament until it is finished, checking that none is missed."""
    batches: list[dict[str, Any]] = []
    while not batches or batches[-1]["status"] != "finished":
        batch = await next_batch(watcher)
        assert batch["tournament_id"] == tournament_id
        if batches:
            assert batch["seq"] == batches[-1]["seq"] + 1
        batches.append(batch)
    return batches


def opponents_points(detail: dict[str, Any]) -> dict[str, list[float]]:
    """By hand from the boards: each player's opponents' points, one entry per game played."""
    points = {row["name"]: row["points"] for row in detail["standings"]}
    faced: dict[str, list[float]] = {name: [] for name in points}
    for board in detail["pairings"]:
        if board["white"] is not None:
            faced[board["black"]].append(points[board["white"]])
            faced[board["white"]].append(points[board["black"]])
    return faced


@pytest.mark.timeout(900)
async def test_a_swiss_of_six_bots_is_played_over_the_wire_to_its_final_standings(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=2, tournaments=QUICK)
    ann = await client("ann", server)
    created = await ann.request(
        type="create_tournament", name="Bots night", format="swiss", rounds=3, clock=BLITZ, size=11, max_players=8
    )
    assert created["type"] == "tournament", created
    tournament_id = created["tournament"]["tournament_id"]
    for level in SIX_BOTS:
        added = await ann.request(type="add_entrant", tournament_id=tournament_id, bot=level)
        assert added["type"] == "tournament", added
    watched = await ann.request(type="watch_tournament", tournament_id=tournament_id)
    assert sorted(row["name"] for row in watched["tournament"]["standings"]) == sorted(SIX_BOTS)
    started = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert started["tournament"]["status"] == "running"

    batches = await follow_to_the_end(ann, tournament_id)

    status, _, body = await server.get(f"/api/tournaments/{tournament_id}")
    assert status == 200
    detail = json.loads(body)
    assert detail["status"] == "finished" and detail["round"] == 3
    boards = detail["pairings"]
    assert [(b["round"], b["board"]) for b in boards] == [(r, b) for r in (1, 2, 3) for b in (1, 2, 3)]
    assert all(b["white"] is not None and b["score"] is not None and b["game_id"] for b in boards)
    meetings = [frozenset((b["black"], b["white"])) for b in boards]
    assert len(set(meetings)) == 9, "nobody met twice"
    assert sum(row["points"] for row in detail["standings"]) == 9.0, "one point a game"
    faced = opponents_points(detail)
    for row in detail["standings"]:
        buchholz = sum(faced[row["name"]])
        median = sum(sorted(faced[row["name"]])[1:-1])
        assert row["tie_breaks"] == [buchholz, median], row
        assert row["games"] == 3
    order = [(-row["points"], -row["tie_breaks"][0], -row["tie_breaks"][1]) for row in detail["standings"]]
    assert order == sorted(order)
    final = batches[-1]["standings"]
    assert [(row["name"], row["points"]) for row in final] == [(r["name"], r["points"]) for r in detail["standings"]]

    for board in boards:  # every tournament game is found by the tournament, and stored as played
        status, _, body = await server.get(f"/api/games/{board['game_id']}")
        record = json.loads(body)
        assert status == 200 and record["result"] is not None
    status, content_type, text = await server.get(f"/api/tournaments/{tournament_id}.csv")
    assert status == 200 and content_type.startswith("text/csv")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:5] == ["rank", "name", "points", "buchholz", "median_buchholz"]
    assert [line[1] for line in table[1:]] == [row["name"] for row in detail["standings"]]


async def game_notice(player: WireClient, tournament_id: str) -> dict[str, Any]:
    notice = await player.expect_next("tournament_game")
    assert notice["tournament_id"] == tournament_id
    return notice


async def test_people_play_a_swiss_with_one_who_withdraws_and_one_who_never_comes(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=QUICK, claim_after_s=0.2)
    ann, bob, cal, dee = [await client(name, server) for name in ("ann", "bob", "cal", "dee")]
    eve = await client("eve", server)
    created = await ann.request(type="create_tournament", name="Club", format="swiss", rounds=2, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in (bob, cal, dee, eve):
        joined = await player.request(type="join_tournament", tournament_id=tournament_id)
        assert joined["type"] == "tournament", joined
    again = await bob.request(type="join_tournament", tournament_id=tournament_id)
    assert again["type"] == "error" and again["code"] == "not_allowed"
    not_yours = await bob.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert not_yours["type"] == "error" and not_yours["code"] == "not_allowed"
    await eve.close()  # eve entered, and never comes to play
    await ann.request(type="watch_tournament", tournament_id=tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")

    bob_game, cal_game, dee_game = [await game_notice(p, tournament_id) for p in (bob, cal, dee)]
    assert (bob_game["opponent"], cal_game["opponent"], dee_game["opponent"]) == ("cal", "bob", "eve")
    assert bob_game["room_id"] == cal_game["room_id"]
    seated = [m["room"] for m in cal.seen if m["type"] == "room"]  # the room came just before the notice
    assert [(room["room_id"], room["status"]) for room in seated] == [(cal_game["room_id"], "playing")]

    withdrawn = await cal.request(type="withdraw_tournament", tournament_id=tournament_id)
    assert withdrawn["type"] == "tournament", withdrawn
    assert [row["withdrawn"] for row in withdrawn["tournament"]["standings"] if row["name"] == "cal"] == [True]
    await cal.request(type="resign", room_id=cal_game["room_id"])  # a withdrawn player's game stands
    ended = await dee.expect_next("game_over")
    assert ended["result"]["reason"] == "abandoned" and ended["result"]["winner"] == dee_game["color"]

    second = await game_notice(dee, tournament_id)
    assert second["round"] == 2 and second["opponent"] == "bob"
    await dee.request(type="resign", room_id=second["room_id"])
    batches = await follow_to_the_end(ann, tournament_id)
    final = batches[-1]["standings"]
    assert [(row["name"], row["points"], row["withdrawn"]) for row in final] == [
        ("bob", 2.0, False),
        ("dee", 1.0, False),
        ("eve", 1.0, False),
        ("cal", 0.0, True),
    ]
    assert [row["tie_breaks"] for row in final] == [[1.0, 1.0], [3.0, 3.0], [1.0, 1.0], [2.0, 2.0]]
    status, _, body = await server.get(f"/api/tournaments/{tournament_id}")
    boards = [(b["round"], b["black"], b["white"], b["score"]) for b in json.loads(body)["pairings"]]
    assert boards == [(1, "bob", "cal", 1.0), (1, "dee", "eve", 1.0), (2, "dee", "bob", 0.0), (2, "eve", None, 1.0)]


async def test_http_lists_the_listed_tournaments_and_not_the_private_ones(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    ann = await client("ann", server)
    listed = await ann.request(type="create_tournament", name="Open", format="arena", duration_s=600, clock=CLOCK)
    private = await ann.request(
        type="create_tournament", name="Class", format="round_robin", cycles=2, clock=CLOCK, listed=False
    )
    status, _, body = await server.get("/api/tournaments")
    assert status == 200
    assert [t["tournament_id"] for t in json.loads(body)] == [listed["tournament"]["tournament_id"]]
    private_id = private["tournament"]["tournament_id"]
    status, _, body = await server.get(f"/api/tournaments/{private_id}")
    assert status == 200 and json.loads(body)["name"] == "Class", "a private tournament is found by its link"
    assert (await server.get("/api/tournaments/t-none"))[0] == 404
    assert (await server.get("/api/tournaments/t-none.csv"))[0] == 404
    too_many = await ann.request(type="create_tournament", name="Third", format="swiss", rounds=3, clock=CLOCK)
    fourth = await ann.request(type="create_tournament", name="Fourth", format="swiss", rounds=3, clock=CLOCK)
    assert too_many["type"] == "tournament" and fourth["type"] == "error" and fourth["code"] == "limit_reached"
    no_rounds = await ann.request(type="create_tournament", name="Swiss", format="swiss", clock=CLOCK)
    assert no_rounds["type"] == "error" and no_rounds["code"] == "bad_request"


async def test_a_round_robin_of_three_plays_everyone_once_and_each_rests_once(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=QUICK)
    ann = await client("ann", server)
    players = {name: await client(name, server) for name in ("bob", "cal", "dee")}
    created = await ann.request(type="create_tournament", name="Class", format="round_robin", clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in players.values():
        await player.request(type="join_tournament", tournament_id=tournament_id)
    late = await client("eve", server)
    await ann.request(type="watch_tournament", tournament_id=tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    refused = await late.request(type="join_tournament", tournament_id=tournament_id)
    assert refused["type"] == "error" and refused["code"] == "not_allowed", "a round robin under way takes nobody"
    refused = await players["bob"].request(type="withdraw_tournament", tournament_id=tournament_id)
    assert refused["type"] == "error" and refused["code"] == "not_allowed"

    resigned: set[str] = set()
    batch: dict[str, Any] = {"status": "running"}
    while batch["status"] != "finished":
        batch = await next_batch(ann)
        for board in batch["pairings"]:
            if board["room_id"] and board["score"] is None and board["room_id"] not in resigned:
                resigned.add(board["room_id"])
                await players[board["black"]].request(type="resign", room_id=board["room_id"])
    status, _, body = await server.get(f"/api/tournaments/{tournament_id}")
    detail = json.loads(body)
    games = {frozenset((b["black"], b["white"])) for b in detail["pairings"] if b["white"]}
    assert games == {frozenset(pair) for pair in (("bob", "cal"), ("bob", "dee"), ("cal", "dee"))}
    rests = sorted((b["black"], b["score"]) for b in detail["pairings"] if b["white"] is None)
    assert rests == [("bob", 0.0), ("cal", 0.0), ("dee", 0.0)]
    assert sum(row["points"] for row in detail["standings"]) == 3.0
    assert detail["round"] == 3 and detail["rounds"] == 3


async def test_a_server_may_let_only_its_organisers_create_tournaments(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=TournamentSettings(organisers=frozenset({"ann"})))
    ann, bob = await client("Ann", server), await client("bob", server)
    allowed = await ann.request(type="create_tournament", name="Club", format="swiss", rounds=3, clock=CLOCK)
    refused = await bob.request(type="create_tournament", name="Mine", format="swiss", rounds=3, clock=CLOCK)
    assert allowed["type"] == "tournament"
    assert refused["type"] == "error" and refused["code"] == "not_allowed"
    joined = await bob.request(type="join_tournament", tournament_id=allowed["tournament"]["tournament_id"])
    assert joined["type"] == "tournament", "anyone may still play"


async def test_ended_early_a_tournament_pairs_nobody_more_and_its_game_going_on_still_counts(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=QUICK)
    ann, bob, cal = [await client(name, server) for name in ("ann", "bob", "cal")]
    created = await ann.request(type="create_tournament", name="Short", format="swiss", rounds=5, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in (bob, cal):
        await player.request(type="join_tournament", tournament_id=tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    game = await game_notice(bob, tournament_id)
    paused = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="pause")
    assert paused["tournament"]["status"] == "paused"
    ended = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="end")
    assert ended["tournament"]["status"] == "finished"
    await ann.request(type="watch_tournament", tournament_id=tournament_id)
    await bob.request(type="resign", room_id=game["room_id"])
    batch = await next_batch(ann)
    assert [(b["round"], b["score"]) for b in batch["pairings"]] == [(1, 0.0 if game["color"] == "black" else 1.0)]
    assert {row["name"]: row["points"] for row in batch["standings"]} == {"bob": 0.0, "cal": 1.0}
    status, _, body = await server.get(f"/api/tournaments/{tournament_id}")
    assert [(b["round"], b["black"]) for b in json.loads(body)["pairings"]] == [(1, "bob")]
    again = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="resume")
    assert again["type"] == "error" and again["code"] == "not_allowed"


async def test_a_tournament_game_brought_back_by_a_restart_is_lost_by_its_absent_player_at_the_claim_time(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    # Ended early, the tournament is taken up by no director after the restart: the game alone
    # says, as stored, that the server scheduled it.
    patient = {"tournaments": QUICK, "abandon_after_s": 600.0, "claim_after_s": 0.2}
    first = await start_server(**patient)
    ann, bob, cal = [await client(name, first) for name in ("ann", "bob", "cal")]
    created = await ann.request(type="create_tournament", name="Cut", format="swiss", rounds=5, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in (bob, cal):
        await player.request(type="join_tournament", tournament_id=tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    game = await game_notice(bob, tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="end")
    await first.stop()

    second = await start_server(**patient)
    bob = await client("bob", second)  # cal never comes back
    back = await bob.request(type="join_room", room_id=game["room_id"])
    assert back["room"]["status"] == "playing"
    ended = await bob.expect_next("game_over")
    assert ended["result"]["reason"] == "abandoned" and ended["result"]["winner"] == game["color"]


async def test_a_tournament_ended_early_no_longer_counts_against_its_organisers_limit(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=QUICK)
    ann, bob = await client("ann", server), await client("bob", server)

    async def create(name: str) -> dict[str, Any]:
        return await ann.request(type="create_tournament", name=name, format="swiss", rounds=3, clock=CLOCK)

    await create("U")
    v = (await create("V"))["tournament"]["tournament_id"]
    for player in (ann, bob):
        await player.request(type="join_tournament", tournament_id=v)
    await ann.request(type="manage_tournament", tournament_id=v, action="start")
    await game_notice(bob, v)
    ended = await ann.request(type="manage_tournament", tournament_id=v, action="end")
    assert ended["tournament"]["status"] == "finished", "its game still going on"
    assert (await create("W"))["type"] == "tournament"
    assert (await create("X"))["type"] == "tournament", "U, W and X are the three not yet over"
    refused = await create("Y")
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")


async def test_http_gives_the_next_rounds_time_as_the_websocket_does(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=TournamentSettings(round_pause_s=600.0))
    players = {name: await client(name, server) for name in ("ann", "bob", "cal")}
    ann = players["ann"]
    created = await ann.request(type="create_tournament", name="Slow", format="swiss", rounds=2, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in players.values():
        await player.request(type="join_tournament", tournament_id=tournament_id)
    started = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert started["tournament"]["rounds"] == 2
    snapshot = await ann.request(type="get_tournament", tournament_id=tournament_id)
    while not any(board["room_id"] for board in snapshot["tournament"]["pairings"]):
        await asyncio.sleep(0.05)
        snapshot = await ann.request(type="get_tournament", tournament_id=tournament_id)
    (game,) = [board for board in snapshot["tournament"]["pairings"] if board["room_id"]]
    await players[game["black"]].request(type="resign", room_id=game["room_id"])
    while snapshot["tournament"]["next_round_at"] is None:
        await asyncio.sleep(0.05)
        snapshot = await ann.request(type="get_tournament", tournament_id=tournament_id)
    _, _, body = await server.get(f"/api/tournaments/{tournament_id}")
    assert json.loads(body)["next_round_at"] == snapshot["tournament"]["next_round_at"]


async def test_an_organiser_who_does_not_play_has_no_tournament_game_in_its_list(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(tournaments=QUICK)
    org, ann, bob = [await client(name, server) for name in ("org", "ann", "bob")]
    created = await org.request(type="create_tournament", name="Club", format="swiss", rounds=1, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    for player in (ann, bob):
        await player.request(type="join_tournament", tournament_id=tournament_id)
    await org.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    game = await game_notice(ann, tournament_id)
    await ann.request(type="resign", room_id=game["room_id"])
    _, _, played = await server.get("/api/games?player=ann")
    _, _, organised = await server.get("/api/games?player=org")
    assert [entry["game_id"] for entry in json.loads(played)] == [game["game_id"]]
    assert json.loads(organised) == [], "organising is not playing"
