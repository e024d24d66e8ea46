"""Lobby tick benchmark: how long one tick takes to pair thousands of waiting quick seeks.

    ./dev run python -m bench.lobby_tick                     # 1,000, 2,250 and 4,000 seeks
    ./dev run python -m bench.lobby_tick --seeks 500 --repeat 3

Drives the `Lobby` object alone (no server, no socket), with the seeks of
players three to a player, from three addresses, in two shapes: `apart`,
ratings spread so far that few pairs form (the shape of a lobby stuffed to
stall the server: every seek is looked at, few leave), and `alike`, every
rating 1500 (every seek pairs). Prints, per size and shape, the pairs made
and the median time of a tick over `--repeat` fresh lobbies. The tick runs
on the server's event loop once a second, so its time is a stall of
everything else.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from engine.types import Rule
from server.domain import ConnectionId
from server.lobby.hall import Lobby
from server.lobby.seeks import GameTerms, Seek

SIZES = (1_000, 2_250, 4_000)
TERMS = GameTerms(Rule.FREESTYLE, 15, None, False)
SHAPES = {"apart": 10_000_000, "alike": 1}
"""Each shape's spread of ratings above 1500."""


def stuffed_lobby(seeks: int, spread: int, seed: int) -> Lobby:
    """A lobby with `seeks` waiting quick seeks, three per player, from three addresses."""
    chance = random.Random(seed)
    lobby = Lobby()
    players = max(1, seeks // 3)
    created = datetime.now(UTC)
    for number in range(seeks):
        rating = 1500 + chance.randrange(spread)
        owner = f"player{number % players}"
        address = f"10.0.0.{number % 3}"
        seek = Seek(f"q{number}", owner, rating, ConnectionId(number), TERMS, "random", None, None, created, 0.0, True)
        lobby.add(replace(seek, address=address))
    return lobby


def time_tick(seeks: int, spread: int, repeat: int) -> tuple[int, float]:
    """Pairs made by one tick, and its median time in seconds over `repeat` fresh lobbies."""
    times = []
    pairs = 0
    for attempt in range(repeat):
        lobby = stuffed_lobby(seeks, spread, attempt)
        start = time.perf_counter()
        pairings, _ = lobby.tick(0.0)
        times.append(time.perf_counter() - start)
        pairs = len(pairings)
    return pairs, statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lobby_tick", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeks", type=int, action="append", help="waiting quick seeks (repeatable)")
    parser.add_argument("--repeat", type=int, default=5, help="fresh lobbies timed per size and shape (default 5)")
    arguments = parser.parse_args(argv)
    sizes = arguments.seeks or list(SIZES)
    if arguments.repeat < 1 or min(sizes) < 1:
        parser.error("--seeks and --repeat must be at least 1")
    print("$ python -m bench.lobby_tick " + " ".join(sys.argv[1:] if argv is None else argv))
    print("| seeks | shape | pairs | tick (median) |")
    print("| --- | --- | --- | --- |")
    for seeks in sizes:
        for shape, spread in SHAPES.items():
            pairs, seconds = time_tick(seeks, spread, arguments.repeat)
            print(f"| {seeks:,} | {shape} | {pairs:,} | {seconds * 1000:.1f} ms |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
