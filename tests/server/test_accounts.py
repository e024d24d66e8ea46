"""Accounts (issue 30): a name kept with a password travels with its owner to any device; wrong
passwords are limited; a device signed out is refused; an account can be deleted."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from argon2 import PasswordHasher
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient, win_rated_game
from test_private_records import get_as
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.accounts.passwords import Passwords
from server.accounts.service import AccountSettings, reset_password
from server.main import parse_arguments
from server.moderation.actions import Moderation

PASSWORD = "correct horse battery"


async def sign_in_with_password(
    client: ClientFactory, name: str, password: str, device: str = "second device"
) -> tuple[WireClient, dict[str, Any]]:
    """A new connection (another device) and the answer to its `hello` with a password."""
    wire = await client()
    reply = await wire.request(type="hello", name=name, password=password, device=device)
    if reply["type"] == "welcome":
        wire.token = reply["token"]
    return wire, reply


async def keep_name(wire: WireClient, password: str = PASSWORD) -> None:
    reply = await wire.request(type="set_password", password=password)
    assert reply["type"] == "password_set", reply


async def closed_reason(wire: WireClient) -> str:
    """Read until the server closes the connection; the reason it gave."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await wire.receive()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.reason


async def test_welcome_lists_accounts_and_says_whether_the_name_has_a_password(client: ClientFactory) -> None:
    alice = await client()
    welcome = await alice.hello("alice")
    assert "accounts" in welcome["features"]
    assert welcome["password"] is False
    await keep_name(alice)
    _, again = await sign_in_with_password(client, "alice", PASSWORD)
    assert again["password"] is True


async def test_a_second_device_signs_in_with_the_password_and_plays_on_with_the_same_rating(
    client: ClientFactory,
) -> None:
    alice, bob = await client("alice"), await client("bob")
    await win_rated_game(alice, bob)
    await keep_name(alice)
    rating_after_one_game = (await alice.request(type="leaderboard"))["players"]

    phone, welcome = await sign_in_with_password(client, "alice", PASSWORD, device="phone")

    assert welcome["type"] == "welcome"
    assert welcome["player"]["name"] == "alice"
    assert welcome["token"] != alice.token, "each device has a token of its own"
    mine = next(entry for entry in rating_after_one_game if entry["name"] == "alice")
    assert (welcome["player"]["rating"], welcome["player"]["games"]) == (mine["rating"], 1)
    await win_rated_game(phone, bob)
    standings = {entry["name"]: entry for entry in (await phone.request(type="leaderboard"))["players"]}
    assert standings["alice"]["games"] == 2
    assert standings["alice"]["rating"] > mine["rating"]
    everything = json.dumps(alice.seen + phone.seen + bob.seen)
    assert PASSWORD not in everything, "no message carries a password"


async def test_the_first_device_keeps_its_token_and_both_are_listed(client: ClientFactory) -> None:
    alice = await client()
    await alice.request(type="hello", name="alice", device="laptop")
    first_token = (alice.seen[-1])["token"]
    await keep_name(alice)
    phone, _ = await sign_in_with_password(client, "alice", PASSWORD, device="phone")

    devices = (await phone.request(type="list_devices"))["devices"]
    assert [(device["label"], device["current"]) for device in devices] == [("laptop", False), ("phone", True)]
    again = await client()
    assert (await again.request(type="hello", name="alice", token=first_token))["type"] == "welcome"


async def test_a_name_without_a_password_signs_in_with_its_token_as_before(client: ClientFactory) -> None:
    alice = await client("alice")
    again = await client("alice")
    assert again.token == alice.token
    refused = await again.request(type="list_devices")
    assert refused["code"] == "not_allowed"
    _, wrong = await sign_in_with_password(client, "alice", "any password at all")
    assert (wrong["code"], wrong["message"]) == ("unauthorized", "wrong name or password")
    _, unknown = await sign_in_with_password(client, "nobody", "any password at all")
    assert (unknown["code"], unknown["message"]) == ("unauthorized", "wrong name or password")


async def test_a_signed_out_device_is_closed_and_its_token_refused(client: ClientFactory) -> None:
    alice = await client("alice")
    await keep_name(alice)
    phone, _ = await sign_in_with_password(client, "alice", PASSWORD, device="phone")
    phone_id = next(
        device["device_id"] for device in (await phone.request(type="list_devices"))["devices"] if device["current"]
    )

    answer = await alice.request(type="sign_out", device_id=phone_id)

    assert answer == {"type": "signed_out", "device_ids": [phone_id], "id": answer["id"]}
    assert (await phone.expect_next("signed_out"))["device_ids"] == [phone_id]
    assert await closed_reason(phone) == "signed out"
    retry = await client()
    refused = await retry.request(type="hello", name="alice", token=phone.token)
    assert refused["code"] == "unauthorized"
    assert [device["label"] for device in (await alice.request(type="list_devices"))["devices"]] == ["a device"]


async def test_signing_out_every_device_closes_them_all_and_leaves_only_the_password(client: ClientFactory) -> None:
    alice = await client("alice")
    first_token = alice.token
    await keep_name(alice)
    phone, _ = await sign_in_with_password(client, "alice", PASSWORD, device="phone")

    answer = await phone.request(type="sign_out", all=True)

    assert len(answer["device_ids"]) == 2
    assert await closed_reason(phone) == "signed out"
    assert await closed_reason(alice) == "signed out"
    for token in (first_token, phone.token):
        retry = await client()
        assert (await retry.request(type="hello", name="alice", token=token))["code"] == "unauthorized"
    _, welcome = await sign_in_with_password(client, "alice", PASSWORD)
    assert welcome["type"] == "welcome"


async def test_changing_the_password_needs_the_old_one(client: ClientFactory) -> None:
    alice = await client("alice")
    await keep_name(alice)
    without = await alice.request(type="set_password", password="a new password")
    assert without["code"] == "not_allowed"
    wrong = await alice.request(type="set_password", password="a new password", old_password="not it at all")
    assert wrong["code"] == "unauthorized"

    changed = await alice.request(type="set_password", password="a new password", old_password=PASSWORD)
    assert changed["type"] == "password_set"
    _, old = await sign_in_with_password(client, "alice", PASSWORD)
    assert old["code"] == "unauthorized"
    _, new = await sign_in_with_password(client, "alice", "a new password")
    assert new["type"] == "welcome"


async def test_wrong_passwords_for_a_name_are_limited_even_from_many_addresses(start_server: ServerFactory) -> None:
    server = await start_server(accounts=AccountSettings(failures_per_name=3, failures_per_address=100))
    async with connect(server.ws_url) as owner_socket:
        owner = WireClient(owner_socket)
        await owner.hello("alice")
        await keep_name(owner)
        answers = [await one_hello(server, name="alice", password=f"guess number {n}") for n in range(3)]
        assert [answer["code"] for answer in answers] == ["unauthorized"] * 3

        limited = await one_hello(server, name="ALICE", password=PASSWORD)

        assert limited["code"] == "rate_limited", "even the right password waits: the name's limit is reached"
        assert "try again in" in limited["message"]
        assert (await one_hello(server, name="bob"))["type"] == "welcome", "other names are not held up"


async def test_guesses_sent_all_at_once_meet_the_limit_too(start_server: ServerFactory) -> None:
    server = await start_server(accounts=AccountSettings(failures_per_name=3, failures_per_address=100))
    async with connect(server.ws_url) as owner_socket:
        owner = WireClient(owner_socket)
        await owner.hello("alice")
        await keep_name(owner)

        answers = await asyncio.gather(
            *(one_hello(server, name="alice", password=f"guess number {n}") for n in range(6))
        )

    codes = sorted(answer["code"] for answer in answers)
    assert codes == ["rate_limited"] * 3 + ["unauthorized"] * 3, "no more guesses judged than the limit"


async def test_wrong_passwords_from_one_address_are_limited_across_names(start_server: ServerFactory) -> None:
    server = await start_server(accounts=AccountSettings(failures_per_name=100, failures_per_address=2))
    for name in ("carol", "dave"):
        assert (await one_hello(server, name=name, password="not a password"))["code"] == "unauthorized"
    limited = await one_hello(server, name="erin", password="not a password")
    assert limited["code"] == "rate_limited"


async def test_a_password_too_short_is_refused_without_being_echoed(client: ClientFactory) -> None:
    alice = await client("alice")
    refused = await alice.request(type="set_password", password="short")
    assert refused["code"] == "bad_request"
    assert "short" not in refused["message"].replace("set_password", "")


async def test_an_operator_reset_signs_every_device_out(game_server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice")
    first_token = alice.token
    await keep_name(alice)

    await reset_password(game_server.app.storage, "ALICE", "the operator's word")

    retry = await client()
    assert (await retry.request(type="hello", name="alice", token=first_token))["code"] == "unauthorized"
    _, welcome = await sign_in_with_password(client, "alice", "the operator's word")
    assert welcome["type"] == "welcome"
    with pytest.raises(LookupError):
        await reset_password(game_server.app.storage, "nobody", "the operator's word")


async def one_hello(server: RunningServer, **fields: Any) -> dict[str, Any]:
    """The answer to one `hello` on a connection of its own."""
    async with connect(server.ws_url) as websocket:
        wire = WireClient(websocket)
        return await wire.request(type="hello", **fields)


async def test_a_deleted_account_leaves_its_games_under_a_placeholder_and_its_name_reserved(
    client: ClientFactory,
) -> None:
    alice, bob = await client("alice"), await client("bob")
    await win_rated_game(alice, bob)
    await keep_name(alice)
    wrong = await alice.request(type="delete_account", password="not the password")
    assert wrong["code"] == "unauthorized"

    deleted = await alice.request(type="delete_account", password=PASSWORD)

    assert deleted["type"] == "account_deleted"
    assert await closed_reason(alice) == "account deleted"
    game = (await bob.request(type="list_games", player="bob"))["games"][0]
    placeholder = game["black"]["name"]
    assert placeholder.startswith("deleted-")
    assert (await bob.request(type="list_games", player="alice"))["games"] == []
    leaders = [entry["name"] for entry in (await bob.request(type="leaderboard"))["players"]]
    assert "bob" in leaders and placeholder not in leaders and "alice" not in leaders
    newcomer = await client()
    taken = await newcomer.request(type="hello", name="Alice")
    assert taken["code"] == "name_taken" and "password" not in taken
    assert "free from" in taken["message"]


async def test_a_deleted_name_is_free_after_its_waiting_period(start_server: ServerFactory) -> None:
    server = await start_server(accounts=AccountSettings(name_reserved_days=0))
    async with connect(server.ws_url) as websocket:
        alice = WireClient(websocket)
        await alice.hello("alice")
        assert (await alice.request(type="delete_account"))["type"] == "account_deleted"

    welcome = await one_hello(server, name="alice")

    assert welcome["type"] == "welcome"
    assert (welcome["player"]["rating"], welcome["player"]["games"]) == (1500, 0), "a new player"


async def test_an_account_in_an_unfinished_game_cannot_be_deleted(client: ClientFactory) -> None:
    alice, bob = await client("alice"), await client("bob")
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    refused = await alice.request(type="delete_account")
    assert refused["code"] == "not_allowed"


async def test_a_device_token_says_who_asks_over_http_until_the_device_is_signed_out(
    game_server: RunningServer, client: ClientFactory
) -> None:
    alice, bob = await client("alice"), await client("bob")
    room_id = (await alice.request(type="create_room", private=True))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await keep_name(alice)
    phone, _ = await sign_in_with_password(client, "alice", PASSWORD, device="phone")
    assert phone.token is not None

    status, body, _ = await get_as(game_server, "/api/games?player=alice", phone.token)
    assert status == 200 and [game["room_id"] for game in json.loads(body)] == [room_id], "her private game"

    await alice.request(type="sign_out", all=True)
    status, _, _ = await get_as(game_server, "/api/games?player=alice", phone.token)
    assert status == 401


def test_the_operator_sets_the_limits_on_the_command_line() -> None:
    settings = parse_arguments(
        [
            "--max-password-failures-per-name",
            "3",
            "--max-password-failures-per-address",
            "9",
            "--deleted-name-reserved-days",
            "0",
        ]
    )
    assert settings.accounts == AccountSettings(failures_per_name=3, failures_per_address=9, name_reserved_days=0)


async def test_a_name_kept_with_a_password_asks_for_it_when_no_token_comes(client: ClientFactory) -> None:
    alice = await client("alice")
    await keep_name(alice)
    refused = await (await client()).request(type="hello", name="alice")
    assert refused["code"] == "name_taken"
    assert "password" in refused["message"]
    assert refused["password"] is True, "marked for a client to ask for the password"
    other = await (await client()).request(type="hello", name="alice", token="not hers")
    assert "password" not in other, "no other error carries it"


async def test_no_cookie_is_set_and_no_request_but_get_is_served_over_http(game_server: RunningServer) -> None:
    """The web client keeps its token in the browser's storage and sends it over the websocket: with no
    cookie and no state-changing HTTP endpoint, no other site can make a signed-in browser change anything."""
    for path in ("/", "/api/games", "/healthz"):
        reader, writer = await asyncio.open_connection("127.0.0.1", game_server.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        head = (await reader.read()).split(b"\r\n\r\n")[0].decode().lower()
        writer.close()
        assert head.startswith("http/1.1 200") and "set-cookie" not in head, head
    reader, writer = await asyncio.open_connection("127.0.0.1", game_server.port)
    writer.write(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    answer = await reader.read()
    writer.close()
    assert not answer.startswith(b"HTTP/1.1 2"), answer


async def test_a_hash_made_with_weaker_parameters_is_made_again_at_the_next_sign_in(
    game_server: RunningServer, client: ClientFactory
) -> None:
    storage = game_server.app.storage
    await client("alice")
    weaker = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    await reset_password(storage, "alice", PASSWORD, weaker)
    before = await storage.password_hash("alice")
    assert before is not None and "m=1024" in before

    _, welcome = await sign_in_with_password(client, "alice", PASSWORD)

    assert welcome["type"] == "welcome"
    after = await storage.password_hash("alice")
    assert after is not None and after != before and not Passwords().outdated(after)
    _, again = await sign_in_with_password(client, "alice", PASSWORD)
    assert again["type"] == "welcome"


async def test_the_account_says_a_role_granted_since_the_sign_in(
    game_server: RunningServer, client: ClientFactory
) -> None:
    alice = await client("alice")
    before = await alice.request(type="get_account")
    assert (before["type"], before["name"], before["password"], before["role"]) == ("account", "alice", False, None)
    await Moderation(game_server.app.storage).grant("operator:test", "alice", "moderator", "for the test")
    await keep_name(alice)
    after = await alice.request(type="get_account")
    assert (after["password"], after["role"]) == (True, "moderator")


async def test_a_password_change_may_sign_out_every_other_device(client: ClientFactory) -> None:
    alice = await client("alice")
    await keep_name(alice)
    phone, _ = await sign_in_with_password(client, "alice", PASSWORD, device="phone")
    laptop, _ = await sign_in_with_password(client, "alice", PASSWORD, device="laptop")

    changed = await phone.request(
        type="set_password", password="a new long password", old_password=PASSWORD, sign_out_others=True
    )

    assert changed["type"] == "password_set"
    assert await closed_reason(alice) == "signed out"
    assert await closed_reason(laptop) == "signed out"
    devices = (await phone.request(type="list_devices"))["devices"]
    assert [(device["label"], device["current"]) for device in devices] == [("phone", True)]
    for token in (alice.token, laptop.token):
        retry = await client()
        assert (await retry.request(type="hello", name="alice", token=token))["code"] == "unauthorized"
