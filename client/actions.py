"""What the client's core asks the session to do: the core's whole output vocabulary."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wire.messages import ClientMessage


@dataclass(frozen=True, slots=True)
class Send:
    """Send a message to the server."""

    message: ClientMessage


@dataclass(frozen=True, slots=True)
class Show:
    """Print text for the player."""

    text: str


@dataclass(frozen=True, slots=True)
class SaveFile:
    """Write a file (an exported game) and tell the player how it went."""

    path: Path
    content: str


@dataclass(frozen=True, slots=True)
class RememberToken:
    """Store the token the server gave for this player name."""

    token: str


@dataclass(frozen=True, slots=True)
class Status:
    """Show this on the terminal's status line (the ticking clocks), or take the line away (None)."""

    text: str | None


@dataclass(frozen=True, slots=True)
class Fetch:
    """GET a path of the server's HTTP API (same host and port as the websocket), and hand the
    answer to `ClientCore.fetched` (a `client.web_api.HttpAnswer` carrying `request`)."""

    path: str
    request: int
    """The number that ties the answer to what it was asked for."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Close the connection and end the client."""

    status: int = 0
    """The exit status: 0 when the player asked to quit."""


Action = Send | Show | Status | SaveFile | RememberToken | Fetch | Quit
