"""Who watches which tournament, and the batches they get, like the lobby's.

A watcher gets the tournament once (`tournament`, with the `seq` of the
last batch it includes), then at most one `tournament_changes` a tick while
something changed: the standings as they are then, and the boards paired,
opened or ended since the previous batch (one entry per board, its latest
state). A batch is one message object for all of a tournament's watchers,
so that it is turned into text once. Nothing here is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from server.domain import ConnectionId, Pairing
from server.tournaments.tournament import Tournament
from server.tournaments.views import pairing_model, standing_models, timestamp_or_none
from wire.messages import ServerMessage
from wire.tournaments import STANDINGS_SHOWN, TournamentChanges

Deliveries = list[tuple[ConnectionId, ServerMessage]]


@dataclass(slots=True)
class _Watched:
    watchers: set[ConnectionId] = field(default_factory=set)
    seq: int = 0
    """The number of the last batch sent."""
    changed: bool = False
    boards: dict[tuple[int, int], Pairing] = field(default_factory=dict)
    """The boards changed since the last batch, by (round, board)."""


@dataclass(slots=True)
class TournamentWatchers:
    """Every watched tournament's watchers and the changes their next batch tells."""

    _watched: dict[str, _Watched] = field(default_factory=dict)

    def watch(self, tournament_id: str, connection: ConnectionId) -> int:
        """Start watching; the `seq` of the last batch, which the snapshot sent now includes."""
        watched = self._watched.setdefault(tournament_id, _Watched())
        watched.watchers.add(connection)
        return watched.seq

    def unwatch(self, tournament_id: str, connection: ConnectionId) -> None:
        watched = self._watched.get(tournament_id)
        if watched is not None:
            watched.watchers.discard(connection)

    def connection_closed(self, connection: ConnectionId) -> None:
        for watched in self._watched.values():
            watched.watchers.discard(connection)

    def changed(self, tournament_id: str, boards: Sequence[Pairing] = ()) -> None:
        """Something changed (the standings, the status, these boards): the next batch tells it."""
        watched = self._watched.get(tournament_id)
        if watched is None or not watched.watchers:
            return
        watched.changed = True
        for board in boards:
            watched.boards[(board.round, board.board)] = board

    def batches(
        self, tournament_of: Callable[[str], Tournament | None], next_round_at: Callable[[str], datetime | None]
    ) -> Deliveries:
        """This tick's batches: one `tournament_changes` per changed tournament, to each watcher."""
        deliveries: Deliveries = []
        for tournament_id, watched in list(self._watched.items()):
            if not watched.watchers:
                del self._watched[tournament_id]
                continue
            tournament = tournament_of(tournament_id)
            if not watched.changed or tournament is None:
                continue
            watched.seq += 1
            batch = TournamentChanges(
                tournament_id=tournament_id,
                seq=watched.seq,
                status=tournament.status,
                round=tournament.round,
                players=len(tournament.active),
                standings=standing_models(tournament, tournament.standings()[:STANDINGS_SHOWN]),
                pairings=[pairing_model(board) for _, board in sorted(watched.boards.items())],
                next_round_at=timestamp_or_none(next_round_at(tournament_id)),
            )
            watched.changed = False
            watched.boards.clear()
            deliveries.extend((connection, batch) for connection in watched.watchers)
        return deliveries
