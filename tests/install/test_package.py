"""`pip install gomoku-server` as the image does it: a server from an empty folder, with and without extras.

Each test starts the image's own CMD (its host, port and database moved to the test's loopback, free
port and folder) from the virtualenv the image's own RUN lines made (see conftest.py), and plays
over the wire as any client would.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import tomllib
import urllib.request
import zipfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from conftest import BUILD_TIMEOUT_S, DOCKERFILE, REPO, clean_environment
from websockets.asyncio.client import connect

from tests.server.server_harness import WireClient

pytestmark = pytest.mark.timeout(BUILD_TIMEOUT_S + 120)
"""The first test of a run builds the package (mypyc included) for all of them."""

LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)/ws")
START_TIMEOUT_S = 60.0
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def image_command(data: Path, **changed: str) -> list[str]:
    """The image's CMD, listening on loopback on a free port, its database in `data`; `changed`
    replaces other options' values (`--db` by a PostgreSQL URL, say)."""
    command = DOCKERFILE.command()
    values = {"--host": "127.0.0.1", "--port": "0", "--db": str(data / Path(command[command.index("--db") + 1]).name)}
    values.update({f"--{name.replace('_', '-')}": value for name, value in changed.items()})
    for option, value in values.items():
        command[command.index(option) + 1] = value
    return command


def environment_of(venv: Path) -> dict[str, str]:
    """The image's environment: its virtualenv first on PATH (its ENV PATH), nothing of this checkout's."""
    return clean_environment() | {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}


@asynccontextmanager
async def running(venv: Path, folder: Path, command: list[str]) -> AsyncIterator[int]:
    """The server started from `folder`, until it has stopped on SIGTERM with status 0; yields its port."""
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=folder,
        env=environment_of(venv),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        line = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)).decode().strip()
        match = LISTENING.fullmatch(line)
        assert match is not None, (line, (await process.stderr.read()).decode()[-3000:])
        yield int(match.group(1))
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def fetch(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        body: str = response.read().decode("utf-8")
        return body


async def play_a_bot_and_fetch_the_record(port: int) -> None:
    """A player opens a game against the greedy bot, plays, resigns, and reads the record over HTTP."""
    player = WireClient(await connect(f"ws://127.0.0.1:{port}/ws"))
    try:
        await player.hello("newcomer")
        created = await player.request(type="create_room", black="me", white={"bot": "greedy"})
        assert created["room"]["status"] == "playing", created
        room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
        assert (await player.request(type="move", room_id=room_id, move="h8"))["ply"] == 1
        bot_move = await player.expect_next("moved")
        assert (bot_move["ply"], bot_move["color"]) == (2, "white")
        over = await player.request(type="resign", room_id=room_id)
        assert over["type"] == "game_over" and over["result"]["winner"] == "white"
    finally:
        await player.close()
    record = json.loads(await asyncio.to_thread(fetch, port, f"/api/games/{game_id}"))
    assert [move["move"] for move in record["moves"]][:1] == ["h8"] and len(record["moves"]) == 2
    assert record["result"]["reason"] == "resign"


async def test_the_default_image_serves_a_game_against_a_bot_from_an_empty_folder(
    image_venv: Callable[[str], Path], tmp_path: Path
) -> None:
    venv = image_venv(DOCKERFILE.arg_defaults["EXTRAS"])
    assert DOCKERFILE.arg_defaults["EXTRAS"] == "", "the default image is the one server on SQLite"
    empty, data = tmp_path / "empty", tmp_path / "data"
    empty.mkdir()
    data.mkdir()
    for missing in ("asyncpg", "redis"):
        probe = subprocess.run([venv / "bin" / "python", "-c", f"import {missing}"], capture_output=True, check=False)
        assert probe.returncode != 0, f"{missing} is installed without the cluster extra"

    async with running(venv, empty, image_command(data)) as port:
        assert (await asyncio.to_thread(fetch, port, "/healthz")) == f"ok gomoku-server {VERSION}"
        await play_a_bot_and_fetch_the_record(port)
    assert list(empty.iterdir()) == [], "the server wrote nothing where it was started"
    assert (data / "gomoku.sqlite3").is_file()


def test_without_the_cluster_extra_a_cluster_option_is_one_line_and_status_2(
    image_venv: Callable[[str], Path], tmp_path: Path
) -> None:
    venv = image_venv("")
    install = "pip install 'gomoku-server[cluster]'"
    asked = {
        "--bus redis://127.0.0.1:6379/0": f"--bus needs the cluster extra (redis is not installed): {install}",
        "--db postgresql://gomoku@127.0.0.1:5432/gomoku": "a postgresql:// --db needs the cluster extra "
        f"(asyncpg is not installed): {install}",
    }
    for options, reason in asked.items():
        command = [*image_command(tmp_path), *options.split()]
        finished = subprocess.run(command, cwd=tmp_path, env=environment_of(venv), capture_output=True, text=True)
        assert finished.returncode == 2, finished
        assert finished.stderr.splitlines() == [f"gomoku-server: {reason}"]

    version = subprocess.run(["gomoku-server", "--version"], env=environment_of(venv), capture_output=True, text=True)
    assert version.stdout.strip() == f"gomoku-server {VERSION}"


async def test_the_cluster_extra_serves_a_game_on_postgresql(
    image_venv: Callable[[str], Path], tmp_path: Path, empty_postgres_url: str
) -> None:
    venv = image_venv("[cluster]")
    async with running(venv, tmp_path, image_command(tmp_path, db=empty_postgres_url)) as port:
        await play_a_bot_and_fetch_the_record(port)


def test_the_built_wheel_carries_the_schema_the_client_and_the_engine(builder_stage: dict[str, Path]) -> None:
    (wheel,) = builder_stage["wheels"].glob("gomoku_server-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    schema = [path.relative_to(REPO).as_posix() for path in (REPO / "migrations").glob("**/*.sql")]
    assert {f"server/{name}" for name in schema} <= names
    data = {"server/static/index.html", "server/players/bot_ratings.json", "server/review/starting_puzzles.json"}
    assert data <= names
    assert any(name.startswith("engine/compiled__mypyc") and name.endswith(".so") for name in names)
    assert not any(name.startswith(("tests/", "bench/", "migrations/")) for name in names)
    assert {f"{package}/__init__.py" for package in ("engine", "wire", "brains", "server", "client", "tools")} <= names


def test_the_sdist_holds_what_a_wheel_is_built_from(tmp_path: Path) -> None:
    """`python -m build`: the sdist from this tree, then a wheel from that sdist alone (pure Python,
    to be quick: the compiled build is the image's, above) with the schema inside the package."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | {"GOMOKU_ENGINE": "pure"}
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path), str(REPO)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (sdist,) = tmp_path.glob("gomoku_server-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"setup.py", "pyproject.toml", "engine/build.py", "migrations/0001_initial.sql"} <= names
    assert "migrations/postgresql/0007_baseline.sql" in names
    (wheel,) = tmp_path.glob("gomoku_server-*.whl")
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert {f"server/migrations/{path.name}" for path in (REPO / "migrations").glob("*.sql")} <= in_wheel
    assert not any(name.endswith(".so") for name in in_wheel)
