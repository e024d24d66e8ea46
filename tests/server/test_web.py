"""The browser client's files: which path names which file, with what headers, and nothing else.

The first tests use a static folder built in a temporary directory, with a
secret file beside it that no path may reach; the last ones ask a real
server for the real page, the raw way (`http.client` sends a path as it is,
dots and all).
"""

from __future__ import annotations

import asyncio
import http.client
import re
import socket
from http import HTTPStatus
from pathlib import Path

import pytest
from server_harness import RunningServer

from server.edge.web import CONTENT_TYPES, STATIC_ROOT, asset_path, etag_of, static_reply


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A static folder with a page, a module and a stylesheet, beside a secret page and a link out."""
    root = tmp_path / "static"
    (root / "js" / "views").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>page</title>", encoding="utf-8")
    (root / "js" / "main.js").write_text("export const answer = 42;\n", encoding="utf-8")
    (root / "js" / "views" / "board.js").write_text("export {};\n", encoding="utf-8")
    (root / "style.css").write_text("body { margin: 0 }\n", encoding="utf-8")
    (root / ".hidden.js").write_text("secret\n", encoding="utf-8")
    (root / "package.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "secret.html").write_text("not for you", encoding="utf-8")
    (root / "escape.html").symlink_to(tmp_path / "secret.html")
    return root


def headers_of(reply_headers: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return dict(reply_headers)


def test_the_root_is_the_page_and_paths_name_files_under_the_folder(site: Path) -> None:
    assert asset_path("/", site) == site / "index.html"
    assert asset_path("/index.html", site) == site / "index.html"
    assert asset_path("/js/main.js", site) == site / "js" / "main.js"
    assert asset_path("/js/views/board.js", site) == site / "js" / "views" / "board.js"
    assert asset_path("/js/%6Dain.js", site) == site / "js" / "main.js"


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.html",
        "/js/../../secret.html",
        "/%2e%2e/secret.html",
        "/..%2fsecret.html",
        "/js/%2E%2E/%2E%2E/secret.html",
        "/./index.html",
        "//index.html",
        "/js//main.js",
        "/js\\..\\..\\secret.html",
        "/%00index.html",
        "/index.html%00.js",
        "/%ff.js",
        "/escape.html",
        "/.hidden.js",
        "/package.json",
        "/js",
        "/js/",
        "/missing.js",
        "index.html",
        "",
    ],
)
def test_no_path_reaches_outside_the_folder_or_a_file_not_served(site: Path, path: str) -> None:
    assert static_reply(path, None, site) is None


def test_each_kind_of_file_has_its_content_type_and_length(site: Path) -> None:
    for path, kind in (("/", ".html"), ("/js/main.js", ".js"), ("/style.css", ".css")):
        reply = static_reply(path, None, site)
        assert reply is not None and reply.status is HTTPStatus.OK
        headers = headers_of(reply.headers)
        assert headers["Content-Type"] == CONTENT_TYPES[kind]
        assert headers["Content-Length"] == str(len(reply.body))
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_every_file_is_revalidated_by_its_content_hash(site: Path) -> None:
    first = static_reply("/js/main.js", None, site)
    assert first is not None
    headers = headers_of(first.headers)
    assert headers["Cache-Control"] == "no-cache"
    assert headers["ETag"] == etag_of(first.body)

    for validator in (headers["ETag"], f"W/{headers['ETag']}", f'"other", {headers["ETag"]}', "*"):
        again = static_reply("/js/main.js", validator, site)
        assert again is not None and again.status is HTTPStatus.NOT_MODIFIED and again.body == b"", validator
        assert headers_of(again.headers)["ETag"] == headers["ETag"]
        assert "Content-Length" not in headers_of(again.headers)

    (site / "js" / "main.js").write_text("export const answer = 43;\n", encoding="utf-8")
    changed = static_reply("/js/main.js", headers["ETag"], site)
    assert changed is not None and changed.status is HTTPStatus.OK
    assert headers_of(changed.headers)["ETag"] != headers["ETag"]


def test_only_the_page_carries_the_content_security_policy(site: Path) -> None:
    page = static_reply("/", None, site)
    module = static_reply("/js/main.js", None, site)
    assert page is not None and module is not None
    policy = headers_of(page.headers)["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "Content-Security-Policy" not in headers_of(module.headers)


# ------------------------------------------------------------ the real page


def raw_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET with the path sent exactly as given."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        connection.close()


IMPORT = re.compile(r"""^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]""", re.MULTILINE)


def module_graph() -> set[str]:
    """Every module the page loads, as URL paths: main.js and what it imports, transitively."""
    found: set[str] = set()
    waiting = ["/js/main.js"]
    while waiting:
        path = waiting.pop()
        if path in found:
            continue
        found.add(path)
        text = (STATIC_ROOT / path.lstrip("/")).read_text(encoding="utf-8")
        base = path.rsplit("/", 1)[0]
        for relative in IMPORT.findall(text):
            parts = base.split("/") + relative.split("/")
            resolved: list[str] = []
            for part in parts:
                if part == "..":
                    resolved.pop()
                elif part not in (".", ""):
                    resolved.append(part)
            waiting.append("/" + "/".join(resolved))
    return found


async def test_the_server_serves_the_page_its_modules_and_nothing_beside_them(game_server: RunningServer) -> None:
    port = game_server.port
    status, headers, body = await asyncio.to_thread(raw_get, port, "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache" and b'<script type="module" src="js/main.js">' in body

    modules = module_graph()
    assert {"/js/main.js", "/js/store.js", "/js/connection.js", "/js/views/board.js"} <= modules
    for path in sorted(modules) + ["/style.css", "/favicon.svg"]:
        status, headers, body = await asyncio.to_thread(raw_get, port, path)
        assert status == 200, path
        assert headers["Content-Type"] == CONTENT_TYPES[Path(path).suffix], path
        revalidated = await asyncio.to_thread(raw_get, port, path, {"If-None-Match": headers["ETag"]})
        assert (revalidated[0], revalidated[2]) == (304, b""), path

    status, headers, body = await asyncio.to_thread(raw_get, port, "/favicon.ico")
    assert (status, headers["Location"], body) == (301, "/favicon.svg", b""), "the icon asked for by convention"

    for outside in ("/../server/app.py", "/%2e%2e/server/edge/web.py", "/js/../../pyproject.toml", "/package.json"):
        assert (await asyncio.to_thread(raw_get, port, outside))[0] == 404, outside
    assert (await game_server.get("/healthz"))[0] == 200
    assert (await game_server.get("/api/games"))[0] == 200


def raw_request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Send one request exactly as written and read all of the answer, body and all (the server
    closes the connection after it): status, headers and the bytes after them."""
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
        answer = b""
        while chunk := connection.recv(65_536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    return int(status_line.split(" ")[1]), dict(line.split(": ", 1) for line in header_lines), body


async def test_head_answers_the_headers_of_get_and_no_body(game_server: RunningServer) -> None:
    for path in ("/", "/js/main.js", "/healthz", "/api/games", "/no-such-page"):
        status, headers, body = await asyncio.to_thread(raw_request, game_server.port, "GET", path)
        head_status, head_headers, head_body = await asyncio.to_thread(raw_request, game_server.port, "HEAD", path)
        assert (head_status, head_body) == (status, b""), path
        assert head_headers["Content-Length"] == str(len(body)) != "0", path
        assert head_headers["Content-Type"] == headers["Content-Type"], path
        assert head_headers.get("ETag") == headers.get("ETag"), path


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
async def test_other_methods_are_refused_with_the_methods_allowed(game_server: RunningServer, method: str) -> None:
    for path in ("/", "/style.css", "/healthz", "/metrics", "/api/games", "/no-such-page"):
        status, headers, body = await asyncio.to_thread(
            raw_request, game_server.port, method, path, {"Content-Length": "0"}
        )
        assert (status, headers["Allow"]) == (HTTPStatus.METHOD_NOT_ALLOWED, "GET, HEAD"), path
        assert body.decode() == f"{method} is not answered here: only GET and HEAD", path
    status, headers, _ = await asyncio.to_thread(raw_request, game_server.port, method, "/ws", {"Content-Length": "0"})
    assert (status, headers["Allow"]) == (HTTPStatus.METHOD_NOT_ALLOWED, "GET"), "websockets' own answer"


def test_the_static_files_are_served_from_the_package() -> None:
    """Read beside the code, so that an installed wheel serves them (tests/install checks the wheel
    and the Docker image carry them)."""
    repo = Path(__file__).resolve().parents[2]
    assert STATIC_ROOT == repo / "server" / "static"
