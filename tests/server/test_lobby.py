"""The lobby: seeks come and go for watchers, quick pairing by nearest rating, presence, limits.

The first tests drive the `Lobby` object with numbers for time; the others
go over the wire to a real server.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_harness import ClientFactory, ServerFactory, WireClient, win_rated_game
from test_storage_faults import ForeignLock
from websockets.asyncio.client import connect

from engine.types import Rule
from server.domain import ConnectionId, Refusal
from server.edge.connections import SEND_QUEUE_LIMIT
from server.hub.services import Limits
from server.lobby.hall import Lobby
from server.lobby.seeks import QUICK_WINDOW_GROWTH, QUICK_WINDOW_START, GameTerms, Seek
from server.storage.database import StorageSettings
from wire.messages import LobbyChanges, SeekRemoved, ServerMessage

TERMS = GameTerms(Rule.FREESTYLE, 15, None, False)
QUICK = {"type": "quick_pair", "rule": "freestyle", "size": 15, "rated": False}


def quick_seek(owner: str, rating: int, since: float, connection: int = 1) -> Seek:
    return Seek(
        f"q-{owner}",
        owner,
        rating,
        ConnectionId(connection),
        TERMS,
        "random",
        None,
        None,
        datetime(2026, 11, 23, tzinfo=UTC),
        since,
        quick=True,
    )


def test_a_quick_pairing_takes_the_nearest_rating_within_the_waiting_seeks_window() -> None:
    lobby = Lobby()
    lobby.add(quick_seek("far", 1500 + int(QUICK_WINDOW_START) + 50, 0.0))
    lobby.add(quick_seek("near", 1520, 0.0))
    lobby.add(quick_seek("nearer", 1490, 0.0))
    match = lobby.quick_match("me", 1500, TERMS, 0.0)
    assert match is not None and match.owner == "nearer"
    other_terms = GameTerms(Rule.RENJU, 15, None, False)
    assert lobby.quick_match("me", 1500, other_terms, 0.0) is None, "only the same terms pair"


def test_waiting_quick_seeks_widen_their_window_until_they_are_paired() -> None:
    lobby = Lobby()
    gap = QUICK_WINDOW_START + 2 * QUICK_WINDOW_GROWTH
    lobby.add(quick_seek("low", 1500, 0.0, 1))
    lobby.add(quick_seek("high", 1500 + int(gap), 0.0, 2))
    pairings, _ = lobby.tick(1.0)
    assert pairings == [] and len(lobby.seeks) == 2
    pairings, _ = lobby.tick(2.0)
    assert [(pairing.seek.owner, pairing.taker) for pairing in pairings] == [("low", "high")]
    assert lobby.seeks == {}


def test_a_seek_goes_with_its_owners_last_connection() -> None:
    lobby = Lobby()
    lobby.signed_in(ConnectionId(1), "alice")
    lobby.signed_in(ConnectionId(2), "alice")
    lobby.watch(ConnectionId(3))
    lobby.add(quick_seek("alice", 1500, 0.0))
    assert lobby.connection_closed(ConnectionId(1), "alice") == [] and lobby.seeks
    gone = lobby.connection_closed(ConnectionId(2), "alice")
    assert lobby.seeks == {} and [connection for connection, _ in gone] == [ConnectionId(3)]


def test_a_seek_refuses_ratings_outside_its_range_and_its_own_owner() -> None:
    lobby = Lobby()
    ranged = Seek("s1", "alice", 1500, ConnectionId(1), TERMS, "black", 1400, 1600, datetime.now(UTC), 0.0)
    lobby.add(ranged)
    with pytest.raises(Refusal) as caught:
        lobby.take("s1", "bob", 1700)
    assert caught.value.code == "not_allowed" and "1400 to 1600" in caught.value.message
    with pytest.raises(Refusal):
        lobby.take("s1", "alice", 1500)
    assert lobby.take("s1", "bob", 1550) == ranged and lobby.seeks == {}


# ------------------------------------------------------------- over the wire


async def watcher(client: ClientFactory, name: str) -> WireClient:
    wire = await client(name)
    assert (await wire.request(type="watch_lobby"))["type"] == "lobby"
    return wire


async def test_seeks_appear_and_vanish_for_watchers(client: ClientFactory) -> None:
    carol = await watcher(client, "carol")
    alice = await client("alice")
    created = await alice.request(type="seek", color="black", clock={"initial_ms": 300_000, "increment_ms": 3_000})
    seek = created["seek"]
    assert (seek["by"]["name"], seek["color"], seek["clock"]["initial_ms"]) == ("alice", "black", 300_000)
    assert (await carol.expect_next("seek_added"))["seek"]["seek_id"] == seek["seek_id"]

    refused = await carol.request(type="cancel_seek", seek_id=seek["seek_id"])
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")
    await alice.request(type="cancel_seek", seek_id=seek["seek_id"])
    assert (await carol.expect_next("seek_removed"))["seek_id"] == seek["seek_id"]
    lobby = await (await client("dave")).request(type="watch_lobby")
    assert lobby["seeks"] == []


async def test_accepting_a_seek_seats_both_players_and_starts_the_game(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    seek = (await alice.request(type="seek", color="white"))["seek"]
    own = await alice.request(type="accept_seek", seek_id=seek["seek_id"])
    assert (own["type"], own["code"]) == ("error", "not_allowed")

    taken = await bob.request(type="accept_seek", seek_id=seek["seek_id"])
    assert (taken["type"], taken["you"], taken["room"]["status"]) == ("room", "black", "playing")
    told = await alice.expect_next("room")
    assert (told["you"], told["room"]["room_id"]) == ("white", taken["room"]["room_id"])
    again = await bob.request(type="accept_seek", seek_id=seek["seek_id"])
    assert again["code"] == "not_found"


async def test_a_rating_range_is_honoured(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    seek = (await alice.request(type="seek", rating_min=1600))["seek"]
    refused = await bob.request(type="accept_seek", seek_id=seek["seek_id"])
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")


async def test_two_quick_pairers_of_close_rating_are_paired_and_a_third_waits(client: ClientFactory) -> None:
    alice = await client("alice")
    bob = await client("bob")
    carol = await client("carol")
    waiting = await alice.request(type="quick_pair", rule="freestyle", size=15, rated=False)
    assert waiting["type"] == "seek_created" and waiting["seek"]["quick"] is True
    paired = await bob.request(type="quick_pair", rule="freestyle", size=15, rated=False)
    assert paired["type"] == "room" and paired["room"]["status"] == "playing"
    assert (await alice.expect_next("room"))["room"]["room_id"] == paired["room"]["room_id"]
    third = await carol.request(type="quick_pair", rule="freestyle", size=15, rated=False)
    assert third["type"] == "seek_created"


async def test_seeks_per_player_are_limited(start_server: ServerFactory, client: ClientFactory) -> None:
    server = await start_server(limits=Limits(seeks_per_player=2))
    alice = await client("alice", server=server)
    for _ in range(2):
        assert (await alice.request(type="seek"))["type"] == "seek_created"
    refused = await alice.request(type="seek")
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")


async def test_quick_seeks_from_one_address_are_limited(start_server: ServerFactory, client: ClientFactory) -> None:
    server = await start_server(limits=Limits(quick_seeks_per_address=2))
    players = [await client(name, server=server) for name in ("alice", "bob", "carol")]
    sizes = iter((15, 17, 19))
    waiting = [await player.request(**QUICK | {"size": next(sizes)}) for player in players[:2]]
    assert [reply["type"] for reply in waiting] == ["seek_created"] * 2, "different sizes: nobody pairs"
    refused = await players[2].request(**QUICK | {"size": 19})
    assert (refused["type"], refused["code"]) == ("error", "limit_reached")
    await players[0].request(type="cancel_seek", seek_id=waiting[0]["seek"]["seek_id"])
    assert (await players[2].request(**QUICK | {"size": 19}))["type"] == "seek_created"


async def test_who_is_online_counts_a_player_with_two_tabs_once(client: ClientFactory) -> None:
    alice = await client("alice")
    await client("alice")
    bob = await client("bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    online = await bob.request(type="who_is_online")
    statuses: dict[str, Any] = {player["name"]: player["status"] for player in online["players"]}
    assert online["count"] == 2 and statuses == {"alice": "playing", "bob": "playing"}


async def test_watchers_hear_the_online_count_change(client: ClientFactory) -> None:
    carol = await watcher(client, "carol")
    await client("alice")
    async with asyncio.timeout(10):
        while (await carol.expect_next("online"))["count"] != 2:
            pass


async def test_a_pairing_made_by_the_tick_seats_the_players_open_tab_when_the_tab_that_asked_has_closed(
    client: ClientFactory,
) -> None:
    alice = await client("alice")
    carol = await client("carol")
    await win_rated_game(alice, carol)  # their ratings now about 320 points apart
    assert (await alice.request(**QUICK))["type"] == "seek_created"
    closing_tab = await client("carol")
    assert (await closing_tab.request(**QUICK))["type"] == "seek_created", "too far apart to pair at once"
    await closing_tab.close()

    told = await carol.expect_next("room")
    assert told["you"] in ("black", "white") and told["room"]["status"] == "playing"
    seen_by_alice = await alice.expect_next("room")
    assert seen_by_alice["room"]["room_id"] == told["room"]["room_id"]
    assert all(seen_by_alice["room"][color]["connected"] for color in ("black", "white"))


def test_a_pairing_whose_game_cannot_start_puts_back_the_seeks_of_the_players_still_here() -> None:
    lobby = Lobby()
    lobby.signed_in(ConnectionId(1), "alice")
    lobby.signed_in(ConnectionId(2), "bob")
    lobby.watch(ConnectionId(3))
    lobby.add(quick_seek("alice", 1500, 0.0, 1))
    lobby.add(quick_seek("bob", 1500, 0.0, 2))
    (pairing,), told = lobby.tick(1.0)
    assert lobby.seeks == {} and not any(isinstance(message, SeekRemoved) for _, message in told)
    lobby.connection_closed(ConnectionId(2), "bob")
    gone = lobby.restore(pairing.seeks)
    assert list(lobby.seeks) == ["q-alice"], "bob has left: his seek does not come back"
    assert [(connection, message.seek_id) for connection, message in gone] == [(ConnectionId(3), "q-bob")]


async def test_a_player_whose_tab_closes_while_the_game_is_being_stored_is_away_once_it_is(
    db_path: Path, start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(storage=StorageSettings(retry_s=60.0))
    carol = await client("carol", server=server)
    await carol.request(type="watch_lobby")
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    seek = (await alice.request(type="seek", color="black"))["seek"]
    lock = await ForeignLock.take(db_path)
    try:
        await bob.send(type="accept_seek", seek_id=seek["seek_id"], id="accept")  # its room waits for the lock
        await asyncio.sleep(1.0)  # the players' standings read, the room opens; its game waits to be stored
        await alice.close()
        while (await carol.expect_next("online"))["count"] != 2:
            pass
    finally:
        await lock.release()

    taken = await bob.expect_next("room")
    assert (taken["id"], taken["you"]) == ("accept", "white")
    away = await bob.expect_next("opponent_away")
    assert (away["room_id"], away["color"]) == (taken["room"]["room_id"], "black")


# ----------------------------------------------------------------- batches (1.2)


def plain_seek(seek_id: str) -> Seek:
    """A seek of alice's, asked from connection 1."""
    created = datetime(2026, 11, 27, tzinfo=UTC)
    return Seek(seek_id, "alice", 1500, ConnectionId(1), TERMS, "random", None, None, created, 0.0)


def batch_in(told: list[tuple[ConnectionId, ServerMessage]]) -> LobbyChanges:
    """The batch a tick told: one message object for every watcher of batches (serialised once)."""
    batches = [message for _, message in told if isinstance(message, LobbyChanges)]
    assert batches and all(batch is batches[0] for batch in batches)
    return batches[0]


def test_a_watcher_of_batches_hears_a_ticks_changes_in_one_batch_shared_by_all() -> None:
    lobby = Lobby()
    lobby.signed_in(ConnectionId(1), "alice")
    assert lobby.watch(ConnectionId(7), batches=True).seq == 0
    lobby.watch(ConnectionId(8), batches=True)
    lobby.watch(ConnectionId(9))
    told_now = lobby.add(plain_seek("s-stays")) + lobby.add(plain_seek("s-brief"))
    told_now += lobby.cancel("s-brief", "alice")
    assert {connection for connection, _ in told_now} == {ConnectionId(1), ConnectionId(9)}, "1.1: at once"

    _, told = lobby.tick(0.0)
    batch = batch_in(told)
    assert {connection for connection, message in told if message is batch} == {ConnectionId(7), ConnectionId(8)}
    assert [seek.seek_id for seek in batch.added] == ["s-stays"], "added and removed within the tick: in neither"
    assert (batch.removed, batch.online, batch.seq) == ([], 1, 1)

    lobby.cancel("s-stays", "alice")
    _, told = lobby.tick(0.25)
    batch = batch_in(told)
    assert (batch.added, batch.removed, batch.online, batch.seq) == ([], ["s-stays"], None, 2)
    assert lobby.tick(0.5)[1] == [], "nothing changed: no batch, and no number used"
    assert lobby.watch(ConnectionId(10), batches=True).seq == 2, "a new watcher continues from the last batch"


def test_a_seek_taken_for_a_game_that_cannot_start_comes_back_in_a_batch_only_if_its_going_was_told() -> None:
    lobby = Lobby()
    lobby.signed_in(ConnectionId(1), "alice")
    lobby.add(plain_seek("s-1"))
    lobby.add(plain_seek("s-2"))
    lobby.watch(ConnectionId(7), batches=True)
    lobby.tick(0.0)
    first = lobby.take("s-1", "bob", 1500)
    lobby.restore([first])
    assert lobby.tick(0.25)[1] == [], "taken and put back within a tick: nothing to tell"

    second = lobby.take("s-2", "bob", 1500)
    _, told = lobby.tick(0.5)
    gone = batch_in(told)
    assert gone.removed == ["s-2"]
    lobby.restore([second])
    _, told = lobby.tick(0.75)
    back = batch_in(told)
    assert [seek.seek_id for seek in back.added] == ["s-2"] and back.seq == gone.seq + 1


async def test_a_watcher_of_batches_reads_numbered_batches_over_the_wire(client: ClientFactory) -> None:
    carol = await client("carol")
    features = carol.seen[0]["features"]
    assert "lobby_batches" in features and "cluster" not in features  # one process, one node
    snapshot = await carol.request(type="watch_lobby", batches=True)
    assert snapshot["type"] == "lobby" and isinstance(snapshot["seq"], int)
    batches = numbered_batches(carol, snapshot["seq"])
    alice = await client("alice")
    seek_id = (await alice.request(type="seek"))["seek"]["seek_id"]
    while not [seek for seek in (await anext(batches))["added"] if seek["seek_id"] == seek_id]:
        pass
    await alice.request(type="cancel_seek", seek_id=seek_id)
    while seek_id not in (await anext(batches))["removed"]:
        pass


async def numbered_batches(watcher: WireClient, seq: int) -> AsyncIterator[dict[str, Any]]:
    """The batches a watcher reads, checking that nothing else comes and that none is missing."""
    while True:
        async with asyncio.timeout(10):
            message = await watcher.receive()
        assert message["type"] == "lobby_changes", "no per-change message to a watcher of batches"
        assert message["seq"] == seq + 1, "numbered one after the other from the snapshot's"
        seq = message["seq"]
        yield message


async def test_a_per_change_watcher_that_falls_behind_gets_a_fresh_snapshot_in_place_of_its_backlog(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    tiny = socket.socket()
    tiny.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tiny.connect(("127.0.0.1", server.port))
    sluggard = WireClient(await connect(server.ws_url, sock=tiny, max_queue=1))
    await sluggard.hello("sluggard")
    await sluggard.request(type="watch_lobby")
    alice = await client("alice", server=server)
    seek_id = (await alice.request(type="seek"))["seek"]["seek_id"]
    (connection,) = [known for known in server.app.connections.values() if known.player == "sluggard"]

    news = SeekRemoved(seek_id="s-long-gone")
    server.app.deliver([(connection.id, news)] * (SEND_QUEUE_LIMIT + 100))  # all at once: nothing written meanwhile

    async with asyncio.timeout(30):
        while (message := await sluggard.receive())["type"] != "lobby":
            assert message["type"] in ("online", "seek_added", "seek_removed"), message
    assert [seek["seek_id"] for seek in message["seeks"]] == [seek_id], "the lobby as it is now"
    assert len([seen for seen in sluggard.seen if seen == {"type": "seek_removed", "seek_id": "s-long-gone"}]) < 100
    assert (await sluggard.request(type="who_is_online"))["count"] == 2, "still connected"
