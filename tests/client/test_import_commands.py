"""Importing games from the terminal: `gomoku import FILE...` against a real server (a subprocess)."""

from __future__ import annotations

from pathlib import Path

from client_harness import Completed, gomoku_command, run_command

PSQ = "Piskvorky 15x15, 0:0, 0\n8,8,900\n9,9,400\n9,8,700\n10,10,300\n10,8,500\nhomo-sam\nhomo-tom\n-1\n"
"""Sam and Tom's unfinished game, saved by hand from Piskvork (code -1)."""


async def gomoku(server_port: int, tmp_path: Path, *arguments: str) -> Completed:
    return await run_command(gomoku_command(server_port, tmp_path, "sam", *arguments))


async def test_import_prints_a_line_per_game_stored_which_export_then_writes(server_port: int, tmp_path: Path) -> None:
    (tmp_path / "evening.psq").write_text(PSQ, encoding="utf-8")
    (tmp_path / "lesson.txt").write_text("h8 i9 h9\n7,7 8,8\n", encoding="utf-8")
    stored = await gomoku(
        server_port,
        tmp_path,
        "import",
        str(tmp_path / "evening.psq"),
        str(tmp_path / "lesson.txt"),
        "--black",
        "Ms Lee",
    )
    assert (stored.status, stored.stderr) == (0, "")
    lines = [line.split("\t") for line in stored.stdout.splitlines()]
    assert [line[1:] for line in lines] == [
        ["evening.psq", "1", "psq", "sam", "tom", "5"],
        ["lesson.txt", "1", "moves", "Ms Lee", "white", "3"],
        ["lesson.txt", "2", "moves", "Ms Lee", "white", "2"],
    ]
    exported = await gomoku(server_port, tmp_path, "export", "-f", "psq", "--", lines[0][0])
    assert exported.status == 0
    assert exported.stdout.splitlines()[1:6] == ["8,8,900", "9,9,400", "9,8,700", "10,10,300", "10,8,500"]


async def test_a_refused_upload_says_why_and_stores_nothing(server_port: int, tmp_path: Path) -> None:
    (tmp_path / "good.psq").write_text(PSQ, encoding="utf-8")
    (tmp_path / "renju.txt").write_text("h8 a15 g8 a1 i7 o15 i6 o1 i8\n", encoding="utf-8")
    refused = await gomoku(
        server_port, tmp_path, "import", "--rule", "renju", str(tmp_path / "good.psq"), str(tmp_path / "renju.txt")
    )
    assert (refused.status, refused.stdout) == (1, "")
    assert refused.stderr == (
        "gomoku: renju.txt, game 1: line 1: move 9 (i8) is illegal: i8 is forbidden for black under renju "
        "(double-three): nothing of this upload was stored (bad_request)\n"
    )
    missing = await gomoku(server_port, tmp_path, "import", str(tmp_path / "nowhere.sgf"))
    assert missing.status == 1 and missing.stderr.startswith(f"gomoku: {tmp_path / 'nowhere.sgf'}: No such file")
    assert (await gomoku(server_port, tmp_path, "games")).stdout == ""
