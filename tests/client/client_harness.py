"""Helpers for the client's end-to-end tests: real servers, scripted clients, the `gomoku` command in a pipe
or a pseudo-terminal, and a relay whose connections can be cut."""

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

from websockets.asyncio.server import Server

from client.core import ClientCore
from client.session import Session
from client.tokens import TokenStore
from server.app import GameServer, ServerSettings
from server.rooms.room import RoomSettings

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

    async def stop_all(self) -> None:
        """Stop every client started, as when their windows are closed."""
        for player in self.players:
            player.run.cancel()
        await asyncio.gather(*(player.run for player in self.players), return_exceptions=True)


class RunningServer:
    """A real server on 127.0.0.1 that a test may stop and start again on the same port and database."""

    def __init__(self, db_path: Path, room: RoomSettings | None = None) -> None:
        """`room`: how rooms behave (default: bots think 100 ms a move)."""
        self.db_path = db_path
        self.port = 0
        self._room = room or RoomSettings(bot_time_ms=100)
        self._running: tuple[GameServer, Server] | None = None

    async def start(self) -> None:
        settings = ServerSettings(port=self.port, db_path=str(self.db_path), bot_workers=1, room=self._room)
        self._running = await GameServer.start(settings)
        self.port = self._running[1].sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._running is not None:
            app, server = self._running
            self._running = None
            server.close()
            await server.wait_closed()
            await app.close()


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
        cls, server_port: int, tmp_path: Path, name: str, rows: int, columns: int, *arguments: str
    ) -> AsyncIterator[PseudoTerminal]:
        """`gomoku` (with `arguments`) in a new session whose controlling terminal is the pseudo-terminal,
        as a login shell's would be: `/dev/tty` is it (`getpass` reads there, without echo)."""
        master, child = pty.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        process = await asyncio.create_subprocess_exec(
            *gomoku_command(server_port, tmp_path, name, *arguments),
            stdin=child,
            stdout=child,
            stderr=child,
            cwd=REPO,
            env={**os.environ, "TERM": "xterm"},
            preexec_fn=_take_the_terminal,
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

    @property
    def output(self) -> str:
        """Everything the command has written so far."""
        return self._output

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


def _take_the_terminal() -> None:
    """In the child before it runs: a session of its own, with its standard input as its terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def gomoku_command(server_port: int, tmp_path: Path, name: str, *arguments: str) -> list[str]:
    """The `gomoku` command line for `name` on the server at `server_port`, its tokens kept under `tmp_path`."""
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
        *arguments,
    ]


@dataclass(frozen=True)
class Completed:
    """How a command ended and what it wrote."""

    status: int
    stdout: str
    stderr: str


async def run_command(command: list[str], stdin: bytes = b"") -> Completed:
    """Run `command` with `stdin` piped in, to its end."""
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(stdin), EXPECT_TIMEOUT_S)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return Completed(process.returncode, stdout.decode(), stderr.decode())


async def run_gomoku(server_port: int, tmp_path: Path, name: str, lines: bytes) -> str:
    """The output of the interactive `gomoku` command reading `lines` from a pipe; it must exit 0."""
    completed = await run_command(gomoku_command(server_port, tmp_path, name), lines)
    assert completed.status == 0, completed.stderr
    return completed.stdout


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
