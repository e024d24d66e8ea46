"""The tokens that let a player come back under the same name, one per server and name, in a small file.

The file is JSON, `{"ws://host:port/ws": {"alice": "token"}}`, readable by
its owner only. It lives in `$GOMOKU_CONFIG_DIR`, else
`$XDG_CONFIG_HOME/gomoku`, else `~/.config/gomoku` (the `--config-dir`
option overrides all three).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

CONFIG_DIR_ENV = "GOMOKU_CONFIG_DIR"
TOKENS_FILE = "tokens.json"


class TokenStoreError(Exception):
    """The tokens file exists but cannot be read or written; it is left as it was."""


def default_config_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the client keeps its files, from the environment."""
    if environ.get(CONFIG_DIR_ENV):
        return Path(environ[CONFIG_DIR_ENV]).expanduser()
    if environ.get("XDG_CONFIG_HOME"):
        return Path(environ["XDG_CONFIG_HOME"]).expanduser() / "gomoku"
    return Path.home() / ".config" / "gomoku"


class TokenStore:
    """Tokens by server address and player name, kept in one JSON file."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / TOKENS_FILE

    def get(self, server: str, name: str) -> str | None:
        """The token saved for `name` on `server`, or None. Raises TokenStoreError for an unreadable file."""
        token = self._read().get(server, {}).get(name)
        return token if isinstance(token, str) else None

    def put(self, server: str, name: str, token: str) -> None:
        """Save the token for `name` on `server`, replacing the file atomically (owner-only permissions)."""
        tokens = self._read()
        tokens.setdefault(server, {})[name] = token
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    json.dump(tokens, file, indent=2, sort_keys=True)
                    file.write("\n")
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError as error:
            raise TokenStoreError(f"cannot save the token in {self.path}: {error}") from error

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise TokenStoreError(f"cannot read {self.path}: {error}") from error
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not all(isinstance(names, dict) for names in data.values()):
            raise TokenStoreError(f"{self.path} is not a tokens file written by gomoku; move it away or fix it")
        return data
