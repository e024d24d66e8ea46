"""How stored rows become the server's values: one function per domain value, reading the
row's columns by name (the connections return `sqlite3.Row`).

`server.storage` (its reads) and `server.writer` (the ratings it reads
inside a rated game's transaction) both read rows through these, so that
a column is read into a value in one place only.
"""

from __future__ import annotations

import sqlite3

from engine.glicko2 import Rating
from server.domain import Standing

STANDING_COLUMNS = "name, kind, rating, rd, volatility, games"
"""The columns of `players` that `standing` reads."""


def standing_from(row: sqlite3.Row) -> Standing:
    """A player's standing from a row of STANDING_COLUMNS."""
    rating = Rating(float(row["rating"]), float(row["rd"]), float(row["volatility"]))
    return Standing(row["name"], row["kind"], rating, int(row["games"]))
