"""The director: runs every tournament not yet over, from its pairings to its games and results.

Each change to a tournament is made under the tournament's lock, on its
`Tournament` (which says what records it makes), stored, and only then told
to its watchers, as a room's change is. After each change the director
looks at what the tournament waits for (`Tournament.due`): the next round
(after a pause between rounds, so that players can see the standings), an
arena's next wave (a short gathering of whoever has become free), the end.
A round's pairings are stored first; then each board's game opens through
the rooms, as the lobby opens a paired game, with both players seated and
the clock running, and the record that the board plays that game is stored
in the same transaction as the game itself. A result reaches the director
from the room registry once the room has stored it (`watch_results`).

Nothing is kept that storage does not have, so a restart loses nothing:
`restore` reads back every tournament not yet over, opens the games of
boards paired but not yet opened, takes up results stored meanwhile, and
goes on. The unfinished games themselves come back with their rooms, clocks
included (`GameServer.restore_rooms`).

With several nodes, one node directs every tournament, under a lease
(`server/cluster/tournament_lease.py`): the others are not `directing`, and
the node that takes the lease over takes the tournaments up (`take_up`,
which is `restore`'s path) and lets them go when it loses it (`let_go`). A
game whose room runs on another node ends there: its result reaches the
director by a notice and is read back from storage (`reconcile`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine.record import PlayerInfo
from server.domain import (
    Caller,
    ConnectionId,
    GameId,
    Pairing,
    Refusal,
    RoomFacts,
    StoreRecord,
    TournamentGameOpened,
    TournamentReader,
    TournamentTerms,
    new_room_id,
    utc_now,
)
from server.hub.services import Services, hold_new_room
from server.metrics import Metrics
from server.rooms.room import Outcome, Room
from server.storage.writer import StorageUnavailable
from server.tournaments.tournament import Tournament
from server.tournaments.watchers import TournamentWatchers
from wire.messages import ColorName, ServerMessage
from wire.tournaments import TournamentGame

logger = logging.getLogger(__name__)

Change = Callable[[Tournament, datetime], list[StoreRecord]]
Job = Coroutine[Any, Any, None]
RETRY_AFTER_S = 2.0
"""After a change the database could not take, the pause before the director tries again."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """How the server runs tournaments."""

    round_pause_s: float = 30.0
    """Between two rounds, how long the standings show before the next round is paired
    (`--tournament-round-pause-s`)."""
    arena_wave_s: float = 2.0
    """How long an arena gathers the players who have become free before pairing them
    (`--arena-wave-s`)."""
    open_per_player: int = 3
    """Tournaments not yet over one player may organise (`--max-tournaments-per-player`)."""
    organisers: frozenset[str] = frozenset()
    """Who may create tournaments, names in lower case (`--tournament-organisers`); empty: anyone."""

    def may_organise(self, name: str) -> bool:
        return not self.organisers or name.lower() in self.organisers


def new_tournament_id() -> str:
    return "t-" + secrets.token_hex(6)


class Director:
    """Runs the tournaments of one server."""

    def __init__(
        self,
        services: Services,
        storage: TournamentReader,
        settings: TournamentSettings,
        metrics: Metrics,
        directing: bool = True,
    ) -> None:
        """A director whose tournaments open games through `services` and are read back from `storage`;
        not `directing` on a node of several until it takes the tournaments up (`take_up`)."""
        self.directing = directing
        self.confirm_lease: Callable[[], None] | None = None
        """Asked before a tournament request is served, on PostgreSQL: it refuses (`unavailable`)
        while the node cannot be sure it still holds its lease (a director paused past it must not
        answer from tournaments another node has taken up, not even a read)."""
        self._services = services
        self._storage = storage
        self._metrics = metrics
        self.settings = settings
        self._tournaments: dict[str, Tournament] = {}
        """Every tournament not yet over (and one over whose games are still going on)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._next_round_at: dict[str, datetime] = {}
        self._tournament_of_game: dict[GameId, str] = {}
        self._over: set[str] = set()
        """Tournaments over with no game left, let go of once their watchers have the last batch."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.watchers = TournamentWatchers()
        services.rooms.watch_results(self._game_ended)

    # ------------------------------------------------------------ reading

    def live(self, tournament_id: str) -> Tournament | None:
        """A tournament the director runs now (not yet over), or None."""
        return self._tournaments.get(tournament_id)

    async def find(self, tournament_id: str) -> Tournament:
        """Any tournament, live or over; Refusal `not_found` if there is none."""
        live = self._tournaments.get(tournament_id)
        if live is not None:
            return live
        stored = await self._storage.tournament(tournament_id)
        if stored is None:
            raise Refusal("not_found", f"there is no tournament {tournament_id!r}")
        return Tournament.from_stored(stored)

    def next_round_at(self, tournament_id: str) -> datetime | None:
        return self._next_round_at.get(tournament_id)

    def organised_by(self, organiser_id: str) -> int:
        """How many tournaments not yet over the player with this id organises: one ended (by itself or
        early) no longer counts, even while its last games are still going on."""
        return sum(
            1 for t in self._tournaments.values() if t.terms.organiser_id == organiser_id and t.status != "finished"
        )

    # ---------------------------------------------------------- lifecycle

    async def restore(self) -> None:
        """Take up every tournament not yet over, as stored (after a restart)."""
        for stored in await self._storage.unfinished_tournaments():
            tournament = Tournament.from_stored(stored)
            self._hold(tournament)
            for pairing in tournament.unfinished():
                facts = None if pairing.room_id is None else self._services.rooms.facts(pairing.room_id)
                if facts is not None and facts.result is not None and facts.game_id is not None:
                    tournament.game_ended(facts.game_id, facts.result, facts.seats)
            logger.info(
                "took up tournament %s (%s, round %d)", tournament.tournament_id, tournament.status, tournament.round
            )
            self._spawn(self._advance(tournament.tournament_id))

    async def take_up(self) -> None:
        """Direct the tournaments from now on (this node has taken the director's lease): every
        tournament not yet over is taken up as after a restart."""
        self.directing = True
        try:
            await self.restore()
        except BaseException:
            await self.let_go()
            raise

    async def let_go(self) -> None:
        """Stop directing (another node may direct now): no timer, task or tournament is kept, and
        the watchers are forgotten (their nodes watch again where the tournaments go)."""
        self.directing = False
        await self.close()
        self._tournaments.clear()
        self._locks.clear()
        self._next_round_at.clear()
        self._tournament_of_game.clear()
        self._over.clear()
        self.watchers = TournamentWatchers()

    def require_directing(self) -> None:
        """Refuse (`unavailable`) a tournament request on a node that does not direct them now."""
        if not self.directing:
            raise Refusal("unavailable", "another node directs the tournaments, or is taking them up; try again")
        if self.confirm_lease is not None:
            self.confirm_lease()

    async def reconcile(self) -> None:
        """Read back the results stored by rooms of other nodes for the boards still unscored here (a
        notice of one may have been lost while the director or the room changed nodes)."""
        rooms = self._services.rooms
        for tournament_id, tournament in list(self._tournaments.items()):
            if any(p.room_id is not None and rooms.get(p.room_id) is None for p in tournament.unfinished()):
                await self._read_results(tournament_id)

    def game_ended_elsewhere(self, game_id: GameId) -> None:
        """A game has ended in a room of another node: if it is a tournament's, read its result back."""
        tournament_id = self._tournament_of_game.get(game_id)
        if tournament_id is not None:
            self._spawn(self._read_results(tournament_id))

    async def _read_results(self, tournament_id: str) -> None:
        stored = await self._storage.tournament(tournament_id)
        if stored is None:
            return
        async with self._lock(tournament_id):
            tournament = self._tournaments.get(tournament_id)
            scored = [] if tournament is None else tournament.results_stored(stored.pairings)
        for board in scored:
            assert board.game_id is not None
            self._tournament_of_game.pop(board.game_id, None)
        if scored:
            self.watchers.changed(tournament_id, scored)
            self._spawn(self._advance(tournament_id))

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def tick(self) -> None:
        """Send the watchers their batches; then let go of the tournaments over whose last batch
        this was."""
        self._services.deliver(self.watchers.batches(self._tournaments.get, self.next_round_at))
        for tournament_id in self._over:
            self._forget(tournament_id)
        self._over.clear()

    # ------------------------------------------------------------ changes

    async def create(self, terms: TournamentTerms) -> Tournament:
        tournament, records = Tournament.create(new_tournament_id(), terms, utc_now())
        await self._services.storage.apply(records)
        self._hold(tournament)
        self._spawn(self._advance(tournament.tournament_id))
        return tournament

    async def change(self, tournament_id: str, change: Change) -> Tournament:
        """Make a change to a live tournament and store it; then tell its watchers and move it on.
        Raises the change's Refusal, or StorageUnavailable, with nothing changed."""
        if tournament_id not in self._tournaments:
            await self.find(tournament_id)  # not_found for no tournament at all
            raise Refusal("not_allowed", "this tournament is over")
        async with self._lock(tournament_id):
            await self._store(tournament_id, change)
        self._spawn(self._advance(tournament_id))
        return self._tournaments[tournament_id]

    async def _store(self, tournament_id: str, change: Change) -> list[StoreRecord]:
        """Apply and store a change, under the tournament's lock; on failure the tournament is as it was."""
        tournament = self._tournaments[tournament_id]
        twin = tournament.checkpoint()
        try:
            records = change(tournament, utc_now())
            if records:
                await self._services.storage.apply(records)
        except BaseException:
            self._tournaments[tournament_id] = twin
            raise
        self.watchers.changed(tournament_id)
        return records

    # ------------------------------------------------------------ moving on

    async def _advance(self, tournament_id: str) -> None:
        """Do what the tournament waits for, now or when its time comes."""
        tournament = self._tournaments.get(tournament_id)
        if tournament is None:
            return
        now = utc_now()
        if tournament.status == "open" and tournament.terms.starts_at is not None:
            self._at(tournament_id, tournament.terms.starts_at, self._start_on_time)
            return
        if tournament.status != "finished" and tournament.games_to_open():
            await self._open_games(tournament_id)
        due = tournament.due(now)
        if due == "finish":
            async with self._lock(tournament_id):
                await self._store(tournament_id, lambda t, now: t.finish(now) if t.status != "finished" else [])
        elif due == "round" and tournament.terms.format == "arena":
            if tournament.ends_at is not None:
                self._at(tournament_id + "/end", tournament.ends_at, self._advance)
            pause = timedelta(seconds=self.settings.arena_wave_s)
            self._at(tournament_id, now + pause, self._pair_round, keep=True)
        elif due == "round" and tournament_id not in self._timers:
            first = tournament.round == 0
            moment = now if first else now + timedelta(seconds=self.settings.round_pause_s)
            self._next_round_at[tournament_id] = moment
            self._at(tournament_id, moment, self._pair_round)
        if tournament.status == "finished" and all(board.game_id is None for board in tournament.unfinished()):
            self._over.add(tournament_id)  # no game left going on (boards paired but not opened never will be)

    async def _start_on_time(self, tournament_id: str) -> None:
        """Start at the time set; with too few players the tournament ends unplayed."""
        tournament = self._tournaments.get(tournament_id)
        if tournament is None or tournament.status != "open":
            return
        try:
            await self.change(tournament_id, lambda t, now: t.start(now))
        except Refusal as refusal:
            logger.info("tournament %s does not start: %s", tournament_id, refusal.message)
            await self.change(tournament_id, lambda t, now: t.finish(now))

    async def _pair_round(self, tournament_id: str) -> None:
        self._next_round_at.pop(tournament_id, None)
        tournament = self._tournaments.get(tournament_id)
        if tournament is None or tournament.due(utc_now()) != "round":
            return
        paired: list[Pairing] = []

        def pair(tournament: Tournament, now: datetime) -> list[StoreRecord]:
            began = time.perf_counter()
            boards, records = tournament.pair_next(now)
            self._metrics.tournament_pairing.observe(time.perf_counter() - began)
            paired.extend(boards)
            return records

        async with self._lock(tournament_id):
            await self._store(tournament_id, pair)
        self.watchers.changed(tournament_id, paired)
        await self._open_games(tournament_id)
        if not paired and tournament.terms.format == "arena":
            return  # nobody to pair now: the next game to end brings the next wave
        self._spawn(self._advance(tournament_id))

    async def _open_games(self, tournament_id: str) -> None:
        """Open the game of every board paired whose game has not opened yet, all at once (their
        writes share the database's group commits)."""
        tournament = self._tournaments[tournament_id]
        boards = tournament.games_to_open()
        results = await asyncio.gather(
            *(self._open_game(tournament, board) for board in boards), return_exceptions=True
        )
        failed = [result for result in results if isinstance(result, BaseException)]
        for error in failed:
            if not isinstance(error, StorageUnavailable):
                logger.error("a game of tournament %s did not open", tournament_id, exc_info=error)
        if failed:
            self._at(tournament_id + "/retry", utc_now() + timedelta(seconds=RETRY_AFTER_S), self._advance)

    async def _open_game(self, tournament: Tournament, pairing: Pairing) -> None:
        """Open a board's game: a room with both players seated (a person on every connection it has
        open, or away until it comes), the clock running; each player is told."""
        services = self._services
        terms = tournament.terms
        assert pairing.white is not None, "a bye has no game"
        black, white = self._seat(tournament, pairing.black), self._seat(tournament, pairing.white)
        standings = [await services.ratings.standing(black), await services.ratings.standing(white)]
        room = Room(
            new_room_id(),
            terms.rule,
            terms.size,
            terms.clock,
            not terms.listed,
            services.settings.room,
            rated=terms.rated,
            opening=terms.opening,
        )
        actor = services.rooms.actor_for(room)

        def open_game(room: Room, now: float) -> Outcome:
            present = [
                Caller(services.ref_of(connection), seat.name, seat.kind)
                for seat in (black, white)
                if seat.level is None
                for connection in sorted(services.lobby.connections_of(seat.name))
            ]
            room.know(standings)
            outcome = room.open_scheduled(black, white, present, terms.organiser, now, scheduled=True)
            opened = TournamentGameOpened(
                tournament.tournament_id, pairing.round, pairing.board, room.game_id, room.room_id
            )
            outcome.records.append(opened)
            return outcome

        await actor.run(open_game)
        await hold_new_room(services, actor)
        # The board learns its game on the tournament as it is now: a change that failed meanwhile
        # may have put back the copy taken before it.
        async with self._lock(tournament.tournament_id):
            current = self._tournaments[tournament.tournament_id]
            opened = current.game_opened(pairing, room.game_id, room.room_id)
        self._tournament_of_game[room.game_id] = tournament.tournament_id
        self.watchers.changed(tournament.tournament_id, [opened])
        self._tell_players(current, opened)

    def _seat(self, tournament: Tournament, name: str) -> PlayerInfo:
        entrant = tournament.entrant(name)
        assert entrant is not None, "boards pair entrants"
        return entrant.player

    def _tell_players(self, tournament: Tournament, board: Pairing) -> None:
        assert board.room_id is not None and board.game_id is not None and board.white is not None
        deliveries: list[tuple[ConnectionId, ServerMessage]] = []
        sides: tuple[tuple[ColorName, str, str], ...] = (
            ("black", board.black, board.white),
            ("white", board.white, board.black),
        )
        for color, name, opponent in sides:
            notice = TournamentGame(
                tournament_id=tournament.tournament_id,
                round=board.round,
                room_id=board.room_id,
                game_id=board.game_id,
                color=color,
                opponent=opponent,
            )
            deliveries += [(connection, notice) for connection in self._services.lobby.connections_of(name)]
        self._services.deliver(deliveries)

    def _game_ended(self, facts: RoomFacts) -> None:
        """A room has stored a game's result (the registry's word): score its board, move on."""
        if facts.game_id is None or facts.result is None:
            return
        tournament_id = self._tournament_of_game.pop(facts.game_id, None)
        tournament = None if tournament_id is None else self._tournaments.get(tournament_id)
        if tournament is None:
            return
        scored = tournament.game_ended(facts.game_id, facts.result, facts.seats)
        if scored is not None:
            self.watchers.changed(tournament.tournament_id, [scored])
            self._spawn(self._advance(tournament.tournament_id))

    # ------------------------------------------------------------ plumbing

    def _hold(self, tournament: Tournament) -> None:
        self._tournaments[tournament.tournament_id] = tournament
        for pairing in tournament.unfinished():
            if pairing.game_id is not None:
                self._tournament_of_game[pairing.game_id] = tournament.tournament_id

    def _forget(self, tournament_id: str) -> None:
        """A tournament over, with no game left: the director lets it go (storage has it all)."""
        self._tournaments.pop(tournament_id, None)
        self._locks.pop(tournament_id, None)
        self._next_round_at.pop(tournament_id, None)
        for key in [key for key in self._timers if key.split("/")[0] == tournament_id]:
            self._timers.pop(key).cancel()

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _at(
        self, key: str, moment: datetime, action: Callable[[str], Coroutine[Any, Any, None]], keep: bool = False
    ) -> None:
        """Run `action(tournament id)` at `moment` (at once if it has passed); a timer set under the
        same key is replaced, or kept if `keep`."""
        if keep and key in self._timers:
            return
        previous = self._timers.pop(key, None)
        if previous is not None:
            previous.cancel()
        tournament_id = key.split("/")[0]
        delay = max(0.0, (moment - utc_now()).total_seconds())

        def fire() -> None:
            self._timers.pop(key, None)
            self._spawn(action(tournament_id))

        self._timers[key] = asyncio.get_running_loop().call_later(delay, fire)

    def _spawn(self, work: Job) -> None:
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Job) -> None:
        try:
            await work
        except Refusal as refusal:
            logger.info("a tournament could not move on: %s", refusal.message)
        except StorageUnavailable:
            logger.warning("a tournament could not move on: the database is busy")
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("a tournament could not move on")
