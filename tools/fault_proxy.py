"""A TCP proxy on loopback that a fault test puts between server nodes and PostgreSQL or Redis, to cut
them apart and join them again, or to lose the answer to one commit.

A real network partition needs network namespaces and root; what a node sees
of one is its connections failing and new ones refused, which a proxy in
front of the service gives as well: `cut` closes every connection open
through it and turns new ones away (accepted, then closed at once) until
`reopen`. `lose_commit_answer` makes the unknown outcome of a commit happen
on purpose: the next PostgreSQL `COMMIT` sent on a connection that carried
`marker` (a game id, say) since its previous commit reaches the server, is
committed there, and the client's connection is closed before the server's
answer reaches it (the client cannot know that its commit landed).
`cut_after_delivering` cuts the proxy right after the service sent the
client a message carrying a marker (a forwarded command reaching a node
through Redis, which then cannot answer it).

The proxy runs in the caller's event loop (`start`, `close`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from dataclasses import dataclass, field

COMMIT = b"Q\x00\x00\x00\x0cCOMMIT;\x00"
"""PostgreSQL's simple-query message `COMMIT;`, as asyncpg sends it to end a transaction."""
CHUNK = 65536


@dataclass(eq=False)
class _Link:
    """One client's connection through the proxy, and its connection to the service."""

    client: asyncio.StreamWriter
    service: asyncio.StreamWriter
    carried_marker: bool = False
    """Whether the marker of an armed `lose_commit_answer` has passed since the last commit."""
    answer_lost: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the commit went to the server: its answer, and everything after, is dropped."""

    def close(self) -> None:
        for writer in (self.client, self.service):
            writer.close()


class FaultProxy:
    """Forwards connections on a free port of 127.0.0.1 to a service, until told to fail them."""

    def __init__(self, service_host: str, service_port: int) -> None:
        self._service = (service_host, service_port)
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.is_cut = False
        """Whether connections are turned away now (`cut`, until `reopen`)."""
        self._commit_marker: bytes | None = None
        self._delivery_marker: bytes | None = None
        self.commits_lost = 0
        """How many commits reached the server with their answers lost (`lose_commit_answer`)."""

    @classmethod
    async def start(cls, service_host: str, service_port: int) -> FaultProxy:
        """A proxy listening now, in front of the service at `service_host:service_port`."""
        proxy = cls(service_host, service_port)
        proxy._server = await asyncio.start_server(proxy._accept, "127.0.0.1", 0)
        return proxy

    @property
    def port(self) -> int:
        assert self._server is not None, "the proxy is not started"
        return int(self._server.sockets[0].getsockname()[1])

    def cut(self) -> None:
        """Close every connection open through the proxy, and turn new ones away until `reopen`."""
        self.is_cut = True
        for link in list(self._links):
            link.close()

    def reopen(self) -> None:
        """Forward new connections again."""
        self.is_cut = False

    def lose_commit_answer(self, marker: bytes) -> None:
        """Arm the loss of one commit's answer: the next `COMMIT` on a connection that sent `marker`
        since its previous commit goes to the server, and that connection is closed before the
        server's answer comes back."""
        self._commit_marker = marker

    def cut_after_delivering(self, marker: bytes) -> None:
        """Arm a cut: once a chunk from the service carrying `marker` has reached its client, `cut`."""
        self._delivery_marker = marker

    async def close(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.is_cut:
            writer.close()
            return
        try:
            service_reader, service_writer = await asyncio.open_connection(*self._service)
        except OSError:
            writer.close()
            return
        link = _Link(writer, service_writer)
        self._links.add(link)
        upstream = self._spawn(self._client_to_service(link, reader))
        downstream = self._spawn(self._service_to_client(link, service_reader))
        await asyncio.wait([upstream, downstream], return_when=asyncio.FIRST_COMPLETED)
        link.close()
        self._links.discard(link)

    def _spawn(self, work: Coroutine[None, None, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _client_to_service(self, link: _Link, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while chunk := await reader.read(CHUNK):
                link.service.write(chunk)
                await link.service.drain()
                if self._loses_this_answer(link, chunk):
                    link.answer_lost.set()
                    link.client.close()
                    await asyncio.sleep(1.0)  # the server reads the commit before it sees the close
                    return

    def _loses_this_answer(self, link: _Link, chunk: bytes) -> bool:
        """Whether this chunk, just sent to the server, ends the armed commit."""
        if self._commit_marker is None:
            return False
        link.carried_marker = link.carried_marker or self._commit_marker in chunk
        if COMMIT not in chunk:
            return False
        carried, link.carried_marker = link.carried_marker, False
        if not carried:
            return False
        self._commit_marker = None
        self.commits_lost += 1
        return True

    async def _service_to_client(self, link: _Link, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while chunk := await reader.read(CHUNK):
                if link.answer_lost.is_set():
                    continue
                link.client.write(chunk)
                await link.client.drain()
                if self._delivery_marker is not None and self._delivery_marker in chunk:
                    self._delivery_marker = None
                    self.cut()
