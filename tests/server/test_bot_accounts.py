"""Bot accounts: programs that sign in like people (`hello` with `kind: "bot"`, as gomoku-bot does)
and are shown as bots in seats, seeks, records and the leaderboard, while playing like people do."""

from __future__ import annotations

from server_harness import ClientFactory, WireClient


async def bot_account(client: ClientFactory, name: str) -> WireClient:
    wire = await client()
    welcome = await wire.request(type="hello", name=name, kind="bot")
    assert welcome["type"] == "welcome" and welcome["player"]["kind"] == "bot", welcome
    wire.token = welcome["token"]
    return wire


async def test_a_bot_account_is_a_bot_in_seats_seeks_records_and_the_leaderboard(client: ClientFactory) -> None:
    robo = await bot_account(client, "robo")
    alice = await client("alice")
    assert alice.token is not None
    await alice.request(type="watch_lobby")
    created = await robo.request(type="seek", color="white")
    assert created["seek"]["by"] == {"name": "robo", "rating": 1500, "kind": "bot"}
    assert (await alice.expect_next("seek_added"))["seek"]["by"]["kind"] == "bot"

    room = (await alice.request(type="accept_seek", seek_id=created["seek"]["seek_id"]))["room"]
    white = room["white"]
    assert (white["name"], white["kind"], white["level"]) == ("robo", "bot", None)
    assert room["black"]["kind"] == "human"
    await alice.request(type="move", room_id=room["room_id"], move="h8")
    undo = await alice.request(type="request_undo", room_id=room["room_id"])
    assert undo["type"] == "undo_requested", "a bot account answers offers itself, over the wire"
    over = await robo.request(type="resign", room_id=room["room_id"])

    record = (await alice.request(type="get_game", game_id=over["game_id"]))["record"]
    assert record["white"] == {"name": "robo", "kind": "bot", "level": None}
    bots = (await alice.request(type="leaderboard", kind="bot"))["players"]
    humans = (await alice.request(type="leaderboard", kind="human"))["players"]
    assert "robo" in [entry["name"] for entry in bots] and "robo" not in [entry["name"] for entry in humans]


async def test_an_account_is_a_persons_or_a_bots_for_good(client: ClientFactory) -> None:
    robo = await bot_account(client, "robo")
    again = await (await client()).request(type="hello", name="robo", token=robo.token)
    assert again["type"] == "welcome" and again["player"]["kind"] == "bot", "kind may be left out later"
    as_person = await (await client()).request(type="hello", name="robo", token=robo.token, kind="human")
    assert (as_person["type"], as_person["code"]) == ("error", "not_allowed")
    alice = await client("alice")
    as_bot = await (await client()).request(type="hello", name="alice", token=alice.token, kind="bot")
    assert (as_bot["type"], as_bot["code"]) == ("error", "not_allowed")
    level = await (await client()).request(type="hello", name="master", kind="bot")
    assert (level["type"], level["code"]) == ("error", "name_taken"), "a bot level's name is not free for accounts"
