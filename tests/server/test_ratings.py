"""Rated games: both ratings change with the result, in one transaction; casual games change nothing."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
from edge_inbox import EdgeInbox
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient

from engine.glicko2 import WIN, Rating, rate_game
from engine.record import PlayerInfo
from engine.registry import level_names
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import (
    Caller,
    ConnectionId,
    GameFinished,
    GameId,
    GameStarted,
    RatingsChanged,
    Standing,
    StoreRecord,
    caller_ref,
    new_game_id,
    new_room_id,
    utc_now,
)
from server.players.bot_ratings import read_ratings
from server.players.ratings import RatingBook
from server.rooms.actors import RoomRegistry
from server.rooms.room import Room, RoomSettings
from server.storage.database import Storage, StorageUnavailable

FIVE_FOR_BLACK = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8), (11, 7)]


async def rated_game(
    client: ClientFactory, rated: bool = True, server: RunningServer | None = None
) -> tuple[WireClient, WireClient, dict[str, Any]]:
    """Alice (black) beats Bob in a game; the game_over Alice receives."""
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room", rated=rated))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
        await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y)
    return alice, bob, await alice.expect_next("game_over")


async def test_a_rated_game_changes_both_ratings_and_game_over_says_how(client: ClientFactory) -> None:
    _, _, over = await rated_game(client)

    black_after, white_after = rate_game(Rating(), Rating(), 1.0)
    assert over["ratings"] == {
        "black": {"before": 1500, "after": round(black_after.rating)},
        "white": {"before": 1500, "after": round(white_after.rating)},
    }
    fresh = await client("carol")
    table = await fresh.request(type="leaderboard", kind="human")
    by_name = {entry["name"]: entry for entry in table["players"]}
    assert by_name["alice"]["rating"] == round(black_after.rating) and by_name["alice"]["games"] == 1
    assert by_name["bob"]["rating"] == round(white_after.rating) and by_name["bob"]["rd"] == round(white_after.rd)
    again = await client("alice")
    assert again.seen[-1]["player"]["rating"] == round(black_after.rating)


async def test_after_a_rated_game_its_room_shows_the_new_ratings_in_the_seats(client: ClientFactory) -> None:
    _, _, over = await rated_game(client)

    carol = await client("carol")
    room = (await carol.request(type="join_room", room_id=over["room_id"], **{"as": "spectator"}))["room"]
    seats = [room["black"], room["white"]]
    black_after, white_after = rate_game(Rating(), Rating(), WIN)
    assert [(seat["name"], seat["rating"], seat["games"]) for seat in seats] == [
        ("alice", round(black_after.rating), 1),
        ("bob", round(white_after.rating), 1),
    ]


async def test_four_rated_games_of_one_player_ending_at_once_each_start_from_the_last(
    client: ClientFactory,
) -> None:
    alice = await client("alice")
    rooms = []
    for number in range(4):
        opponent = await client(f"opponent{number}")
        room_id = (await alice.request(type="create_room", rated=True))["room"]["room_id"]
        await opponent.request(type="join_room", room_id=room_id)
        await alice.request(type="move", room_id=room_id, x=7, y=7)
        await opponent.request(type="move", room_id=room_id, x=8, y=8)
        rooms.append(room_id)

    for room_id in rooms:
        await alice.send(type="resign", room_id=room_id)
    overs = [(await alice.expect_next("game_over"))["ratings"]["black"] for _ in rooms]

    overs.sort(key=lambda change: change["before"], reverse=True)
    assert overs[0]["before"] == 1500
    assert [change["before"] for change in overs[1:]] == [change["after"] for change in overs[:-1]]
    welcome = (await client("alice")).seen[-1]["player"]
    assert (welcome["rating"], welcome["games"]) == (overs[-1]["after"], 4)


async def test_a_casual_game_changes_no_rating(client: ClientFactory) -> None:
    _, _, over = await rated_game(client, rated=False)
    assert over.get("ratings") is None
    table = await (await client("carol")).request(type="leaderboard", kind="human")
    assert all((entry["rating"], entry["games"]) == (1500, 0) for entry in table["players"])


async def test_an_aborted_rated_game_is_not_rated_and_undo_is_refused(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    room_id = (await alice.request(type="create_room", rated=True))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await alice.request(type="move", room_id=room_id, move="h8")
    refused = await alice.request(type="request_undo", room_id=room_id)
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")
    over = await bob.request(type="resign", room_id=room_id)
    assert over["type"] == "game_over" and over.get("ratings") is None


async def test_the_same_bot_level_twice_cannot_play_a_rated_game(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    carol = await client("carol", server=server)
    refused = await carol.request(type="create_room", rated=True, black={"bot": "greedy"}, white={"bot": "greedy"})
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")


async def test_bots_join_the_pool_at_their_arena_rating(client: ClientFactory, game_server: RunningServer) -> None:
    reader = await client("reader")
    table = (await reader.request(type="leaderboard", kind="bot", limit=100))["players"]
    arena = read_ratings()
    assert {entry["name"] for entry in table} == set(level_names())
    assert all(entry["rating"] == arena.get(entry["name"], 1500) and entry["rd"] == 100 for entry in table)
    assert [entry["rating"] for entry in table] == sorted((entry["rating"] for entry in table), reverse=True)


async def test_provisional_ratings_come_after_the_others(client: ClientFactory) -> None:
    await rated_game(client)
    everyone = (await (await client("carol")).request(type="leaderboard", limit=100))["players"]
    provisional = [entry["rd"] > 110 for entry in everyone]
    assert provisional == sorted(provisional), "every established rating before every provisional one"
    assert not provisional[0] and provisional[-1]


async def test_profiles_and_the_leaderboard_over_http(client: ClientFactory, game_server: RunningServer) -> None:
    await rated_game(client)
    status, _, body = await game_server.get("/api/players?kind=human&limit=10")
    assert status == 200 and [entry["name"] for entry in json.loads(body)][:2] == ["alice", "bob"]
    status, _, body = await game_server.get("/api/players/alice")
    profile = json.loads(body)
    assert status == 200 and (profile["wins"], profile["losses"], profile["draws"], profile["games"]) == (1, 0, 0, 1)
    assert len(profile["recent"]) == 1 and len(profile["history"]) == 1
    assert profile["history"][0]["rating"] == profile["rating"]
    assert (await game_server.get("/api/players/nobody"))[0] == 404
    assert (await game_server.get("/api/players?kind=robots"))[0] == 400


class FailingOnce:
    """Storage that fails the next write that holds a result, and counts what it keeps."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.fail_next_result = True

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        if self.fail_next_result and any(isinstance(record, GameFinished) for record in records):
            self.fail_next_result = False
            raise StorageUnavailable("the disk is full")
        return await self.storage.apply(records)


async def test_the_result_and_the_ratings_are_stored_together_or_not_at_all(database: str) -> None:
    storage = await Storage.open(database)
    for name in ("alice", "bob"):
        await storage.add_player(name, name.encode())
    book = RatingBook(storage)
    store = FailingOnce(storage)
    alice, bob = Caller(caller_ref(ConnectionId(1)), "alice"), Caller(caller_ref(ConnectionId(2)), "bob")
    inbox = EdgeInbox()
    inbox.connect(alice, bob)
    registry = RoomRegistry(store, inbox.publish, None)
    actor = registry.actor_for(Room(new_room_id(), Rule.FREESTYLE, 15, None, False, RoomSettings(), rated=True))
    await actor.run(lambda room, now: room.open(alice, "me", PlayerInfo("bob"), now))
    registry.add(actor)
    for ply, (x, y) in enumerate(FIVE_FOR_BLACK[:-1], start=1):
        caller = alice if ply % 2 else bob
        await actor.run(lambda room, now, caller=caller, x=x, y=y: room.move(caller, Point(x, y), now))

    with pytest.raises(StorageUnavailable):
        await actor.run(lambda room, now: room.move(alice, Point(11, 7), now))
    assert actor.room.status == "playing"
    assert (await storage.standing("alice")).games == 0  # type: ignore[union-attr]
    assert (await book.standing("alice")).games == 0

    await actor.run(lambda room, now: room.move(alice, Point(11, 7), now))
    record = await storage.game_record(actor.room.game_id, None)
    assert record is not None and record.result is not None
    assert (await storage.standing("alice")).games == 1  # type: ignore[union-attr]
    assert (await book.standing("alice")).games == 1
    over = [message for message in inbox.of(bob) if message.get("ratings")]
    assert over and over[0]["ratings"]["black"]["before"] == 1500
    await registry.close()
    await storage.close()


async def started_rated_game(storage: Storage, black: str, white: str) -> GameId:
    """A rated game between two players, stored as started; its id."""
    game_id = new_game_id()
    seats = PlayerInfo(black), PlayerInfo(white)
    await storage.apply(
        [GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, *seats, None, utc_now(), False, rated=True)]
    )
    return game_id


def black_won(game_id: GameId) -> GameFinished:
    return GameFinished(game_id, GameResult(Color.BLACK, EndReason.RESIGN), utc_now(), None, rated=True)


async def test_rated_games_of_one_player_finishing_at_once_are_rated_one_after_the_other(database: str) -> None:
    storage = await Storage.open(database)
    opponents = [f"opponent{number}" for number in range(4)]
    for name in ["alice", *opponents]:
        await storage.add_player(name, name.encode())
    games = [await started_rated_game(storage, "alice", opponent) for opponent in opponents]

    changes = await asyncio.gather(*(storage.apply([black_won(game_id)]) for game_id in games))

    expected = Rating()
    for (change,), opponent in zip(changes, opponents, strict=True):
        assert change.before[0].rating == expected
        expected, _ = rate_game(expected, Rating(), WIN)
        assert change.after[0].rating == expected and change.after[1].name == opponent
    assert await storage.standing("alice") == Standing("alice", "human", expected, 4)
    await storage.close()


async def test_two_writers_on_one_database_rate_from_each_others_results(database: str) -> None:
    first = await Storage.open(database)
    second = await Storage.open(database)
    for name in ("alice", "bob", "carol"):
        await first.add_player(name, name.encode())
    await second.standing("alice")  # the second writer has read alice's rating before the first game ends
    with_bob = await started_rated_game(first, "alice", "bob")
    with_carol = await started_rated_game(second, "alice", "carol")

    (after_bob,) = await first.apply([black_won(with_bob)])
    (after_carol,) = await second.apply([black_won(with_carol)])

    assert after_carol.before[0] == after_bob.after[0]
    assert await first.standing("alice") == after_carol.after[0]
    await first.close()
    await second.close()


async def test_two_nodes_finishing_games_of_one_player_at_once_lose_no_rating_change(database: str) -> None:
    nodes = [await Storage.open(database) for _ in range(2)]
    opponents = [f"opponent{number}" for number in range(6)]
    for name in ["alice", *opponents]:
        await nodes[0].add_player(name, name.encode())
    games = [await started_rated_game(nodes[0], "alice", opponent) for opponent in opponents]

    changes = await asyncio.gather(
        *(nodes[number % 2].apply([black_won(game_id)]) for number, game_id in enumerate(games))
    )

    chain = sorted((change for (change,) in changes), key=lambda change: change.before[0].games)
    assert [change.before[0].games for change in chain] == list(range(len(games)))
    for earlier, later in itertools.pairwise(chain):
        assert later.before[0] == earlier.after[0]
    assert await nodes[1].standing("alice") == chain[-1].after[0]
    for node in nodes:
        await node.close()


async def test_a_casual_result_changes_no_rating(database: str) -> None:
    storage = await Storage.open(database)
    for name in ("alice", "bob"):
        await storage.add_player(name, name.encode())
    game_id = await started_rated_game(storage, "alice", "bob")

    finish = GameFinished(game_id, GameResult(Color.BLACK, EndReason.RESIGN), utc_now(), None, rated=False)
    assert await storage.apply([finish]) == ()
    assert await storage.standing("alice") == Standing("alice", "human", Rating(), 0)
    await storage.close()
