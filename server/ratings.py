"""The rating pool as the server keeps it: every player's Glicko-2 standing, and the rating of
each rated game that finishes.

Ratings live in the database (`players`, `rating_changes`); the book caches
the standings it has read, and it is the only thing that changes them, so
the cache never goes stale. A player who leaves is forgotten (`forget`) and
read again when needed; a read that a rated game's settling may have
overtaken is not cached. A rated game's result and both new ratings are
stored in one transaction: `RatingBook.store` computes the changes from the
players' standings as they are, adds them to the outcome's records and to
its `game_over` messages, stores everything, and only then takes the new
standings. Rated games that finish at the same moment in different rooms
are settled one after the other (one lock), so that a player in two of
them is rated from the result of the first in the second.

The Glicko-2 mathematics is `engine.glicko2` (its module docstring gives
the system constant tau and how a game is its own rating period). Bots
join the pool with their arena rating (`server/bot_ratings.json`) and a
deviation of BOT_START_RD.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

from engine.glicko2 import DRAW, LOSS, WIN, Rating, rate_game
from engine.record import PlayerInfo
from engine.types import Color
from server.domain import BotsEnrolled, GameFinished, RatingsChanged, RecordStore, Standing, utc_now
from server.engine_config import EngineSpec
from server.protocol import GameOver, RatingChangeModel, RatingsModel
from server.rooms import Outcome, RoomEvent
from server.storage import Storage

Settled = tuple[Standing, Standing] | None
"""Black's and white's standings after a rated game, or None when no rated game finished."""


BOT_START_RD = 100.0
"""A bot's deviation when it joins the pool: its arena rating comes from 64 games per level
(a 95% interval of about +-100 to +-150), far better known than a newcomer's (350)."""


class RatingBook:
    """Every player's standing, as stored, and the settling of rated games."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._known: dict[str, Standing] = {}
        self._settling = asyncio.Lock()
        self._settled = 0
        """Rated games settled so far (a read that saw this change may be stale)."""

    async def enrol_bots(
        self, arena_ratings: dict[str, int], levels: list[str], engines: Sequence[EngineSpec] = ()
    ) -> None:
        """Give every bot a place in the pool (kept if it has one), in one write: each of our levels
        at its arena rating (the default rating for a level the arena has not rated), each outside
        engine at its configured rating, both with BOT_START_RD; an engine without a rating is an
        unknown newcomer."""
        ours = [(level, Rating(float(arena_ratings.get(level, 1500)), BOT_START_RD)) for level in levels]
        outside = [
            (spec.name, Rating() if spec.rating is None else Rating(float(spec.rating), BOT_START_RD))
            for spec in engines
        ]
        newcomers = tuple(Standing(name, "bot", rating, 0) for name, rating in ours + outside)
        await self._storage.apply([BotsEnrolled(newcomers)])

    async def standing(self, player: PlayerInfo | str) -> Standing:
        """A player's standing: as stored, or a newcomer's for a name not in the pool yet."""
        name = player if isinstance(player, str) else player.name
        known = self._known.get(name)
        if known is not None:
            return known
        settled = self._settled
        stored = await self._storage.standing(name)
        if stored is None:
            return _newcomer(player)
        if settled == self._settled and not self._settling.locked():
            self._known.setdefault(stored.name, stored)
        return stored

    def forget(self, name: str) -> None:
        """Stop caching a player's standing (one who has left: it is read again if needed)."""
        self._known.pop(name, None)

    async def _read(self, player: PlayerInfo | str) -> Standing:
        """A player's standing, cached or stored (a newcomer's if none), without caching it."""
        name = player if isinstance(player, str) else player.name
        return self._known.get(name) or await self._storage.standing(name) or _newcomer(player)

    async def store(self, outcome: Outcome, seats: tuple[PlayerInfo, PlayerInfo], store: RecordStore) -> Settled:
        """Store an outcome's records into `store`: with the rating changes of a rated game the
        outcome finishes, added to its records and to its `game_over` messages, in one transaction.

        Returns black's and white's new standings for a rated finish, else None. Raises what the
        store raises, with nothing taken into the book.
        """
        finish = next((record for record in outcome.records if isinstance(record, GameFinished) and record.rated), None)
        if finish is None:
            await store.apply(outcome.records)
            return None
        async with self._settling:
            before = (await self._read(seats[0]), await self._read(seats[1]))
            after = _rated(before, finish)
            await store.apply([*outcome.records, RatingsChanged(finish.game_id, before, after, utc_now())])
            self._settled += 1
            for standing in after:
                if standing.name in self._known:
                    self._known[standing.name] = standing
        _announce(outcome, before, after)
        return after


def _newcomer(player: PlayerInfo | str) -> Standing:
    """The standing of a player not in the pool yet."""
    if isinstance(player, str):
        return Standing(player, "human", Rating(), 0)
    return Standing(player.name, player.kind, Rating(), 0)


def _rated(before: tuple[Standing, Standing], finish: GameFinished) -> tuple[Standing, Standing]:
    """Black's and white's standings after the finished game."""
    winner = finish.result.winner
    black_score = DRAW if winner is None else WIN if winner is Color.BLACK else LOSS
    black, white = before
    black_after, white_after = rate_game(black.rating, white.rating, black_score)
    return (
        Standing(black.name, black.kind, black_after, black.games + 1),
        Standing(white.name, white.kind, white_after, white.games + 1),
    )


def _announce(outcome: Outcome, before: tuple[Standing, Standing], after: tuple[Standing, Standing]) -> None:
    """Put the rating changes in every `game_over` of the outcome (they are the same event)."""
    ratings = RatingsModel(
        black=RatingChangeModel(before=round(before[0].rating.rating), after=round(after[0].rating.rating)),
        white=RatingChangeModel(before=round(before[1].rating.rating), after=round(after[1].rating.rating)),
    )
    for index, event in enumerate(outcome.events):
        if isinstance(event, RoomEvent) and isinstance(event.message, GameOver):
            rated = event.message.model_copy(update={"ratings": ratings})
            outcome.events[index] = dataclasses.replace(event, message=rated)
