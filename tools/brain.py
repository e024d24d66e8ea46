"""`gomoku-engine`: a Gomocup (piskvork) brain on stdin and stdout.

A thin loop around engine.gomocup.BrainSession: read a line, print what
the session yields (flushing each line, since the manager waits for it),
stop after END or at the end of input. Any bot level can play, from the
classic textbook bots to `master`:

    gomoku-engine --level master --rule renju

At start it writes one line to stderr saying which build of the engine
runs (compiled by mypyc or pure Python, see `engine.build`), where a
tournament manager does not read it; `--version` prints it too.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import version
from typing import TextIO

from engine import build_info
from engine.gomocup import BrainSession
from engine.registry import level_names
from engine.types import Rule


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gomoku-engine", description="A Gomocup brain on stdin/stdout.")
    parser.add_argument("--level", default="master", help="bot level (default: master); see --list-levels")
    parser.add_argument(
        "--rule",
        type=Rule.parse,
        default=Rule.FREESTYLE,
        help="freestyle, standard or renju (default: freestyle; the manager's INFO rule overrides it)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for levels that vary their moves (default: 0)")
    parser.add_argument(
        "--nodes",
        type=int,
        help="the most nodes a move may search besides its time (measurements that must not depend on the machine)",
    )
    parser.add_argument("--list-levels", action="store_true", help="print the level names and exit")
    parser.add_argument("--version", action="store_true", help="print the version and the engine's build, and exit")
    return parser.parse_args(argv)


def serve(session: BrainSession, lines: TextIO, output: TextIO) -> None:
    """Feed `lines` to the session and write its answers until END or end of input."""
    for line in lines:
        for answer in session.receive(line):
            output.write(answer + "\n")
            output.flush()
        if session.finished:
            return


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.list_levels:
        print("\n".join(level_names()))
        return 0
    if arguments.version:
        print(f"gomoku-engine {version('gomoku-server')}; {build_info()}")
        return 0
    try:
        session = BrainSession(arguments.level, rule=arguments.rule, seed=arguments.seed, nodes=arguments.nodes)
    except ValueError as error:
        print(f"gomoku-engine: {error}", file=sys.stderr)
        return 2
    print(f"gomoku-engine: {build_info()}", file=sys.stderr, flush=True)
    serve(session, sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
