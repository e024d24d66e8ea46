"""The browser client's files: a URL path in, a static asset (or nothing) out.

The page lives in `server/static/` and is served as it is written, with no
build step: `index.html`, its stylesheet and its JavaScript modules. This
module decides which file a path names and what headers go with it; the
HTTP layer only turns the answer into a response.

Three promises:

* nothing outside the static folder is ever read: a path is split into
  segments, and a segment that is empty, starts with a dot (`.`, `..`,
  hidden files) or holds anything but letters, digits, `_`, `-` and `.` is
  refused; the file found must still lie inside the folder once symbolic
  links are resolved;
* only known kinds of file are served, each with its content type
  (anything else is unknown: 404);
* every answer can be cached and revalidated: the ETag is a hash of the
  content, and a request whose `If-None-Match` holds it gets `304` with no
  body. Every file is `Cache-Control: no-cache` (keep it, but ask each
  time): without a build step the file names carry no version, so a longer
  lifetime could mix old and new modules for a while after an upgrade.

Files are read on each request: they are a few kilobytes, served from the
page cache, and someone editing the page sees the change on reload.
"""

from __future__ import annotations

import email.utils
import hashlib
import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

STATIC_ROOT = Path(__file__).resolve().parents[1] / "static"
"""The folder the page is served from (installed with the package)."""

INDEX = "index.html"
"""The file that `/` names."""

CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}
"""The kinds of file served, by extension; a file of any other kind is not served."""

PAGE_POLICY = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: everything from this server, no inline code, no
framing. A mistake that put a user's text into markup could not run it."""

MOVED = {"/favicon.ico": "/favicon.svg"}
"""Paths asked for by convention, not by the page, and where that file is: a browser, a bookmark or
a feed reader asks for /favicon.ico whatever the page's <link rel="icon"> says."""

_SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


@dataclass(frozen=True, slots=True)
class StaticReply:
    """What to answer for a static asset: status, headers and body."""

    status: HTTPStatus
    """200, or 304 when the client's copy is current."""
    headers: tuple[tuple[str, str], ...]
    """Content type and length (200 only), validator and caching headers."""
    body: bytes
    """The file's bytes (empty for 304)."""


def asset_path(url_path: str, root: Path = STATIC_ROOT) -> Path | None:
    """The file under `root` that a URL path names, or None if it names none.

    `url_path` is the path part of the request's URL, still percent-encoded.
    `/` names `index.html`. None for anything that could reach outside
    `root`, a hidden file, a folder, or a file of a kind not in CONTENT_TYPES.
    """
    decoded = unquote(url_path, errors="strict") if "%" in url_path else url_path
    if not decoded.startswith("/"):
        return None
    segments = decoded[1:].split("/") if decoded != "/" else [INDEX]
    if not all(_SEGMENT.fullmatch(segment) for segment in segments):
        return None
    candidate = root.joinpath(*segments)
    if candidate.suffix not in CONTENT_TYPES or not candidate.is_file():
        return None
    if not candidate.resolve().is_relative_to(root.resolve()):
        return None
    return candidate


def etag_of(body: bytes) -> str:
    """A strong validator for the content: a quoted prefix of its SHA-256."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an `If-None-Match` header names `etag` (weak forms and `*` included)."""
    if if_none_match is None:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


def static_reply(url_path: str, if_none_match: str | None = None, root: Path = STATIC_ROOT) -> StaticReply | None:
    """The reply for a static asset, or None when the path names none (answer 404)."""
    if url_path in MOVED:
        return StaticReply(HTTPStatus.MOVED_PERMANENTLY, (("Location", MOVED[url_path]), ("Content-Length", "0")), b"")
    try:
        path = asset_path(url_path, root)
    except UnicodeDecodeError:
        return None
    if path is None:
        return None
    body = path.read_bytes()
    etag = etag_of(body)
    headers = [
        ("Cache-Control", "no-cache"),
        ("ETag", etag),
        ("X-Content-Type-Options", "nosniff"),
    ]
    if path.name == INDEX:
        headers.append(("Content-Security-Policy", PAGE_POLICY))
    if matches(if_none_match, etag):
        return StaticReply(HTTPStatus.NOT_MODIFIED, tuple(headers), b"")
    headers[:0] = [("Content-Type", CONTENT_TYPES[path.suffix]), ("Content-Length", str(len(body)))]
    return StaticReply(HTTPStatus.OK, tuple(headers), body)


def static_response(request: Request, root: Path = STATIC_ROOT) -> Response | None:
    """The HTTP response for a request that names a static asset, else None.

    The websockets server closes the connection after any answer that is
    not a websocket handshake, hence `Connection: close`.
    """
    reply = static_reply(urlsplit(request.path).path, request.headers.get("If-None-Match"), root)
    if reply is None:
        return None
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            *reply.headers,
        ]
    )
    return Response(reply.status.value, reply.status.phrase, headers, reply.body)
