"""Throw-away services on this machine, on loopback only: a PostgreSQL, a Redis, an HAProxy and
server nodes, for tests and `./dev cluster` (`tools.cluster`).

`LocalPostgres.start()` makes a new database cluster in a temporary folder with
Debian's `initdb` (as the `postgres` user when run as root, which PostgreSQL
requires), starts it on 127.0.0.1 on a free port with fsync on, and gives
its address; `stop()` ends it by its pid, waiting until it has exited, and
`remove()` deletes its folder too. `ServerNode.start` runs one `gomoku-server`
node on it, stopped by its pid. `LocalRedis` runs a `redis-server` that keeps
nothing on disk, and `LocalProxy` an HAProxy in front of nodes.
Nothing here downloads anything: where a program is not installed,
`postgres_missing()` and `missing_programs()` say which `apt-get install` line brings it.
"""

from __future__ import annotations

import os
import pwd
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POSTGRES_VERSIONS = ("17", "16", "15")
"""Debian's PostgreSQL server packages looked for, newest first."""
START_TIMEOUT_S = 30.0
"""How long a starting or stopping PostgreSQL may take before it is given up on."""
SUPERUSER = "postgres"


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, postgres), or None when it is not installed."""
    for version in POSTGRES_VERSIONS:
        folder = Path(f"/usr/lib/postgresql/{version}/bin")
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def postgres_missing() -> str | None:
    """Why a local PostgreSQL cannot be started here (with the line that installs it), or None."""
    if postgres_bin() is None:
        return "PostgreSQL is not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and not _user_exists(SUPERUSER):
        return "PostgreSQL's `postgres` user is missing (apt-get install postgresql)"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LocalPostgres:
    """A PostgreSQL server this process started, in its own folder, on loopback."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls) -> LocalPostgres:
        """Create a database cluster in a new folder under the system's temporary folder (which the
        `postgres` user can reach, unlike a root-only pytest folder) and start it.

        Raises RuntimeError, with PostgreSQL's own words, if it cannot.
        """
        programs = postgres_bin()
        if programs is None:
            raise RuntimeError(postgres_missing())
        folder = Path(tempfile.mkdtemp(prefix="gomoku-postgres-"))
        as_user = _drop_to_postgres(folder)
        initdb = [str(programs / "initdb"), "-D", str(folder / "data"), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8"]
        done = subprocess.run(initdb, capture_output=True, user=as_user, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace')}")
        port = free_port()
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(port),
            "unix_socket_directories": str(folder),
            "fsync": "on",
            "max_connections": "200",
            "log_min_messages": "warning",
        }
        command = [str(programs / "postgres"), "-D", str(folder / "data")]
        command += [f"--{name.replace('_', '-')}={value}" for name, value in settings.items()]
        server = cls(folder, port, _launch(folder, command))
        server._wait_until_accepting()
        return server

    @property
    def url(self) -> str:
        """The address of its `postgres` database as the superuser."""
        return self.database_url(SUPERUSER)

    def database_url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop it by its pid (a fast shutdown: open sessions are ended) and wait until it has exited."""
        _stop(self.process, signal.SIGINT)

    def remove(self) -> None:
        """Stop it and delete its folder, data and all."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def start_again(self) -> None:
        """Start it again after `stop`, on the same port and data (a database server restarted)."""
        self.process = _launch(self.folder, [str(arg) for arg in self.process.args])  # type: ignore[union-attr]
        self._wait_until_accepting()

    def _wait_until_accepting(self) -> None:
        give_up_at = time.monotonic() + START_TIMEOUT_S
        while not _accepts(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"PostgreSQL exited at start: {self.log_tail()}")
            if time.monotonic() > give_up_at:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start within {START_TIMEOUT_S} s: {self.log_tail()}")
            time.sleep(0.05)
        ready = self.folder / "data" / "postmaster.pid"
        while "ready" not in ready.read_text(errors="replace"):
            if time.monotonic() > give_up_at:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not get ready within {START_TIMEOUT_S} s: {self.log_tail()}")
            time.sleep(0.05)

    def log_tail(self) -> str:
        return (self.folder / "postgres.log").read_text(errors="replace")[-2000:]


@dataclass
class ServerNode:
    """A `gomoku-server` process this process started (one node of several on one PostgreSQL)."""

    process: subprocess.Popen[str]
    url: str
    """Its websocket endpoint, `ws://127.0.0.1:PORT/ws`."""

    @classmethod
    def start(cls, database: str, node_id: str, log: Path, arguments: Sequence[str] = ()) -> ServerNode:
        """Start a node on 127.0.0.1 and a free port, on `database`, its stderr to `log`; return once
        it listens. Raises RuntimeError, with its log, if it stops or stays silent instead."""
        command = [sys.executable, "-m", "server.main", "--port", "0", "--db", database, "--node-id", node_id]
        with log.open("a") as stderr:
            process = subprocess.Popen(
                [*command, *arguments],
                cwd=Path(__file__).resolve().parents[1],
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            line = process.stdout.readline() if selector.select(START_TIMEOUT_S) else ""
        if not line.startswith("listening on "):
            _end(process)
            raise RuntimeError(f"node {node_id} did not start: {line!r} {log.read_text()[-2000:]}")
        return cls(process, line.removeprefix("listening on ").strip())

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """Stop it by its pid (SIGTERM: a clean stop) and wait for it. A node that has not stopped
        within START_TIMEOUT_S is killed (SIGKILL), and NodeDidNotStop raised: a clean stop that
        hangs is a bug (`systemctl stop` would hang too), never to be hidden by the kill."""
        if not _end(self.process):
            raise NodeDidNotStop(f"node pid {self.pid} did not stop within {START_TIMEOUT_S:.0f} s of SIGTERM: killed")


class NodeDidNotStop(RuntimeError):
    """A node did not stop within START_TIMEOUT_S of SIGTERM (it was killed)."""


def stop_nodes(nodes: Iterable[ServerNode]) -> None:
    """Stop every node, each by its pid, then raise NodeDidNotStop if any had to be killed."""
    hung = []
    for node in nodes:
        try:
            node.stop()
        except NodeDidNotStop as error:
            hung.append(str(error))
    if hung:
        raise NodeDidNotStop("; ".join(hung))


def _end(process: subprocess.Popen[str]) -> bool:
    """End the process by its pid: SIGTERM, then SIGKILL if it has not ended within
    START_TIMEOUT_S. Whether it ended without the SIGKILL."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGCONT)  # a paused node must be able to stop
    stopped = _stop(process, signal.SIGTERM)
    if process.stdout is not None:
        process.stdout.close()
    return stopped


def _launch(folder: Path, command: list[str]) -> subprocess.Popen[bytes]:
    """Start the server program, as `postgres` when run as root, its output appended to the folder's log."""
    with (folder / "postgres.log").open("ab") as log:
        return subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, user=_drop_to_postgres(folder), start_new_session=True
        )


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _drop_to_postgres(folder: Path) -> str | None:
    """As root, hand `folder` to the `postgres` user and return that user's name (PostgreSQL refuses
    to run as root); otherwise None: it runs as oneself."""
    if os.geteuid() != 0:
        return None
    entry = pwd.getpwnam(SUPERUSER)
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, entry.pw_uid, entry.pw_gid)
    return SUPERUSER


REDIS_PACKAGE = ("redis-server", "redis-server")
HAPROXY_PACKAGE = ("haproxy", "haproxy")
"""A program looked for on PATH, and the Debian package that brings it."""


def missing_programs() -> list[str]:
    """The Debian packages a local cluster needs that are not installed here (an `apt-get install`
    line brings them)."""
    missing = ["postgresql"] if postgres_missing() is not None else []
    return missing + [package for program, package in (REDIS_PACKAGE, HAPROXY_PACKAGE) if not shutil.which(program)]


@dataclass
class LocalRedis:
    """A `redis-server` this process started on loopback, keeping nothing on disk."""

    port: int
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, log: Path, port: int | None = None) -> LocalRedis:
        """Start it on `port` (a free one by default: a test restarting Redis gives the old one), its
        output appended to `log`; return once it accepts connections."""
        port = free_port() if port is None else port
        command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with log.open("ab") as output:
            process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_for_port(process, port, "redis-server", log)
        return cls(port, process)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Stop it by its pid and wait until it has exited."""
        _stop(self.process, signal.SIGTERM)


PROXY_SOURCE = "127.0.0.2"
"""The loopback address HAProxy connects to the nodes from: not 127.0.0.1, where local clients come
from, so that a node trusts the forwarded header of the proxy alone (`--trusted-proxies 127.0.0.2`)."""


@dataclass
class LocalProxy:
    """An HAProxy this process started: one address on loopback, websockets spread round robin over
    the nodes that answer their health check (`GET /healthz`), each told its client's address in
    `X-Forwarded-For` (from PROXY_SOURCE, which the nodes trust)."""

    port: int
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, backends: Sequence[str], folder: Path) -> LocalProxy:
        """Start it on a free port in front of `backends` (`ws://HOST:PORT/ws` each), its
        configuration and output in `folder`; return once it listens."""
        port = free_port()
        config = folder / "haproxy.cfg"
        config.write_text(_proxy_config(port, backends))
        with (folder / "haproxy.log").open("ab") as output:
            process = subprocess.Popen(
                ["haproxy", "-db", "-f", str(config)], stdout=output, stderr=subprocess.STDOUT, start_new_session=True
            )
        _wait_for_port(process, port, "haproxy", folder / "haproxy.log")
        return cls(port, process)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Stop it by its pid (SIGUSR1 is HAProxy's soft stop; SIGTERM ends it at once)."""
        _stop(self.process, signal.SIGTERM)


def _proxy_config(port: int, backends: Sequence[str]) -> str:
    """HAProxy's configuration: HTTP mode (websocket upgrades pass through), round robin, a health
    check on each node every second, long tunnel timeouts for open websockets, the client's address
    appended to `X-Forwarded-For`, and every connection to a node from PROXY_SOURCE."""
    servers = [
        f"    server node{number} {url.removeprefix('ws://').removesuffix('/ws')} check inter 1s fall 2 rise 1"
        for number, url in enumerate(backends, start=1)
    ]
    return "\n".join(
        [
            "defaults",
            "    mode http",
            "    timeout connect 5s",
            "    timeout client 60s",
            "    timeout server 60s",
            "    timeout tunnel 1h",
            "    option forwardfor",
            "frontend gomoku",
            f"    bind 127.0.0.1:{port}",
            "    default_backend nodes",
            "backend nodes",
            "    balance roundrobin",
            "    option httpchk GET /healthz",
            "    http-check expect status 200",
            f"    source {PROXY_SOURCE}",
            *servers,
            "",
        ]
    )


def _wait_for_port(process: subprocess.Popen[bytes], port: int, name: str, log: Path) -> None:
    give_up_at = time.monotonic() + START_TIMEOUT_S
    while not _accepts(port):
        if process.poll() is not None or time.monotonic() > give_up_at:
            _stop(process, signal.SIGTERM)
            raise RuntimeError(f"{name} did not start: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.05)


def _stop(process: subprocess.Popen[Any], how: signal.Signals) -> bool:
    """Stop the process by its pid: send `how`, then SIGKILL if it has not ended within
    START_TIMEOUT_S, and wait for it. Whether it ended without the SIGKILL."""
    if process.poll() is None:
        os.kill(process.pid, how)
        try:
            process.wait(START_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            return False
    return True
