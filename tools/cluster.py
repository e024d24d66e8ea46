"""`./dev cluster [N]`: the server as N nodes behind one address, on this machine, on loopback only.

Starts a throw-away PostgreSQL (Debian's, in a temporary folder), a Redis that keeps nothing on
disk, N `gomoku-server` nodes on them (default 3, `--bot-workers 1` each) and HAProxy in front,
prints the one address to open, and stops everything, by pid, on Ctrl-C (or SIGTERM). The data
goes with it. Where a program is missing, it says which `apt-get install` line brings it.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
from contextlib import ExitStack
from pathlib import Path

from tools.local_services import PROXY_SOURCE, LocalPostgres, LocalProxy, LocalRedis, ServerNode, missing_programs

DEFAULT_NODES = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev cluster", description=__doc__.splitlines()[0])
    parser.add_argument("nodes", nargs="?", type=int, default=DEFAULT_NODES, help="how many server nodes (default 3)")
    parser.add_argument("--bot-workers", type=int, default=1, help="bot search processes per node (default 1)")
    arguments = parser.parse_args(argv)
    if arguments.nodes < 1:
        parser.error("a cluster has one node or more")
    missing = missing_programs()
    if missing:
        print(f"missing: {', '.join(missing)}; install with: apt-get install {' '.join(missing)}", file=sys.stderr)
        return 1
    stopping = threading.Event()  # set by Ctrl-C or SIGTERM, from now on: one that comes while starting is kept
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, lambda *_: stopping.set())
    folder = Path(tempfile.mkdtemp(prefix="gomoku-cluster-"))
    with ExitStack() as running:
        database = LocalPostgres.start()
        running.callback(database.remove)
        redis = LocalRedis.start(folder / "redis.log")
        running.callback(redis.stop)
        nodes = []
        for index in range(1, arguments.nodes + 1):
            extra = ["--bus", redis.url, "--bot-workers", str(arguments.bot_workers), "--trusted-proxies", PROXY_SOURCE]
            node = ServerNode.start(database.url, f"node{index}", folder / f"node{index}.log", extra)
            running.callback(node.stop)
            nodes.append(node)
        proxy = LocalProxy.start([node.url for node in nodes], folder)
        running.callback(proxy.stop)
        print(f"cluster at {proxy.address} ({arguments.nodes} nodes; logs in {folder}); Ctrl-C stops it", flush=True)
        stopping.wait()
        print("stopping the cluster", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
