"""Starting `gomoku-server` where it cannot serve: one line saying why, exit status 2 within seconds,
and no process left behind (the bot pool's workers included)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GIVE_UP_S = 5.0
"""How soon a server that cannot start must have said so and gone, children and all."""


def start(*options: str, bot_workers: int = 0) -> subprocess.CompletedProcess[str]:
    """Run the server (in a session of its own, so that whatever it starts can be found) to its end."""
    began = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "server.main", "--port", "0", "--bot-workers", str(bot_workers), *options],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=30)
    finally:
        _kill_what_is_left(process.pid)
    took = time.monotonic() - began
    assert took < GIVE_UP_S + 10, f"the server took {took:.1f} s to give up"  # start-up of Python itself included
    _assert_nothing_left(process.pid)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _assert_nothing_left(session: int) -> None:
    deadline = time.monotonic() + GIVE_UP_S
    while _alive_in(session):
        assert time.monotonic() < deadline, "a process the server started outlived it"
        time.sleep(0.05)


def _alive_in(session: int) -> bool:
    try:
        os.killpg(session, 0)
    except ProcessLookupError:
        return False
    return True


def _kill_what_is_left(session: int) -> None:
    if _alive_in(session):
        os.killpg(session, 9)


def refused(*options: str, bot_workers: int = 0, foreseen: bool = True) -> str:
    """The one line the server printed last, before exiting with status 2. For a foreseen failure it
    is the only line besides the log's (timestamped); an unforeseen one logs its traceback first."""
    finished = start(*options, bot_workers=bot_workers)
    assert finished.returncode == 2, finished
    lines = finished.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("gomoku-server: "), finished.stderr
    if foreseen:
        assert [line for line in lines if not line[:4].isdigit()] == lines[-1:], finished.stderr
    assert "listening" not in finished.stdout
    return lines[-1]


def test_a_database_in_a_missing_folder(tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "games.sqlite3"
    line = refused("--db", str(db))
    assert str(db) in line and "does not exist" in line


def test_a_database_path_that_is_a_directory(tmp_path: Path) -> None:
    line = refused("--db", str(tmp_path))
    assert str(tmp_path) in line and "is a directory" in line


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("these are not the games you are looking for\n" * 100, encoding="utf-8")
    assert "not a database" in refused("--db", str(db))


def test_a_place_where_no_file_can_be_made_even_by_root() -> None:
    line = refused("--db", "/proc/gomoku.sqlite3")
    assert "/proc/gomoku.sqlite3" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to a read-only file")
def test_a_read_only_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"")
    db.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        line = refused("--db", str(db))
        assert "read-only" in line or "readonly" in line
    finally:
        tmp_path.chmod(0o755)


def test_a_database_whose_schema_is_not_the_servers_is_refused_with_its_bot_workers_stopped(tmp_path: Path) -> None:
    """A database that claims every migration but lacks the tables fails once the pool is running."""
    import sqlite3

    db = tmp_path / "games.sqlite3"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)")
        versions = [(int(path.name[:4]), path.name, "2026-01-01") for path in (REPO / "migrations").glob("*.sql")]
        connection.executemany("INSERT INTO schema_migrations VALUES (?, ?, ?)", versions)
    line = refused("--db", str(db), bot_workers=2, foreseen=False)
    assert "no such table" in line


def test_a_port_already_taken_with_bot_workers_running(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused("--db", str(tmp_path / "games.sqlite3"), "--port", str(port), bot_workers=2)
    assert f"cannot listen on 127.0.0.1:{port}" in line and "address already in use" in line


def test_an_engines_file_that_cannot_be_read(tmp_path: Path) -> None:
    line = refused("--db", str(tmp_path / "games.sqlite3"), "--engines", str(tmp_path / "nowhere.toml"))
    assert "cannot read the engines file" in line


def test_an_engines_file_without_bot_workers(tmp_path: Path) -> None:
    engines = tmp_path / "engines.toml"
    engines.write_text("[engines.rapfi]\ncommand = 'rapfi'\n", encoding="utf-8")
    line = refused("--db", str(tmp_path / "games.sqlite3"), "--engines", str(engines))
    assert "--bot-workers" in line
