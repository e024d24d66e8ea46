"""A player is an id, not a name: what a player has (a role, a mute, a tournament they organise) is
keyed by an id that is never reused, so that a name given up, or given by a rename, hands nothing of
its former holder's to the next one (issue 40, findings 1 and 2)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from server.accounts.service import AccountSettings
from server.hub.services import Limits
from server.moderation.actions import Moderation
from tests.server.server_harness import ClientFactory, ServerFactory, refused

CLOCK = {"initial_ms": 60_000, "increment_ms": 0}
NAME_FREE_AT_ONCE = AccountSettings(name_reserved_days=0)
"""A deleted account's name free at once (`--deleted-name-reserved-days 0`), to try its next holder."""
CHATTY = Limits(chat_lines=50, new_player_chat_lines=50)


async def test_a_deleted_admins_name_gives_its_next_holder_no_role_no_mute_and_no_tournament(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(accounts=NAME_FREE_AT_ONCE, limits=CHATTY)
    operator = Moderation(server.app.storage)
    chief = await client("chief", server=server)
    await operator.grant("operator:test", "chief", "admin", "runs the club")
    await operator.mute("operator:test", "chief", timedelta(hours=1), "shouting")
    created = await chief.request(type="create_tournament", name="Club", format="swiss", rounds=2, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    assert (await chief.request(type="delete_account"))["type"] == "account_deleted"

    stranger = await client(server=server)
    welcome = await stranger.hello("Chief")

    assert welcome["type"] == "welcome" and welcome["role"] is None
    assert "only" in refused(await stranger.request(type="get_audit_log"), "not_allowed")
    status, _ = await asyncio.to_thread(server.get_with_token, "/api/audit", stranger.token)
    assert status == 403
    managing = await stranger.request(type="manage_tournament", tournament_id=tournament_id, action="end")
    assert "organiser" in refused(managing, "not_allowed")
    assert (await stranger.request(type="chat", text="hello, I am new"))["type"] == "chat"
    assert [granted.name.lower() for granted in await server.app.storage.roles()] == []


async def test_a_moderator_cannot_rename_a_player_to_a_deleted_admins_reserved_name(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    operator = Moderation(server.app.storage)
    oldadm2 = await client("oldadm2", server=server)
    await operator.grant("operator:test", "oldadm2", "admin", "trusted")
    moderator = await client("mod", server=server)
    await operator.grant("operator:test", "mod", "moderator", "trusted")
    await client("sockpup", server=server)
    assert (await oldadm2.request(type="delete_account"))["type"] == "account_deleted"

    renaming = await moderator.request(type="rename_player", player="sockpup", new_name="oldadm2", reason="x")

    assert "reserved" in refused(renaming, "name_taken")
    assert await server.app.storage.find_player("oldadm2") is None


async def test_a_rename_to_a_name_freed_by_a_deleted_admin_gives_no_role(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(accounts=NAME_FREE_AT_ONCE)
    operator = Moderation(server.app.storage)
    oldadm2 = await client("oldadm2", server=server)
    await operator.grant("operator:test", "oldadm2", "admin", "trusted")
    sockpup = await client("sockpup", server=server)
    token = sockpup.token
    assert (await oldadm2.request(type="delete_account"))["type"] == "account_deleted"

    await operator.rename("operator:test", "sockpup", "oldadm2", "asked for it")

    assert await server.app.storage.role_of("oldadm2") is None
    status, _ = await asyncio.to_thread(server.get_with_token, "/api/audit", token)
    assert status == 403


async def test_a_renamed_player_keeps_their_role_mute_and_tournament_under_the_new_name(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(limits=CHATTY)
    operator = Moderation(server.app.storage)
    ann = await client("ann", server=server)
    created = await ann.request(type="create_tournament", name="Club", format="swiss", rounds=2, clock=CLOCK)
    tournament_id = created["tournament"]["tournament_id"]
    await operator.grant("operator:test", "ann", "moderator", "helps")

    await operator.rename("operator:test", "ann", "anna", "asked for it")

    anna = await client(server=server)
    welcome = await anna.request(type="hello", name="anna", token=ann.token)
    assert welcome["type"] == "welcome" and welcome["role"] == "moderator"
    ended = await anna.request(type="manage_tournament", tournament_id=tournament_id, action="end")
    assert ended["type"] == "tournament"
    newcomer = await client(server=server)
    assert (await newcomer.request(type="hello", name="ann"))["code"] == "name_taken"
