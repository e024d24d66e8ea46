"""Chat in rooms and in the lobby, with its limits; an opponent away, back, and the win claimed."""

from __future__ import annotations

import asyncio

from server_harness import ClientFactory, ServerFactory, WireClient, win_rated_game


async def game(client: ClientFactory, server: object = None) -> tuple[WireClient, WireClient, str]:
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    return alice, bob, room_id


async def test_room_chat_reaches_players_and_spectators_as_text(client: ClientFactory) -> None:
    alice, bob, room_id = await game(client)
    carol = await client("carol")
    await carol.request(type="join_room", room_id=room_id, as_="spectator")

    said = await alice.request(type="chat", room_id=room_id, text="good luck <b>bob</b>")
    assert (said["type"], said["from"], said["text"]) == ("chat", "alice", "good luck <b>bob</b>")
    for listener in (bob, carol):
        heard = await listener.expect_next("chat")
        assert (heard["room_id"], heard["from"], heard["text"]) == (room_id, "alice", "good luck <b>bob</b>")

    stranger = await client("dave")
    refused = await stranger.request(type="chat", room_id=room_id, text="hi")
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")


async def test_lobby_chat_reaches_the_lobby_watchers(client: ClientFactory) -> None:
    carol = await client("carol")
    await carol.request(type="watch_lobby")
    alice = await client("alice")
    assert (await alice.request(type="chat", room_id=None, text="anyone for a game?"))["type"] == "chat"
    heard = await carol.expect_next("chat")
    assert (heard["room_id"], heard["from"]) == (None, "alice")


async def test_a_late_arrival_in_the_lobby_reads_what_was_said_before(client: ClientFactory) -> None:
    alice = await client("alice")
    said = await alice.request(type="chat", room_id=None, text="anyone for a game?")
    late = await client("carol")
    await late.request(type="watch_lobby")
    heard = await late.expect_next("chat")
    assert (heard["room_id"], heard["from"], heard["text"]) == (None, "alice", "anyone for a game?")
    assert (heard["chat_id"], heard["at"]) == (said["chat_id"], said["at"]), "the line as it was said"
    assert "id" not in heard, "not an answer to anything"


async def test_chat_lines_are_checked_and_paced(client: ClientFactory) -> None:
    alice = await client("alice")
    for text in ("", "x" * 501, "bell\x07", "line\nbreak"):
        refused = await alice.request(type="chat", text=text)
        assert (refused["type"], refused["code"]) == ("error", "bad_request"), text
    await win_rated_game(alice, await client("bob"))
    replies = [await alice.request(type="chat", text=f"line {index}") for index in range(6)]
    assert [reply["type"] for reply in replies[:5]] == ["chat"] * 5
    assert (replies[5]["type"], replies[5]["code"]) == ("error", "rate_limited")


async def test_a_player_who_has_not_played_yet_chats_more_slowly(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server()
    newcomers = [await client(f"newcomer{index}", server=server) for index in range(3)]
    for newcomer in newcomers:
        assert (await newcomer.request(type="chat", text="hello"))["type"] == "chat"
        refused = await newcomer.request(type="chat", text="hello again")
        assert (refused["type"], refused["code"]) == ("error", "rate_limited")
        assert "until you have played a rated game" in refused["message"]


async def test_a_win_is_claimed_only_after_the_opponent_has_been_away_long_enough(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(claim_after_s=1.0)
    alice, bob, room_id = await game(client, server)
    refused = await alice.request(type="claim_win", room_id=room_id)
    assert (refused["type"], refused["code"]) == ("error", "not_allowed") and "connected" in refused["message"]

    await bob.close()
    away = await alice.expect_next("opponent_away")
    assert (away["color"], away["claim_at_ms"]) == ("white", 1_000)
    early = await alice.request(type="claim_win", room_id=room_id)
    assert (early["type"], early["code"]) == ("error", "not_allowed") and "claim in" in early["message"]

    await asyncio.sleep(1.1)
    over = await alice.request(type="claim_win", room_id=room_id)
    assert over["type"] == "game_over"
    assert over["result"] == {"winner": "black", "reason": "abandoned", "line": None}


async def test_an_opponent_coming_back_is_announced_and_cannot_be_claimed_against(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(claim_after_s=0.2)
    alice, bob, room_id = await game(client, server)
    await bob.close()
    await alice.expect_next("opponent_away")
    again = await client("bob", server=server)
    await again.request(type="join_room", room_id=room_id)
    assert (await alice.expect_next("opponent_back"))["color"] == "white"
    await asyncio.sleep(0.3)
    refused = await alice.request(type="claim_win", room_id=room_id)
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")


async def test_a_spectator_who_comes_after_the_drop_is_told_who_is_away_and_when_the_claim_opens(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(claim_after_s=30.0)
    alice, bob, room_id = await game(client, server)
    await bob.close()
    await alice.expect_next("opponent_away")

    carol = await client("carol", server=server)
    joined = await carol.request(type="join_room", room_id=room_id, as_="spectator")
    assert joined["room"]["white"]["connected"] is False
    first = await carol.expect("opponent_away", room_id=room_id, color="white")
    assert 0 < first["claim_at_ms"] <= 30_000

    await asyncio.sleep(0.3)
    dave = await client("dave", server=server)
    await dave.request(type="join_room", room_id=room_id, as_="spectator")
    later = await dave.expect("opponent_away", room_id=room_id, color="white")
    assert later["claim_at_ms"] <= first["claim_at_ms"] - 250, "the claim counts down from the drop, not from the join"


async def test_a_player_back_in_the_room_is_told_the_opponent_is_away_and_since_when_it_counts(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(claim_after_s=0.2)
    alice, bob, room_id = await game(client, server)
    await bob.close()
    await alice.expect_next("opponent_away")
    await asyncio.sleep(0.3)

    second_tab = await client("alice", server=server)
    await second_tab.request(type="join_room", room_id=room_id)
    assert (await second_tab.expect("opponent_away", color="white"))["claim_at_ms"] == 0, "the claim is open already"

    carol = await client("carol", server=server)
    await carol.request(type="join_room", room_id=room_id, as_="spectator")
    await alice.close()
    await second_tab.close()
    while (await carol.expect_next("room"))["room"]["black"]["connected"]:
        pass  # the server has seen both of alice's connections go
    again = await client("alice", server=server)
    back = await again.request(type="join_room", room_id=room_id)
    assert back["you"] == "black" and back["room"]["white"]["connected"] is False
    away = await again.expect("opponent_away", color="white")
    assert away["claim_at_ms"] == 200, "an absence counts only while the opponent is there: from now"


async def test_nobody_is_told_of_an_absence_when_nobody_is_away(client: ClientFactory) -> None:
    alice, bob, room_id = await game(client)
    carol = await client("carol")
    await carol.request(type="join_room", room_id=room_id, as_="spectator")
    await bob.close()
    await alice.expect_next("opponent_away")
    bob_again = await client("bob")
    await bob_again.request(type="join_room", room_id=room_id)
    await alice.expect_next("opponent_back")

    dave = await client("dave")
    await dave.request(type="join_room", room_id=room_id, as_="spectator")
    for member in (alice, bob_again, carol, dave):
        await member.request(type="list_rooms")  # answered after anything the join sent
    assert [message["type"] for message in bob_again.seen + dave.seen].count("opponent_away") == 0
    assert [message["type"] for message in carol.seen].count("opponent_away") == 1, "only at the drop"
