"""`gomoku-admin`: the operator's moderation, on the server's machine, through the server's own storage.

    gomoku-admin [--db PATH] grant NAME {admin,moderator} --reason WHY
    gomoku-admin [--db PATH] revoke NAME --reason WHY
    gomoku-admin [--db PATH] roles
    gomoku-admin [--db PATH] ban NAME --reason WHY
    gomoku-admin [--db PATH] unban NAME --reason WHY
    gomoku-admin [--db PATH] rename NAME NEW_NAME --reason WHY
    gomoku-admin [--db PATH] audit [--limit N] [--player NAME]
    gomoku-admin [--db PATH] delete-games GAME... --reason WHY
    gomoku-admin [--db PATH] reset-password NAME [--password-file FILE] --reason WHY
    gomoku-admin [--db PATH] backup DESTINATION

It opens the database the server uses (the same `Storage`, so the same
migrations and the same group-commit writer) while the server runs or not.
Each action goes to the audit log under the operator's login name. `backup` copies
the SQLite database, consistently, while the server runs (`server.storage.backup`). A ban
made here bars the next sign-in; one made by a moderator over the wire also
closes the player's connections at once.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from engine.record import format_timestamp
from server.accounts.service import password_reset_records
from server.domain import AuditEntry, Refusal
from server.main import DEFAULT_DB
from server.moderation.actions import Moderation, new_name_of
from server.storage.backup import backup_sqlite
from server.storage.database import Storage, StorageError, StorageUnavailable, is_postgres

PASSWORD_LENGTHS = range(8, 257)
"""A password's length in characters, as `set_password` takes it over the wire."""
AUDIT_LIMIT = 50
"""Audit entries listed when `--limit` is not given."""

Command = Callable[[Moderation, Storage, argparse.Namespace, str], Awaitable[list[str]]]


def operator() -> str:
    """Who the audit log names for an action taken here: the login name on the server's machine."""
    return f"operator:{getpass.getuser()}"


async def _grant(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    player = await moderation.grant(actor, arguments.name, arguments.role, arguments.reason)
    return [f"{player.name} is now {arguments.role}"]


async def _revoke(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    player = await moderation.revoke(actor, arguments.name, arguments.reason)
    return [f"{player.name} has no role any more"]


async def _roles(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    return [
        f"{grant.name}\t{grant.role}\tgranted by {grant.by} at {format_timestamp(grant.at)}"
        for grant in await storage.roles()
    ]


async def _ban(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    banned = await moderation.ban(actor, arguments.name, arguments.reason)
    return [f"{banned.target} is banned"]


async def _unban(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    player = await moderation.unban(actor, arguments.name, arguments.reason)
    return [f"{player.name} may sign in again"]


async def _rename(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    renamed = await moderation.rename(actor, arguments.name, arguments.new_name, arguments.reason)
    return [f"{renamed.target} is now {new_name_of(renamed)}"]


async def _audit(moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str) -> list[str]:
    return [audit_line(entry) for entry in await storage.audit_log(arguments.limit, arguments.player)]


def audit_line(entry: AuditEntry) -> str:
    """One audit entry as a tab-separated line: when, who, what, whom, why, and what else it says."""
    fields = (format_timestamp(entry.at), entry.actor, entry.action, entry.target, entry.reason, entry.detail or "")
    return "\t".join(fields)


async def _delete_games(
    moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str
) -> list[str]:
    deleted = await moderation.delete_games(actor, arguments.games, True, arguments.reason)
    return [f"deleted {game_id}" for game_id in deleted]


async def _reset_password(
    moderation: Moderation, storage: Storage, arguments: argparse.Namespace, actor: str
) -> list[str]:
    player = await moderation.player(arguments.name)
    password = new_password(arguments.password_file)
    _, records = await password_reset_records(storage, player.name, password)
    await moderation.store_action(records, actor, "reset_password", player.name, arguments.reason, None, player)
    return [f"{player.name} has a new password; every device of theirs is signed out"]


def new_password(password_file: Path | None) -> str:
    """The new password: the first line of `password_file`, or typed twice without echo. Raises
    Refusal for one of the wrong length, or two that differ."""
    if password_file is not None:
        password = password_file.read_text(encoding="utf-8").splitlines()[0] if password_file.stat().st_size else ""
    else:
        password = getpass.getpass("new password: ")
        if getpass.getpass("again: ") != password:
            raise Refusal("bad_request", "the two passwords differ")
    if len(password) not in PASSWORD_LENGTHS:
        raise Refusal("bad_request", "a password is 8 to 256 characters")
    return password


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="gomoku-admin", description="Moderate a gomoku server from its machine.")
    top.add_argument("--db", default=DEFAULT_DB, help=f"the server's SQLite database file (default ./{DEFAULT_DB})")
    commands = top.add_subparsers(dest="command", required=True)

    def command(name: str, run: Command, help: str, *, reason: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help)
        sub.set_defaults(run=run)
        if reason:
            sub.add_argument("--reason", "-r", required=True, help="why, for the audit log")
        return sub

    grant = command("grant", _grant, "give a player a role")
    grant.add_argument("name")
    grant.add_argument("role", choices=("admin", "moderator"))
    command("revoke", _revoke, "take a player's role away").add_argument("name")
    command("roles", _roles, "list the players with a role", reason=False)
    command("ban", _ban, "bar a player from signing in").add_argument("name")
    command("unban", _unban, "let a banned player sign in again").add_argument("name")
    rename = command("rename", _rename, "give a player a new name (the old one is retired)")
    rename.add_argument("name")
    rename.add_argument("new_name")
    audit = command("audit", _audit, "list the latest moderation actions, newest first", reason=False)
    audit.add_argument("--limit", type=_positive, default=AUDIT_LIMIT)
    audit.add_argument("--player", help="only the actions done to this player")
    delete = command("delete-games", _delete_games, "delete finished games (rated ones too)")
    delete.add_argument("games", nargs="+", metavar="GAME")
    reset = command("reset-password", _reset_password, "give a player a new password and sign out every device")
    reset.add_argument("name")
    reset.add_argument("--password-file", type=Path, help="read it from this file's first line (else typed twice)")
    backup = commands.add_parser("backup", help="copy the database, consistently, while the server runs")
    backup.add_argument("destination", type=Path, help="a new file to write the copy to")
    return top


def backup(arguments: argparse.Namespace) -> list[str]:
    """Copy the SQLite database (PostgreSQL is backed up with its own pg_dump)."""
    if is_postgres(arguments.db):
        raise StorageError("a PostgreSQL database is backed up with pg_dump (docs/operating.md, Backups)")
    copy = backup_sqlite(Path(arguments.db), arguments.destination)
    return [f"backed up {copy.games} games to {copy.path} ({copy.size_bytes} bytes)"]


async def run(arguments: argparse.Namespace) -> list[str]:
    """Carry out the command on the database; the lines to print. Raises Refusal, StorageError."""
    storage = await Storage.open(arguments.db)
    try:
        command: Command = arguments.run
        return await command(Moderation(storage), storage, arguments, operator())
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> None:
    """Entry point of `gomoku-admin`: exit 0 when done, 1 when refused, 2 when the database cannot be used."""
    arguments = parser().parse_args(argv)
    try:
        lines = backup(arguments) if arguments.command == "backup" else asyncio.run(run(arguments))
    except Refusal as refusal:
        print(f"gomoku-admin: {refusal.message}", file=sys.stderr)
        sys.exit(1)
    except (StorageError, StorageUnavailable) as error:
        print(f"gomoku-admin: {error}", file=sys.stderr)
        sys.exit(2)
    for line in lines:
        print(line)
    sys.exit(0)


if __name__ == "__main__":
    main()
