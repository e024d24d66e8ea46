"""`gomoku passwd` keeps a name with a password and `gomoku login` signs another machine in to it, the
passwords typed at the terminal without echo."""

from __future__ import annotations

import asyncio
from pathlib import Path

from client_harness import EXPECT_TIMEOUT_S, PseudoTerminal, gomoku_command, run_command

PASSWORD = "tiles of the garden"


async def test_a_name_kept_with_passwd_signs_in_on_another_machine_with_login(server_port: int, tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    async with PseudoTerminal.running_gomoku(server_port, home, "alice", 24, 80, "passwd") as terminal:
        await terminal.expect("new password: ")
        terminal.type(PASSWORD)
        await terminal.expect("new password again: ")
        terminal.type(PASSWORD)
        await terminal.expect("alice is kept with a password")
        assert await asyncio.wait_for(terminal.process.wait(), EXPECT_TIMEOUT_S) == 0
        shown = terminal.output
    assert PASSWORD not in shown, "the password is not echoed"

    refused = await run_command(gomoku_command(server_port, elsewhere, "alice", "games"))
    assert refused.status == 1 and "gomoku login" in refused.stderr

    async with PseudoTerminal.running_gomoku(server_port, elsewhere, "alice", 24, 80, "login") as terminal:
        await terminal.expect("password for alice: ")
        terminal.type(PASSWORD)
        await terminal.expect("signed in as alice on this machine")
        assert await asyncio.wait_for(terminal.process.wait(), EXPECT_TIMEOUT_S) == 0
        assert PASSWORD not in terminal.output
    games = await run_command(gomoku_command(server_port, elsewhere, "alice", "games"))
    assert games.status == 0, games.stderr


async def test_a_wrong_password_at_login_is_refused(server_port: int, tmp_path: Path) -> None:
    async with PseudoTerminal.running_gomoku(server_port, tmp_path, "bob", 24, 80, "login") as terminal:
        await terminal.expect("password for bob: ")
        terminal.type("not bob's password")
        await terminal.expect("wrong name or password")
        assert await asyncio.wait_for(terminal.process.wait(), EXPECT_TIMEOUT_S) == 1
