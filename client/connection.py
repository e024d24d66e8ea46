"""One signed-in connection for the subcommands that scripts run (`gomoku bots`, `gomoku play`, ...).

The interactive client keeps its connection alive across drops; a
subcommand does one job and ends, so anything that goes wrong (the server
cannot be reached, refuses a request, closes, or stays silent) is a
`ScriptError` whose message the command prints on stderr before exiting 1.
Requests are answered in order: a request waits for the message carrying
its `id`, and the other messages that arrive meanwhile (a bot's move) are
kept for `receive`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from collections.abc import AsyncIterator
from typing import TypeVar

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from client.text import describe_refused_sign_in
from client.tokens import TokenStore, TokenStoreError
from wire.messages import (
    MAX_FRAME_BYTES,
    ClientMessage,
    ErrorMessage,
    Hello,
    ServerEvent,
    Welcome,
    parse_server_message,
)

_Answer = TypeVar("_Answer", bound=ServerEvent)

OPEN_TIMEOUT_S = 10.0
"""How long connecting may take."""

REPLY_TIMEOUT_S = 30.0
"""How long the server may take to answer a request."""


class ScriptError(Exception):
    """A subcommand cannot go on; the message says why, for stderr."""


class Refused(ScriptError):
    """The server answered a request with an error."""

    def __init__(self, error: ErrorMessage) -> None:
        super().__init__(f"{error.message} ({error.code})")
        self.error = error


class Connection:
    """A websocket to the server, signed in as one player."""

    def __init__(self, websocket: ClientConnection) -> None:
        self._websocket = websocket
        self._welcome: Welcome | None = None
        self._ids = itertools.count(1)
        self._unclaimed: deque[ServerEvent] = deque()
        """Messages that arrived while a request waited for its answer."""

    @classmethod
    @contextlib.asynccontextmanager
    async def signed_in(
        cls, url: str, name: str, tokens: TokenStore, password: str | None = None, device: str | None = None
    ) -> AsyncIterator[Connection]:
        """Connect to `url` and say hello as `name` with its saved token (a new player's token is saved),
        or with `password` (accounts: this machine becomes a device of the account, called `device`,
        and its token is saved)."""
        try:
            token = tokens.get(url, name)
        except TokenStoreError as error:
            raise ScriptError(str(error)) from None
        try:
            websocket = await websockets.connect(url, max_size=MAX_FRAME_BYTES, open_timeout=OPEN_TIMEOUT_S)
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            raise ScriptError(f"cannot connect to {url}: {error}") from None
        try:
            connection = cls(websocket)
            hello = Hello(name=name, token=token)
            if password is not None:
                hello = Hello(name=name, password=password, device=device)
            try:
                welcome = await connection.request_answer(hello, Welcome)
            except Refused as refusal:
                raise ScriptError(describe_refused_sign_in(name, refusal.error)) from None
            connection._welcome = welcome
            _remember(tokens, url, name, welcome.token)
            yield connection
        finally:
            await websocket.close()

    @property
    def welcome(self) -> Welcome:
        """The server's `welcome` to this connection (`signed_in` says hello)."""
        if self._welcome is None:
            raise ScriptError("not signed in")
        return self._welcome

    async def request(self, message: ClientMessage, timeout_s: float = REPLY_TIMEOUT_S) -> ServerEvent:
        """Send `message` and return the server's answer to it. Raises Refused for an error answer,
        ScriptError when the connection closes or the answer does not come within `timeout_s`."""
        request_id = next(self._ids)
        try:
            await self._websocket.send(message.model_copy(update={"id": request_id}).to_wire())
        except ConnectionClosed:
            raise ScriptError("the server closed the connection") from None
        while True:
            answer = await self._read(timeout_s)
            if answer.id != request_id:
                self._unclaimed.append(answer)
            elif isinstance(answer, ErrorMessage):
                raise Refused(answer)
            else:
                return answer

    async def request_answer(self, message: ClientMessage, answer_type: type[_Answer]) -> _Answer:
        """Send `message` and return its answer, which must be an `answer_type`. Raises as `request`
        does, and ScriptError when the server answers with another message."""
        answer = await self.request(message)
        if not isinstance(answer, answer_type):
            asked = getattr(message, "type", type(message).__name__)  # each request's class names its type
            raise ScriptError(f"the server answered {asked} with {answer.type!r}")
        return answer

    async def receive(self, timeout_s: float) -> ServerEvent:
        """The next message that was not the answer to a request. Raises ScriptError after `timeout_s`."""
        if self._unclaimed:
            return self._unclaimed.popleft()
        return await self._read(timeout_s)

    def take_unclaimed(self) -> list[ServerEvent]:
        """The messages that arrived while requests waited for their answers, handed over once."""
        messages = list(self._unclaimed)
        self._unclaimed.clear()
        return messages

    async def _read(self, timeout_s: float) -> ServerEvent:
        while True:
            try:
                async with asyncio.timeout(timeout_s):
                    frame = await self._websocket.recv()
            except TimeoutError:
                raise ScriptError(f"the server sent nothing for {timeout_s:g} s") from None
            except ConnectionClosed:
                raise ScriptError("the server closed the connection") from None
            if isinstance(frame, str):
                with contextlib.suppress(ValueError):  # a message of a later protocol: not for this client
                    return parse_server_message(frame)


def _remember(tokens: TokenStore, url: str, name: str, token: str) -> None:
    try:
        tokens.put(url, name, token)
    except TokenStoreError as error:
        raise ScriptError(f"{error}; the name {name!r} cannot be used again without it") from None
