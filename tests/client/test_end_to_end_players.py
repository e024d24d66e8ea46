"""The client with other players against the real server on 127.0.0.1: seeks, quick pairing, chat,
claims, rated games, the leaderboard and profiles, driven by lines as players would type them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from client_harness import Launcher, Player, RunningServer

from server.rooms.room import RoomSettings

FIVE = (["h8", "h9", "h10", "h11", "h12"], ["a1", "a2", "a3", "a4"])
"""Black's five in a column, and white's moves elsewhere."""


async def signed_in(launcher: Launcher, name: str) -> Player:
    player = await launcher.start(name)
    await player.expect(f"signed in as {name}")
    return player


async def play_to_five(black: Player, white: Player, black_name: str) -> None:
    """Black makes five while white plays away; both see the game end."""
    blacks, whites = FIVE
    for ply, move in enumerate(blacks):
        black.type(move)
        await white.expect(rf"^{2 * ply + 1}\. black \({black_name}\) {move}$")
        if ply < len(whites):
            white.type(whites[ply])
            await black.expect(rf"^{2 * ply + 2}\. white \(\S+\) {whites[ply]}$")
    for player in (black, white):
        await player.expect(rf"^game over: black \({black_name}\) wins with five in a row")


async def test_two_players_meet_through_a_seek_and_chat_over_their_game(launcher: Launcher) -> None:
    alice = await signed_in(launcher, "alice")
    alice.type("seek clock 5+3 as black")
    seek_id = (await alice.expect(r"^your seek is in the lobby: (\S+): alice \(1500\), .*clock 5\+3")).group(1)
    bob = await signed_in(launcher, "bob")
    bob.type("seeks")
    await bob.expect(r"^lobby: 2 players online, 1 seek waiting")
    await bob.expect(rf"^  {seek_id}: alice \(1500\), freestyle 15x15, clock 5\+3, casual, alice plays black$")
    bob.type("accept alice")
    room_id = (await bob.expect(r"^room (\S+): you are playing white$")).group(1)
    await bob.expect(r"^room \S+, freestyle 15x15, clock 5\+3: black alice \(1500\?\), white bob \(1500\?\)")
    await alice.expect(f"^your seek {seek_id} has left the lobby$")
    await alice.expect(f"^room {room_id}: you are playing black$")
    bob.type("say good luck!")
    await alice.expect(r"^bob: good luck!$")
    alice.type("h8")
    await bob.expect(r"^1\. black \(alice\) h8$")


async def test_quick_pairing_puts_two_players_in_one_game(launcher: Launcher) -> None:
    alice = await signed_in(launcher, "alice")
    alice.type("pair size 9")
    await alice.expect(r"^looking for an opponent \(\S+: alice \(1500\), freestyle 9x9, casual, quick pairing\)")
    bob = await signed_in(launcher, "bob")
    bob.type("pair size 9")
    room_id = (await bob.expect(r"^room (\S+): you are playing (black|white)$")).group(1)
    await alice.expect(f"^room {room_id}: you are playing (black|white)$")
    for player in (alice, bob):
        await player.expect(r"^room \S+, freestyle 9x9: black \S+ \(1500\?\), white \S+ \(1500\?\)")


async def test_the_lobby_hears_chat_as_plain_text_and_sees_seeks_come_and_go(launcher: Launcher) -> None:
    carol = await signed_in(launcher, "carol")
    carol.type("seeks")
    await carol.expect(r"^lobby: 1 player online, no seeks waiting")
    alice = await signed_in(launcher, "alice")
    alice.type("say hello \u202eevil")
    await alice.expect(r"^that cannot be sent: text: ")  # a direction override is no chat (shown text)
    alice.type("say hello <b>evil</b>")
    await alice.expect(r"^alice: hello <b>evil</b>$")
    await carol.expect(r"^alice: hello <b>evil</b>$")
    alice.type("seek size 19 rating 1400-")
    added = await carol.expect(r"^new seek (\S+): alice \(1500\), freestyle 19x19, casual, for ratings 1400 and up$")
    seek_id = added.group(1)
    alice.type("cancel")
    await alice.expect(f"^seek {seek_id} cancelled$")
    await carol.expect(f"^seek {seek_id} \\(alice\\) is gone$")
    carol.type("online")
    await carol.expect(r"^2 online:$")
    await carol.expect(r"^  alice +1500  idle$")


@pytest.fixture
async def quick_claims(tmp_path: Path) -> AsyncIterator[Launcher]:
    """Clients of a server where the win may be claimed one second after the opponent has gone."""
    server = RunningServer(tmp_path / "claims.sqlite3", RoomSettings(claim_after_s=1.0))
    await server.start()
    clients = Launcher(f"ws://127.0.0.1:{server.port}/ws", tmp_path / "config")
    try:
        yield clients
    finally:
        await clients.stop_all()
        await server.stop()


async def test_a_player_whose_opponent_has_gone_claims_the_win(quick_claims: Launcher) -> None:
    alice = await signed_in(quick_claims, "alice")
    alice.type("create")
    room_id = (await alice.expect(r"^room (\S+): you are playing black$")).group(1)
    bob = await signed_in(quick_claims, "bob")
    bob.type(f"join {room_id}")
    await alice.expect("black alice .*, white bob")
    alice.type("h8")
    await bob.expect(r"^1\. black \(alice\) h8$")
    bob.run.cancel()  # bob's client goes, and its connection with it
    await alice.expect(r"^white \(bob\) is away: you may claim the win in 1 s \('claim'\)$")
    await alice.expect(r"^white \(bob\) has been away long enough: 'claim' wins the game")
    alice.type("claim")
    await alice.expect(r"^game over: black \(alice\) wins as the opponent abandoned the game$")


async def test_a_rated_game_moves_the_ratings_which_top_and_profile_show(launcher: Launcher) -> None:
    alice = await signed_in(launcher, "alice")
    alice.type("create rated")
    room_id = (await alice.expect(r"^room (\S+): you are playing black$")).group(1)
    await alice.expect(r"^room \S+, freestyle 15x15, rated: black alice \(1500\?\), white \(open\)")
    bob = await signed_in(launcher, "bob")
    bob.type(f"join {room_id}")
    await alice.expect(r"rated: black alice \(1500\?\), white bob \(1500\?\)")
    await play_to_five(alice, bob, "alice")
    change = await alice.expect(r"^ratings: alice 1500 -> (\d+) \(\+(\d+)\), bob 1500 -> (\d+) \(-(\d+)\)$")
    alice_after, bob_after = int(change.group(1)), int(change.group(3))
    assert alice_after > 1500 > bob_after
    alice.type("top humans")
    await alice.expect(r"^ +#  player +rating +games$")
    await alice.expect(rf"^ +1  alice +{alice_after}\? +1$")
    await alice.expect(rf"^ +2  bob +{bob_after}\? +1$")
    alice.type("profile bob")
    await alice.expect(rf"^bob: rating {bob_after}\? \(deviation \d+\), 1 rated game; 0 won, 1 lost, 0 drawn$")
    await alice.expect(rf"^rating after each of the last 1 rated games: {bob_after}$")
    await alice.expect(r"^recent games:$")
    await alice.expect(r"alice vs bob, freestyle 15x15, 9 moves: black \(alice\) wins with five in a row")
    alice.type("profile nobody")
    await alice.expect(r"^there is no player named 'nobody'$")


async def test_a_finished_games_positions_are_analysed_by_move_number(launcher: Launcher) -> None:
    alice = await signed_in(launcher, "alice")
    alice.type("create vs greedy size 9")
    await alice.expect(r"^room \S+: you are playing black$")
    alice.type("e5")
    await alice.expect(r"^2\. white \(bot greedy\) [a-i]\d$")
    alice.type("resign", "yes", "games")
    game_id = (await alice.expect(r"^(\S+) .*alice vs bot greedy, freestyle 9x9, 2 moves")).group(1)
    alice.type(f"analyze {game_id} 1 0.2")
    await alice.expect(rf"^engine \(game {game_id} after 1 move\): best [a-i]\d, score -?\d+")


async def test_a_swap2_opening_is_decided_at_the_prompt_and_the_colours_follow(launcher: Launcher) -> None:
    alice = await signed_in(launcher, "alice")
    alice.type("create opening swap2")
    room_id = (await alice.expect(r"^room (\S+): you are playing black$")).group(1)
    bob = await signed_in(launcher, "bob")
    bob.type(f"join {room_id}")
    await bob.expect(r"^alice \(black for now\) decides: place three stones, black, then white, then black$")
    await alice.expect(
        r"^your decision \(black for now\): place three stones, black, then white, then black: "
        r"'place POINT POINT POINT'$"
    )
    alice.type("h8")
    await alice.expect(r"^the opening is being decided, not played: your decision")
    alice.type("place h8 a1 i8")
    for player in (alice, bob):
        await player.expect(r"^alice placed h8 a1 i8$")
    await bob.expect(
        r"^your decision \(white for now\): choose a colour: 'choose black' or 'choose white'; "
        r"or place two stones, white, then black: 'place POINT POINT'$"
    )
    bob.type("choose black")
    await bob.expect(r"^bob chose black$")
    await bob.expect(r"^the opening is decided: you are playing black$")
    await alice.expect(r"^the opening is decided: you are playing white$")
    await alice.expect(r"^move 4, your move$")
    alice.type("a2")
    await bob.expect(r"^4\. white \(alice\) a2$")
