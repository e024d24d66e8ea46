"""Zobrist keys: one random 62-bit number per (point, colour), fixed per board size.

The keys come from a generator seeded with the board size, so a hash is
the same in every process and every run: the bot pool, the brain and the
tests all agree on it. The side to move needs no key of its own, because
in Gomoku it follows from how many stones each side has. Keys (and so
hashes) have 62 bits, the largest integers the compiled engine keeps in a
machine word: a 64-bit hash would be a heap object at every move.
"""

from __future__ import annotations

import functools
import random


@functools.cache
def zobrist_keys(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Keys indexed [colour][y * size + x]; colour 0 is unused (empty cells add nothing)."""
    generator = random.Random(f"gomoku-zobrist-{size}")
    cells = size * size
    black = tuple(generator.getrandbits(62) for _ in range(cells))
    white = tuple(generator.getrandbits(62) for _ in range(cells))
    return ((0,) * cells, black, white)
