"""Migration 0015 moves the rows keyed by a name to the id of the player they were about: a role,
mute, ban, password, device, puzzle rating or tournament of an account since deleted stays that
account's (or goes with it), never the newcomer's who took the name later.

On a new SQLite file and a new, empty PostgreSQL database (`tests/cluster/services.py`): migrated to
0014, it gets rows as they were stored before player ids, then opens with every migration.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from server.storage.database import MIGRATIONS_DIR, Storage

CHIEF, BOB, NEWCOMER, PLACEHOLDER = "chief", "bob", "Chief", "deleted-0123456789ab"
ROWS_BEFORE_IDS: list[tuple[str, list[tuple[Any, ...]]]] = [
    (
        "INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, ?)",
        [
            (PLACEHOLDER, b"unusable", "2026-01-01T00:00:00Z"),  # chief, deleted on 1 February
            (BOB, b"bob", "2026-01-05T00:00:00Z"),
            (NEWCOMER, b"newcomer", "2026-03-01T00:00:00Z"),  # took the name once it was free
        ],
    ),
    (
        "INSERT INTO deleted_accounts (placeholder, name_key, deleted_at, name_free_at) VALUES (?, ?, ?, ?)",
        [(PLACEHOLDER, "chief", "2026-02-01T00:00:00Z", "2026-02-02T00:00:00Z")],
    ),
    (
        "INSERT INTO moderation_roles (name_key, name, role, granted_by, granted_at) VALUES (?, ?, ?, ?, ?)",
        [
            ("chief", CHIEF, "admin", "operator", "2026-01-15T00:00:00Z"),
            ("bob", BOB, "moderator", "chief", "2026-01-20T00:00:00Z"),
        ],
    ),
    (
        "INSERT INTO bans (name_key, name, reason, banned_by, banned_at) VALUES (?, ?, ?, ?, ?)",
        [("chief", CHIEF, "abuse", "operator", "2026-01-25T00:00:00Z")],
    ),
    (
        "INSERT INTO mutes (name_key, name, until, reason, muted_by, muted_at) VALUES (?, ?, ?, ?, ?, ?)",
        [("chief", CHIEF, "2027-01-01T00:00:00Z", "shouting", "bob", "2026-01-21T00:00:00Z")],
    ),
    (
        "INSERT INTO account_passwords (player, password_hash, set_at) VALUES (?, ?, ?)",
        [(BOB, "argon2id hash", "2026-01-06T00:00:00Z")],
    ),
    (
        "INSERT INTO account_devices (device_id, player, token_hash, label, signed_in_at) VALUES (?, ?, ?, ?, ?)",
        [("phone", BOB, "ab" * 32, "phone", "2026-01-06T00:00:00Z")],
    ),
    (
        "INSERT INTO tournaments (tournament_id, name, format, organiser, rule, size, clock_initial_ms, "
        "clock_increment_ms, opening, rated, cycles, rounds, duration_s, max_players, listed, created_at, status, "
        "round) VALUES (?, 'Club', 'swiss', ?, 'freestyle', 15, 60000, 0, 'none', 0, 1, 3, 0, 8, 1, ?, 'open', 0)",
        [("t-chief", CHIEF, "2026-01-10T00:00:00Z"), ("t-bob", BOB, "2026-01-11T00:00:00Z")],
    ),
    (
        "INSERT INTO audit_log (entry_id, at, at_us, actor, action, target, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [("e1", "2026-01-15T00:00:00Z", 1, "operator", "grant", CHIEF, "runs the club")],
    ),
    (
        "INSERT INTO puzzles (puzzle_id, source, ply, rule, size, moves, solution, theme, win_in, forbidden, "
        "rating, rd, volatility, attempts, added_at) "
        "VALUES ('p1', 'a test', 0, 'freestyle', 9, '[]', '[]', 'vcf', 1, 0, 1500, 350, 0.06, 1, ?)",
        [("2026-01-01T00:00:00Z",)],
    ),
    (
        "INSERT INTO puzzle_attempts (player, puzzle_id, solved, rated, at) VALUES (?, 'p1', 1, 1, ?)",
        [(CHIEF, "2026-01-12T00:00:00Z")],
    ),
    (
        "INSERT INTO puzzle_ratings (player, rating, rd, volatility, attempts) VALUES (?, 1700, 300, 0.06, 1)",
        [(CHIEF,)],
    ),
]


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no schema yet: a new SQLite file, or a new, empty PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "db.sqlite3")
    url: str = request.getfixturevalue("empty_postgres_url")
    return url


async def test_rows_of_a_deleted_account_stay_its_own_and_the_others_move_to_their_players_ids(
    tmp_path: Path, new_database: str
) -> None:
    database = new_database
    before_ids = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, before_ids)
    (before_ids / "0015_player_ids.sql").unlink()
    storage = await Storage.open(database, before_ids)
    async with storage._driver.transaction() as write:
        for sql, rows in ROWS_BEFORE_IDS:
            await write.executemany(sql, rows)
    await storage.close()

    storage = await Storage.open(database)
    deleted, bob, newcomer = [await storage.find_player(name) for name in (PLACEHOLDER, BOB, NEWCOMER)]
    assert deleted is not None and bob is not None and newcomer is not None
    assert len({deleted.player_id, bob.player_id, newcomer.player_id}) == 3

    assert [(granted.name, granted.role) for granted in await storage.roles()] == [(BOB, "moderator")]
    assert await storage.role_of(NEWCOMER) is None
    assert await storage.ban_of(NEWCOMER) is None and await storage.mute_of(NEWCOMER) is None
    ban = await storage.ban_of(PLACEHOLDER)
    assert ban is not None and ban.player_id == deleted.player_id
    assert await storage.password_hash(BOB) == "argon2id hash"
    assert [device.device_id for device in await storage.devices(BOB)] == ["phone"]
    assert await storage.puzzle_rating(NEWCOMER) == (await storage.puzzle_rating("nobody-at-all"))
    assert (await storage.puzzle_rating(PLACEHOLDER))[1] == 1
    organisers = {t: (await storage.tournament(t)) for t in ("t-chief", "t-bob")}
    assert {t: None if s is None else s.terms.organiser_id for t, s in organisers.items()} == {
        "t-chief": deleted.player_id,
        "t-bob": bob.player_id,
    }
    assert [entry.target_id for entry in await storage.audit_log(10)] == [deleted.player_id]
    await storage.close()
