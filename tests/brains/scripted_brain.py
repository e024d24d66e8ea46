"""A small Gomocup brain for tests, which misbehaves on purpose.

    python scripted_brain.py [FAULT [N [MS]]]

It plays the first empty point in reading order (left to right, top to
bottom), so a game against it is easy to foresee: left alone, it makes five
along the top row. Its faults, counted in moves asked of this process:

    none           behave
    slow N MS      sleep MS milliseconds before the Nth move (0: before every move)
    crash N        exit with code 3 when asked the Nth move
    garbage N      answer the Nth move with words that are not a move
    occupied N     answer the Nth move with a point that already holds a stone
    mute           never answer START
    flood N        from its start, print lines of N bytes on stderr without a pause, in a thread
                   of its own (and play as usual)
    early N        drop every line read within N milliseconds of its last move, answering
                   `ERROR Unknown command` to each (Rapfi 0.43 loses a command that arrives while
                   it is still finishing its answer)

It answers SWAP2BOARD too: three stones at the top left, SWAP to three
stones, its usual move to five. Everything it is told goes to stderr as
well, so that tests can see it was logged.
"""

from __future__ import annotations

import os
import sys
import threading
import time


def flood_stderr(line_bytes: int) -> None:
    """Write lines of `line_bytes` bytes to stderr as fast as it takes them, until the process ends."""
    line = b"x" * (line_bytes - 1) + b"\n"
    block = line * max(1, 65_536 // len(line))
    while True:
        os.write(sys.stderr.fileno(), block)


def main(argv: list[str]) -> int:
    fault = argv[0] if argv else "none"
    at = int(argv[1]) if len(argv) > 1 else 1
    if fault == "flood":
        threading.Thread(target=flood_stderr, args=(at,), daemon=True).start()
    pause_ms = int(argv[2]) if len(argv) > 2 else 0
    size = 15
    stones: list[tuple[int, int]] = []
    asked = 0
    listing: str | None = None
    listed: list[str] = []
    last_move_at = float("-inf")

    def say(text: str) -> None:
        print(text, flush=True)

    def first_empty() -> tuple[int, int]:
        return next((x, y) for y in range(size) for x in range(size) if (x, y) not in stones)

    def answer_move() -> int | None:
        nonlocal asked, last_move_at
        asked += 1
        if fault == "slow" and at in (0, asked):
            time.sleep(pause_ms / 1000)
        if fault == "crash" and asked == at:
            print("scripted brain: crashing on purpose", file=sys.stderr, flush=True)
            return 3
        if fault == "garbage" and asked == at:
            say("hello there")
            return None
        if fault == "occupied" and asked == at and stones:
            x, y = stones[0]
            say(f"{x},{y}")
            return None
        point = first_empty()
        stones.append(point)
        say("MESSAGE scripted brain thinking")
        say(f"{point[0]},{point[1]}")
        last_move_at = time.monotonic()
        return None

    for raw in sys.stdin:
        line = raw.strip()
        print(f"scripted brain got: {line}", file=sys.stderr, flush=True)
        if fault == "early" and time.monotonic() - last_move_at < at / 1000:
            say("ERROR Unknown command")
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if listing is not None:
            if word != "DONE":
                listed.append(line)
                continue
            if listing == "BOARD":
                stones = [(int(x), int(y)) for x, y, _ in (entry.split(",") for entry in listed)]
                code = answer_move()
            else:
                stones = [(int(x), int(y)) for x, y in (entry.split(",") for entry in listed)]
                code = None
                x, y = first_empty()
                say("0,0 1,0 2,0" if not stones else "SWAP" if len(stones) == 3 else f"{x},{y}")
            listing, listed = None, []
            if code is not None:
                return code
        elif word in ("START", "RESTART"):
            size = int(rest) if rest else size
            stones = []
            if fault != "mute":
                say("OK")
        elif word in ("BOARD", "SWAP2BOARD"):
            listing = word
        elif word == "BEGIN":
            code = answer_move()
            if code is not None:
                return code
        elif word == "TURN":
            x, y = (int(part) for part in rest.split(","))
            stones.append((x, y))
            code = answer_move()
            if code is not None:
                return code
        elif word == "ABOUT":
            say('name="scripted", version="1"')
        elif word == "END":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
