"""The ids the wire names rooms and games by; the server mints them, clients echo them back."""

from __future__ import annotations

from typing import NewType

RoomId = NewType("RoomId", str)
"""A room's id: random, hard to guess (a private room is reached only by its id)."""
GameId = NewType("GameId", str)
"""A stored game's id: random; a room plays one game after another, each with its own id."""
