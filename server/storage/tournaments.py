"""Reading tournaments back: their terms and progress, entrants and pairings, each game's score.

Functions of a read snapshot (`Storage._snapshot`), called from thin
`Storage` methods. A pairing's score is read from its game's stored result
by the players' names (an opening such as swap2 may have changed who plays
black), so that a result is stored once, by the room that ends the game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerInfo, parse_timestamp
from engine.types import Rule
from server.domain import Entrant, GameId, Pairing, RoomId, StoredTournament, TournamentTerms
from server.storage.drivers import Reads
from server.storage.rows import Row

TOURNAMENT_COLUMNS = (
    "tournament_id, name, format, organiser, organiser_id, rule, size, clock_initial_ms, clock_increment_ms, "
    "opening, rated, cycles, rounds, duration_s, starts_at, max_players, listed, created_at, status, round, "
    "started_at, ends_at, ended_at"
)
_ENTRANTS = (
    "SELECT name, kind, level, seed, rating, withdrawn_at FROM tournament_entrants WHERE tournament_id = ? "
    "ORDER BY seed"
)
_PAIRINGS = (
    "SELECT p.round, p.board, p.black_name, p.white_name, p.bye_score, p.game_id, p.room_id, "
    "g.black_name AS game_black, "
    "r.reason, r.winner FROM tournament_pairings p LEFT JOIN games g ON g.game_id = p.game_id "
    "LEFT JOIN results r ON r.game_id = p.game_id WHERE p.tournament_id = ? ORDER BY p.round, p.board"
)


async def read_tournament(reads: Reads, tournament_id: str) -> StoredTournament | None:
    """The tournament with this id, or None."""
    row = await reads.row(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = ?", (tournament_id,))
    return None if row is None else await _whole(reads, row)


async def read_tournaments(reads: Reads, where: str, parameters: tuple[Any, ...], limit: int) -> list[StoredTournament]:
    """The tournaments a condition on `tournaments` selects, newest first, at most `limit`."""
    rows = await reads.rows(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY created_at DESC, tournament_id LIMIT ?",
        (*parameters, limit),
    )
    return [await _whole(reads, row) for row in rows]


async def _whole(reads: Reads, row: Row) -> StoredTournament:
    tournament_id = row["tournament_id"]
    entrants = tuple(_entrant(entrant) for entrant in await reads.rows(_ENTRANTS, (tournament_id,)))
    pairings = tuple(_pairing(pairing) for pairing in await reads.rows(_PAIRINGS, (tournament_id,)))
    return StoredTournament(
        tournament_id=tournament_id,
        terms=_terms(row),
        created_at=parse_timestamp(row["created_at"]),
        status=row["status"],
        round=int(row["round"]),
        started_at=_time(row["started_at"]),
        ends_at=_time(row["ends_at"]),
        ended_at=_time(row["ended_at"]),
        entrants=entrants,
        pairings=pairings,
    )


def _terms(row: Row) -> TournamentTerms:
    return TournamentTerms(
        name=row["name"],
        format=row["format"],
        organiser=row["organiser"],
        rule=Rule(row["rule"]),
        size=int(row["size"]),
        clock=ClockSetting(int(row["clock_initial_ms"]), int(row["clock_increment_ms"])),
        opening=OpeningRule(row["opening"]),
        rated=bool(row["rated"]),
        cycles=int(row["cycles"]),
        rounds=int(row["rounds"]),
        duration_s=int(row["duration_s"]),
        starts_at=_time(row["starts_at"]),
        max_players=int(row["max_players"]),
        listed=bool(row["listed"]),
        organiser_id=row["organiser_id"],
    )


def _entrant(row: Row) -> Entrant:
    player = PlayerInfo(row["name"], row["kind"], row["level"])
    return Entrant(player, int(row["seed"]), float(row["rating"]), row["withdrawn_at"] is not None)


def _pairing(row: Row) -> Pairing:
    black, white = row["black_name"], row["white_name"]
    return Pairing(
        round=int(row["round"]),
        board=int(row["board"]),
        black=black,
        white=white,
        game_id=None if row["game_id"] is None else GameId(row["game_id"]),
        room_id=None if row["room_id"] is None else RoomId(row["room_id"]),
        score=_black_score(row),
    )


def _black_score(row: Row) -> float | None:
    """The pairing's black's score: a bye's as stored, the game's result by name, or None while unplayed."""
    if row["white_name"] is None:
        return float(row["bye_score"])
    if row["reason"] is None:
        return None
    if row["winner"] is None:
        return 0.5
    winner_is_game_black = row["winner"] == "black"
    black_played_black = row["game_black"] == row["black_name"]
    return 1.0 if winner_is_game_black == black_played_black else 0.0


def _time(text: str | None) -> datetime | None:
    return None if text is None else parse_timestamp(text)
