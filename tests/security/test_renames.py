"""A rename moves the label: a seat the player holds follows them to the new name (a room waiting for
an opponent, a finished room's rematch), and the audit log finds them by any name they had (issue 40,
finding 3)."""

from __future__ import annotations

from server.moderation.actions import Moderation
from tests.server.server_harness import ClientFactory, RunningServer, ServerFactory, WireClient, closed_with


async def renamed(
    server: RunningServer, moderator: WireClient, player: WireClient, old: str, new: str, client: ClientFactory
) -> WireClient:
    """Rename `old` to `new` over the wire; the player, closed, signs in again as `new` with their token."""
    done = await moderator.request(type="rename_player", player=old, new_name=new, reason="asked for it")
    assert done["type"] == "moderation_done"
    assert (await closed_with(player))[0] == 1008
    again = await client(server=server)
    assert (await again.hello(new, player.token))["type"] == "welcome"
    return again


async def test_a_renamed_players_waiting_seat_is_theirs_under_the_new_name(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    moderator = await client("mod", server=server)
    await Moderation(server.app.storage).grant("operator:test", "mod", "moderator", "trusted")
    alice = await client("alice", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]

    alicia = await renamed(server, moderator, alice, "alice", "alicia", client)
    back = await alicia.request(type="join_room", room_id=room_id)
    bob = await client("bob", server=server)
    joined = await bob.request(type="join_room", room_id=room_id)

    assert back["type"] == "room" and back["you"] == "black"
    assert (joined["room"]["black"]["name"], joined["room"]["status"]) == ("alicia", "playing")
    record = await server.app.storage.game_record(joined["room"]["game_id"], None)
    assert record is not None and record.black.name == "alicia"


async def test_a_renamed_player_takes_up_a_rematch_in_their_finished_room(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    moderator = await client("mod", server=server)
    await Moderation(server.app.storage).grant("operator:test", "mod", "moderator", "trusted")
    alice, bob = await client("alice", server=server), await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    assert (await bob.request(type="resign", room_id=room_id))["type"] == "game_over"

    alicia = await renamed(server, moderator, alice, "alice", "alicia", client)
    assert (await alicia.request(type="join_room", room_id=room_id))["you"] == "black"
    await bob.request(type="rematch", room_id=room_id)
    started = await alicia.request(type="rematch", room_id=room_id)

    assert started["type"] == "room" and started["room"]["status"] == "playing"
    assert {started["room"]["black"]["name"], started["room"]["white"]["name"]} == {"alicia", "bob"}


async def test_the_audit_log_finds_a_player_by_every_name_they_had(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    operator = Moderation(server.app.storage)
    admin = await client("boss", server=server)
    await operator.grant("operator:test", "boss", "admin", "trusted")
    await client("bob", server=server)
    await operator.ban("operator:test", "bob", "spam")
    await operator.unban("operator:test", "bob", "said sorry")
    await operator.rename("operator:test", "bob", "robert", "asked for it")
    await operator.rename("operator:test", "robert", "rob", "asked again")

    for name in ("bob", "robert", "rob", "ROB"):
        entries = (await admin.request(type="get_audit_log", player=name))["entries"]
        assert [entry["action"] for entry in entries] == ["rename", "rename", "unban", "ban"], name
