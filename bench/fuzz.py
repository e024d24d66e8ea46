"""The websocket fuzzer at length: as many hypothesis scripts as asked against a live server.

    ./dev run python -m bench.fuzz --examples 500

Runs tests/server/test_fuzz.py (several clients at once mixing valid play
with random and mutated frames; no `internal`, stored moves equal the moves
the clients saw, a fresh game still plays) with GOMOKU_FUZZ_EXAMPLES set,
and prints how many scripts ran, how long they took, and the verdict. The
test suite runs the same fuzzer with a few dozen scripts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; the exit status is pytest's."""
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500, help="scripts to run (default 500)")
    arguments = parser.parse_args(argv)
    started = time.monotonic()
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/server/test_fuzz.py"],
        cwd=REPO,
        env={**os.environ, "GOMOKU_FUZZ_EXAMPLES": str(arguments.examples)},
    )
    seconds = time.monotonic() - started
    verdict = "passed" if finished.returncode == 0 else "FAILED"
    each = seconds / arguments.examples
    print(f"bench.fuzz: {arguments.examples} scripts in {seconds:.0f} s ({each:.2f} s each): {verdict}")
    print(f"command: python -m bench.fuzz --examples {arguments.examples}")
    return finished.returncode


if __name__ == "__main__":
    sys.exit(main())
