"""The SQL each tournament record becomes (see `server.storage.statements`, which calls `tournament_rows`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.record import format_timestamp
from server.domain import (
    EntrantAdded,
    EntrantLeft,
    EntrantWithdrawn,
    RoundPaired,
    TournamentCreated,
    TournamentGameOpened,
    TournamentProgress,
    TournamentRecord,
)

Statement = tuple[str, tuple[Any, ...]]

_INSERT_TOURNAMENT = (
    "INSERT INTO tournaments (tournament_id, name, format, organiser, organiser_id, rule, size, clock_initial_ms, "
    "clock_increment_ms, opening, rated, cycles, rounds, duration_s, starts_at, max_players, listed, created_at, "
    "status, round) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', 0)"
)
_INSERT_ENTRANT = (
    "INSERT INTO tournament_entrants (tournament_id, name, kind, level, seed, rating, joined_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_DELETE_ENTRANT = "DELETE FROM tournament_entrants WHERE tournament_id = ? AND name = ?"
_WITHDRAW_ENTRANT = "UPDATE tournament_entrants SET withdrawn_at = ? WHERE tournament_id = ? AND name = ?"
_UPDATE_PROGRESS = (
    "UPDATE tournaments SET status = ?, round = ?, started_at = ?, ends_at = ?, ended_at = ? WHERE tournament_id = ?"
)
_INSERT_PAIRING = (
    "INSERT INTO tournament_pairings (tournament_id, round, board, black_name, white_name, bye_score) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
_SET_PAIRING_GAME = (
    "UPDATE tournament_pairings SET game_id = ?, room_id = ? WHERE tournament_id = ? AND round = ? AND board = ?"
)
_SET_GAME_TOURNAMENT = "UPDATE games SET tournament_id = ? WHERE game_id = ?"


def tournament_rows(record: TournamentRecord) -> list[Statement]:
    """The row statements of a tournament record."""
    match record:
        case TournamentCreated(tournament_id, terms, created_at):
            clock = terms.clock
            return [
                (
                    _INSERT_TOURNAMENT,
                    (
                        tournament_id,
                        terms.name,
                        terms.format,
                        terms.organiser,
                        terms.organiser_id,
                        terms.rule.value,
                        terms.size,
                        clock.initial_ms,
                        clock.increment_ms,
                        terms.opening.value,
                        int(terms.rated),
                        terms.cycles,
                        terms.rounds,
                        terms.duration_s,
                        _time(terms.starts_at),
                        terms.max_players,
                        int(terms.listed),
                        format_timestamp(created_at),
                    ),
                )
            ]
        case EntrantAdded(tournament_id, entrant, at):
            player = entrant.player
            values = (tournament_id, player.name, player.kind, player.level, entrant.seed, entrant.rating)
            return [(_INSERT_ENTRANT, (*values, format_timestamp(at)))]
        case EntrantLeft(tournament_id, name):
            return [(_DELETE_ENTRANT, (tournament_id, name))]
        case EntrantWithdrawn(tournament_id, name, at):
            return [(_WITHDRAW_ENTRANT, (format_timestamp(at), tournament_id, name))]
        case TournamentProgress(tournament_id, status, round_number, started_at, ends_at, ended_at):
            times = (_time(started_at), _time(ends_at), _time(ended_at))
            return [(_UPDATE_PROGRESS, (status, round_number, *times, tournament_id))]
        case RoundPaired(tournament_id, pairings):
            return [
                (
                    _INSERT_PAIRING,
                    (
                        tournament_id,
                        pairing.round,
                        pairing.board,
                        pairing.black,
                        pairing.white,
                        pairing.score if pairing.is_bye else None,
                    ),
                )
                for pairing in pairings
            ]
        case TournamentGameOpened(tournament_id, round_number, board, game_id, room_id):
            return [
                (_SET_PAIRING_GAME, (game_id, room_id, tournament_id, round_number, board)),
                (_SET_GAME_TOURNAMENT, (tournament_id, game_id)),
            ]


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else format_timestamp(moment)
