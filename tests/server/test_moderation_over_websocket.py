"""Moderation over the wire: a moderator mutes, bans, renames, kicks and removes chat lines; players
report and delete their own games; nobody else has a moderator's powers, and everything is logged."""

from __future__ import annotations

import asyncio
import sys

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient, closed_with, refused, win_rated_game

from engine.record import PlayerInfo
from engine.types import Color, EndReason, GameResult, Rule
from server.domain import GameFinished, GameId, GameStarted, Role, new_game_id, new_room_id, utc_now
from server.hub.services import Limits
from server.moderation.actions import Moderation

CHATTY = Limits(chat_lines=50, new_player_chat_lines=50)
"""Chat limits that no test here reaches (newcomers may otherwise say one line per 10 s)."""


@pytest.fixture
async def server(start_server: ServerFactory) -> RunningServer:
    return await start_server(limits=CHATTY)


async def with_role(server: RunningServer, client: ClientFactory, name: str, role: Role) -> WireClient:
    """A player signed in on `server`, granted `role` by the operator."""
    player = await client(name, server=server)
    await Moderation(server.app.storage).grant("operator:test", name, role, "for the test")
    return player


async def test_welcome_says_moderation_and_the_players_role(server: RunningServer, client: ClientFactory) -> None:
    await with_role(server, client, "mod", "moderator")
    again = await client(server=server)
    first = await client("mod", server=server)  # the same name again, with its token
    welcome = first.seen[-1]
    assert "moderation" in welcome["features"] and welcome["role"] == "moderator"
    plain = await again.request(type="hello", name="player")
    assert plain["role"] is None


async def test_a_moderators_powers_are_refused_to_a_player(server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await bob.request(type="create_room"))["room"]["room_id"]
    said = await bob.request(type="chat", text="hello")
    for request in (
        {"type": "mute", "player": "bob", "minutes": 5, "reason": "x"},
        {"type": "unmute", "player": "bob", "reason": "x"},
        {"type": "ban", "player": "bob", "reason": "x"},
        {"type": "unban", "player": "bob", "reason": "x"},
        {"type": "rename_player", "player": "bob", "new_name": "robert", "reason": "x"},
        {"type": "kick", "room_id": room_id, "player": "bob", "reason": "x"},
        {"type": "remove_chat", "chat_id": said["chat_id"], "reason": "x"},
        {"type": "list_reports"},
        {"type": "close_report", "report_id": "r1", "resolution": "x"},
        {"type": "get_audit_log"},
    ):
        assert "only a" in refused(await alice.request(**request), "not_allowed"), request
    moderator = await with_role(server, client, "mod", "moderator")
    assert "only an admin" in refused(await moderator.request(type="get_audit_log"), "not_allowed")
    admin = await with_role(server, client, "boss", "admin")
    assert "too" in refused(await moderator.request(type="ban", player="boss", reason="x"), "not_allowed")
    assert "too" in refused(await moderator.request(type="mute", player="mod", minutes=1, reason="x"), "not_allowed")
    entries = (await admin.request(type="get_audit_log"))["entries"]
    assert [entry["action"] for entry in entries] == ["grant", "grant"]  # the operator's, nothing refused


async def test_a_muted_player_cannot_chat_in_the_lobby_or_any_room_until_unmuted(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)

    done = await moderator.request(type="mute", player="ALICE", minutes=10, reason="spam")
    assert (done["type"], done["action"], done["target"]) == ("moderation_done", "mute", "alice")
    for where in (None, room_id):
        message = refused(await alice.request(type="chat", room_id=where, text="hi"), "not_allowed")
        assert message == f"you are muted until {done['until']}: spam"
    assert (await bob.request(type="chat", room_id=room_id, text="hi"))["type"] == "chat"

    assert (await moderator.request(type="unmute", player="alice", reason="said sorry"))["action"] == "unmute"
    assert (await alice.request(type="chat", room_id=room_id, text="sorry"))["type"] == "chat"


async def test_a_banned_player_is_closed_loses_their_game_and_seeks_and_cannot_return(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    watcher = await client("watcher", server=server)
    await watcher.request(type="watch_lobby")
    troll = await client("troll", server=server)
    bob = await client("bob", server=server)
    room_id = (await troll.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await troll.request(type="move", room_id=room_id, x=7, y=7)
    waiting = (await troll.request(type="create_room"))["room"]["room_id"]
    seek = (await troll.request(type="seek"))["seek"]
    await watcher.expect_next("seek_added")

    done = await moderator.request(type="ban", player="troll", reason="abuse")
    assert (done["action"], done["target"]) == ("ban", "troll")
    assert await closed_with(troll) == (1008, "banned: abuse")
    over = await bob.expect_next("game_over")
    assert over["result"]["winner"] == "white" and over["result"]["detail"] == "forfeited: troll was banned"
    assert (await watcher.expect_next("seek_removed"))["seek_id"] == seek["seek_id"]

    again = await client(server=server)
    message = refused(await again.request(type="hello", name="troll", token=troll.token), "not_allowed")
    assert message == "'troll' is banned from this server: abuse"
    record = await bob.request(type="get_game", game_id=over["game_id"])
    assert record["type"] == "game"  # nothing of theirs already stored is lost
    rooms = (await watcher.request(type="list_rooms"))["rooms"]
    assert all("troll" not in (room["black"] or {}).get("name", "") for room in rooms if room["room_id"] == waiting)


async def test_a_renamed_player_is_closed_and_signs_in_with_the_new_name_and_their_token(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    rude = await client("rudename", server=server)
    done = await moderator.request(type="rename_player", player="rudename", new_name="Nice", reason="offensive")
    assert (done["action"], done["target"], done["new_name"]) == ("rename", "rudename", "Nice")
    told = await rude.receive()
    assert told == {"type": "renamed", "name": "Nice", "reason": "offensive"}
    assert await closed_with(rude) == (1008, "renamed by a moderator: sign in as Nice")

    back = await client(server=server)
    assert (await back.hello("Nice", rude.token))["player"]["name"] == "Nice"
    other = await client(server=server)
    assert "sign in as 'Nice'" in refused(await other.request(type="hello", name="rudename"), "name_taken")


async def test_a_kicked_spectator_is_told_why_leaves_the_room_and_stays_out(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    alice = await client("alice", server=server)
    heckler = await client("heckler", server=server)
    room_id = (await alice.request(type="create_room"))["room"]["room_id"]
    await heckler.request(type="join_room", room_id=room_id, as_="spectator")

    message = refused(await moderator.request(type="kick", room_id=room_id, player="alice", reason="x"), "not_allowed")
    assert "only a spectator" in message
    done = await moderator.request(type="kick", room_id=room_id, player="heckler", reason="heckling")
    assert (done["action"], done["target"]) == ("kick", "heckler")
    assert (await heckler.expect_next("kicked"))["reason"] == "heckling"
    await heckler.expect_next("left")
    assert "join the room" in refused(await heckler.request(type="chat", room_id=room_id, text="hey"), "not_allowed")
    back = await heckler.request(type="join_room", room_id=room_id, as_="spectator")
    assert refused(back, "not_allowed") == "a moderator sent you out of this room"
    assert (await (await client("other", server=server)).request(type="join_room", room_id=room_id, as_="spectator"))[
        "type"
    ] == "room"


async def test_a_removed_chat_line_is_taken_back_from_everyone_and_logged_with_its_words(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    admin = await with_role(server, client, "boss", "admin")
    listener = await client("listener", server=server)
    await listener.request(type="watch_lobby")
    spammer = await client("spammer", server=server)
    said = await spammer.request(type="chat", text="buy cheap gold")
    heard = await listener.expect_next("chat")
    assert heard["chat_id"] == said["chat_id"]

    done = await moderator.request(type="remove_chat", chat_id=said["chat_id"], reason="spam")
    assert (done["action"], done["target"]) == ("remove_chat", "spammer")
    assert (await listener.expect_next("chat_removed")) == {
        "type": "chat_removed",
        "room_id": None,
        "chat_id": said["chat_id"],
    }
    assert "no chat line" in refused(
        await moderator.request(type="remove_chat", chat_id=said["chat_id"], reason="x"), "not_found"
    )
    [entry, *grants] = (await admin.request(type="get_audit_log"))["entries"]
    assert (entry["actor"], entry["action"], entry["target"], entry["reason"], entry["detail"]) == (
        "mod",
        "remove_chat",
        "spammer",
        "spam",
        "buy cheap gold",
    )


async def test_players_report_a_line_and_moderators_see_and_close_the_open_reports(
    server: RunningServer, client: ClientFactory
) -> None:
    moderator = await with_role(server, client, "mod", "moderator")
    alice = await client("alice", server=server)
    rude = await client("rude", server=server)
    said = await rude.request(type="chat", text="you are bad")
    line = await alice.request(type="report", player="rude", chat_id=said["chat_id"], reason="insult")
    whole = await alice.request(type="report", player="rude", reason="abandons every game")
    assert line["type"] == whole["type"] == "report_filed"
    assert "not 'alice'" in refused(
        await rude.request(type="report", player="alice", chat_id=said["chat_id"], reason="x"), "bad_request"
    )

    reports = (await moderator.request(type="list_reports"))["reports"]
    assert [(report["reporter"], report["player"], report["reason"], report["chat_text"]) for report in reports] == [
        ("alice", "rude", "insult", "you are bad"),
        ("alice", "rude", "abandons every game", None),
    ]
    done = await moderator.request(type="close_report", report_id=line["report_id"], resolution="warned")
    assert (done["action"], done["target"]) == ("close_report", line["report_id"])
    assert [report["report_id"] for report in (await moderator.request(type="list_reports"))["reports"]] == [
        whole["report_id"]
    ]


async def stored_game(server: RunningServer, black: PlayerInfo, white: PlayerInfo, rated: bool = False) -> GameId:
    game_id = new_game_id()
    started = GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, black, white, None, utc_now(), False, rated=rated)
    finished = GameFinished(game_id, GameResult(Color.BLACK, EndReason.RESIGN), utc_now(), None)
    await server.app.storage.apply([started, finished])
    return game_id


async def test_players_delete_their_casual_bot_games_and_admins_any_game(
    server: RunningServer, client: ClientFactory
) -> None:
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    bot = PlayerInfo("easy", "bot", "easy")
    casual = [await stored_game(server, PlayerInfo("alice"), bot) for _ in range(2)]
    rated = await stored_game(server, PlayerInfo("alice"), bot, rated=True)
    against_bob = await stored_game(server, PlayerInfo("alice"), PlayerInfo("bob"))

    assert "rated" in refused(await alice.request(type="delete_games", game_ids=[rated]), "not_allowed")
    assert "not yours" in refused(await bob.request(type="delete_games", game_ids=casual[:1]), "not_allowed")
    assert "not yours" in refused(await alice.request(type="delete_games", game_ids=[against_bob]), "not_allowed")
    deleted = await alice.request(type="delete_games", game_ids=casual)
    assert (deleted["type"], deleted["game_ids"]) == ("games_deleted", casual)
    assert refused(await alice.request(type="get_game", game_id=casual[0]), "not_found")

    admin = await with_role(server, client, "boss", "admin")
    done = await admin.request(type="delete_games", game_ids=[rated, against_bob], reason="cleaning up")
    assert done["game_ids"] == [rated, against_bob]
    games = (await alice.request(type="list_games", player="alice"))["games"]
    assert games == []
    status, _, _ = await server.get(f"/api/games/{rated}")
    assert status == 404
    entry = (await admin.request(type="get_audit_log"))["entries"][0]
    assert (entry["action"], entry["target"], entry["reason"]) == (
        "delete_games",
        f"{rated} {against_bob}",
        "cleaning up",
    )


async def test_admins_read_the_audit_log_over_http_and_nobody_else(
    server: RunningServer, client: ClientFactory
) -> None:
    admin = await with_role(server, client, "boss", "admin")
    moderator = await with_role(server, client, "mod", "moderator")
    await client("alice", server=server)
    await moderator.request(type="mute", player="alice", minutes=5, reason="spam")

    status, body = await asyncio.to_thread(server.get_with_token, "/api/audit", admin.token)
    assert status == 200
    assert [(entry["actor"], entry["action"], entry["target"], entry["reason"]) for entry in body] == [
        ("mod", "mute", "alice", "spam"),
        ("operator:test", "grant", "mod", "for the test"),
        ("operator:test", "grant", "boss", "for the test"),
    ]
    assert (await asyncio.to_thread(server.get_with_token, "/api/audit", moderator.token))[0] == 403
    assert (await asyncio.to_thread(server.get_with_token, "/api/audit", None))[0] == 401


async def run_gomoku_admin(server: RunningServer, *arguments: str) -> None:
    """Run `gomoku-admin` on the server's database in a process of its own, as the operator would."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.moderation.admin_cli", "--db", server.app.settings.db_path, *arguments
    )
    assert await process.wait() == 0


async def test_a_ban_by_gomoku_admin_in_another_process_closes_the_players_connections_and_ends_their_game(
    server: RunningServer, client: ClientFactory
) -> None:
    troll = await client("troll", server=server)
    bob = await client("bob", server=server)
    room_id = (await troll.request(type="create_room"))["room"]["room_id"]
    await bob.request(type="join_room", room_id=room_id)
    await troll.request(type="move", room_id=room_id, x=7, y=7)

    await run_gomoku_admin(server, "ban", "troll", "--reason", "abuse")
    assert await closed_with(troll) == (1008, "banned: abuse")
    over = await bob.expect_next("game_over")
    assert over["result"]["winner"] == "white" and over["result"]["detail"] == "forfeited: troll was banned"


async def test_a_rename_by_gomoku_admin_in_another_process_closes_the_players_connections(
    server: RunningServer, client: ClientFactory
) -> None:
    rude = await client("rudename", server=server)
    await run_gomoku_admin(server, "rename", "rudename", "Nice", "--reason", "offensive")
    assert (await rude.expect_next("renamed"))["name"] == "Nice"
    assert await closed_with(rude) == (1008, "renamed by a moderator: sign in as Nice")


async def alice_with_a_rated_win(server: RunningServer, client: ClientFactory) -> tuple[WireClient, str]:
    """alice, online, and the rated game she has just won against bob (her standing kept online)."""
    alice = await client("alice", server=server)
    bob = await client("bob", server=server)
    await win_rated_game(alice, bob)
    return alice, (await alice.request(type="list_games", player="alice"))["games"][0]["game_id"]


async def test_a_rated_game_an_admin_deletes_counts_no_more_among_its_online_players_games(
    server: RunningServer, client: ClientFactory
) -> None:
    alice, game_id = await alice_with_a_rated_win(server, client)
    admin = await with_role(server, client, "boss", "admin")

    assert (await admin.request(type="delete_games", game_ids=[game_id], reason="a cheat"))["type"] == "games_deleted"

    seat = (await alice.request(type="create_room", rated=True))["room"]["black"]
    assert (seat["name"], seat["games"]) == ("alice", 0)


async def test_a_rated_game_deleted_by_gomoku_admin_counts_no_more_once_the_server_reads_the_audit_log(
    server: RunningServer, client: ClientFactory
) -> None:
    alice, game_id = await alice_with_a_rated_win(server, client)

    await run_gomoku_admin(server, "delete-games", game_id, "--reason", "a cheat")
    await server.app.handlers.moderation.sanctions.catch_up()  # what every node does every 2 s

    seat = (await alice.request(type="create_room", rated=True))["room"]["black"]
    assert (seat["name"], seat["games"]) == ("alice", 0)
