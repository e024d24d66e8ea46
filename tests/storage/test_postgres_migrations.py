"""PostgreSQL's migrations: a new database starts from the baseline, recorded as the versions it stands
for, then takes each shared migration after it, once; nodes starting together migrate one at a time."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from server.storage.database import MIGRATIONS_DIR, Storage, StorageError


def migrations_with(tmp_path: Path, *extra: tuple[str, str]) -> Path:
    """The shipped migrations (with PostgreSQL's baseline) and `extra` (name, SQL) files after them."""
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    for name, sql in extra:
        (folder / name).write_text(sql, encoding="utf-8")
    return folder


async def test_a_new_database_starts_from_the_baseline_then_takes_the_migrations_after_it(
    tmp_path: Path, empty_postgres_url: str
) -> None:
    shipped = [int(path.name[:4]) for path in sorted(MIGRATIONS_DIR.glob("*.sql"))]
    later = 1 + shipped[-1]
    folder = migrations_with(tmp_path, (f"{later:04d}_notes.sql", "CREATE TABLE notes (text TEXT NOT NULL);"))

    storage = await Storage.open(empty_postgres_url, folder)
    assert await storage.applied_migrations() == [*shipped, later]
    await storage.close()

    (folder / f"{later + 1:04d}_more.sql").write_text("ALTER TABLE notes ADD COLUMN author TEXT;", encoding="utf-8")
    storage = await Storage.open(empty_postgres_url, folder)
    assert await storage.applied_migrations() == [*shipped, later, later + 1]
    async with storage._snapshot() as read:
        assert await read.rows("SELECT text, author FROM notes") == []
    await storage.close()


async def test_nodes_starting_together_on_a_new_database_migrate_it_once(
    tmp_path: Path, empty_postgres_url: str
) -> None:
    nodes = await asyncio.gather(*(Storage.open(empty_postgres_url) for _ in range(3)))

    for node in nodes:
        assert await node.applied_migrations() == [int(path.name[:4]) for path in sorted(MIGRATIONS_DIR.glob("*.sql"))]
        await node.close()


async def test_a_migration_that_fails_is_not_recorded_and_says_why(tmp_path: Path, empty_postgres_url: str) -> None:
    folder = migrations_with(tmp_path, ("0900_broken.sql", "CREATE TABLE broken (x TEXT REFERENCES nowhere (id));"))

    with pytest.raises(StorageError, match="nowhere"):
        await Storage.open(empty_postgres_url, folder)

    storage = await Storage.open(empty_postgres_url)
    assert 900 not in await storage.applied_migrations()
    await storage.close()


async def test_an_unreachable_database_is_refused_with_its_address(tmp_path: Path) -> None:
    from tools.local_services import free_port

    url = f"postgresql://nobody@127.0.0.1:{free_port()}/gomoku"
    with pytest.raises(StorageError, match=f"cannot use the database {url}"):
        await Storage.open(url)
