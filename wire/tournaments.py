"""The tournaments' messages (the `tournaments` feature): creating, entering, watching, organising.

`wire.messages` imports these into its unions of requests and events; they
stand on its shared parts (the base classes, clocks, rules), so the package
imports `wire.messages` first (`wire/__init__.py`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from engine.types import Rule
from wire.ids import GameId, RoomId
from wire.messages import (
    PAGE_LIMIT,
    SHOWN_TEXT,
    BotLevel,
    ClientMessage,
    ClockSettingModel,
    ColorName,
    OpeningName,
    PlayerName,
    ServerMessage,
    WireModel,
    _check_rule,  # the rule, size and opening checks every request that makes games shares
)

TournamentFormatName = Literal["round_robin", "swiss", "arena"]
TournamentStatusName = Literal["open", "running", "paused", "finished"]
TournamentId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
STANDINGS_SHOWN = 100
"""The most standings rows a message carries (the best): a message fits in a frame. HTTP has them all."""
MAX_PLAYERS = 256
"""The most players a tournament takes: a round's boards and the standings shown fit in one frame."""
MAX_ROUNDS = 30
LONGEST_ARENA_S = 24 * 3600


# ------------------------------------------------------------------ requests


class CreateTournament(ClientMessage):
    """Create a tournament, open for entries; the creator is its organiser (and does not play in it
    unless it joins)."""

    type: Literal["create_tournament"] = "create_tournament"
    name: Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True, pattern=SHOWN_TEXT)]
    format: TournamentFormatName
    rule: Rule = Rule.FREESTYLE
    size: int = Field(default=15, ge=5, le=26)
    clock: ClockSettingModel
    opening: OpeningName = "none"
    rated: bool = False
    cycles: int = Field(default=1, ge=1, le=2)
    """Round robin: 1 single, 2 double (both colours against everyone)."""
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    """Swiss: how many rounds (required)."""
    duration_s: int | None = Field(default=None, ge=60, le=LONGEST_ARENA_S)
    """Arena: how long it pairs players (required)."""
    starts_at: str | None = None
    """When it starts by itself (ISO 8601 UTC); null: when the organiser starts it."""
    max_players: int = Field(default=64, ge=2, le=MAX_PLAYERS)
    listed: bool = True
    """Listed for everyone; if false, found only by its id (a link to join)."""

    @model_validator(mode="after")
    def _check_format(self) -> CreateTournament:
        _check_rule(self.rule, self.size, self.opening)
        if self.format == "swiss" and self.rounds is None:
            raise ValueError("a Swiss tournament needs its number of rounds")
        if self.format == "arena" and self.duration_s is None:
            raise ValueError("an arena needs its duration")
        return self


class ListTournaments(ClientMessage):
    """The listed tournaments, newest first."""

    type: Literal["list_tournaments"] = "list_tournaments"
    limit: int = Field(default=50, ge=1, le=PAGE_LIMIT)


class GetTournament(ClientMessage):
    type: Literal["get_tournament"] = "get_tournament"
    tournament_id: TournamentId


class JoinTournament(ClientMessage):
    """Enter a tournament: before it starts, or during a Swiss or an arena."""

    type: Literal["join_tournament"] = "join_tournament"
    tournament_id: TournamentId


class WithdrawTournament(ClientMessage):
    """Leave a tournament: before the start one is forgotten; during it one is paired no more."""

    type: Literal["withdraw_tournament"] = "withdraw_tournament"
    tournament_id: TournamentId


class ManageTournament(ClientMessage):
    """The organiser's controls."""

    type: Literal["manage_tournament"] = "manage_tournament"
    tournament_id: TournamentId
    action: Literal["start", "pause", "resume", "end"]


class AddEntrant(ClientMessage):
    """The organiser enters a bot level (ours or an outside engine's)."""

    type: Literal["add_entrant"] = "add_entrant"
    tournament_id: TournamentId
    bot: BotLevel


class RemoveEntrant(ClientMessage):
    """The organiser removes a player (withdrawn during play; its games stand)."""

    type: Literal["remove_entrant"] = "remove_entrant"
    tournament_id: TournamentId
    name: PlayerName | BotLevel


class WatchTournament(ClientMessage):
    """Get the tournament now, then its changes in batches (`tournament_changes`)."""

    type: Literal["watch_tournament"] = "watch_tournament"
    tournament_id: TournamentId


class UnwatchTournament(ClientMessage):
    type: Literal["unwatch_tournament"] = "unwatch_tournament"
    tournament_id: TournamentId


# -------------------------------------------------------------------- parts


class TournamentSummaryModel(WireModel):
    """A tournament at a glance."""

    tournament_id: str
    name: str
    format: TournamentFormatName
    status: TournamentStatusName
    organiser: str
    rule: Rule
    size: int
    clock: ClockSettingModel
    opening: OpeningName
    rated: bool
    players: int
    """Entrants still playing (or entered, before the start)."""
    max_players: int
    round: int
    """The current round (an arena's latest wave); 0 before the first."""
    rounds: int | None
    """How many rounds it plays; null for an arena."""
    starts_at: str | None
    ends_at: str | None
    """When an arena stops pairing."""
    listed: bool


class StandingModel(WireModel):
    """One line of the standings."""

    rank: int
    name: str
    kind: Literal["human", "bot"]
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    tie_breaks: list[float | None]
    """The values of the tournament's `tie_breaks`, in order."""
    performance: int | None
    withdrawn: bool


class PairingModel(WireModel):
    """One board of one round: a game, or a bye (no white)."""

    round: int
    board: int
    black: str
    white: str | None
    room_id: RoomId | None
    """Where to watch the game (null for a bye, or before it opens)."""
    game_id: GameId | None
    """Its record, to replay it."""
    score: float | None
    """Black's score once it has ended (1, 0.5, 0); a bye's is 1 in a Swiss, 0 for a round robin's rest."""


class TournamentModel(TournamentSummaryModel):
    """A tournament in full: its standings and the boards of the current round and those still playing."""

    tie_breaks: list[str]
    standings: list[StandingModel]
    """The best STANDINGS_SHOWN, in rank order."""
    pairings: list[PairingModel]
    next_round_at: str | None
    """When the next round is paired (between rounds), else null."""


# ------------------------------------------------------------------- events


class TournamentMessage(ServerMessage):
    type: Literal["tournament"] = "tournament"
    tournament: TournamentModel
    seq: int = 0
    """For a watcher: the `seq` of the last batch this snapshot includes."""


class Tournaments(ServerMessage):
    type: Literal["tournaments"] = "tournaments"
    tournaments: list[TournamentSummaryModel]


class TournamentChanges(ServerMessage):
    """What changed in a watched tournament since the previous batch, sent at most once a tick."""

    type: Literal["tournament_changes"] = "tournament_changes"
    tournament_id: str
    seq: int
    """The tournament's count of batches: one more than the previous batch's (the snapshot tells the last)."""
    status: TournamentStatusName
    round: int
    players: int
    standings: list[StandingModel]
    """The best STANDINGS_SHOWN as they are now."""
    pairings: list[PairingModel]
    """The boards paired, opened or ended since the previous batch."""
    next_round_at: str | None


class TournamentGame(ServerMessage):
    """Your next tournament game has opened: you are seated and the clock runs."""

    type: Literal["tournament_game"] = "tournament_game"
    tournament_id: str
    round: int
    room_id: RoomId
    game_id: GameId
    color: ColorName
    opponent: str


TournamentRequest = (
    CreateTournament
    | ListTournaments
    | GetTournament
    | JoinTournament
    | WithdrawTournament
    | ManageTournament
    | AddEntrant
    | RemoveEntrant
    | WatchTournament
    | UnwatchTournament
)
TournamentEvent = TournamentMessage | Tournaments | TournamentChanges | TournamentGame
