"""One schema on two databases: SQLite's, built by migrations 0001 on, and PostgreSQL's, built from its
baseline then the shared migrations, agree table by table, column by column, key by key, index by index.

How SQLite is spelled on PostgreSQL (the same list heads `migrations/postgresql/0007_baseline.sql`):
- declared types: TEXT is text, INTEGER integer, BIGINT bigint, REAL and DOUBLE PRECISION double
  precision, BLOB bytea; `players.rating`, INTEGER in SQLite but holding decimals, is double precision;
- SQLite's implicit `rowid` of `games` and `rating_changes` is a column `rowid` (an identity) there;
- a primary key's columns are NOT NULL (PostgreSQL makes them so; SQLite lets a TEXT key be NULL,
  which nothing writes);
- an index column's COLLATE NOCASE is the collation `nocase`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from server.storage.database import Storage

TYPES = {
    "TEXT": "text",
    "INTEGER": "integer",
    "BIGINT": "bigint",
    "REAL": "double precision",
    "DOUBLE PRECISION": "double precision",
    "BLOB": "bytea",
}
"""SQLite's declared types and the PostgreSQL types they are written as."""
WIDENED = {("players", "rating"): "double precision"}
"""Columns whose PostgreSQL type is wider than their SQLite declaration says, because of what they hold."""
IMPLICIT_ROWID = {"games", "rating_changes"}
"""Tables whose SQLite rowid is a column of PostgreSQL's: the order their rows are listed in."""


@dataclass(frozen=True)
class Schema:
    columns: dict[str, dict[str, tuple[str, bool]]]
    """Per table: each column's type (in PostgreSQL's words) and whether it may be NULL."""
    primary_keys: dict[str, tuple[str, ...]]
    foreign_keys: set[tuple[str, tuple[str, ...], str, tuple[str, ...]]]
    indexes: dict[str, tuple[str, bool, tuple[str, ...]]]
    """Per named index: its table, whether it is unique, its columns (`name nocase` when folded)."""


def sqlite_schema(path: Path) -> Schema:
    with sqlite3.connect(path) as db:
        listed = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        tables = [name for (name,) in listed]
        columns, keys, foreign, indexes = {}, {}, set(), {}
        for table in tables:
            info = list(db.execute(f"PRAGMA table_info({table})"))
            key = tuple(name for *_, name in sorted((pk, name) for _, name, _, _, _, pk in info if pk))
            keys[table] = key
            columns[table] = {
                name: (WIDENED.get((table, name), TYPES[kind.upper()]), not notnull and name not in key)
                for _, name, kind, notnull, _, _ in info
            }
            references: dict[int, list[tuple[str, str, str]]] = {}
            for number, _, other, source, target, *_ in db.execute(f"PRAGMA foreign_key_list({table})"):
                references.setdefault(number, []).append((other, source, target))
            for parts in references.values():
                foreign.add((table, tuple(p[1] for p in parts), parts[0][0], tuple(p[2] for p in parts)))
            for _, index, unique, origin, _ in db.execute(f"PRAGMA index_list({table})"):
                if origin != "c":
                    continue
                described = [row for row in db.execute(f"PRAGMA index_xinfo({index})") if row[5]]
                folded = tuple(f"{name} nocase" if coll == "NOCASE" else name for *_, name, _, coll, _ in described)
                indexes[index] = (table, bool(unique), folded)
    return Schema(columns, keys, foreign, indexes)


async def postgres_schema(url: str) -> Schema:
    db = await asyncpg.connect(url)
    try:
        columns: dict[str, dict[str, tuple[str, bool]]] = {}
        for row in await db.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = 'public'"
        ):
            if row["table_name"] in IMPLICIT_ROWID and row["column_name"] == "rowid":
                continue
            entry = (row["data_type"], row["is_nullable"] == "YES")
            columns.setdefault(row["table_name"], {})[row["column_name"]] = entry
        constraints = await db.fetch(
            "SELECT con.contype::text AS contype, t.relname AS table, f.relname AS other, "
            "ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a "
            "ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i) AS source, "
            "ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a "
            "ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i) AS target "
            "FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid "
            "LEFT JOIN pg_class f ON f.oid = con.confrelid JOIN pg_namespace s ON s.oid = t.relnamespace "
            "WHERE s.nspname = 'public' AND con.contype IN ('p', 'f')"
        )
        keys: dict[str, tuple[str, ...]] = dict.fromkeys(columns, ())  # as SQLite says of a table without one
        keys.update({row["table"]: tuple(row["source"]) for row in constraints if row["contype"] == "p"})
        foreign = {
            (row["table"], tuple(row["source"]), row["other"], tuple(row["target"]))
            for row in constraints
            if row["contype"] == "f"
        }
        indexes = {}
        for row in await db.fetch(
            "SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, "
            "ARRAY(SELECT a.attname || CASE WHEN c.collname = 'nocase' THEN ' nocase' ELSE '' END "
            "FROM unnest(x.indkey::int2[], x.indcollation::oid[]) WITH ORDINALITY k(n, coll, i) "
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n "
            "LEFT JOIN pg_collation c ON c.oid = k.coll ORDER BY k.i) AS columns "
            "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid "
            "JOIN pg_namespace s ON s.oid = t.relnamespace WHERE s.nspname = 'public' "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = x.indexrelid)"
        ):
            indexes[row["name"]] = (row["table"], row["unique"], tuple(row["columns"]))
        return Schema(columns, keys, foreign, indexes)
    finally:
        await db.close()


async def test_fresh_sqlite_and_postgresql_databases_have_one_schema(tmp_path: Path, empty_postgres_url: str) -> None:
    for target in (tmp_path / "db.sqlite3", empty_postgres_url):
        storage = await Storage.open(target)
        versions = await storage.applied_migrations()
        await storage.close()
        assert versions == [int(path.name[:4]) for path in sorted(Path("migrations").glob("*.sql"))]

    on_sqlite, on_postgres = sqlite_schema(tmp_path / "db.sqlite3"), await postgres_schema(empty_postgres_url)

    assert on_postgres.columns == on_sqlite.columns
    assert on_postgres.primary_keys == on_sqlite.primary_keys
    assert on_postgres.foreign_keys == on_sqlite.foreign_keys
    assert on_postgres.indexes == on_sqlite.indexes


async def test_the_comparison_sees_a_difference(tmp_path: Path, empty_postgres_url: str) -> None:
    """The schemas read differently as soon as one database has an index the other lacks."""
    for target in (tmp_path / "db.sqlite3", empty_postgres_url):
        await (await Storage.open(target)).close()
    connection = await asyncpg.connect(empty_postgres_url)
    await connection.execute("CREATE INDEX moves_by_color ON moves (color)")
    await connection.close()

    on_sqlite, on_postgres = sqlite_schema(tmp_path / "db.sqlite3"), await postgres_schema(empty_postgres_url)

    assert on_postgres.indexes["moves_by_color"] == ("moves", False, ("color",))
    assert "moves_by_color" not in on_sqlite.indexes
