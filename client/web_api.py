"""The server's HTTP API, seen from the client: its address, derived from the websocket's, and a GET.

The server answers HTTP on the websocket's port (`/api/players/NAME`...),
so `ws://host:port/ws` gives `http://host:port/api/...` (and `wss`,
`https`). The GET blocks: the interactive client runs it in a thread.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

TIMEOUT_S = 10.0
"""How long the server may take to answer."""

_HTTP_SCHEMES = {"ws": "http", "wss": "https"}


class NoHttpAddress(ValueError):
    """The websocket address gives no HTTP address (it is not ws:// or wss://)."""


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """What came back from a GET."""

    request: int
    """The number of the `client.actions.Fetch` it answers."""
    status: int | None
    """The HTTP status, or None when no answer came (`body` then says why)."""
    body: str


def api_url(websocket_url: str, path: str) -> str:
    """The HTTP address of `path` on the server at `websocket_url`. Raises NoHttpAddress."""
    parts = urlsplit(websocket_url)
    scheme = _HTTP_SCHEMES.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise NoHttpAddress(f"{websocket_url} is not a ws:// or wss:// address, so its HTTP address is unknown")
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def player_path(name: str) -> str:
    """The path of a player's profile."""
    return "/api/players/" + quote(name, safe="")


def get(url: str, request: int, timeout_s: float = TIMEOUT_S) -> HttpAnswer:
    """GET `url`: its status and body (an error status is an answer too; no answer is status None)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return HttpAnswer(request, response.status, response.read().decode("utf-8", errors="replace"))
    except urllib.error.HTTPError as error:
        return HttpAnswer(request, error.code, error.read().decode("utf-8", errors="replace"))
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        return HttpAnswer(request, None, f"cannot reach {url}: {reason}")
