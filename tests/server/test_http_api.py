"""HTTP on the server's port: no input, however odd, makes it answer 500.

A real `gomoku-server` process is started once for the module; hypothesis
sends it paths and query strings made of arbitrary text.
"""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/ws")
ROUTES = ["/healthz", "/api/games", "/api/games/", "/api/games/x", "/api/games/x.psq", "/api/games/x.sgf", "/", "/ws"]
PARAMETERS = ["limit", "before", "player", "kind", ""]


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    db_path = tmp_path_factory.mktemp("http") / "games.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "server.main", "--port", "0", "--db", str(db_path), "--bot-workers", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    match = LISTENING.fullmatch(process.stdout.readline().strip())
    assert match is not None
    yield int(match.group(1))
    process.terminate()
    process.wait(timeout=30)


def get(port: int, target: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", target)
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_limit_written_with_a_superscript_digit_is_a_bad_request(port: int) -> None:
    assert get(port, "/api/games?limit=%C2%B2") == 400
    assert get(port, "/api/games?limit=%EF%BC%93") == 400  # a full-width 3


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(ROUTES),
    tail=st.text(max_size=12),
    query=st.lists(st.tuples(st.sampled_from(PARAMETERS), st.text(max_size=12)), max_size=3),
)
def test_no_path_or_query_gives_a_server_error(port: int, route: str, tail: str, query: list[tuple[str, str]]) -> None:
    target = quote(route + tail, safe="/")
    if query:
        target += "?" + "&".join(f"{quote(name)}={quote(value)}" for name, value in query)
    assert get(port, target) < 500
