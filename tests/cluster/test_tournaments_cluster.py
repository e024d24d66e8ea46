"""Tournaments on several nodes: one node directs them under a lease, requests and watchers work from
any node, and the director's node may die (or pause) without a round paired twice or a result lost.

Real processes: a throw-away PostgreSQL, a `redis-server` and `gomoku-server` nodes with short
leases (a heartbeat of 0.25 s, an expiry of 2 s), each stopped by its pid. The lobby's node directs
the tournaments, so the first node started is the director.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg
import pytest
import redis.asyncio

from engine.openings import OpeningRule
from engine.record import ClockSetting
from engine.types import Rule
from server.cluster.bus_lobby import LOBBY_OWNER_KEY
from server.cluster.lease_settings import LeaseSettings
from server.cluster.ownership import Ownership
from server.cluster.tournament_lease import DirectorRow, fenced_both
from server.domain import Pairing, RoundPaired, TournamentCreated, TournamentTerms, utc_now
from server.storage.database import Storage
from server.storage.writer import Fenced
from tests.cluster.conftest import LEASE, Node, RedisServer
from tests.cluster.test_ownership import Keeper, expire_lease
from tests.server.server_harness import WireClient
from tests.server.test_storage_node_faults import until_served
from tools.local_services import ServerNode, stop_nodes

CLOCK = {"initial_ms": 600_000, "increment_ms": 0}
FINISH_TIMEOUT_S = 60.0


class StartNode(Protocol):
    """Starts a node named `name` whose tournaments pause `round_pause_s` between rounds."""

    def __call__(self, name: str, round_pause_s: float = 0) -> ServerNode: ...


@pytest.fixture
def start_tournament_node(tmp_path: Path, postgres_url: str, redis_server: RedisServer) -> Iterator[StartNode]:
    """Start nodes on the test's PostgreSQL and Redis (pairing a tournament's next round at once,
    unless told otherwise); all are stopped by their pids at the end."""
    nodes: list[ServerNode] = []

    def start(name: str, round_pause_s: float = 0) -> ServerNode:
        arguments = [*LEASE, "--tournament-round-pause-s", str(round_pause_s), "--bus", redis_server.url]
        node = ServerNode.start(postgres_url, name, tmp_path / f"{name}.log", arguments)
        nodes.append(node)
        return node

    yield start
    stop_nodes(nodes)


async def create_swiss(organiser: WireClient, players: list[WireClient], rounds: int) -> str:
    """A Swiss tournament organised by `organiser`, joined by `players`; its id."""
    created = await until_served(
        organiser, type="create_tournament", name="Night", format="swiss", rounds=rounds, clock=CLOCK
    )
    assert created["type"] == "tournament", created
    tournament_id: str = created["tournament"]["tournament_id"]
    for player in players:
        joined = await player.request(type="join_tournament", tournament_id=tournament_id)
        assert joined["type"] == "tournament", joined
    return tournament_id


async def stored_pairings(database: str, tournament_id: str) -> list[tuple[int, int, str, str | None]]:
    """Every stored board of the tournament: round, board, black, white."""
    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch(
            "SELECT round, board, black_name, white_name FROM tournament_pairings WHERE tournament_id = $1 "
            "ORDER BY round, board",
            tournament_id,
        )
        games = await connection.fetchval("SELECT count(*) FROM games WHERE tournament_id = $1", tournament_id)
    finally:
        await connection.close()
    assert games == sum(1 for row in rows if row["white_name"] is not None), "one game per board played"
    return [(row["round"], row["board"], row["black_name"], row["white_name"]) for row in rows]


async def resign_as_loser(games: dict[str, dict[str, Any]], players: dict[str, WireClient], loser: str) -> None:
    """`loser` resigns its game (asking again while its room is being taken over)."""
    resigned = await until_served(players[loser], type="resign", room_id=games[loser]["room_id"])
    assert resigned["type"] != "error", resigned


async def finished(watcher: WireClient) -> dict[str, Any]:
    """The first `tournament` or `tournament_changes` the watcher gets that says the tournament is over."""
    async with asyncio.timeout(FINISH_TIMEOUT_S):
        while True:
            message = await watcher.receive()
            if message["type"] == "tournament" and message["tournament"]["status"] == "finished":
                return message
            if message["type"] == "tournament_changes" and message["status"] == "finished":
                return message


async def test_a_tournament_finishes_on_another_node_after_its_directors_node_is_killed(
    start_tournament_node: StartNode, clients: Callable[..., Any], postgres_url: str
) -> None:
    director, other = start_tournament_node("n1"), start_tournament_node("n2")  # n1 runs the lobby: it directs
    ann = await clients(director, "ann")
    players = {name: await clients(other, name) for name in ("bob", "cal", "dee", "eve")}
    watcher = await clients(other, "wes")
    tournament_id = await create_swiss(ann, list(players.values()), rounds=2)
    watched = await watcher.request(type="watch_tournament", tournament_id=tournament_id)
    assert watched["type"] == "tournament" and len(watched["tournament"]["standings"]) == 4
    started = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert started["type"] == "tournament", started

    first = {name: await player.expect_next("tournament_game") for name, player in players.items()}  # across nodes
    assert {game["round"] for game in first.values()} == {1}
    losers = sorted({min(name, game["opponent"]) for name, game in first.items()})
    await resign_as_loser(first, players, losers[0])
    scored = await watcher.expect_next("tournament_changes")  # the watcher on n2 hears the director on n1
    while not any(board["score"] is not None for board in scored["pairings"]):
        scored = await watcher.expect_next("tournament_changes")

    os.kill(director.pid, signal.SIGKILL)  # mid-round: one board of round 1 scored, one game going on
    again = await watcher.expect_next("tournament")  # n2 has taken the tournaments up: it watches there again
    assert (again["tournament"]["status"], again["tournament"]["round"]) == ("running", 1)
    await resign_as_loser(first, players, losers[1])  # its room comes back on n2
    second = {name: await player.expect_next("tournament_game") for name, player in players.items()}
    assert {game["round"] for game in second.values()} == {2}  # paired by n2, told to players on n2
    for loser in sorted({min(name, game["opponent"]) for name, game in second.items()}):
        await resign_as_loser(second, players, loser)

    last = await finished(watcher)
    standings = last["tournament"]["standings"] if last["type"] == "tournament" else last["standings"]
    assert sorted(row["points"] for row in standings) == [0.0, 1.0, 1.0, 2.0]
    pairings = await stored_pairings(postgres_url, tournament_id)
    assert [(round_number, board) for round_number, board, *_ in pairings] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    for player in players.values():
        assert [m["round"] for m in player.seen if m["type"] == "tournament_game"] == [1, 2]  # told once each


async def test_two_nodes_restarted_at_once_pair_the_round_due_once(
    start_tournament_node: StartNode, clients: Callable[..., Any], postgres_url: str
) -> None:
    first, second = start_tournament_node("n1", round_pause_s=60), start_tournament_node("n2", round_pause_s=60)
    ann = await clients(first, "ann")
    players = {name: await clients(first, name) for name in ("bob", "cal", "dee", "eve")}
    tournament_id = await create_swiss(ann, list(players.values()), rounds=2)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    games = {name: await player.expect_next("tournament_game") for name, player in players.items()}
    for loser in sorted({min(name, game["opponent"]) for name, game in games.items()}):
        await resign_as_loser(games, players, loser)
    shown = await ann.request(type="get_tournament", tournament_id=tournament_id)
    while shown["tournament"]["next_round_at"] is None:  # round 1 over, round 2 due in a minute
        shown = await ann.request(type="get_tournament", tournament_id=tournament_id)

    for node in (first, second):
        os.kill(node.pid, signal.SIGKILL)
        node.process.wait()
    # Both back at once, pausing 2 s before a round: each would pair round 2 if each directed.
    first, second = await asyncio.gather(*(asyncio.to_thread(start_tournament_node, name, 2) for name in ("n1", "n2")))
    watcher = await clients(second, "wes")
    watched = await until_served(watcher, type="watch_tournament", tournament_id=tournament_id)
    assert watched["type"] == "tournament", watched
    async with asyncio.timeout(FINISH_TIMEOUT_S):
        changes = watched["tournament"]
        while changes["round"] < 2 or any(board["game_id"] is None for board in changes["pairings"]):
            changes = await watcher.expect_next("tournament_changes")

    pairings = await stored_pairings(postgres_url, tournament_id)
    assert [(round_number, board) for round_number, board, *_ in pairings] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    for node in (first, second):  # both nodes tell the tournament as its one director has it
        asker = await clients(node, f"fan-of-{node.pid}")
        shown = await until_served(asker, type="get_tournament", tournament_id=tournament_id)
        boards = [(board["round"], board["black"], board["white"]) for board in shown["tournament"]["pairings"]]
        assert boards == [(2, black, white) for round_number, _, black, white in pairings if round_number == 2]


async def lobby_owner(redis_url: str) -> str | None:
    """The node that holds the lobby's key (the lobby's node directs the tournaments); the key names
    the node's run, `<node> <mark>`."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        owner = await client.get(LOBBY_OWNER_KEY)
    finally:
        await client.aclose()
    if owner is None:
        return None
    run = owner.decode() if isinstance(owner, bytes) else str(owner)
    return run.split(" ", 1)[0]


async def test_a_director_paused_past_its_lease_answers_nothing_stale_and_rejoins_as_a_follower(
    start_tournament_node: StartNode, clients: Callable[..., Any], postgres_url: str, redis_server: RedisServer
) -> None:
    director, other = start_tournament_node("n1"), start_tournament_node("n2")
    ann = await clients(director, "ann")
    players = {name: await clients(other, name) for name in ("bob", "cal", "dee", "eve")}
    watcher = await clients(other, "wes")
    tournament_id = await create_swiss(ann, list(players.values()), rounds=1)
    for watching in (watcher, ann):
        await watching.request(type="watch_tournament", tournament_id=tournament_id)
    await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    games = {name: await player.expect_next("tournament_game") for name, player in players.items()}

    os.kill(director.pid, signal.SIGSTOP)
    late = asyncio.create_task(ann.request(type="get_tournament", tournament_id=tournament_id))  # waits in n1's socket
    again = await watcher.expect_next("tournament")  # n2 has taken the tournaments up
    assert (again["tournament"]["status"], again["tournament"]["round"]) == ("running", 1)
    os.kill(director.pid, signal.SIGCONT)
    refused = await late
    assert refused["type"] == "error" and refused["code"] == "unavailable", refused
    followed = await ann.expect_next("tournament")  # n1 woke as a follower: its watcher watches on n2
    assert followed["tournament"]["status"] == "running" and await lobby_owner(redis_server.url) == "n2"

    losers = {min(name, game["opponent"]) for name, game in games.items()}
    for loser in sorted(losers):
        await resign_as_loser(games, players, loser)
    last = await finished(watcher)
    standings = last["tournament"]["standings"] if last["type"] == "tournament" else last["standings"]
    assert {row["name"]: row["points"] for row in standings} == {name: float(name not in losers) for name in players}
    assert [
        (round_number, board) for round_number, board, *_ in await stored_pairings(postgres_url, tournament_id)
    ] == [
        (1, 1),
        (1, 2),
    ]


async def test_results_of_games_whose_rooms_run_on_another_node_reach_the_director(
    start_node: Callable[[str], Awaitable[Node]],
) -> None:
    # On one SQLite file with a bus: a node brings its rooms back when it starts again, while the
    # lobby's node (the director) has moved on, so the games of the tournament end on another node.
    director, other = await start_node("n1"), await start_node("n2")
    ann = await other.client("ann")  # every request of this tournament comes through n2
    players = {name: await other.client(name) for name in ("bob", "cal", "dee", "eve")}
    watcher, fay = await other.client("wes"), await other.client("fay")
    tournament_id = await create_swiss(ann, [*players.values(), fay], rounds=1)
    left = await fay.request(type="withdraw_tournament", tournament_id=tournament_id)
    assert left["type"] == "tournament" and left["tournament"]["players"] == 4, left
    await until_served(watcher, type="watch_tournament", tournament_id=tournament_id)
    started = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert started["type"] == "tournament" and started["tournament"]["status"] == "running", started
    games = {name: await player.expect_next("tournament_game") for name, player in players.items()}

    director.process.send_signal(signal.SIGKILL)
    await director.process.wait()
    again = await watcher.expect_next("tournament")  # n2 runs the lobby now: it directs the tournament
    assert (again["tournament"]["status"], again["tournament"]["round"]) == ("running", 1)
    await start_node("n1")  # n1 back: it serves its rooms again, n2 goes on directing
    losers = {min(name, game["opponent"]) for name, game in games.items()}
    for loser in sorted(losers):
        await resign_as_loser(games, players, loser)  # the games end on n1

    last = await finished(watcher)
    standings = last["tournament"]["standings"] if last["type"] == "tournament" else last["standings"]
    assert {row["name"]: row["points"] for row in standings} == {name: float(name not in losers) for name in players}


async def test_a_tournament_game_brought_back_by_a_node_that_does_not_direct_is_lost_at_the_claim_time(
    start_node: Callable[..., Awaitable[Node]],
) -> None:
    # On one SQLite file with a bus: the game opens on n1, the director; n2 directs once n1 is
    # killed, and n1, started again, brings the room back knowing from storage alone that the server
    # scheduled its game.
    director, other = await start_node("n1"), await start_node("n2")
    ann, bob, cal = [await other.client(name) for name in ("ann", "bob", "cal")]
    tournament_id = await create_swiss(ann, [bob, cal], rounds=1)
    await until_served(ann, type="watch_tournament", tournament_id=tournament_id)
    started = await ann.request(type="manage_tournament", tournament_id=tournament_id, action="start")
    assert started["type"] == "tournament" and started["tournament"]["status"] == "running", started
    game = await bob.expect_next("tournament_game")
    await cal.close()  # and never comes back

    director.process.send_signal(signal.SIGKILL)
    await director.process.wait()
    again = await ann.expect_next("tournament")  # n2 runs the lobby now: it directs the tournament
    assert again["tournament"]["status"] == "running"
    await start_node("n1", ["--claim-after-s", "0.5", "--abandon-after-s", "600"])
    back = await until_served(bob, type="join_room", room_id=game["room_id"])
    assert back["type"] == "room" and back["room"]["status"] == "playing", back

    ended = await bob.expect_next("game_over")
    assert ended["result"]["reason"] == "abandoned" and ended["result"]["winner"] == game["color"]


@dataclass
class Contender:
    """A node as the server makes one, for the director's lease alone: its storage fenced by its own
    lease and the director's row."""

    storage: Storage
    ownership: Ownership
    keeper: Keeper
    row: DirectorRow
    lost: asyncio.Event

    async def close(self) -> None:
        await self.row.close()
        await self.ownership.close()
        await self.storage.close()


async def contender(url: str, name: str) -> Contender:
    lease = LeaseSettings(heartbeat_s=0.05, expiry_s=30.0)  # it never runs out by itself here
    storage = await Storage.open(url)
    keeper = Keeper()
    ownership = await Ownership.join(url, name, lease, keeper)
    row = DirectorRow(url, name, lease, lambda: ownership.epoch)
    storage.fence_writes(fenced_both(ownership.fence, row.fence))
    lost = asyncio.Event()
    row.lost = lost.set
    return Contender(storage, ownership, keeper, row, lost)


def round_paired(tournament_id: str, round_number: int) -> RoundPaired:
    return RoundPaired(tournament_id, (Pairing(round_number, 1, "bob", "cal"),))


async def test_a_paused_ex_director_cannot_store_a_round_once_another_node_directs(postgres_url: str) -> None:
    a, b = await contender(postgres_url, "a"), await contender(postgres_url, "b")
    try:
        assert await a.row.claim() and not await b.row.claim()  # one director at a time
        terms = TournamentTerms(
            "Night", "swiss", "ann", Rule.FREESTYLE, 15, ClockSetting(60_000, 0), OpeningRule.NONE, False, rounds=2
        )
        await a.storage.apply([TournamentCreated("t-1", terms, utc_now()), round_paired("t-1", 1)])

        await expire_lease(postgres_url, "a")  # a paused past its lease, by the database's clock
        assert await b.row.claim()  # b takes the tournaments over
        with pytest.raises(Fenced, match="lease"):
            await a.storage.apply([round_paired("t-1", 2)])  # a, woken, pairs round 2 late: refused
        await asyncio.wait_for(a.keeper.dropped_any.wait(), 10)  # a joins again, with a lease of its own
        with pytest.raises(Fenced, match="directs"):
            await a.storage.apply([round_paired("t-1", 2)])  # but not the director's
        assert a.lost.is_set() and not await a.row.still_held()  # and it stops directing
        await b.storage.apply([round_paired("t-1", 2)])

        stored = await b.storage.tournament("t-1")
        assert stored is not None
        assert [(pairing.round, pairing.board) for pairing in stored.pairings] == [(1, 1), (2, 1)]
    finally:
        await a.close()
        await b.close()


async def test_a_director_that_lets_go_is_followed_at_once_and_its_late_write_is_refused(
    postgres_url: str,
) -> None:
    a, b = await contender(postgres_url, "a"), await contender(postgres_url, "b")
    try:
        assert await a.row.claim()
        a.row.held = None  # as after a release that did not reach the database
        assert await a.row.claim() and not await b.row.claim()  # a takes its own row again
        await a.row.release()  # a clean stop, or the lobby moved away from it
        assert await b.row.claim() and not await a.row.claim()
        with pytest.raises(Fenced):
            terms = TournamentTerms(
                "Day",
                "arena",
                "ann",
                Rule.FREESTYLE,
                15,
                ClockSetting(60_000, 0),
                OpeningRule.NONE,
                False,
                duration_s=60,
            )
            await a.storage.apply([TournamentCreated("t-2", terms, utc_now())])
        assert await b.storage.tournament("t-2") is None
    finally:
        await a.close()
        await b.close()
