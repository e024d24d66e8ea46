"""The rating pool as the server keeps it: every player's Glicko-2 standing, and the rating of
each rated game that finishes.

Ratings live in the database (`players`, `rating_changes`). A rated game's
rating change is worked out by the record writer (`server.storage.writer`) inside
the transaction that stores the game's result, from both players' rows as
stored at that moment (`rating_change`), and written in that same
transaction; rated games of one player that finish together are rated one
after the other, each from the rows the previous one left, and a second
writer (another process on the same database) is rated from the same rows.
The writer returns the changes once they are committed, and the room's
actor puts them in the game's `game_over` messages (`announce`).

`RatingBook` answers "what is this player's standing" for display (the
welcome, seats, seeks, the online list, pairing by rating) from the
database at each ask: one read of one row by its key. It keeps no copy: a
copy per node was stale on every node but the one whose writer rated the
game (issue 41), and several nodes, or `gomoku-admin`, change standings.

The Glicko-2 mathematics is `engine.glicko2` (its module docstring gives
the system constant tau and how a game is its own rating period). Bots
join the pool with their arena rating (`server/players/bot_ratings.json`) and a
deviation of BOT_START_RD.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.glicko2 import DRAW, LOSS, WIN, Rating, rate_game
from engine.record import PlayerInfo, PlayerKind
from engine.types import Color
from server.bots.engine_config import EngineSpec
from server.domain import BotsEnrolled, GameFinished, RatingsChanged, Records, Standing
from server.rooms.room import Outcome, RoomEvent
from wire.messages import GameOver, RatingChangeModel, RatingsModel

BOT_START_RD = 100.0
"""A bot's deviation when it joins the pool: its arena rating comes from 64 games per level
(a 95% interval of about +-100 to +-150), far better known than a newcomer's (350)."""


class RatingBook:
    """Every player's standing as stored, read at each ask, for display."""

    def __init__(self, storage: Records) -> None:
        self._storage = storage

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
        """A player's standing as stored now, or a newcomer's for a name not in the pool yet."""
        name = player if isinstance(player, str) else player.name
        kind: PlayerKind = "human" if isinstance(player, str) else player.kind
        stored = await self._storage.standing(name)
        return newcomer(name, kind) if stored is None else stored


def newcomer(name: str, kind: PlayerKind) -> Standing:
    """The standing of a player not in the pool yet."""
    return Standing(name, kind, Rating(), 0)


def rating_change(finish: GameFinished, black: Standing, white: Standing) -> RatingsChanged:
    """The rating change of a rated game that finished, from black's and white's standings before it."""
    winner = finish.result.winner
    black_score = DRAW if winner is None else WIN if winner is Color.BLACK else LOSS
    black_after, white_after = rate_game(black.rating, white.rating, black_score)
    after = (
        Standing(black.name, black.kind, black_after, black.games + 1),
        Standing(white.name, white.kind, white_after, white.games + 1),
    )
    return RatingsChanged(finish.game_id, (black, white), after, finish.ended_at)


def announce(outcome: Outcome, change: RatingsChanged) -> None:
    """Put a stored rating change in every `game_over` of its game in the outcome (they are the
    same event, told to each member)."""
    before, after = change.before, change.after
    ratings = RatingsModel(
        black=RatingChangeModel(before=round(before[0].rating.rating), after=round(after[0].rating.rating)),
        white=RatingChangeModel(before=round(before[1].rating.rating), after=round(after[1].rating.rating)),
    )
    for index, event in enumerate(outcome.events):
        if not isinstance(event, RoomEvent):
            continue
        if isinstance(event.message, GameOver) and event.message.game_id == change.game_id:
            rated = event.message.model_copy(update={"ratings": ratings})
            outcome.events[index] = dataclasses.replace(event, message=rated)
