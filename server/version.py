"""The server's version: the installed package's, as `pyproject.toml` gives it (one place to change)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "gomoku-server"


def server_version() -> str:
    """The version of the installed `gomoku-server`; from a source tree never installed, a sentence
    saying so (`./dev` installs it, so this is only seen when running the sources by hand)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (the sources are not installed)"
