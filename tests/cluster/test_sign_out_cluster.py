"""Signing out is the same from every node: a device signed out, every device, a password reset by
`gomoku-admin` or an account deleted on one node closes the connections it concerns on all of them.

Real processes: PostgreSQL (or one SQLite file), Redis and two nodes (short leases), each stopped by
its pid.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from tests.cluster.conftest import StartClusterNode
from tests.cluster.test_moderation_cluster import gomoku_admin
from tests.server.server_harness import WireClient, closed_with
from tools.local_services import ServerNode

Clients = Callable[..., Awaitable[WireClient]]
PASSWORD = "correct horse battery"


async def with_password(node: ServerNode, name: str, device: str) -> WireClient:
    """A new device of `name`'s account signed in on `node` with the password."""
    wire = WireClient(await connect(node.url))
    welcome = await wire.request(type="hello", name=name, password=PASSWORD, device=device)
    assert welcome["type"] == "welcome", welcome
    return wire


async def current_device(wire: WireClient) -> str:
    devices: list[dict[str, Any]] = (await wire.request(type="list_devices"))["devices"]
    return next(device["device_id"] for device in devices if device["current"])


async def test_a_device_signed_out_on_one_node_is_closed_on_the_others_and_every_device_after_it(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    alice = await clients(first, "alice")
    assert (await alice.request(type="set_password", password=PASSWORD))["type"] == "password_set"
    laptop = await clients(second, "alice", alice.token)  # alice's first device, on n2 too
    phone = await with_password(second, "alice", "phone")
    phone_id = await current_device(phone)
    assert len((await laptop.expect_next("devices"))["devices"]) == 2  # the phone signed in on its node

    await alice.request(type="sign_out", device_id=phone_id)
    assert (await phone.expect_next("signed_out"))["device_ids"] == [phone_id]
    assert await closed_with(phone) == (1008, "signed out")
    listed = await laptop.expect_next("devices")  # unasked: the list changed on another node
    assert [device["label"] for device in listed["devices"]] == ["a device"]

    await alice.request(type="sign_out", all=True)
    assert await closed_with(laptop) == (1008, "signed out")


async def test_a_connection_elsewhere_with_the_names_token_becomes_the_first_device_and_is_signed_out_with_it(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    alice = await clients(first, "alice")
    elsewhere = await clients(second, "alice", alice.token)  # before the name has a password

    assert (await alice.request(type="set_password", password=PASSWORD))["type"] == "password_set"
    signed_out = await alice.request(type="sign_out", device_id=await current_device(alice))

    assert (await elsewhere.expect_next("signed_out"))["device_ids"] == signed_out["device_ids"]
    assert await closed_with(elsewhere) == (1008, "signed out")


async def test_an_account_deleted_on_one_node_closes_its_connections_on_the_others(
    start_cluster_node: StartClusterNode, clients: Clients
) -> None:
    first, second = start_cluster_node("n1"), start_cluster_node("n2")
    alice = await clients(first, "alice")
    elsewhere = await clients(second, "alice", alice.token)

    deleted = await alice.request(type="delete_account")
    assert deleted["type"] == "account_deleted"
    told = await elsewhere.expect_next("account_deleted")
    assert (told["name"], told["name_free_at"]) == ("alice", deleted["name_free_at"])
    assert await closed_with(elsewhere) == (1008, "account deleted")


async def test_a_password_reset_by_gomoku_admin_signs_the_player_out_on_every_node_within_seconds(
    start_cluster_node: StartClusterNode, clients: Clients, database: str, tmp_path: Path
) -> None:
    first, second = start_cluster_node("n1", database), start_cluster_node("n2", database)
    alice = await clients(first, "alice")
    assert (await alice.request(type="set_password", password=PASSWORD))["type"] == "password_set"
    phone = await with_password(second, "alice", "phone")
    phone_id = await current_device(phone)
    new_password = tmp_path / "password"
    new_password.write_text("the operator's word\n")

    await gomoku_admin(database, "reset-password", "alice", "--password-file", str(new_password), "--reason", "lost")
    async with asyncio.timeout(10):  # each node reads the latest sanctions every 2 s
        for wire in (alice, phone):
            assert await closed_with(wire) == (1008, "signed out")
    assert [message["device_ids"] for message in phone.seen if message["type"] == "signed_out"] == [[phone_id]]
