"""The whole client against the real server on 127.0.0.1, driven by scripted lines as a player would type them."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import re
import struct
import sys
import termios
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from websockets.asyncio.server import Server

from client.core import ClientCore
from client.session import Session
from client.statusline import RESET_SCROLL_REGION
from client.tokens import TokenStore
from server.app import GameServer, ServerSettings
from server.rooms import RoomSettings

EXPECT_TIMEOUT_S = 30.0
"""Generous: the machine may be busy; a passing run waits only as long as the server takes."""

REPO = Path(__file__).resolve().parents[2]


class ScriptedTerminal:
    """A terminal whose lines come from the test and whose output the test reads."""

    def __init__(self) -> None:
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.output: list[str] = []
        self.statuses: list[str | None] = []
        self._read_up_to = 0
        self._written = asyncio.Event()

    async def read_line(self) -> str | None:
        return await self._lines.get()

    def write(self, text: str) -> None:
        self.output.extend(text.splitlines())
        self._written.set()

    def status(self, text: str | None) -> None:
        self.statuses.append(text)

    def type(self, line: str) -> None:
        self._lines.put_nowait(line)

    def end_input(self) -> None:
        self._lines.put_nowait(None)

    async def expect(self, pattern: str) -> re.Match[str]:
        """The first output line, after those already matched, that matches `pattern`."""
        try:
            async with asyncio.timeout(EXPECT_TIMEOUT_S):
                while True:
                    for index in range(self._read_up_to, len(self.output)):
                        match = re.search(pattern, self.output[index])
                        if match:
                            self._read_up_to = index + 1
                            return match
                    self._written.clear()
                    await self._written.wait()
        except TimeoutError:
            recent = "\n".join(self.output[self._read_up_to :][-40:])
            raise AssertionError(f"no output matched {pattern!r}; unmatched output:\n{recent}") from None


@dataclass
class Player:
    """A running client and its terminal."""

    terminal: ScriptedTerminal
    run: asyncio.Task[int]

    def type(self, *lines: str) -> None:
        for line in lines:
            self.terminal.type(line)

    async def expect(self, pattern: str) -> re.Match[str]:
        return await self.terminal.expect(pattern)

    async def quit(self) -> int:
        self.type("quit")
        return await asyncio.wait_for(self.run, EXPECT_TIMEOUT_S)


class Launcher:
    """Starts clients for one server, each remembering its token in a config directory."""

    def __init__(self, url: str, config_dir: Path) -> None:
        self.url = url
        self.config_dir = config_dir
        self.players: list[Player] = []

    async def start(self, name: str, url: str | None = None, config_dir: Path | None = None) -> Player:
        server = url or self.url
        tokens = TokenStore(config_dir or self.config_dir)
        core = ClientCore(name, tokens.get(server, name))
        terminal = ScriptedTerminal()
        session = Session(core, server, terminal, tokens, retry_delays_s=(0.05, 0.2))
        player = Player(terminal, asyncio.create_task(session.run()))
        self.players.append(player)
        return player


class RunningServer:
    """A real server on 127.0.0.1 that a test may stop and start again on the same port and database."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.port = 0
        self._running: tuple[GameServer, Server] | None = None

    async def start(self) -> None:
        settings = ServerSettings(
            port=self.port, db_path=str(self.db_path), bot_workers=1, room=RoomSettings(bot_time_ms=100)
        )
        self._running = await GameServer.start(settings)
        self.port = self._running[1].sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._running is not None:
            app, server = self._running
            self._running = None
            server.close()
            await server.wait_closed()
            await app.close()


@pytest.fixture
async def running_server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    server = RunningServer(tmp_path / "games.sqlite3")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def server_port(running_server: RunningServer) -> int:
    return running_server.port


@pytest.fixture
async def launcher(server_port: int, tmp_path: Path) -> AsyncIterator[Launcher]:
    clients = Launcher(f"ws://127.0.0.1:{server_port}/ws", tmp_path / "config")
    yield clients
    for player in clients.players:
        player.run.cancel()
    await asyncio.gather(*(player.run for player in clients.players), return_exceptions=True)


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
    await alice.expect("black alice, white bob")
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
    await alice.expect(r"^room \S+, freestyle 9x9, clock 5\+2: black alice, white bot easy")
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
        await alice.expect("black alice, white bob")
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
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "client.main",
        "--server",
        f"ws://127.0.0.1:{server_port}/ws",
        "--name",
        "dave",
        "--config-dir",
        str(tmp_path / "config"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    output, _ = await asyncio.wait_for(process.communicate(b"bots\ncreate vs easy\nboard\n"), EXPECT_TIMEOUT_S)
    text = output.decode()
    assert process.returncode == 0
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


async def test_the_gomoku_command_says_when_the_server_cannot_be_reached(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "client.main",
        "--server",
        "ws://127.0.0.1:9/ws",
        "--name",
        "dave",
        "--config-dir",
        str(tmp_path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    output, _ = await asyncio.wait_for(process.communicate(b""), EXPECT_TIMEOUT_S)
    assert process.returncode == 1
    assert "cannot connect to ws://127.0.0.1:9/ws" in output.decode()


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


class PseudoTerminal:
    """The `gomoku` command in a pseudo-terminal of a given size, as a person at a terminal runs it."""

    def __init__(self, process: asyncio.subprocess.Process, master: int) -> None:
        self.process = process
        self._master = master
        self._output = ""
        self._read_up_to = 0
        self._received = asyncio.Event()

    @classmethod
    @contextlib.asynccontextmanager
    async def running_gomoku(
        cls, server_port: int, tmp_path: Path, name: str, rows: int, columns: int
    ) -> AsyncIterator[PseudoTerminal]:
        master, child = pty.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        process = await asyncio.create_subprocess_exec(
            *gomoku_command(server_port, tmp_path, name),
            stdin=child,
            stdout=child,
            stderr=child,
            cwd=REPO,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(child)
        terminal = cls(process, master)
        loop = asyncio.get_running_loop()
        loop.add_reader(master, terminal._read)
        try:
            yield terminal
        finally:
            loop.remove_reader(master)
            if process.returncode is None:
                process.kill()
                await process.wait()
            os.close(master)

    def _read(self) -> None:
        try:
            self._output += os.read(self._master, 65536).decode(errors="replace")
        except OSError:  # the child side is closed
            asyncio.get_running_loop().remove_reader(self._master)
        self._received.set()

    def type(self, line: str) -> None:
        os.write(self._master, line.encode() + b"\n")

    async def expect(self, pattern: str) -> None:
        """Wait until the output after what was already matched matches `pattern`."""
        try:
            async with asyncio.timeout(EXPECT_TIMEOUT_S):
                while (match := re.compile(pattern).search(self._output, self._read_up_to)) is None:
                    self._received.clear()
                    await self._received.wait()
        except TimeoutError:
            raise AssertionError(f"no output matched {pattern!r}:\n{self._output[self._read_up_to :]!r}") from None
        self._read_up_to = match.end()


def gomoku_command(server_port: int, tmp_path: Path, name: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "client.main",
        "--server",
        f"ws://127.0.0.1:{server_port}/ws",
        "--name",
        name,
        "--config-dir",
        str(tmp_path / "config"),
    ]


async def run_gomoku(server_port: int, tmp_path: Path, name: str, lines: bytes) -> str:
    """The output of the `gomoku` command reading `lines` from a pipe; it must exit 0."""
    process = await asyncio.create_subprocess_exec(
        *gomoku_command(server_port, tmp_path, name),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    output, _ = await asyncio.wait_for(process.communicate(lines), EXPECT_TIMEOUT_S)
    assert process.returncode == 0
    return output.decode()


class Proxy:
    """A TCP relay in front of the server whose connections the test can cut, as a network failure would."""

    def __init__(self, target_port: int) -> None:
        self._target_port = target_port
        self._transports: list[asyncio.WriteTransport] = []
        self._server: asyncio.Server | None = None
        self.port = 0

    @classmethod
    async def start(cls, target_port: int) -> Proxy:
        proxy = cls(target_port)
        proxy._server = await asyncio.start_server(proxy._relay, "127.0.0.1", 0)
        proxy.port = proxy._server.sockets[0].getsockname()[1]
        return proxy

    async def _relay(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self._target_port)
        self._transports += [client_writer.transport, server_writer.transport]
        await asyncio.gather(
            self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.transport.abort()

    def cut(self) -> None:
        """Drop every relayed connection at once, without a closing handshake."""
        for transport in self._transports:
            transport.abort()
        self._transports.clear()

    def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
