"""A copy of a running server's SQLite database, taken with SQLite's online backup API.

The copy is taken in one step, so it is the database as it stood at one instant: in WAL mode the
server goes on writing meanwhile (a reader never blocks the writer). It is written beside its
destination and renamed into place once checked, so a failed backup leaves no half-file behind.
PostgreSQL has its own tools for this (pg_dump; docs/operating.md, "Backups").
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from server.storage.drivers import StorageError

BUSY_TIMEOUT_MS = 5_000
"""How long the copy waits for the server's write lock, should it need one (it reads only)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """What a backup holds, to tell the operator."""

    path: Path
    games: int
    size_bytes: int


def backup_sqlite(source: Path, destination: Path) -> Backup:
    """Copy the database at `source` to `destination` (which must not exist yet), check the copy's
    integrity, and say what it holds. Raises StorageError with the reason in one sentence."""
    if not source.is_file():
        raise StorageError(f"cannot back up {source}: there is no database there")
    if destination.exists():
        raise StorageError(f"will not back up to {destination}: it exists already (choose a new name)")
    if not destination.parent.is_dir():
        raise StorageError(f"cannot back up to {destination}: the folder {destination.parent} does not exist")
    partial = destination.with_name(f".{destination.name}.partial")
    try:
        games = _copy(source, partial)
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise StorageError(f"cannot back up {source}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return Backup(destination, games, destination.stat().st_size)


def _copy(source: Path, destination: Path) -> int:
    """Copy in one step and check the copy; the number of games it holds."""
    with closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as origin:
        with closing(sqlite3.connect(destination)) as copy:
            origin.backup(copy)
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise StorageError(f"the copy of {source} failed its integrity check: {verdict}")
            # A backup is a file to keep on its own: no write-ahead log beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
            (games,) = copy.execute("SELECT COUNT(*) FROM games").fetchone()
    return int(games)
