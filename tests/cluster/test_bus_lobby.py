"""The cluster's lobby is one lobby: seeks, pairing, who is online and chat are the same from every node.

Node 1 starts first and runs the lobby; node 2 forwards its players' lobby
requests to it, and fans out what the lobby says to its own connections.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from websockets.asyncio.client import connect

from tests.cluster.conftest import Node
from tests.server.server_harness import FIVE_FOR_BLACK, WireClient

StartNode = Callable[[str], Awaitable[Node]]


async def listed_room_ids(wire: WireClient) -> list[str]:
    """The rooms `list_rooms` shows, once it shows two: a node writes its rooms' lines in the list at
    the end of the tick that changed them, so another node may read the list a moment before."""
    for _ in range(30):  # each attempt is a round trip through both nodes and Redis
        listed = await wire.request(type="list_rooms")
        if len(listed["rooms"]) == 2:
            break
    return sorted(room["room_id"] for room in listed["rooms"])


SEEK = {"rule": "freestyle", "size": 15, "clock": None, "rated": False, "color": "black"}


async def test_a_seek_made_on_node_1_is_seen_and_accepted_on_node_2_and_the_game_plays(
    start_node: StartNode,
) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    carol = await second.client("carol")
    lobby = await carol.request(type="watch_lobby")
    assert lobby["type"] == "lobby" and lobby["online"] == 3 and lobby["seeks"] == []

    created = await alice.request(type="seek", **SEEK)
    seek_id = created["seek"]["seek_id"]
    added = await carol.expect_next("seek_added")
    assert added["seek"]["seek_id"] == seek_id and added["seek"]["by"]["name"] == "alice"

    room = await bob.request(type="accept_seek", seek_id=seek_id)
    assert room["type"] == "room" and room["you"] == "white" and room["room"]["status"] == "playing"
    assert (await alice.expect_next("room"))["you"] == "black"
    assert (await carol.expect_next("seek_removed"))["seek_id"] == seek_id

    room_id = room["room"]["room_id"]
    for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
        answer = await (alice if ply % 2 else bob).request(type="move", room_id=room_id, x=x, y=y)
        assert answer["type"] == "moved", answer
    assert (await bob.expect_next("game_over"))["result"]["winner"] == "black"


async def test_who_is_online_counts_every_node_and_the_limits_count_across_nodes(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    await bob.request(type="create_room")  # on node 2: bob is seated there, waiting for an opponent
    for _ in range(30):  # node 2 writes its room's line at the end of the tick that opened it
        online = await alice.request(type="who_is_online")
        if online["players"][1]["status"] == "playing":
            break
    assert online["count"] == 2
    assert [(player["name"], player["status"]) for player in online["players"]] == [
        ("alice", "idle"),
        ("bob", "playing"),
    ]

    alice_too = await second.client("alice", alice.token)
    for _ in range(2):
        assert (await alice.request(type="seek", **SEEK))["type"] == "seek_created"
    assert (await alice_too.request(type="seek", **SEEK))["type"] == "seek_created"
    refused = await alice_too.request(type="seek", **SEEK)
    assert refused["type"] == "error" and refused["code"] == "limit_reached", refused


async def test_lobby_chat_said_on_node_2_reaches_watchers_on_both_nodes(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    carol = await second.client("carol")
    for watcher in (alice, carol):
        await watcher.request(type="watch_lobby")

    said = await bob.request(type="chat", text="hello all")
    assert said["type"] == "chat" and said["from"] == "bob"
    for watcher in (alice, carol):
        heard = await watcher.expect_next("chat")
        assert heard["text"] == "hello all" and heard["from"] == "bob"


async def test_the_room_list_is_every_nodes_rooms_from_any_node(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    on_first = (await alice.request(type="create_room"))["room"]["room_id"]
    on_second = (await bob.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="create_room", private=True)

    for wire in (alice, bob):
        assert await listed_room_ids(wire) == sorted([on_first, on_second])
    first_page = await alice.request(type="list_rooms", limit=1)
    second_page = await alice.request(type="list_rooms", limit=1, after=first_page["next"])
    assert [first_page["rooms"][0]["room_id"], second_page["rooms"][0]["room_id"]] == sorted([on_first, on_second])
    assert second_page["next"] is None


async def test_welcome_lists_the_rooms_a_player_is_seated_in_on_every_node(start_node: StartNode) -> None:
    """A player who comes back through another node (the proxy sends a new connection anywhere) is
    told of every game it holds a seat in, private ones too, to join them again."""
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    public = (await alice.request(type="create_room"))["room"]["room_id"]
    private = (await alice.request(type="create_room", private=True))["room"]["room_id"]
    await alice.close()

    for _ in range(30):  # a node writes its rooms' lines at the end of the tick that changed them
        again = WireClient(await connect(second.ws_url))
        welcome = await again.hello("alice", alice.token)
        await again.close()
        if len(welcome["rooms"]) == 2:
            break
    assert sorted(welcome["rooms"]) == sorted([public, private])


async def test_the_rooms_per_player_cap_counts_the_rooms_on_every_node(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    alice_too = await second.client("alice", alice.token)
    for _ in range(10):  # the most a player may have open (`--max-rooms-per-player`, 10)
        assert (await alice.request(type="create_room"))["type"] == "room"
    for _ in range(30):  # node 1 writes its rooms' lines at the end of the tick that opened them
        if len((await alice_too.request(type="list_rooms"))["rooms"]) == 10:
            break
    refused = await alice_too.request(type="create_room")
    assert refused["type"] == "error" and refused["code"] == "limit_reached", refused


async def test_quick_pairing_pairs_a_player_waiting_on_node_2_with_one_asking_on_node_1(start_node: StartNode) -> None:
    first, second = await start_node("n1"), await start_node("n2")
    alice = await first.client("alice")
    bob = await second.client("bob")
    terms = {"rule": "freestyle", "size": 15, "clock": None, "rated": False}
    waiting = await bob.request(type="quick_pair", **terms)
    assert waiting["type"] == "seek_created" and waiting["seek"]["quick"] is True

    paired = await alice.request(type="quick_pair", **terms)
    assert paired["type"] == "room" and paired["room"]["status"] == "playing"
    bobs = await bob.expect_next("room")
    assert bobs["room"]["room_id"] == paired["room"]["room_id"]
    assert {paired["you"], bobs["you"]} == {"black", "white"}


async def test_when_the_lobbys_node_is_killed_another_takes_the_lobby_and_its_watchers_see_the_seeks_gone(
    start_node: StartNode,
) -> None:
    """The lobby's key is a lease (renewed every heartbeat, lapsing at `--lease-s`, 4 s): its node
    killed, another node takes the lobby over, and each watcher gets a fresh `lobby` snapshot
    without the seeks that went with it (they are soft state), then hears the new lobby."""
    first, second = await start_node("n1"), await start_node("n2")  # n1, up first, runs the lobby
    alice, bob, carol = await first.client("alice"), await second.client("bob"), await second.client("carol")
    assert (await carol.request(type="watch_lobby"))["seeks"] == []
    for seeker in (alice, bob):
        assert (await seeker.request(type="seek", **SEEK))["type"] == "seek_created"
        await carol.expect_next("seek_added")

    first.process.kill()  # SIGKILL, by its pid
    await first.process.wait()
    snapshot = await carol.expect_next("lobby")
    assert snapshot["seeks"] == [] and "id" not in snapshot, snapshot

    again = await bob.request(type="seek", **SEEK)
    assert again["type"] == "seek_created", again
    assert (await carol.expect_next("seek_added"))["seek"]["seek_id"] == again["seek"]["seek_id"]
