"""One tournament's state and rules: who may enter, when a round is due, what a result changes.

Like a `Room`, a `Tournament` is a plain object with no socket, database or
timer. Each change returns the records to store (`server.domain`'s
tournament records) and changes the object itself; the director stores
them before anyone is told, and on a failure goes back to a copy
(`checkpoint`). Results are not records of its own: a game's result is
stored by its room, and a tournament reads it back by the game's id.

Round robin and Swiss play in rounds: the next round is paired when every
board of the current one has its result. An arena pairs whoever is free, in
waves, until its time is up. A paused tournament pairs nobody; its games
go on. Names match case-insensitively, as everywhere.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.record import PlayerInfo
from engine.types import Color, GameResult
from server.domain import (
    Entrant,
    EntrantAdded,
    EntrantLeft,
    EntrantWithdrawn,
    GameId,
    Pairing,
    Refusal,
    RoomId,
    RoundPaired,
    StoredTournament,
    StoreRecord,
    TournamentCreated,
    TournamentProgress,
    TournamentStatus,
    TournamentTerms,
)
from server.tournaments.arena import pair_arena
from server.tournaments.pairings import DRAW, LOSS, WIN
from server.tournaments.round_robin import berger_round, rounds_in
from server.tournaments.standings import StandingRow, standings
from server.tournaments.swiss import pair_swiss

MIN_PLAYERS = 2


@dataclass(slots=True)
class Tournament:
    """A tournament as it stands."""

    tournament_id: str
    terms: TournamentTerms
    created_at: datetime
    status: TournamentStatus = "open"
    round: int = 0
    """The current round (an arena's latest wave); 0 before the first."""
    started_at: datetime | None = None
    ends_at: datetime | None = None
    ended_at: datetime | None = None
    entrants: dict[str, Entrant] = field(default_factory=dict)
    """By lower-case name, in the order they entered."""
    pairings: dict[tuple[int, int], Pairing] = field(default_factory=dict)
    """By (round, board)."""

    # ------------------------------------------------------------ making

    @classmethod
    def create(cls, tournament_id: str, terms: TournamentTerms, now: datetime) -> tuple[Tournament, list[StoreRecord]]:
        """A new tournament, open for entries, and the record that stores it."""
        return cls(tournament_id, terms, now), [TournamentCreated(tournament_id, terms, now)]

    @classmethod
    def from_stored(cls, stored: StoredTournament) -> Tournament:
        return cls(
            stored.tournament_id,
            stored.terms,
            stored.created_at,
            stored.status,
            stored.round,
            stored.started_at,
            stored.ends_at,
            stored.ended_at,
            {entrant.name.lower(): entrant for entrant in stored.entrants},
            {(pairing.round, pairing.board): pairing for pairing in stored.pairings},
        )

    def checkpoint(self) -> Tournament:
        """An independent copy, to go back to if storing a change fails."""
        twin = copy.copy(self)
        twin.entrants = dict(self.entrants)
        twin.pairings = dict(self.pairings)
        return twin

    # ----------------------------------------------------------- entries

    def enter(self, player: PlayerInfo, rating: float, now: datetime) -> list[StoreRecord]:
        """A player (or a bot level the organiser adds) enters. Raises Refusal when it may not."""
        if self.status == "finished" or (self.status != "open" and self.terms.format == "round_robin"):
            raise Refusal("not_allowed", "this tournament takes no more entries")
        known = self.entrants.get(player.name.lower())
        if known is not None:
            already = "withdrew from" if known.withdrawn else "is already in"
            raise Refusal("not_allowed", f"{known.name} {already} this tournament")
        if len(self.entrants) >= self.terms.max_players:
            raise Refusal("limit_reached", f"this tournament is full ({self.terms.max_players} players)")
        seed = max((entrant.seed for entrant in self.entrants.values()), default=0) + 1
        entrant = Entrant(player, seed, rating)
        self.entrants[player.name.lower()] = entrant
        return [EntrantAdded(self.tournament_id, entrant, now)]

    def withdraw(self, name: str, now: datetime, by_organiser: bool = False) -> list[StoreRecord]:
        """An entrant leaves: before the start it is forgotten; during play it is paired no more and
        its games stand. A round robin's entrant may only be removed by the organiser once it has
        started (its schedule is fixed: the boards it would have played are not played)."""
        entrant = self.entrant(name)
        if entrant is None or entrant.withdrawn:
            raise Refusal("not_found", f"{name!r} is not playing in this tournament")
        if self.status == "finished":
            raise Refusal("not_allowed", "this tournament is over")
        if self.status == "open":
            del self.entrants[entrant.name.lower()]
            return [EntrantLeft(self.tournament_id, entrant.name)]
        if self.terms.format == "round_robin" and not by_organiser:
            raise Refusal("not_allowed", "a round robin's players play to the end; ask the organiser")
        self.entrants[entrant.name.lower()] = dataclasses.replace(entrant, withdrawn=True)
        return [EntrantWithdrawn(self.tournament_id, entrant.name, now)]

    def entrant(self, name: str) -> Entrant | None:
        return self.entrants.get(name.lower())

    @property
    def active(self) -> list[Entrant]:
        """The entrants still playing, in seed order."""
        return sorted((e for e in self.entrants.values() if not e.withdrawn), key=lambda entrant: entrant.seed)

    # ------------------------------------------------------------- play

    def start(self, now: datetime) -> list[StoreRecord]:
        """Start playing (the first round is paired by `pair_next`). Raises Refusal if it may not."""
        if self.status != "open":
            raise Refusal("not_allowed", "this tournament has already started")
        if len(self.active) < MIN_PLAYERS:
            raise Refusal("not_allowed", f"a tournament needs at least {MIN_PLAYERS} players to start")
        self.status = "running"
        self.started_at = now
        if self.terms.format == "arena":
            self.ends_at = now + timedelta(seconds=self.terms.duration_s)
        return [self._progress()]

    def pause(self, paused: bool) -> list[StoreRecord]:
        """Pause (no new pairings; games go on) or resume."""
        if self.status not in ("running", "paused"):
            raise Refusal("not_allowed", "only a tournament in play can be paused or resumed")
        self.status = "paused" if paused else "running"
        return [self._progress()]

    def finish(self, now: datetime) -> list[StoreRecord]:
        """End the tournament (by itself, or early by its organiser): nobody is paired any more;
        games still going on count when they end."""
        if self.status == "finished":
            raise Refusal("not_allowed", "this tournament is already over")
        self.status = "finished"
        self.ended_at = now
        return [self._progress()]

    def total_rounds(self) -> int | None:
        """How many rounds it plays (None for an arena, which plays until its time is up). A Swiss
        plays the rounds asked for, but never more than its entrants less one: more would pair some
        players twice although nothing forced it (its players may join as it goes)."""
        if self.terms.format == "round_robin":
            return rounds_in(len(self.entrants), self.terms.cycles)
        if self.terms.format == "swiss":
            entrants = len(self.entrants)
            return min(self.terms.rounds, entrants - 1) if entrants >= MIN_PLAYERS else self.terms.rounds
        return None

    def round_pairings(self, round_number: int | None = None) -> list[Pairing]:
        """The boards of a round (the current one by default), in board order."""
        wanted = self.round if round_number is None else round_number
        return [pairing for (number, _), pairing in sorted(self.pairings.items()) if number == wanted]

    def unfinished(self) -> list[Pairing]:
        """The boards still without a result."""
        return [pairing for pairing in self.pairings.values() if pairing.score is None]

    def round_over(self) -> bool:
        return all(pairing.score is not None for pairing in self.round_pairings())

    def due(self, now: datetime) -> str | None:
        """What the tournament is waiting for to move on: `round` when the next round (or an arena's
        next wave) may be paired now, `finish` when it is over, else None."""
        if self.status != "running":
            return None
        if self.terms.format == "arena":
            if self.ends_at is not None and now >= self.ends_at:
                return "finish" if not self.unfinished() else None
            return "round"
        if not self.round_over():
            return None
        total = self.total_rounds() or 0
        if self.round >= total or len(self.active) < MIN_PLAYERS:
            return "finish"
        return "round"

    def pair_next(self, now: datetime) -> tuple[list[Pairing], list[StoreRecord]]:
        """Pair the next round (an arena: the next wave, of whoever is free) and return its boards
        and records; no boards (and no records) for an arena wave that pairs nobody."""
        number = self.round + 1
        pairings = self._next_boards(number)
        if not pairings:
            return [], []
        self.round = number
        for pairing in pairings:
            self.pairings[(pairing.round, pairing.board)] = pairing
        return pairings, [RoundPaired(self.tournament_id, tuple(pairings)), self._progress()]

    def _next_boards(self, number: int) -> list[Pairing]:
        active = {entrant.name for entrant in self.active}
        history = list(self.pairings.values())
        if self.terms.format == "round_robin":
            seeds = [entrant.name for entrant in sorted(self.entrants.values(), key=lambda e: e.seed)]
            boards = berger_round(seeds, number)
            return [p for p in boards if all(name in active for name in p.players())]
        ranked = [row.name for row in self.standings() if row.name in active]
        if self.terms.format == "swiss":
            return pair_swiss(ranked, history, number)
        busy = {name for pairing in self.unfinished() for name in pairing.players()}
        return pair_arena([name for name in ranked if name not in busy], history, number)

    def game_opened(self, pairing: Pairing, game_id: GameId, room_id: RoomId) -> Pairing:
        """A board's game has opened (its record, `TournamentGameOpened`, is stored with the game):
        the board, which now knows its game."""
        opened = dataclasses.replace(pairing, game_id=game_id, room_id=room_id)
        self.pairings[(pairing.round, pairing.board)] = opened
        return opened

    def game_ended(
        self, game_id: GameId, result: GameResult, seats: tuple[PlayerInfo | None, PlayerInfo | None]
    ) -> Pairing | None:
        """A game of this tournament has ended with `result` between `seats` (black's, white's, as the
        game ended: an opening may have swapped them); the board, now scored, or None if no board of
        this tournament plays that game (or it was scored already)."""
        pairing = next((p for p in self.pairings.values() if p.game_id == game_id and p.score is None), None)
        if pairing is None:
            return None
        winner = None if result.winner is None else seats[0 if result.winner is Color.BLACK else 1]
        score = DRAW if winner is None else WIN if winner.name == pairing.black else LOSS
        scored = dataclasses.replace(pairing, score=score)
        self.pairings[(pairing.round, pairing.board)] = scored
        return scored

    def results_stored(self, stored: Iterable[Pairing]) -> list[Pairing]:
        """Score the boards whose games have a result stored (the pairings as storage reads them
        back, each score from its game's stored result): the result of a game whose room runs on
        another node, read back by the director. The boards now scored."""
        scored = []
        for pairing in stored:
            board = self.pairings.get((pairing.round, pairing.board))
            if board is None or board.score is not None or pairing.score is None:
                continue
            if board.game_id is not None and board.game_id == pairing.game_id:
                scored.append(dataclasses.replace(board, score=pairing.score))
                self.pairings[(pairing.round, pairing.board)] = scored[-1]
        return scored

    def games_to_open(self) -> list[Pairing]:
        """Boards of the current round whose game has not opened (after a restart between the round's
        pairing and its games)."""
        return [p for p in self.pairings.values() if p.white is not None and p.game_id is None]

    # ------------------------------------------------------------ views

    def standings(self) -> list[StandingRow]:
        return standings(self.terms.format, list(self.entrants.values()), list(self.pairings.values()))

    def _progress(self) -> TournamentProgress:
        return TournamentProgress(
            self.tournament_id, self.status, self.round, self.started_at, self.ends_at, self.ended_at
        )
