"""Starting `gomoku-server` on a database it cannot use: one line naming the path and why, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def start(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.main", "--port", "0", "--db", str(db), "--bot-workers", "0"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def refused(db: Path) -> str:
    finished = start(db)
    assert finished.returncode == 2, finished
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1, finished.stderr
    assert str(db) in lines[0] and lines[0].startswith("gomoku-server: ")
    return lines[0]


def test_a_database_in_a_missing_folder(tmp_path: Path) -> None:
    assert "does not exist" in refused(tmp_path / "nowhere" / "games.sqlite3")


def test_a_database_path_that_is_a_directory(tmp_path: Path) -> None:
    assert "is a directory" in refused(tmp_path)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("these are not the games you are looking for\n" * 100, encoding="utf-8")
    assert "not a database" in refused(db)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to a read-only file")
def test_a_read_only_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"")
    db.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        assert "read-only" in refused(db) or "readonly" in refused(db)
    finally:
        tmp_path.chmod(0o755)
