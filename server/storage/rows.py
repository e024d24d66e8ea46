"""How stored rows become the server's values: one function per domain value, reading the
row's columns by name (`Row`: SQLite's `sqlite3.Row` and PostgreSQL's `asyncpg.Record` alike).

`server.storage.database` (its reads) and `server.storage.writer` (the ratings it reads
inside a rated game's transaction) both read rows through these, so that
a column is read into a value in one place only. Each `..._COLUMNS`
constant is the select list its function reads.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Protocol

from engine.glicko2 import Rating
from engine.opening_record import OpeningRecord, OpeningStepRecord, step_from_dict
from engine.openings import OpeningRule, Player
from engine.record import ClockSetting, GameRecord, PlayerInfo, RecordedMove, parse_timestamp
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import GameId, GameSummary, RatingPoint, RestoredGame, RoomId, Standing, StoredPlayer


class Row(Protocol):
    """A row as both databases' drivers return it: its columns by name (or by position)."""

    def __getitem__(self, key: str | int, /) -> Any: ...


STANDING_COLUMNS = "name, kind, rating, rd, volatility, games"
"""The columns of `players` that `standing_from` reads."""

STORED_PLAYER_COLUMNS = "player_id, name, token_hash, kind"
"""The columns of `players` that `stored_player_from` reads."""

GAME_COLUMNS = (
    "g.game_id, g.room_id, g.rule, g.size, g.black_name, g.black_kind, g.black_level, "
    "g.white_name, g.white_kind, g.white_level, g.clock_initial_ms, g.clock_increment_ms, "
    "g.black_ms, g.white_ms, g.private, g.started_at, g.created_by, g.rated, g.opening, "
    "g.black_depth, g.black_width, g.white_depth, g.white_width, g.tournament_id, "
    "r.winner, r.reason, r.line, r.ended_at, r.detail"
)
"""The columns of a game `g` and its result `r` (NULL while unfinished) that the game functions read."""

MOVE_COLUMNS = "x, y, color, time_ms"
"""The columns of `moves` that `recorded_move_from` reads."""

OPENING_STEP_COLUMNS = "player, side, step"
"""The columns of `opening_steps` that `opening_step_from` reads."""


def rating_from(row: Row) -> Rating:
    """A Glicko-2 rating from a row's `rating`, `rd` and `volatility` (a player's or a puzzle's)."""
    return Rating(float(row["rating"]), float(row["rd"]), float(row["volatility"]))


def points_from(text: str) -> tuple[Point, ...]:
    """Points from their stored JSON text [[x, y], ...] (a winning line, a review's or a puzzle's)."""
    return tuple(Point(x, y) for x, y in json.loads(text))


def standing_from(row: Row) -> Standing:
    """A player's standing from a row of STANDING_COLUMNS."""
    return Standing(row["name"], row["kind"], rating_from(row), int(row["games"]))


def stored_player_from(row: Row) -> StoredPlayer:
    """A player as stored, for signing in, from a row of STORED_PLAYER_COLUMNS."""
    return StoredPlayer(row["player_id"], row["name"], bytes(row["token_hash"]), row["kind"])


def rating_point_from(row: Row) -> RatingPoint:
    """A point of a rating history from a row of `game_id` (NULL when it may not be named), `at`
    and the rating after the game (`rating_after`, `rd_after`, `volatility_after`)."""
    game_id = None if row["game_id"] is None else GameId(row["game_id"])
    rating = Rating(row["rating_after"], row["rd_after"], row["volatility_after"])
    return RatingPoint(game_id, parse_timestamp(row["at"]), rating)


def recorded_move_from(row: Row) -> RecordedMove:
    """A stone of a game record from a row of MOVE_COLUMNS."""
    return RecordedMove(Point(row["x"], row["y"]), Color.parse(row["color"]), row["time_ms"])


def opening_step_from(row: Row) -> OpeningStepRecord:
    """A step of a game's opening from a row of OPENING_STEP_COLUMNS."""
    return OpeningStepRecord(row["player"], Player(row["side"]), step_from_dict(json.loads(row["step"])))


def restored_game_from(row: Row, moves: tuple[Point, ...], opening: OpeningRecord | None) -> RestoredGame:
    """A game whose room comes back after a restart, from a row of GAME_COLUMNS, its stones and
    its opening."""
    clock_ms = None if row["black_ms"] is None else (row["black_ms"], row["white_ms"])
    return RestoredGame(
        room_id=RoomId(row["room_id"]),
        game_id=GameId(row["game_id"]),
        rule=Rule(row["rule"]),
        size=row["size"],
        black=_seat(row, "black"),
        white=_seat(row, "white"),
        clock=_clock(row),
        clock_ms=clock_ms,
        moves=moves,
        started_at=parse_timestamp(row["started_at"]),
        private=bool(row["private"]),
        created_by=row["created_by"],
        result=_result(row),
        rated=bool(row["rated"]),
        opening=opening,
        tournament_id=row["tournament_id"],
    )


def game_record_from(row: Row, moves: tuple[RecordedMove, ...], opening: OpeningRecord | None) -> GameRecord:
    """A game's whole record from a row of GAME_COLUMNS, its moves and its opening."""
    return GameRecord(
        rule=Rule(row["rule"]),
        size=row["size"],
        black=_seat(row, "black"),
        white=_seat(row, "white"),
        moves=moves,
        result=_result(row),
        started_at=parse_timestamp(row["started_at"]),
        ended_at=_ended_at(row),
        game_id=GameId(row["game_id"]),
        clock=_clock(row),
        opening=opening,
    )


def game_summary_from(row: Row) -> GameSummary:
    """A game's summary from a row of GAME_COLUMNS with `move_count` and `ratings_changed`; a
    finished game is `rated` when its result changed ratings (an abort did not)."""
    result = _result(row)
    return GameSummary(
        game_id=GameId(row["game_id"]),
        room_id=RoomId(row["room_id"]),
        rule=Rule(row["rule"]),
        size=row["size"],
        black=_seat(row, "black"),
        white=_seat(row, "white"),
        move_count=row["move_count"],
        result=result,
        started_at=parse_timestamp(row["started_at"]),
        ended_at=_ended_at(row),
        private=bool(row["private"]),
        rated=bool(row["rated"]) if result is None else bool(row["ratings_changed"]),
    )


def opening_rule_of(row: Row) -> OpeningRule:
    """The opening rule of a game, from a row of GAME_COLUMNS."""
    return OpeningRule(row["opening"])


def _seat(row: Row, color: str) -> PlayerInfo:
    return PlayerInfo(
        row[f"{color}_name"], row[f"{color}_kind"], row[f"{color}_level"], row[f"{color}_depth"], row[f"{color}_width"]
    )


def _clock(row: Row) -> ClockSetting | None:
    initial = row["clock_initial_ms"]
    return None if initial is None else ClockSetting(initial, row["clock_increment_ms"])


def _result(row: Row) -> GameResult | None:
    if row["reason"] is None:
        return None
    line = None if row["line"] is None else points_from(row["line"])
    winner = None if row["winner"] is None else Color.parse(row["winner"])
    return GameResult(winner, EndReason(row["reason"]), line, row["detail"])


def _ended_at(row: Row) -> datetime | None:
    return None if row["ended_at"] is None else parse_timestamp(row["ended_at"])
