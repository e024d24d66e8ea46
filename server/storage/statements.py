"""The SQL each stored record becomes, and how a group of records is batched for `executemany`.

`server.storage.writer` commits groups of records from many rooms in one
transaction; this module says what each record writes. Row statements
(games, moves, results, players, ratings) keep the records' order; the
clocks, which only set each game's latest times, come last, so that a
group of moves from many rooms is two `executemany` calls in all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from engine.opening_record import step_to_dict
from engine.record import format_timestamp
from server.domain import (
    AccountRecord,
    BotsEnrolled,
    ClocksSaved,
    GameFinished,
    GameImported,
    GameStarted,
    ModerationRecord,
    MovePlayed,
    MovesTakenBack,
    OpeningStepTaken,
    PlayerAdded,
    RatingsChanged,
    SeatsDecided,
    Standing,
    StoreRecord,
    TournamentRecord,
    new_player_id,
)
from server.storage.accounts_statements import account_rows
from server.storage.imports_statements import finished_by_import, import_rows, started_by_import
from server.storage.moderation_statements import moderation_rows
from server.storage.review_statements import ReviewRecord, review_rows
from server.storage.tournaments_statements import tournament_rows

NO_TOKEN = b""
"""A bot's token hash: no token hashes to it, so no one can sign in as a bot."""

Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement and its parameters."""

_INSERT_GAME = (
    "INSERT INTO games (game_id, room_id, rule, size, black_name, black_kind, black_level, "
    "white_name, white_kind, white_level, clock_initial_ms, clock_increment_ms, black_ms, white_ms, "
    "private, started_at, created_by, rated, opening, black_depth, black_width, white_depth, white_width) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_MOVE = "INSERT INTO moves (game_id, ply, x, y, color, time_ms) VALUES (?, ?, ?, ?, ?, ?)"
_DELETE_MOVES = "DELETE FROM moves WHERE game_id = ? AND ply > ?"
_INSERT_RESULT = "INSERT INTO results (game_id, winner, reason, line, ended_at, detail) VALUES (?, ?, ?, ?, ?, ?)"
_UPDATE_CLOCK = "UPDATE games SET black_ms = ?, white_ms = ? WHERE game_id = ?"
_INSERT_PLAYER = (
    "INSERT INTO players (player_id, name, token_hash, created_at, kind) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_ENROL_BOT = (
    "INSERT INTO players (player_id, name, token_hash, created_at, kind, rating, rd, volatility, games) "
    "VALUES (?, ?, ?, ?, 'bot', ?, ?, ?, 0) ON CONFLICT DO NOTHING"
)
_INSERT_OPENING_STEP = "INSERT INTO opening_steps (game_id, idx, player, side, step) VALUES (?, ?, ?, ?, ?)"
_UPDATE_SEATS = (
    "UPDATE games SET black_name = ?, black_kind = ?, black_level = ?, white_name = ?, white_kind = ?, "
    "white_level = ?, black_depth = ?, black_width = ?, white_depth = ?, white_width = ? WHERE game_id = ?"
)
_UPDATE_RATING = "UPDATE players SET rating = ?, rd = ?, volatility = ?, games = ? WHERE name = ?"
_INSERT_RATING_CHANGE = (
    "INSERT INTO rating_changes (game_id, player, rating_before, rd_before, volatility_before, "
    "rating_after, rd_after, volatility_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def statements(records: list[StoreRecord]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """The SQL of the records as (statement, rows) runs, ready for `executemany`: row statements in
    the records' order, consecutive rows of one statement in one run, then the clocks."""
    yield from _runs(row for record in records for row in _rows(record))
    yield from _runs(clock for record in records if (clock := _clock(record)) is not None)


def _runs(items: Iterable[Statement]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    runs: list[tuple[str, list[tuple[Any, ...]]]] = []
    for sql, row in items:
        if runs and runs[-1][0] == sql:
            runs[-1][1].append(row)
        else:
            runs.append((sql, [row]))
    return runs


def _rows(record: StoreRecord) -> list[Statement]:
    """The row statements of a record (none for one that only sets clocks)."""
    if isinstance(record, ClocksSaved):
        return []
    if isinstance(record, ReviewRecord):
        return review_rows(record)
    if isinstance(record, GameStarted):
        return [_game_row(record)]
    if isinstance(record, GameImported):
        return [_game_row(started_by_import(record)), *import_rows(record), _result_row(finished_by_import(record))]
    if isinstance(record, MovePlayed):
        point = record.point
        return [(_INSERT_MOVE, (record.game_id, record.ply, point.x, point.y, str(record.color), record.time_ms))]
    if isinstance(record, MovesTakenBack):
        return [(_DELETE_MOVES, (record.game_id, record.keep))]
    if isinstance(record, PlayerAdded):
        created_at = format_timestamp(record.created_at)
        return [(_INSERT_PLAYER, (record.player_id, record.name, record.token_hash, created_at, record.kind))]
    if isinstance(record, RatingsChanged):
        return _rating_rows(record)
    if isinstance(record, OpeningStepTaken):
        taken = record.taken
        step = json.dumps(step_to_dict(taken.step), separators=(",", ":"))
        return [(_INSERT_OPENING_STEP, (record.game_id, record.index, taken.player, taken.side.value, step))]
    if isinstance(record, SeatsDecided):
        black, white = record.black, record.white
        seats = (black.name, black.kind, black.level, white.name, white.kind, white.level)
        searches = (black.depth, black.width, white.depth, white.width)
        return [(_UPDATE_SEATS, (*seats, *searches, record.game_id))]
    if isinstance(record, ModerationRecord):
        return moderation_rows(record)
    if isinstance(record, TournamentRecord):
        return tournament_rows(record)
    if isinstance(record, BotsEnrolled):
        now = format_timestamp(datetime.now(UTC))
        return [(_ENROL_BOT, (new_player_id(), bot.name, NO_TOKEN, now, *_rating_values(bot))) for bot in record.bots]
    if isinstance(record, AccountRecord):
        return account_rows(record)
    return [_result_row(record)]


def _game_row(record: GameStarted) -> Statement:
    clock = record.clock
    initial = None if clock is None else clock.initial_ms
    return _INSERT_GAME, (
        record.game_id,
        record.room_id,
        record.rule.value,
        record.size,
        record.black.name,
        record.black.kind,
        record.black.level,
        record.white.name,
        record.white.kind,
        record.white.level,
        initial,
        None if clock is None else clock.increment_ms,
        initial,
        initial,
        int(record.private),
        format_timestamp(record.started_at),
        record.created_by,
        int(record.rated),
        record.opening.value,
        record.black.depth,
        record.black.width,
        record.white.depth,
        record.white.width,
    )


def _result_row(record: GameFinished) -> Statement:
    result = record.result
    line = None if result.line is None else json.dumps([[point.x, point.y] for point in result.line])
    winner = None if result.winner is None else str(result.winner)
    ended_at = format_timestamp(record.ended_at)
    return _INSERT_RESULT, (record.game_id, winner, result.reason.value, line, ended_at, result.detail)


def _rating_values(standing: Standing) -> tuple[float, float, float]:
    rating = standing.rating
    return rating.rating, rating.rd, rating.volatility


def _rating_rows(record: RatingsChanged) -> list[Statement]:
    rows: list[Statement] = []
    at = format_timestamp(record.at)
    for before, after in zip(record.before, record.after, strict=True):
        rows.append((_UPDATE_RATING, (*_rating_values(after), after.games, after.name)))
        values = (*_rating_values(before), *_rating_values(after))
        rows.append((_INSERT_RATING_CHANGE, (record.game_id, after.name, *values, at)))
    return rows


def _clock(record: StoreRecord) -> Statement | None:
    """The game's clocks after the record, for a timed game's move, undo or end; None otherwise."""
    if not isinstance(record, MovePlayed | MovesTakenBack | GameFinished | ClocksSaved) or record.clock_ms is None:
        return None
    black_ms, white_ms = record.clock_ms
    return _UPDATE_CLOCK, (black_ms, white_ms, record.game_id)
