"""`gomoku-admin` on the server's database file: roles, bans, renames, the audit log, deleting games."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.record import PlayerInfo
from engine.types import Color, EndReason, GameResult, Rule
from server.accounts.passwords import Passwords
from server.domain import GameFinished, GameStarted, Refusal, new_game_id, new_room_id, utc_now
from server.moderation.admin_cli import main
from server.moderation.gate import check_may_sign_in
from server.storage.database import Storage


def admin(db: Path, *arguments: str) -> int:
    """Run `gomoku-admin --db DB ARGUMENTS...`; its exit status."""
    with pytest.raises(SystemExit) as exited:
        main(["--db", str(db), *arguments])
    return int(exited.value.code or 0)


async def players_and_a_rated_game(db: Path) -> str:
    storage = await Storage.open(db)
    for name in ("alice", "bob"):
        await storage.add_player(name, name.encode())
    game_id = new_game_id()
    black, white = PlayerInfo("alice"), PlayerInfo("bob")
    started = GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, black, white, None, utc_now(), False, rated=True)
    finished = GameFinished(game_id, GameResult(Color.WHITE, EndReason.RESIGN), utc_now(), None, rated=True)
    await storage.apply([started, finished])
    await storage.close()
    return game_id


async def stored(db: Path, name: str) -> tuple[object, object, object]:
    storage = await Storage.open(db)
    try:
        return await storage.role_of(name), await storage.ban_of(name), await storage.find_player(name)
    finally:
        await storage.close()


def test_the_operator_grants_bans_renames_and_deletes_and_reads_it_all_in_the_audit_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gomoku.sqlite3"
    game_id = asyncio.run(players_and_a_rated_game(db))

    assert admin(db, "grant", "alice", "moderator", "--reason", "teacher") == 0
    assert admin(db, "roles") == 0
    assert admin(db, "ban", "bob", "-r", "spam") == 0
    assert admin(db, "rename", "bob", "Robert", "-r", "offensive") == 0
    assert admin(db, "delete-games", game_id, "-r", "test game") == 0
    assert admin(db, "audit") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:5] == ["alice is now moderator", out[1], "bob is banned", "bob is now Robert", f"deleted {game_id}"]
    assert out[1].startswith("alice\tmoderator\tgranted by operator:")
    log = [line.split("\t")[2:5] for line in out[5:]]
    assert log == [
        ["delete_games", game_id, "test game"],
        ["rename", "bob", "offensive"],
        ["ban", "bob", "spam"],
        ["grant", "alice", "teacher"],
    ]

    role, ban, player = asyncio.run(stored(db, "Robert"))
    assert role is None and ban is not None and player is not None
    assert asyncio.run(stored(db, "alice"))[0] == "moderator"


def test_a_refused_action_says_why_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "gomoku.sqlite3"
    asyncio.run(players_and_a_rated_game(db))
    assert admin(db, "ban", "nobody", "-r", "spam") == 1
    assert capsys.readouterr().err == "gomoku-admin: there is no player 'nobody'\n"
    assert admin(db, "unban", "alice", "-r", "why") == 1
    assert "not banned" in capsys.readouterr().err


def test_a_ban_from_the_machine_bars_the_next_sign_in(tmp_path: Path) -> None:
    db = tmp_path / "gomoku.sqlite3"
    asyncio.run(players_and_a_rated_game(db))
    assert admin(db, "ban", "alice", "-r", "spam") == 0

    async def sign_in_refused() -> str:
        storage = await Storage.open(db)
        try:
            with pytest.raises(Refusal) as refused:
                await check_may_sign_in(storage, "alice")
            return str(refused.value)
        finally:
            await storage.close()

    assert asyncio.run(sign_in_refused()) == "'alice' is banned from this server: spam"


def test_the_operator_resets_a_password_which_signs_every_device_out_and_is_logged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gomoku.sqlite3"
    asyncio.run(players_and_a_rated_game(db))
    password_file = tmp_path / "password"
    password_file.write_text("the operator's word\n", encoding="utf-8")

    assert admin(db, "reset-password", "ALICE", "--password-file", str(password_file), "-r", "forgot it") == 0
    assert admin(db, "audit") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "alice has a new password; every device of theirs is signed out"
    assert out[1].split("\t")[2:5] == ["reset_password", "alice", "forgot it"]

    async def password_checks() -> tuple[bool, bool]:
        storage = await Storage.open(db)
        try:
            player = await storage.find_player("alice")
            stored_hash = await storage.password_hash("alice")
            assert player is not None and stored_hash is not None
            return player.token_hash == b"alice", await Passwords().matches(stored_hash, "the operator's word")
        finally:
            await storage.close()

    token_still_works, password_works = asyncio.run(password_checks())
    assert not token_still_works and password_works


def test_a_reset_to_a_password_too_short_is_refused_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gomoku.sqlite3"
    asyncio.run(players_and_a_rated_game(db))
    password_file = tmp_path / "password"
    password_file.write_text("short\n", encoding="utf-8")
    assert admin(db, "reset-password", "alice", "--password-file", str(password_file), "-r", "why") == 1
    assert capsys.readouterr().err == "gomoku-admin: a password is 8 to 256 characters\n"
