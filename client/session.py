"""The asyncio side of the client: the websocket, the terminal, and reconnecting.

`Session` runs two things side by side: reading the player's lines, and
keeping a connection to the server (reconnecting with growing pauses when
it drops). Both hand their inputs to the `ClientCore` and carry out the
actions it returns; no game logic lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from client import web_api
from client.actions import Action, Fetch, Quit, RememberToken, SaveFile, Send, Show, Status
from client.core import ClientCore
from client.lines import StdinLines
from client.statusline import PinnedStatusLine
from client.text import printable, printable_lines
from client.tokens import TokenStore, TokenStoreError
from wire.messages import MAX_FRAME_BYTES, parse_server_message

RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Pauses between reconnection attempts; the last one repeats until the player quits."""

OPEN_TIMEOUT_S = 10.0
"""How long one connection attempt may take."""

TICK_S = 0.25
"""How often the core is told that time has passed (for its deadlines and clocks)."""


class Terminal(Protocol):
    """Where lines come from and text goes to."""

    async def read_line(self) -> str | None:
        """The next line typed, without its newline; None at the end of input."""
        ...

    def write(self, text: str) -> None:
        """Show text to the player."""
        ...

    def status(self, text: str | None) -> None:
        """Show `text` on a status line apart from the rest (ticking clocks), or remove it (None).
        A terminal that cannot keep such a line shows nothing: the `clock` command still can."""
        ...


class StdioTerminal:
    """Standard input and output, with a status line when a person types at a terminal."""

    def __init__(self) -> None:
        self._lines = StdinLines()
        self._status_line = PinnedStatusLine(sys.stdout, _terminal_size) if _is_interactive() else None

    async def read_line(self) -> str | None:
        return await self._lines.read_line()

    def write(self, text: str) -> None:
        print(printable_lines(text), flush=True)

    def status(self, text: str | None) -> None:
        if self._status_line is not None:
            self._status_line.show(None if text is None else printable(text))


def _is_interactive() -> bool:
    """Whether a person types at a terminal that can keep a status line."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "dumb") != "dumb"


def _terminal_size() -> tuple[int, int]:
    size = shutil.get_terminal_size()
    return size.columns, size.lines


class Session:
    """One run of the client against one server."""

    def __init__(
        self,
        core: ClientCore,
        url: str,
        terminal: Terminal,
        tokens: TokenStore,
        retry_delays_s: Sequence[float] = RETRY_DELAYS_S,
    ) -> None:
        self._core = core
        self._url = url
        self._terminal = terminal
        self._tokens = tokens
        self._retry_delays_s = retry_delays_s
        self._connection: ClientConnection | None = None
        self._quit = asyncio.Event()
        self._exit_code = 0
        self._fetches: set[asyncio.Task[None]] = set()
        """HTTP requests under way (a slow one must not hold up the terminal or the websocket)."""

    async def run(self) -> int:
        """Play until the player quits (input ending is a quit); the exit status (1 if the server was never reached)."""
        reading = asyncio.create_task(self._read_lines())
        connecting = asyncio.create_task(self._stay_connected())
        ticking = asyncio.create_task(self._tick())
        quitting = asyncio.create_task(self._quit.wait())
        tasks = {reading, connecting, ticking, quitting}
        try:
            pending = set(tasks)
            while quitting in pending and connecting in pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()  # a bug in the client must not pass for a normal exit
        finally:
            for task in tasks | self._fetches:
                task.cancel()
            await asyncio.gather(*tasks, *self._fetches, return_exceptions=True)
            self._terminal.status(None)
            if self._connection is not None:
                await self._connection.close()
        return self._exit_code

    # ------------------------------------------------------------- terminal

    async def _read_lines(self) -> None:
        while (line := await self._terminal.read_line()) is not None:
            await self._perform(self._core.handle_line(line))
        await self._perform(self._core.end_of_input())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            await self._perform(self._core.tick())

    # ----------------------------------------------------------- connection

    async def _stay_connected(self) -> None:
        """Connect, serve, and reconnect after a drop; give up only if the server was never reached."""
        failures = 0
        ever_connected = False
        while True:
            try:
                async with websockets.connect(
                    self._url, max_size=MAX_FRAME_BYTES, open_timeout=OPEN_TIMEOUT_S
                ) as connection:
                    ever_connected = True
                    failures = 0
                    self._connection = connection
                    await self._serve(connection)
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
                if not ever_connected:
                    self._terminal.write(f"cannot connect to {self._url}: {error}")
                    self._exit_code = 1
                    return
            except ConnectionClosed:
                pass
            finally:
                self._connection = None
            if ever_connected and failures == 0:
                await self._perform(self._core.disconnected())
            await asyncio.sleep(self._retry_delays_s[min(failures, len(self._retry_delays_s) - 1)])
            failures += 1

    async def _serve(self, connection: ClientConnection) -> None:
        """Say hello, then hand every message to the core until the connection closes."""
        await self._perform(self._core.connected())
        async for frame in connection:
            if isinstance(frame, bytes):
                continue
            try:
                message = parse_server_message(frame)
            except ValueError as error:
                self._terminal.write(f"(ignored a message this client does not understand: {error})")
                continue
            await self._perform(self._core.handle_message(message))

    # -------------------------------------------------------------- actions

    async def _perform(self, actions: list[Action]) -> None:
        for action in actions:
            match action:
                case Send():
                    await self._send(action)
                case Show():
                    self._terminal.write(action.text)
                case Status():
                    self._terminal.status(action.text)
                case SaveFile():
                    self._terminal.write(await asyncio.to_thread(_save, action.path, action.content))
                case RememberToken():
                    self._remember(action.token)
                case Fetch():
                    fetch = asyncio.create_task(self._fetch(action))
                    self._fetches.add(fetch)
                    fetch.add_done_callback(self._fetches.discard)
                case Quit():
                    self._exit_code = action.status
                    self._quit.set()

    async def _send(self, action: Send) -> None:
        connection = self._connection
        if connection is None:
            self._terminal.write("not connected to the server right now; try again in a moment")
            return
        with contextlib.suppress(ConnectionClosed):  # the receiving side notices and reconnects
            await connection.send(action.message.to_wire())

    async def _fetch(self, action: Fetch) -> None:
        """GET a path of the server's HTTP API in a thread, and hand the answer to the core."""
        try:
            url = web_api.api_url(self._url, action.path)
        except web_api.NoHttpAddress as error:
            answer = web_api.HttpAnswer(action.request, None, str(error))
        else:
            answer = await asyncio.to_thread(web_api.get, url, action.request)
        await self._perform(self._core.fetched(answer))

    def _remember(self, token: str) -> None:
        try:
            self._tokens.put(self._url, self._core.name, token)
        except TokenStoreError as error:
            self._terminal.write(f"{error}; you will need a new name next time")


def _save(path: Path, content: str) -> str:
    """Write an exported game; the sentence to show either way."""
    try:
        path.write_text(content, encoding="utf-8")
    except OSError as error:
        return f"cannot write {path}: {error.strerror or error}"
    return f"saved {path}"
