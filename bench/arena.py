"""The full round robin: every bot level (classic bots and engine levels) against every other.

    ./dev run python -m bench.arena                      # 1 s per move, all openings
    ./dev run python -m bench.arena --time-ms 200 --openings 2 --update-ratings
    ./dev run python -m bench.arena --level-times --openings 4 --update-ratings   # as players meet them

Prints progress, the crosstable and the Elo ratings (gomoku-arena does the
work); the records go to a temporary folder unless --out is given. With
--update-ratings the result becomes the `rating` of each level in
list_bots.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time

from engine.registry import level_names
from tools import arena
from tools.match import OPENINGS


def main() -> int:
    parser = argparse.ArgumentParser(description="Round robin of every bot level.")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (default 1000)")
    parser.add_argument(
        "--level-times", action="store_true", help="each level thinks its own default time, as players meet it"
    )
    parser.add_argument("--openings", type=int, default=len(OPENINGS), help="openings per pairing, each both colours")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--out", help="folder for the records (default: a temporary folder)")
    parser.add_argument(
        "--update-ratings", action="store_true", help="write the ratings to server/players/bot_ratings.json"
    )
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-") as scratch:
        argv = [
            *level_names(),
            f"--time-ms={arguments.time_ms}",
            f"--openings={arguments.openings}",
            f"--jobs={arguments.jobs}",
            *(["--level-times"] if arguments.level_times else []),
            f"--out={arguments.out or scratch}",
        ]
        if arguments.update_ratings:
            argv.append("--update-ratings")
        began = time.monotonic()
        status = arena.main(argv)
        print(f"\nwall time {time.monotonic() - began:.0f} s")
        return status


if __name__ == "__main__":
    sys.exit(main())
