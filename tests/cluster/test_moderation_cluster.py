"""Moderation is the same from every node: a ban, a rename or a mute made on one node holds on all
of them, and so does a ban or a rename made by `gomoku-admin` in a process of its own.

Real processes: PostgreSQL, Redis and three nodes (short leases), or two nodes on one SQLite file
and Redis; each stopped by its pid.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

from server.domain import AuditEntry, Role
from server.moderation.actions import Moderation
from server.storage.database import Storage
from tests.cluster.conftest import REPO, Node, StartClusterNode
from tests.server.server_harness import WireClient, closed_with, refused
from tools.local_services import ServerNode

Clients = Callable[..., Awaitable[WireClient]]
CHATTY = ("--new-player-chat-lines", "50")
"""A chat pace that no test here reaches (newcomers may otherwise say one line per 10 s)."""
StartNode = Callable[[str], Awaitable[Node]]


async def grant(database: str, name: str, role: Role = "moderator") -> None:
    """Give a player a role, as the operator does on the server's machine."""
    storage = await Storage.open(database)
    try:
        await Moderation(storage).grant("operator:test", name, role, "for the test")
    finally:
        await storage.close()


async def gomoku_admin(database: str, *arguments: str) -> None:
    """Run `gomoku-admin` on the database in a process of its own, as the operator would."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.moderation.admin_cli", "--db", database, *arguments, cwd=REPO
    )
    assert await process.wait() == 0


async def nodes_and_a_moderator(
    start: StartClusterNode, clients: Clients, database: str, count: int, on: int = 1, *arguments: str
) -> tuple[list[ServerNode], WireClient]:
    """`count` nodes n1, n2... (n1 first: it runs the lobby), and a moderator signed in on node `on`."""
    nodes = [start(f"n{number}", database, arguments) for number in range(1, count + 1)]
    moderator = await clients(nodes[on - 1], "mod")
    await grant(database, "mod")
    return nodes, moderator


async def test_a_ban_on_one_node_closes_the_player_everywhere_and_their_games_elsewhere_are_forfeited(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    (first, second, third), moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 3)
    watcher = await clients(first, "watcher")
    await watcher.request(type="watch_lobby")
    troll = await clients(second, "troll")
    troll_too = await clients(third, "troll", troll.token)
    bob = await clients(third, "bob")
    playing = (await bob.request(type="create_room"))["room"]["room_id"]  # held by n3
    assert (await troll.request(type="join_room", room_id=playing, as_="player"))["you"] == "white"
    await bob.request(type="move", room_id=playing, x=7, y=7)
    waiting = (await troll_too.request(type="create_room"))["room"]["room_id"]  # held by n3, troll black
    assert (await troll.request(type="join_room", room_id=waiting))["you"] == "black"  # from n2 too
    seek = (await troll.request(type="seek"))["seek"]  # in the lobby, which n1 runs
    await watcher.expect_next("seek_added")

    done = await moderator.request(type="ban", player="troll", reason="abuse")
    assert (done["type"], done["action"], done["target"]) == ("moderation_done", "ban", "troll")
    assert await closed_with(troll) == (1008, "banned: abuse")
    assert await closed_with(troll_too) == (1008, "banned: abuse")
    over = await bob.expect_next("game_over")
    assert over["result"]["winner"] == "black" and over["result"]["detail"] == "forfeited: troll was banned"
    assert (await watcher.expect_next("seek_removed"))["seek_id"] == seek["seek_id"]
    carol = await clients(second, "carol")
    joined = await carol.request(type="join_room", room_id=waiting, as_="player")
    # troll's waiting seat is open again: the room, left empty, is gone, or carol takes that seat
    assert joined.get("code") == "not_found" or joined.get("you") == "black", joined


async def test_a_rename_on_one_node_reaches_the_players_connections_on_every_node(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    (_, second, third), moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 3)
    rude = await clients(second, "rudename")
    rude_too = await clients(third, "rudename", rude.token)

    done = await moderator.request(type="rename_player", player="rudename", new_name="Nice", reason="offensive")
    assert (done["action"], done["target"], done["new_name"]) == ("rename", "rudename", "Nice")
    for connection in (rude, rude_too):
        assert (await connection.expect_next("renamed"))["name"] == "Nice"
        assert await closed_with(connection) == (1008, "renamed by a moderator: sign in as Nice")
    await clients(third, "Nice", rude.token)  # welcomed under the new name, with the same token


async def test_a_mute_on_one_node_holds_on_every_node_in_the_lobby_and_in_rooms_held_elsewhere(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    (_, second), moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 2)
    alice = await clients(second, "alice")
    room_id = (await moderator.request(type="create_room"))["room"]["room_id"]  # held by n1
    await alice.request(type="join_room", room_id=room_id)

    assert (await moderator.request(type="mute", player="alice", minutes=10, reason="spam"))["action"] == "mute"
    for room in (None, room_id):
        said = await alice.request(type="chat", room_id=room, text="spam")
        assert "muted" in refused(said, "not_allowed")


async def test_a_ban_by_gomoku_admin_closes_the_players_connections_on_every_node_within_seconds(
    start_cluster_node: StartClusterNode, clients: Clients, database: str
) -> None:
    first, second = start_cluster_node("n1", database), start_cluster_node("n2", database)
    troll = await clients(first, "troll")
    troll_too = await clients(second, "troll", troll.token)
    bob = await clients(second, "bob")
    room_id = (await troll.request(type="create_room"))["room"]["room_id"]  # held by n1
    assert (await bob.request(type="join_room", room_id=room_id, as_="player"))["you"] == "white"
    await troll.request(type="move", room_id=room_id, x=7, y=7)

    await gomoku_admin(database, "ban", "troll", "--reason", "abuse")
    async with asyncio.timeout(10):  # each node reads the latest bans every 2 s
        assert await closed_with(troll) == (1008, "banned: abuse")
        assert await closed_with(troll_too) == (1008, "banned: abuse")
        over = await bob.expect_next("game_over")
    assert over["result"]["winner"] == "white" and over["result"]["detail"] == "forfeited: troll was banned"


async def test_a_rename_by_gomoku_admin_closes_the_players_connections_on_every_node(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    rude = await clients(first, "rudename")
    rude_too = await clients(second, "rudename", rude.token)

    await gomoku_admin(postgres_url, "rename", "rudename", "Nice", "--reason", "offensive")
    for connection in (rude, rude_too):
        assert (await connection.expect_next("renamed"))["name"] == "Nice"
        assert await closed_with(connection) == (1008, "renamed by a moderator: sign in as Nice")


async def test_the_pace_of_reports_counts_those_filed_on_every_node(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    await clients(first, "troll")
    on_first = await clients(first, "alice")
    on_second = await clients(second, "alice", on_first.token)
    for index in range(10):  # the most in an hour, half of them on each node
        filed = await (on_first if index % 2 else on_second).request(type="report", player="troll", reason="x")
        assert filed["type"] == "report_filed", filed
    for alice in (on_first, on_second):
        refusal = refused(await alice.request(type="report", player="troll", reason="x"), "rate_limited")
        assert refusal == "at most 10 reports an hour"


async def test_a_kick_in_a_room_held_by_another_node_takes_the_spectator_out_and_keeps_them_out_everywhere(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    (first, second, third), moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 3)
    bob = await clients(second, "bob")
    room_id = (await bob.request(type="create_room"))["room"]["room_id"]  # held by n2
    heckler = await clients(third, "heckler")
    await heckler.request(type="join_room", room_id=room_id, as_="spectator")
    absent = await moderator.request(type="kick", room_id=room_id, player="nobody", reason="x")
    assert refused(absent, "not_found") == f"'nobody' is not in room '{room_id}'"
    assert "plays" in refused(
        await moderator.request(type="kick", room_id=room_id, player="bob", reason="x"), "not_allowed"
    )

    done = await moderator.request(type="kick", room_id=room_id, player="HECKLER", reason="heckling")
    assert (done["type"], done["action"], done["target"]) == ("moderation_done", "kick", "heckler")
    assert (await heckler.expect_next("kicked"))["reason"] == "heckling"
    assert (await heckler.expect_next("left"))["room_id"] == room_id
    for node in (first, second, third):  # kept out, whichever node they come back through
        again = await clients(node, "heckler", heckler.token)
        back = await again.request(type="join_room", room_id=room_id, as_="spectator")
        assert refused(back, "not_allowed") == "a moderator sent you out of this room"


async def test_chat_lines_are_removed_through_the_node_that_heard_them_in_rooms_and_the_lobby(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    nodes, moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 3, 3, *CHATTY)
    first, second, _ = nodes
    bob = await clients(second, "bob")
    room_id = (await bob.request(type="create_room"))["room"]["room_id"]  # held by n2
    spammer = await clients(first, "spammer")
    await spammer.request(type="join_room", room_id=room_id, as_="spectator")

    said = await spammer.request(type="chat", room_id=room_id, text="buy cheap stones")
    assert said["chat_id"].startswith("n1/")  # heard on the spammer's node: its id names it
    assert (await bob.expect_next("chat"))["chat_id"] == said["chat_id"]
    report = await bob.request(type="report", player="spammer", chat_id=said["chat_id"], reason="spam")
    assert report["type"] == "report_filed", report  # filed by the node that heard the line, with its words
    [reported] = (await moderator.request(type="list_reports"))["reports"]
    assert (reported["reporter"], reported["chat_text"]) == ("bob", "buy cheap stones")
    done = await moderator.request(type="remove_chat", chat_id=said["chat_id"], reason="spam")
    assert (done["type"], done["action"], done["target"]) == ("moderation_done", "remove_chat", "spammer")
    for member in (bob, spammer):
        removed = await member.expect_next("chat_removed")
        assert (removed["room_id"], removed["chat_id"]) == (room_id, said["chat_id"])
    again = await moderator.request(type="remove_chat", chat_id=said["chat_id"], reason="spam")
    assert refused(again, "not_found").startswith("there is no chat line")

    await bob.request(type="watch_lobby")  # the lobby runs on n1, the first node up
    in_lobby = await spammer.request(type="chat", text="cheap stones here too")
    assert (await bob.expect_next("chat"))["chat_id"] == in_lobby["chat_id"]
    assert (await moderator.request(type="remove_chat", chat_id=in_lobby["chat_id"], reason="spam"))["type"] == (
        "moderation_done"
    )
    assert (await bob.expect_next("chat_removed"))["chat_id"] == in_lobby["chat_id"]
    [entry, *_] = await audit_log(postgres_url)
    assert (entry.action, entry.target, entry.detail) == ("remove_chat", "spammer", "cheap stones here too")


async def audit_log(database: str) -> list[AuditEntry]:
    storage = await Storage.open(database)
    try:
        return await storage.audit_log(10)
    finally:
        await storage.close()


async def test_a_line_said_on_the_rooms_own_node_reaches_and_leaves_its_members_on_other_nodes(
    start_cluster_node: StartClusterNode, clients: Clients, postgres_url: str
) -> None:
    (first, second), moderator = await nodes_and_a_moderator(start_cluster_node, clients, postgres_url, 2, 2)
    alice = await clients(first, "alice")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]  # held by n1, where alice is
    bob = await clients(second, "bob")
    await bob.request(type="join_room", room_id=room_id, as_="spectator")

    said = await alice.request(type="chat", room_id=room_id, text="hello from the room's node")
    assert said["type"] == "chat" and said["chat_id"].startswith("n1/"), said
    heard = await bob.expect_next("chat")
    assert (heard["text"], heard["chat_id"]) == ("hello from the room's node", said["chat_id"])
    assert (await moderator.request(type="remove_chat", chat_id=said["chat_id"], reason="x"))["action"] == (
        "remove_chat"
    )
    for member in (alice, bob):
        assert (await member.expect_next("chat_removed"))["chat_id"] == said["chat_id"]
