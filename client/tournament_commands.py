"""`gomoku tournaments`, `standings`, `join` and `withdraw`: the tournaments from the terminal.

Plain text out, as the other subcommands (`client.subcommands`): one line per
item, tab-separated, `-` for an empty field; `--json` prints each item as the
server sent it.
"""

from __future__ import annotations

from typing import TextIO

from client.connection import Connection
from client.subcommands import _json_lines as json_lines  # the one way subcommands print
from client.subcommands import _row as row
from wire.tournaments import (
    GetTournament,
    JoinTournament,
    ListTournaments,
    TournamentMessage,
    Tournaments,
    WithdrawTournament,
)

TOURNAMENT_COLUMNS = ("tournament", "name", "format", "status", "players", "round", "rounds", "organiser", "starts_at")
STANDING_COLUMNS = ("rank", "name", "points", "games", "tie_breaks", "performance", "withdrawn")
"""`tie_breaks` are the format's, separated by commas; `withdrawn` is yes or no."""


async def list_tournaments(connection: Connection, out: TextIO, as_json: bool = False) -> None:
    """The listed tournaments, newest first."""
    answer = await connection.request_answer(ListTournaments(), Tournaments)
    if as_json:
        json_lines(out, answer.tournaments)
        return
    for t in answer.tournaments:
        row(out, t.tournament_id, t.name, t.format, t.status, t.players, t.round, t.rounds, t.organiser, t.starts_at)


async def standings(connection: Connection, out: TextIO, tournament_id: str, as_json: bool = False) -> None:
    """A tournament's standings, best first."""
    answer = await connection.request_answer(GetTournament(tournament_id=tournament_id), TournamentMessage)
    print_standings(answer, out, as_json)


async def join(connection: Connection, out: TextIO, tournament_id: str, as_json: bool = False) -> None:
    """Enter a tournament, then print its standings."""
    answer = await connection.request_answer(JoinTournament(tournament_id=tournament_id), TournamentMessage)
    print_standings(answer, out, as_json)


async def withdraw(connection: Connection, out: TextIO, tournament_id: str, as_json: bool = False) -> None:
    """Leave a tournament, then print its standings."""
    answer = await connection.request_answer(WithdrawTournament(tournament_id=tournament_id), TournamentMessage)
    print_standings(answer, out, as_json)


def print_standings(answer: TournamentMessage, out: TextIO, as_json: bool) -> None:
    rows = answer.tournament.standings
    if as_json:
        json_lines(out, rows)
        return
    for line in rows:
        tie_breaks = ",".join("-" if value is None else f"{value:g}" for value in line.tie_breaks)
        withdrawn = "yes" if line.withdrawn else "no"
        row(out, line.rank, line.name, f"{line.points:g}", line.games, tie_breaks, line.performance, withdrawn)
