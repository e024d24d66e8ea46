"""The whole client against the real server on 127.0.0.1, driven by scripted lines as a player would type them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_harness import (
    EXPECT_TIMEOUT_S,
    Launcher,
    Player,
    Proxy,
    PseudoTerminal,
    RunningServer,
    gomoku_command,
    run_command,
    run_gomoku,
)

from client.statusline import RESET_SCROLL_REGION


async def open_game(launcher: Launcher) -> tuple[Player, Player, str]:
    """alice creates a room, bob joins it; both have seen the game start."""
    alice = await launcher.start("alice")
    await alice.expect("signed in as alice")
    alice.type("create")
    room_id = (await alice.expect(r"room (\S+): you are playing black")).group(1)
    bob = await launcher.start("bob")
    await bob.expect("signed in as bob")
    bob.type(f"join {room_id}")
    await bob.expect(f"room {room_id}: you are playing white")
    await alice.expect(r"black alice \(1500\?\), white bob \(1500\?\)")
    return alice, bob, room_id


async def test_two_players_play_to_five_while_a_spectator_watches(launcher: Launcher) -> None:
    alice, bob, room_id = await open_game(launcher)
    carol = await launcher.start("carol")
    carol.type(f"watch {room_id}")
    await carol.expect(f"room {room_id}: you are watching")
    for ply, (black, white) in enumerate(zip(["h8", "h9", "h10", "h11"], ["a1", "a2", "a3", "a4"], strict=True)):
        alice.type(black)
        await bob.expect(rf"^{2 * ply + 1}\. black \(alice\) {black}$")
        bob.type(white)
        await alice.expect(rf"^{2 * ply + 2}\. white \(bob\) {white}$")
    await alice.expect("your move")
    bob.type("h12")
    await bob.expect(r"not your turn|not_your_turn")
    alice.type("h12")
    await carol.expect(r"^9\. black \(alice\) h12$")
    await carol.expect(r"^12 \. \. \. \. \. \. \.\[X\]\. \. \. \. \. \. \.  12$")
    for player in (alice, bob, carol):
        await player.expect(r"^game over: black \(alice\) wins with five in a row")


async def test_a_finished_game_is_listed_exported_and_replayed(launcher: Launcher, tmp_path: Path) -> None:
    alice, bob, _ = await open_game(launcher)
    for black, white in zip(["j10", "j11", "j12", "j13"], ["b2", "b3", "b4", "b5"], strict=True):
        alice.type(black)
        await bob.expect(rf"black \(alice\) {black}$")
        bob.type(white)
        await alice.expect(rf"white \(bob\) {white}$")
    alice.type("j14")
    await alice.expect("wins with five in a row")
    alice.type("games")
    game_id = (await alice.expect(r"^(\S+) .*alice vs bob, freestyle 15x15, 9 moves: black \(alice\) wins")).group(1)
    alice.type(f"export {game_id} {tmp_path / 'game.sgf'}", f"export {game_id} {tmp_path / 'game.json'}")
    await alice.expect(r"^saved .*game\.sgf$")
    await alice.expect(r"^saved .*game\.json$")
    assert "GM[4]" in (tmp_path / "game.sgf").read_text()
    assert '"move": "j14"' in (tmp_path / "game.json").read_text()
    alice.type(f"replay {game_id}")
    await alice.expect("start of the game, 9 moves")
    alice.type("", "")
    await alice.expect(r"^move 1/9: black j10( \(\d+\.\d s\))?$")
    await alice.expect(r"^move 2/9: white b2( \(\d+\.\d s\))?$")
    alice.type("last")
    await alice.expect(r"^move 9/9: black j14")
    await alice.expect(r"black \(alice\) wins with five in a row")
    alice.type("q")
    await alice.expect("replay closed")


async def test_offers_are_answered_at_the_prompt(launcher: Launcher) -> None:
    alice, bob, _ = await open_game(launcher)
    alice.type("h8")
    await bob.expect("black \\(alice\\) h8")
    bob.type("j9")
    await alice.expect("white \\(bob\\) j9")
    alice.type("undo")
    await bob.expect(r"black \(alice\) asks to take back a move\. Accept\? \(yes/no\)")
    bob.type("no")
    await alice.expect("the undo offer was declined")
    bob.type("draw")
    await bob.expect("you offer a draw")
    await alice.expect(r"white \(bob\) offers a draw\. Accept\? \(yes/no\)")
    alice.type("yes")
    for player in (alice, bob):
        await player.expect("game over: draw by agreement")


async def test_a_bot_answers_on_the_clock_and_the_engine_gives_hints(launcher: Launcher) -> None:
    alice = await launcher.start("alice")
    alice.type("create vs easy size 9 clock 5+2")
    await alice.expect(r"room \S+: you are playing black")
    await alice.expect(r"^room \S+, freestyle 9x9, clock 5\+2: black alice \(1500\?\), white bot easy \(\d+\)")
    await alice.expect(r"^black [45]:\d\d \| white 5:00 -- move 1, your move$")
    alice.type("e5")
    await alice.expect(r"^2\. white \(bot easy\) [a-i]\d$")
    await alice.expect(r"^black [45]:\d\d \| white [45]:\d\d -- move 3, your move$")
    alice.type("hint 0.2")
    await alice.expect(r"^engine: best [a-i]\d, score -?\d+, depth \d+")


async def test_a_dropped_connection_is_recovered_and_the_game_goes_on(launcher: Launcher, server_port: int) -> None:
    proxy = await Proxy.start(server_port)
    try:
        alice = await launcher.start("alice", url=f"ws://127.0.0.1:{proxy.port}/ws")
        alice.type("create")
        room_id = (await alice.expect(r"room (\S+): you are playing black")).group(1)
        bob = await launcher.start("bob")
        bob.type(f"join {room_id}")
        await alice.expect(r"black alice \(1500\?\), white bob \(1500\?\)")
        alice.type("h8")
        await bob.expect(r"black \(alice\) h8")
        proxy.cut()
        await alice.expect("connection lost; reconnecting")
        await alice.expect("signed in as alice")
        await alice.expect(r"move 2, white to move")
        bob.type("j9")
        await alice.expect(r"white \(bob\) j9")
        alice.type("h9")
        await bob.expect(r"^3\. black \(alice\) h9$")
    finally:
        proxy.close()


async def test_after_a_server_restart_the_client_goes_back_into_its_game(
    launcher: Launcher, running_server: RunningServer
) -> None:
    alice = await launcher.start("alice")
    alice.type("create vs easy size 9")
    await alice.expect(r"room \S+: you are playing black")
    alice.type("e5")
    await alice.expect(r"^2\. white \(bot easy\) [a-i]\d$")
    await running_server.stop()
    await alice.expect("connection lost; reconnecting")
    await running_server.start()
    await alice.expect("signed in as alice")
    await alice.expect(r"move 3, your move")
    alice.type("a1")
    await alice.expect(r"^3\. black \(alice\) a1$")
    await alice.expect(r"^4\. white \(bot easy\) [a-i]\d$")


async def test_a_client_started_again_goes_back_into_the_unfinished_game(launcher: Launcher) -> None:
    first = await launcher.start("alice")
    first.type("create vs easy size 9")
    room_id = (await first.expect(r"room (\S+): you are playing black")).group(1)
    first.type("e5")
    await first.expect(r"^2\. white \(bot easy\) [a-i]\d$")
    first.type("quit")
    await first.expect(r"Quit\? \(yes/no\)")
    first.type("yes")
    assert await asyncio.wait_for(first.run, EXPECT_TIMEOUT_S) == 0
    again = await launcher.start("alice")
    await again.expect(f"back to your unfinished game in room {room_id}")
    await again.expect(r"move 3, your move")
    again.type("a1")
    await again.expect(r"^3\. black \(alice\) a1$")


async def test_the_token_brings_a_player_back_and_keeps_the_name_from_others(
    launcher: Launcher, tmp_path: Path
) -> None:
    first = await launcher.start("alice")
    await first.expect("signed in as alice")
    assert await first.quit() == 0
    again = await launcher.start("alice")
    await again.expect("signed in as alice")
    impostor = await launcher.start("alice", config_dir=tmp_path / "elsewhere")
    await impostor.expect("belongs to another player")
    assert await asyncio.wait_for(impostor.run, EXPECT_TIMEOUT_S) == 1


async def test_the_gomoku_command_reads_piped_lines(server_port: int, tmp_path: Path) -> None:
    text = await run_gomoku(server_port, tmp_path, "dave", b"bots\ncreate vs easy\nboard\n")
    assert "signed in as dave" in text
    assert re.search(r"^easy +\S+ +", text, re.MULTILINE)
    assert re.search(r"room \S+: you are playing black", text)
    assert (tmp_path / "config" / "tokens.json").exists()


async def test_piped_lines_ending_in_quit_show_every_answer_before_quitting(server_port: int, tmp_path: Path) -> None:
    output = await run_gomoku(server_port, tmp_path, "erin", b"bots\nrooms\nquit\n")
    assert re.search(r"^easy +\S+ +", output, re.MULTILINE)
    assert "no rooms yet" in output


async def test_piped_moves_each_wait_for_the_bots_reply(server_port: int, tmp_path: Path) -> None:
    moves = ["a1", "o1", "a15", "o15"]
    script = "create vs greedy\n" + "".join(f"{move}\n" for move in moves)
    output = await run_gomoku(server_port, tmp_path, "fran", script.encode())
    assert "not_your_turn" not in output
    for ply, move in enumerate(moves):
        assert re.search(rf"^{2 * ply + 1}\. black \(fran\) {move}$", output, re.MULTILINE)
        assert re.search(rf"^{2 * ply + 2}\. white \(bot greedy\) [a-o]\d+$", output, re.MULTILINE)


async def test_piped_moves_as_white_wait_for_the_bots_first_move(server_port: int, tmp_path: Path) -> None:
    output = await run_gomoku(server_port, tmp_path, "hal", b"create vs greedy as white\na1\no1\n")
    assert "not_your_turn" not in output
    assert re.search(r"^2\. white \(hal\) a1$", output, re.MULTILINE)
    assert re.search(r"^4\. white \(hal\) o1$", output, re.MULTILINE)


async def test_the_gomoku_command_says_when_the_server_cannot_be_reached(tmp_path: Path) -> None:
    completed = await run_command(gomoku_command(9, tmp_path, "dave"))
    assert completed.status == 1
    assert "cannot connect to ws://127.0.0.1:9/ws" in completed.stdout


async def test_in_a_terminal_the_running_clock_ticks_on_the_bottom_row(server_port: int, tmp_path: Path) -> None:
    async with PseudoTerminal.running_gomoku(server_port, tmp_path, "gina", rows=24, columns=80) as terminal:
        terminal.type("create vs easy clock 1+0")
        await terminal.expect(r"\x1b\[1;23r")  # the bottom row is taken out of the scrolling area
        await terminal.expect(r"\x1b\[24;1H\x1b\[2Kblack (1:00|0:59) \| white 1:00 -- move 1, your move")
        await terminal.expect(r"\x1b\[24;1H\x1b\[2Kblack 0:5[0-8] \| white 1:00 -- move 1, your move")
        terminal.type("quit")
        await terminal.expect(r"Quit\? \(yes/no\)")
        terminal.type("yes")
        await terminal.expect(re.escape(RESET_SCROLL_REGION))  # the terminal is left as it was found
        assert await asyncio.wait_for(terminal.process.wait(), EXPECT_TIMEOUT_S) == 0
