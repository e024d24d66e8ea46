"""Fixtures: a throw-away PostgreSQL on loopback, once per test session, and a fresh database per test.

`postgres_server` starts Debian's PostgreSQL (`tools.local_services`) the first
time a test asks for it, and stops it by its pid when the session ends,
whatever the tests did. Each test gets a database of its own, copied from a
template that is migrated once (`CREATE DATABASE ... TEMPLATE`), which costs
a few milliseconds where migrating would cost more.

Where PostgreSQL is not installed, these tests skip, saying why; with
`GOMOKU_CLUSTER_TESTS=required` (as `.ci/run` sets) they fail instead.
`database` runs a test on both databases: a SQLite file and PostgreSQL.
`clients` opens clients signed in on server nodes (`ServerNode`), closed at the end.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest
from websockets.asyncio.client import connect

from server.storage.database import Storage
from tests.server.server_harness import WireClient
from tools.local_services import LocalPostgres, ServerNode, postgres_missing

MIGRATED_TEMPLATE = "gomoku_template"
"""The database every test's migrated database is copied from."""
_numbers = itertools.count(1)


def require_postgres() -> None:
    """Skip the test when PostgreSQL is not installed, or fail it where it is required."""
    missing = postgres_missing()
    if missing is None:
        return
    if os.environ.get("GOMOKU_CLUSTER_TESTS") == "required":
        pytest.fail(f"GOMOKU_CLUSTER_TESTS=required, but {missing}")
    pytest.skip(missing)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalPostgres]:
    """A PostgreSQL server for this session (this test worker), with the migrated template database."""
    require_postgres()
    server = LocalPostgres.start()
    try:
        asyncio.run(_make_template(server))
        yield server
    finally:
        server.remove()


async def _make_template(server: LocalPostgres) -> None:
    await _create_database(server, MIGRATED_TEMPLATE, "template0")
    storage = await Storage.open(server.database_url(MIGRATED_TEMPLATE))
    await storage.close()


async def _create_database(server: LocalPostgres, name: str, template: str) -> str:
    connection = await asyncpg.connect(server.url)
    try:
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await connection.close()
    return server.database_url(name)


@pytest.fixture
async def postgres_url(postgres_server: LocalPostgres) -> str:
    """The URL of a new database with the server's schema, for this test alone."""
    return await _create_database(postgres_server, f"test_{os.getpid()}_{next(_numbers)}", MIGRATED_TEMPLATE)


@pytest.fixture
async def empty_postgres_url(postgres_server: LocalPostgres) -> str:
    """The URL of a new, empty database (no schema yet), for this test alone."""
    return await _create_database(postgres_server, f"empty_{os.getpid()}_{next(_numbers)}", "template0")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test's database, on each of the two: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "db.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def clients() -> AsyncIterator[Callable[[ServerNode, str, str | None], Awaitable[WireClient]]]:
    """Open a client on a node, signed in as a name (with its token, if given); all are closed at
    the end of the test."""
    opened: list[WireClient] = []

    async def open_client(node: ServerNode, name: str, token: str | None = None) -> WireClient:
        wire = WireClient(await connect(node.url))
        opened.append(wire)
        await wire.hello(name, token)
        return wire

    yield open_client
    for wire in opened:
        await wire.close()
