"""Which web pages may open a websocket to the server: the Origin allow-list.

A browser says in `Origin` which page opens a websocket; no cookie or other credential travels with
it here, but a hostile page could still act from its visitor's address (make names, chat, spend that
address's password budget). A websocket request is let through when it carries no `Origin` (a
program, not a browser: the terminal client, `gomoku-bot`), when its `Origin` is the server's own
(the host and port the request reached, as its `Host` header says: the page the server served), or
when the operator listed it (`--allowed-origins`, for a web client served from elsewhere). Anything
else, `null` included (a sandboxed frame, a file), is refused with 403 before the handshake.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


def normalized_origin(text: str) -> str:
    """An origin as compared here: `scheme://host[:port]` in lower case. Raises ValueError for text
    that is not one (a path, a query, no host, a scheme other than http or https)."""
    parts = urlsplit(text.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError(f"{text!r} is not an origin: write it as https://HOST or https://HOST:PORT")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{text!r} is not an origin: only a scheme, a host and a port")
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True, slots=True)
class OriginPolicy:
    """The pages allowed to open a websocket besides the server's own."""

    allowed: frozenset[str] = frozenset()
    """Origins as `normalized_origin` writes them (`--allowed-origins`)."""

    def allows(self, origin: str | None, host: str | None) -> bool:
        """Whether a websocket request with this `Origin` (None: without one) that reached `host`
        (its `Host` header) may go on to the handshake."""
        if origin is None:
            return True
        try:
            page = normalized_origin(origin)
        except ValueError:
            return False
        return page in self.allowed or (host is not None and urlsplit(page).netloc == host.strip().lower())
