"""`gomoku`: the terminal client. `gomoku --server ws://127.0.0.1:8765/ws --name alice`, then type `help`."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from client.core import ClientCore
from client.session import Session, StdioTerminal
from client.tokens import CONFIG_DIR_ENV, TokenStore, TokenStoreError, default_config_dir

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
NAME_ENV = "GOMOKU_NAME"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gomoku", description="Play, watch and replay Gomoku games on a gomoku-server."
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"websocket address (default {DEFAULT_SERVER})")
    parser.add_argument(
        "--name",
        default=os.environ.get(NAME_ENV) or getpass.getuser(),
        help=f"player name: 1 to 32 of A-Z a-z 0-9 _ - (default ${NAME_ENV}, else your login name)",
    )
    parser.add_argument(
        "--config-dir",
        type=Path,
        default=None,
        help=f"where the token for each server and name is kept (default ${CONFIG_DIR_ENV}, else ~/.config/gomoku)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client; the exit status is 0 after `quit`, 1 if the server cannot be reached, 2 for bad options."""
    arguments = _arguments(argv)
    if not _NAME.fullmatch(arguments.name):
        print(f"gomoku: {arguments.name!r} is not a player name: use 1 to 32 of A-Z a-z 0-9 _ -", file=sys.stderr)
        return 2
    tokens = TokenStore(arguments.config_dir or default_config_dir())
    try:
        token = tokens.get(arguments.server, arguments.name)
    except TokenStoreError as error:
        print(f"gomoku: {error}", file=sys.stderr)
        return 2
    core = ClientCore(arguments.name, token, scripted_input=not sys.stdin.isatty())
    try:
        return asyncio.run(Session(core, arguments.server, StdioTerminal(), tokens).run())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
