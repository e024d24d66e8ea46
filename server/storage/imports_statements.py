"""The SQL of an imported game (`GameImported`; `server.storage.statements` calls it).

An imported game is written as the rooms' games are (its `games` row from a `GameStarted`, its
result from a `GameFinished`, by the shared statements), with its moves keeping the thinking times
its file gave (NULL when it gave none, where a room's moves always have one), and a row of
`imported_games` saying where it came from. The unique fingerprint there makes a second copy of a
game fail its transaction, whatever node stores it.
"""

from __future__ import annotations

from typing import Any

from engine.record import format_timestamp
from server.domain import GameFinished, GameImported, GameStarted, new_room_id

Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement and its parameters."""

_INSERT_MOVE = "INSERT INTO moves (game_id, ply, x, y, color, time_ms) VALUES (?, ?, ?, ?, ?, ?)"
_INSERT_IMPORT = (
    "INSERT INTO imported_games (game_id, source, file_name, imported_by, imported_at, fingerprint) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


def started_by_import(imported: GameImported) -> GameStarted:
    """The game's start as a room's game would store it: unrated, untimed, created by the uploader,
    in a room of its own that never opens (its id only fills the column)."""
    record = imported.record
    return GameStarted(
        game_id=imported.game_id,
        room_id=new_room_id(),
        rule=record.rule,
        size=record.size,
        black=record.black,
        white=record.white,
        clock=None,
        started_at=record.started_at or imported.imported_at,
        private=imported.private,
        created_by=imported.imported_by,
    )


def finished_by_import(imported: GameImported) -> GameFinished:
    """The game's result as a room's game would store it (an imported game always has one)."""
    result = imported.record.result
    assert result is not None, "engine.game_import gives every imported game a result"
    return GameFinished(imported.game_id, result, imported.record.ended_at or imported.imported_at, None)


def import_rows(imported: GameImported) -> list[Statement]:
    """The moves of the game and the row that marks it imported."""
    rows: list[Statement] = [
        (_INSERT_MOVE, (imported.game_id, ply, move.point.x, move.point.y, str(move.color), move.time_ms))
        for ply, move in enumerate(imported.record.moves, start=1)
    ]
    where = (imported.source, imported.file_name, imported.imported_by, format_timestamp(imported.imported_at))
    rows.append((_INSERT_IMPORT, (imported.game_id, *where, imported.fingerprint)))
    return rows
