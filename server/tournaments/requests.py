"""Serving the tournaments' requests: create, list, show, enter, withdraw, organise, watch.

Each request that changes a tournament is a change handed to the
`Director` (stored before anyone hears of it) and is answered with the
tournament as it now stands. Only the organiser may start, pause, resume
or end a tournament, or add and remove entrants.
"""

from __future__ import annotations

from datetime import datetime
from typing import assert_never

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerInfo, parse_timestamp
from server.domain import GameId, Refusal, TournamentReader, TournamentTerms, utc_now
from server.edge.connections import Connection
from server.hub.services import Requester, Services, signed_in
from server.tournaments import views
from server.tournaments.director import Change, Director
from server.tournaments.tournament import Tournament
from wire.tournaments import (
    AddEntrant,
    CreateTournament,
    GetTournament,
    JoinTournament,
    ListTournaments,
    ManageTournament,
    RemoveEntrant,
    TournamentMessage,
    TournamentRequest,
    Tournaments,
    UnwatchTournament,
    WatchTournament,
    WithdrawTournament,
)


class TournamentRequests:
    """Serves the tournaments' requests of every connection."""

    def __init__(self, services: Services, storage: TournamentReader, director: Director) -> None:
        self._services = services
        self._storage = storage
        self.director = director

    async def handle(self, connection: Connection, request: TournamentRequest) -> None:
        """Serve one request of a connection here, or, in a cluster, hand it to the node that directs
        the tournaments (the lobby's node, which serves it as its own); raise Refusal to answer it
        with an error."""
        if not await self._services.forwarded(connection, request):
            await self.serve(connection, request)

    async def serve(self, connection: Requester, request: TournamentRequest) -> None:
        """Serve one request here, of a connection here or on another node; raise Refusal to answer
        it with an error."""
        self.director.require_directing()
        name = signed_in(connection)
        tournament_id = request.tournament_id if not isinstance(request, CreateTournament | ListTournaments) else ""
        change = self.director.change
        match request:
            case CreateTournament():
                tournament = await self.director.create(self._terms(await self._player_id(name), name, request))
            case ListTournaments():
                listed = [Tournament.from_stored(stored) for stored in await self._storage.tournaments(request.limit)]
                summaries = [views.summary(self.director.live(t.tournament_id) or t) for t in listed]
                connection.send(Tournaments(tournaments=summaries, id=request.id))
                return
            case GetTournament():
                tournament = await self.director.find(tournament_id)
            case JoinTournament():
                player = PlayerInfo(name, connection.player_kind)
                rating = (await self._services.ratings.standing(player)).rating.rating
                tournament = await change(tournament_id, lambda t, now: t.enter(player, rating, now))
            case WithdrawTournament():
                tournament = await change(tournament_id, lambda t, now: t.withdraw(name, now))
            case ManageTournament():
                await self._organiser(tournament_id, name)
                tournament = await change(tournament_id, _MANAGING[request.action])
            case AddEntrant():
                bot = await self._bot(request.bot, await self._organiser(tournament_id, name))
                rating = (await self._services.ratings.standing(bot)).rating.rating
                tournament = await change(tournament_id, lambda t, now: t.enter(bot, rating, now))
            case RemoveEntrant():
                await self._organiser(tournament_id, name)
                removed = request.name
                tournament = await change(tournament_id, lambda t, now: t.withdraw(removed, now, by_organiser=True))
            case WatchTournament():
                tournament = await self.director.find(tournament_id)
                seq = self.director.watchers.watch(tournament.tournament_id, connection.id)
                connection.send(self._snapshot(tournament, request.id, seq))
                return
            case UnwatchTournament():
                self.director.watchers.unwatch(tournament_id, connection.id)
                return
            case _:
                assert_never(request)
        connection.send(self._snapshot(tournament, request.id))

    def connection_closed(self, connection: Requester) -> None:
        self.director.watchers.connection_closed(connection.id)

    def game_ended_elsewhere(self, game_id: GameId) -> None:
        """A game has ended in a room of another node (its node's notice)."""
        self.director.game_ended_elsewhere(game_id)

    def _snapshot(self, tournament: Tournament, request_id: str | int | None, seq: int = 0) -> TournamentMessage:
        model = views.tournament_model(tournament, self.director.next_round_at(tournament.tournament_id))
        return TournamentMessage(tournament=model, seq=seq, id=request_id)

    async def _organiser(self, tournament_id: str, name: str) -> Tournament:
        """The tournament, if the player called `name` organises it: the organiser is an id, so that
        a newcomer who took a deleted organiser's name manages nothing of theirs."""
        tournament = await self.director.find(tournament_id)
        organiser_id = tournament.terms.organiser_id
        if organiser_id is None or organiser_id != await self._player_id(name):
            raise Refusal("not_allowed", "only the tournament's organiser may do that")
        return tournament

    async def _player_id(self, name: str) -> str:
        """The id of the player signed in as `name` (a signed-in player has a row)."""
        player = await self._services.storage.find_player(name)
        if player is None:
            raise Refusal("not_allowed", f"{name!r} is no stored player")
        return player.player_id

    async def _bot(self, level: str, tournament: Tournament) -> PlayerInfo:
        if self._services.bots is None:
            raise Refusal("not_allowed", "this server runs no bots")
        terms = tournament.terms
        self._services.roster.check_seat(level, terms.rule, terms.size, terms.opening)
        return PlayerInfo(level, "bot", level)

    def _terms(self, organiser_id: str, organiser: str, request: CreateTournament) -> TournamentTerms:
        settings = self.director.settings
        if not settings.may_organise(organiser):
            raise Refusal("not_allowed", "on this server only its organisers create tournaments")
        most = settings.open_per_player
        if self.director.organised_by(organiser_id) >= most:
            raise Refusal("limit_reached", f"you organise {most} tournaments not yet over, the most per player")
        return TournamentTerms(
            name=request.name,
            format=request.format,
            organiser=organiser,
            rule=request.rule,
            size=request.size,
            clock=ClockSetting(request.clock.initial_ms, request.clock.increment_ms),
            opening=OpeningRule(request.opening),
            rated=request.rated,
            cycles=request.cycles,
            rounds=request.rounds or 0,
            duration_s=request.duration_s or 0,
            starts_at=None if request.starts_at is None else _start_time(request.starts_at),
            max_players=request.max_players,
            listed=request.listed,
            organiser_id=organiser_id,
        )


def _start_time(text: str) -> datetime:
    try:
        moment = parse_timestamp(text)
    except ValueError as error:
        raise Refusal("bad_request", f"starts_at: {error}") from error
    if moment <= utc_now():
        raise Refusal("bad_request", "starts_at is in the past")
    return moment


_MANAGING: dict[str, Change] = {
    "start": lambda tournament, now: tournament.start(now),
    "pause": lambda tournament, now: tournament.pause(True),
    "resume": lambda tournament, now: tournament.pause(False),
    "end": lambda tournament, now: tournament.finish(now),
}
"""What each of the organiser's controls changes."""
