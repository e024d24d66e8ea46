"""`gomoku login` and `gomoku passwd`: a name kept with a password, signed in to from any machine.

`login` signs this machine in to the account with its password (a new device; its token is kept like
any other), `passwd` sets the name's first password or changes it. Passwords are read without echo
(`getpass`), and never taken from the command line, which other users of the machine can read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from client.connection import Connection, ScriptError
from client.tokens import TokenStore
from wire.accounts import SetPassword
from wire.accounts_events import PasswordSetMessage

DEVICE_LABEL = "gomoku (terminal)"
"""How this client's sign-ins are named in the device list."""
MIN_PASSWORD_LENGTH = 8
"""The shortest password the server takes."""

ReadPassword = Callable[[str], str]
"""Asks for a password with a prompt, without echo (`getpass.getpass`)."""


async def login(url: str, name: str, tokens: TokenStore, read_password: ReadPassword, out: TextIO) -> None:
    """Sign this machine in to `name` with its password; the token is kept for later commands."""
    password = read_password(f"password for {name}: ")
    async with Connection.signed_in(url, name, tokens, password=password, device=DEVICE_LABEL) as connection:
        out.write(f"signed in as {connection.welcome.player.name} on this machine\n")


async def passwd(url: str, name: str, tokens: TokenStore, read_password: ReadPassword, out: TextIO) -> None:
    """Set the name's password (asking for the current one first when it has one)."""
    async with Connection.signed_in(url, name, tokens) as connection:
        old = read_password("current password: ") if connection.welcome.password else None
        new = read_password("new password: ")
        if len(new) < MIN_PASSWORD_LENGTH:
            raise ScriptError(f"a password has at least {MIN_PASSWORD_LENGTH} characters")
        if read_password("new password again: ") != new:
            raise ScriptError("the two new passwords differ; nothing changed")
        answer = await connection.request_answer(SetPassword(password=new, old_password=old), PasswordSetMessage)
        out.write(f"{answer.name} is kept with a password: sign in from another machine with `gomoku login`\n")
