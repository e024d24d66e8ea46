"""A seek: an offer to play waiting in the lobby, and the terms of the game it asks for.

The lobby keeps seeks and pairs them (`server.lobby.hall`); the views render
them for the wire (`server.rooms.views.seek_model`). Both import them from here,
so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerKind
from engine.types import Rule
from server.domain import ConnectionId

SeekColor = Literal["black", "white", "random"]

QUICK_WINDOW_START = 100.0
"""The rating difference a quick pairing accepts at once."""
QUICK_WINDOW_GROWTH = 50.0
"""How much wider, in rating points a second, the window of a waiting quick seek grows."""


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What a seek or a quick pairing asks for."""

    rule: Rule
    size: int
    clock: ClockSetting | None
    rated: bool
    opening: OpeningRule = OpeningRule.NONE
    """The opening rule; the seek's owner is the first player."""


@dataclass(frozen=True, slots=True)
class Seek:
    """An offer to play, waiting in the lobby."""

    seek_id: str
    owner: str
    rating: int
    """The owner's rating when it asked."""
    connection: ConnectionId
    """The connection it asked from (the game's room goes there)."""
    terms: GameTerms
    color: SeekColor
    """The colour the owner plays."""
    rating_min: int | None
    rating_max: int | None
    created_at: datetime
    since: float
    """When it started waiting (monotonic seconds)."""
    quick: bool = False
    """Whether it waits from a `quick_pair`."""
    owner_kind: PlayerKind = "human"
    """Whether the owner is a person or a bot account."""
    address: str = ""
    """The IP address it was asked from (quick seeks are limited per address)."""

    def accepts(self, rating: int) -> bool:
        """Whether a player of this rating may accept it."""
        return (self.rating_min is None or rating >= self.rating_min) and (
            self.rating_max is None or rating <= self.rating_max
        )

    def window(self, now: float) -> float:
        """How far apart in rating a quick pairing may be, after waiting until `now`."""
        return QUICK_WINDOW_START + QUICK_WINDOW_GROWTH * max(0.0, now - self.since)
