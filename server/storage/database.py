"""Everything the server keeps on disk, in one SQLite file, through aiosqlite.

The schema comes from `migrations/NNNN_name.sql`, applied in order at start
and recorded in `schema_migrations`, so an old database is brought up to
date and a new one is created the same way. The journal is WAL with full
sync: once `apply` returns, the change survives the process being killed.

Changes arrive as records (`server.domain.StoreRecord`); `apply` commits
one request's records, all or none, through the group-commit writer of
`server.storage.writer`, and raises `StorageUnavailable` when the database cannot
take them now. Reads go through a second connection, which sees only
committed changes, and return the server's own values (`GameRecord`,
`GameSummary`, `RestoredGame`), each read from its row by name by one
function of `server.storage.rows`, never wire models: `server.rooms.views` renders
those. Callers see this class through its ports in `server.domain`
(`RecordStore` for writes, `RecordReader` for reads, `Records` for both),
so that only the server's start knows it is SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from engine.glicko2 import Rating
from engine.opening_record import OpeningRecord
from engine.openings import OpeningRule
from engine.record import (
    GameRecord,
    PlayerKind,
    RecordedMove,
    format_timestamp,
)
from server.domain import (
    PROVISIONAL_RD,
    GameId,
    GamePage,
    GameReviewed,
    PlayerAdded,
    Profile,
    Puzzle,
    RatingsChanged,
    RestoredGame,
    Standing,
    StoredPlayer,
    StoreRecord,
)
from server.metrics import Metrics
from server.storage import review as review_reads
from server.storage.rows import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    OPENING_STEP_COLUMNS,
    STANDING_COLUMNS,
    STORED_PLAYER_COLUMNS,
    game_record_from,
    game_summary_from,
    opening_rule_of,
    opening_step_from,
    rating_point_from,
    recorded_move_from,
    restored_game_from,
    standing_from,
    stored_player_from,
)
from server.storage.writer import RecordWriter, StorageUnavailable, unavailable_reason

__all__ = ["Storage", "StorageError", "StorageSettings", "StorageUnavailable", "StoredPlayer"]

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
_MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


class StorageError(Exception):
    """The database cannot be used at all: it cannot be opened or created, or its migrations are wrong."""


@dataclass(frozen=True, slots=True)
class StorageSettings:
    """How the server waits for a database that another program holds."""

    busy_timeout_ms: int = 1_000
    """How long SQLite itself waits for another connection's lock, each attempt."""
    retry_s: float = 3.0
    """How long a write keeps trying a locked database before it gives up (`unavailable`)."""


async def _connect(
    path: str | Path, settings: StorageSettings, opened: list[aiosqlite.Connection]
) -> aiosqlite.Connection:
    """A connection to the database with the server's pragmas; added to `opened` so that a failure
    later in opening closes it."""
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    opened.append(connection)
    connection.row_factory = sqlite3.Row
    await connection.execute("PRAGMA foreign_keys=ON")
    await connection.execute(f"PRAGMA busy_timeout={int(settings.busy_timeout_ms)}")
    return connection


def _check_place(path: Path) -> None:
    """Refuse at once, with a clear reason, a path SQLite would only say it cannot open."""
    if path.is_dir():
        raise StorageError(f"cannot use the database {path}: it is a directory")
    if not path.parent.is_dir():
        raise StorageError(f"cannot use the database {path}: the folder {path.parent} does not exist")


async def _migrate(connection: aiosqlite.Connection, directory: Path) -> None:
    await connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with connection.execute("SELECT version FROM schema_migrations") as cursor:
        applied = {row[0] for row in await cursor.fetchall()}
    for version, name, path in _migrations(directory):
        if version in applied:
            continue
        script = path.read_text(encoding="utf-8")
        stamp = format_timestamp(datetime.now(UTC))
        await connection.executescript(
            f"BEGIN;\n{script}\n;INSERT INTO schema_migrations VALUES ({version}, '{name}', '{stamp}');\nCOMMIT;"
        )


def _migrations(directory: Path) -> list[tuple[int, str, Path]]:
    """The migration files as (version, name, path), in order; names must be NNNN_words.sql."""
    found = []
    for path in directory.glob("*.sql"):
        match = _MIGRATION_NAME.fullmatch(path.name)
        if match is None:
            raise StorageError(f"migration file {path.name!r} is not named NNNN_words.sql")
        found.append((int(match.group(1)), path.name, path))
    found.sort()
    versions = [version for version, _, _ in found]
    if len(set(versions)) != len(versions):
        raise StorageError(f"two migration files share a number in {directory}")
    return found


class Storage:
    """The server's database: players, games, moves and results."""

    def __init__(
        self,
        writes: aiosqlite.Connection,
        reads: aiosqlite.Connection,
        settings: StorageSettings,
        metrics: Metrics | None = None,
    ) -> None:
        self._writes = writes
        self._reads = reads
        self._write_lock = asyncio.Lock()
        """One transaction at a time on the writing connection."""
        self._read_lock = asyncio.Lock()
        """One read transaction at a time on the reading connection."""
        self._writer = RecordWriter(writes, self._write_lock, settings.retry_s, metrics)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        migrations: Path = MIGRATIONS_DIR,
        settings: StorageSettings | None = None,
        metrics: Metrics | None = None,
    ) -> Storage:
        """Open (creating if needed) the database at `path` and apply pending migrations.

        Raises StorageError with one sentence naming the path and what is
        wrong with it.
        """
        settings = settings or StorageSettings()
        _check_place(Path(path))
        connections: list[aiosqlite.Connection] = []
        try:
            writes = await _connect(path, settings, connections)
            await writes.execute("PRAGMA journal_mode=WAL")
            await writes.execute("PRAGMA synchronous=FULL")
            await _migrate(writes, migrations)
            reads = await _connect(path, settings, connections)
        except sqlite3.Error as error:
            for connection in connections:
                await connection.close()
            reason = unavailable_reason(error) or str(error)
            raise StorageError(f"cannot use the database {path}: {reason}") from error
        except BaseException:
            for connection in connections:
                await connection.close()
            raise
        return cls(writes, reads, settings, metrics)

    async def close(self) -> None:
        """Finish pending writes and close the file."""
        await self._writer.close()
        await self._reads.close()
        await self._writes.close()

    async def limit_pages(self, pages: int | None) -> None:
        """Cap the database at `pages` pages (SQLite's max_page_count; None: no cap). Past it, writes
        fail as on a full disk: for an operator bounding disk use, and for tests standing in for one."""
        await self._writes.execute(f"PRAGMA max_page_count = {2**32 - 2 if pages is None else int(pages)}")

    async def page_count(self) -> int:
        """The database's size in pages."""
        async with self._writes.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    @contextlib.asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[_Snapshot]:
        """The read connection to oneself, in one read transaction: every query inside sees the
        same committed state, and the latest one (interleaved queries on one connection would
        share an older snapshot: a player just created could look absent)."""
        async with self._read_lock:
            await self._reads.execute("BEGIN")
            try:
                yield _Snapshot(self._reads)
            finally:
                await self._reads.execute("COMMIT")

    async def applied_migrations(self) -> list[int]:
        """The versions recorded in `schema_migrations`, in order."""
        async with self._snapshot() as read:
            return [row[0] for row in await read.rows("SELECT version FROM schema_migrations ORDER BY version")]

    # ------------------------------------------------------------ players

    async def find_player(self, name: str) -> StoredPlayer | None:
        """The player called `name` (ignoring case), or None."""
        async with self._snapshot() as read:
            row = await read.row(f"SELECT {STORED_PLAYER_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE", (name,))
        return None if row is None else stored_player_from(row)

    async def player_with_token(self, token_hash: bytes) -> StoredPlayer | None:
        """The player whose token has this hash, or None (for an HTTP request that says who sends it)."""
        async with self._snapshot() as read:
            row = await read.row(f"SELECT {STORED_PLAYER_COLUMNS} FROM players WHERE token_hash = ?", (token_hash,))
        return None if row is None else stored_player_from(row)

    async def standing(self, name: str) -> Standing | None:
        """A player's (or a bot's) rating and rated games, or None for an unknown name."""
        async with self._snapshot() as read:
            row = await read.row(f"SELECT {STANDING_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE", (name,))
        return None if row is None else standing_from(row)

    async def leaderboard(self, limit: int, kind: PlayerKind | None) -> list[Standing]:
        """The best rated players by rating, those with a provisional rating after the others;
        only humans or only bots if `kind` says so."""
        async with self._snapshot() as read:
            rows = await read.rows(
                f"SELECT {STANDING_COLUMNS} FROM players WHERE (? IS NULL OR kind = ?) "
                "ORDER BY rd > ?, rating DESC, name LIMIT ?",
                (kind, kind, PROVISIONAL_RD, limit),
            )
        return [standing_from(row) for row in rows]

    async def profile(self, name: str, viewer: str | None, recent: int = 20, history: int = 100) -> Profile | None:
        """A player's page as `viewer` (a player's name, or None for anyone) may see it; None for an
        unknown name.

        The record counts rated games, private ones too, as the rating does:
        wins, losses and draws add up to the standing's games. `played` counts
        every finished game in one of its seats. The last `recent` games and
        the rating after each of the last `history` rated games name a private
        game only to its players (a point of the history keeps its rating
        without its game id).
        """
        standing = await self.standing(name)
        if standing is None:
            return None
        page = await self.list_games(standing.name, recent, None, viewer)
        assert page is not None, "no `before` game to miss"
        async with self._snapshot() as read:
            rated = await read.one(
                "SELECT SUM(r.winner = s.side) AS wins, SUM(r.winner <> s.side) AS losses, "
                "SUM(r.winner IS NULL) AS draws FROM (SELECT c.game_id, "
                "CASE WHEN g.black_name = c.player COLLATE NOCASE THEN 'black' ELSE 'white' END AS side "
                "FROM rating_changes c JOIN games g USING (game_id) WHERE c.player = :name) s "
                "JOIN results r USING (game_id)",
                {"name": standing.name},
            )
            finished = await read.one(
                f"SELECT COUNT(*) AS played FROM games g JOIN results r USING (game_id) "
                f"WHERE {_SEATED.format(name=':name')}",
                {"name": standing.name},
            )
            points = await read.rows(
                "SELECT CASE WHEN "
                f"{_VISIBLE} THEN c.game_id END AS game_id, c.at, c.rating_after, c.rd_after, c.volatility_after "
                "FROM rating_changes c JOIN games g USING (game_id) "
                "WHERE c.player = :name ORDER BY c.at DESC, c.rowid DESC LIMIT :history",
                {"name": standing.name, "viewer": viewer, "history": history},
            )
        return Profile(
            standing=standing,
            wins=int(rated["wins"] or 0),
            losses=int(rated["losses"] or 0),
            draws=int(rated["draws"] or 0),
            played=int(finished["played"]),
            recent=page.games,
            history=tuple(rating_point_from(point) for point in reversed(points)),
        )

    async def add_player(self, name: str, token_hash: bytes, kind: PlayerKind = "human") -> StoredPlayer | None:
        """Create a player (a person, or a bot account); None if the name (ignoring case) was taken
        meanwhile.

        Raises StorageUnavailable when the database cannot take it now.
        """
        await self.apply([PlayerAdded(name, token_hash, datetime.now(UTC), kind)])
        player = await self.find_player(name)
        return player if player is not None and player.token_hash == token_hash else None

    # -------------------------------------------------------------- games

    def watch_ratings(self, watcher: Callable[[RatingsChanged], None]) -> None:
        """Tell `watcher` of each rating change once it is committed (before `apply` returns it)."""
        self._writer.rating_watchers.append(watcher)

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        """Commit one request's records, all or none (possibly in one transaction with other
        requests'), with the rating change of a rated game they finish, computed in that
        transaction (see `server.storage.writer`); return the rating changes. Raises StorageUnavailable
        when the database cannot take them now."""
        return await self._writer.write(records)

    async def games_to_restore(self, finished_since: datetime) -> list[RestoredGame]:
        """The games whose rooms come back after a restart, oldest first, with their moves: every
        unfinished game, and each room's latest game if it finished at or after `finished_since`
        (its players may come back for a rematch)."""
        async with self._snapshot() as read:
            rows = await read.rows(
                f"SELECT {GAME_COLUMNS} FROM games g LEFT JOIN results r USING (game_id) "
                "WHERE r.game_id IS NULL OR (r.ended_at >= ? AND g.rowid IN "
                "(SELECT MAX(rowid) FROM games GROUP BY room_id)) ORDER BY g.rowid",
                (format_timestamp(finished_since),),
            )
            restored = []
            for row in rows:
                moves = tuple(move.point for move in await read.moves(row["game_id"]))
                restored.append(restored_game_from(row, moves, await read.opening(row)))
        return restored

    async def unfinished_games(self) -> list[RestoredGame]:
        """Every stored game without a result, with its moves, oldest first."""
        return [game for game in await self.games_to_restore(datetime.max.replace(tzinfo=UTC)) if game.result is None]

    async def game_record(self, game_id: str, viewer: str | None) -> GameRecord | None:
        """The whole record of a game, finished or not, if `viewer` (a player's name, or None for
        anyone) may read it; None if there is no such game, or it is a private game `viewer` did not
        play or create."""
        async with self._snapshot() as read:
            row = await read.row(
                f"SELECT {GAME_COLUMNS} FROM games g LEFT JOIN results r USING (game_id) "
                f"WHERE g.game_id = :game_id AND {_VISIBLE}",
                {"game_id": game_id, "viewer": viewer},
            )
            if row is None:
                return None
            return game_record_from(row, tuple(await read.moves(row["game_id"])), await read.opening(row))

    async def list_games(
        self, player: str | None, limit: int, before: str | None, viewer: str | None = None
    ) -> GamePage | None:
        """A page of game summaries, newest first, from just before the game `before` (or the
        newest); None when `before` names no stored game `viewer` may see.

        `player` matches either seat (a bot by its level name) and the game's
        creator, ignoring case as names do. A private game is listed only when
        `viewer` played in it or created it. A finished game's summary says
        `rated` when its result changed ratings (an abort did not).
        """
        conditions = [_VISIBLE]
        parameters: dict[str, Any] = {"viewer": viewer, "limit": limit + 1}
        if player is not None:
            conditions.append(f"({_SEATED.format(name=':player')} OR g.created_by = :player COLLATE NOCASE)")
            parameters["player"] = player
        async with self._snapshot() as read:
            if before is not None:
                anchor = await read.row(
                    f"SELECT g.rowid FROM games g WHERE g.game_id = :before AND {_VISIBLE}",
                    parameters | {"before": before},
                )
                if anchor is None:
                    return None
                conditions.append("g.rowid < :anchor")
                parameters["anchor"] = anchor[0]
            rows = await read.rows(
                f"SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.game_id) AS move_count, "
                "EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.game_id) AS ratings_changed "
                f"FROM games g LEFT JOIN results r USING (game_id) WHERE {' AND '.join(conditions)} "
                "ORDER BY g.rowid DESC LIMIT :limit",
                parameters,
            )
        games = tuple(game_summary_from(row) for row in rows[:limit])
        more = len(rows) > limit
        return GamePage(games, games[-1].game_id if more else None)

    async def review(self, game_id: str) -> GameReviewed | None:
        """A game's stored review, or None if it has none yet."""
        async with self._snapshot() as read:
            return await review_reads.review_of(read, game_id)

    async def puzzle(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle with this id, or None."""
        async with self._snapshot() as read:
            return await review_reads.puzzle(read, puzzle_id)

    async def puzzle_near(self, player: str | None, rating: float) -> Puzzle | None:
        """The puzzle rated nearest to `rating` that `player` has not tried, or None."""
        async with self._snapshot() as read:
            return await review_reads.puzzle_near(read, player, rating)

    async def puzzle_at(self, index: int) -> Puzzle | None:
        """The puzzle at `index`, modulo their number, in the order of their ids; None without puzzles."""
        async with self._snapshot() as read:
            return await review_reads.puzzle_at(read, index)

    async def puzzle_rating(self, player: str) -> tuple[Rating, int]:
        """A player's puzzle rating and rated tries (a newcomer's, 0, for one with none)."""
        async with self._snapshot() as read:
            return await review_reads.puzzle_rating(read, player)

    async def has_tried(self, player: str, puzzle_id: str) -> bool:
        """Whether the player has finished a try at the puzzle before."""
        async with self._snapshot() as read:
            return await review_reads.has_tried(read, player, puzzle_id)

    async def games_to_mine(self, limit: int) -> list[GameId]:
        """Finished public games the puzzle miner has not looked at yet, oldest first."""
        async with self._snapshot() as read:
            return await review_reads.games_to_mine(read, limit)

    async def games_to_review(self, limit: int) -> list[GameId]:
        """Finished rated games without a review, oldest first."""
        async with self._snapshot() as read:
            return await review_reads.games_to_review(read, limit)


_SEATED = "(g.black_name = {name} COLLATE NOCASE OR g.white_name = {name} COLLATE NOCASE)"
"""SQL: the player named by the parameter `name` holds a seat of the game `g` (names ignore case)."""

_VISIBLE = (
    "(g.private = 0 OR g.black_name = :viewer COLLATE NOCASE OR g.white_name = :viewer COLLATE NOCASE "
    "OR g.created_by = :viewer COLLATE NOCASE)"
)
"""SQL: the game `g` may be shown to the player named by the parameter `viewer` (NULL for anyone): a
public game to anyone, a private one to its players and its creator only."""


class _Snapshot:
    """Queries inside one read transaction (see `Storage._snapshot`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def rows(self, sql: str, parameters: tuple[Any, ...] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        async with self._db.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())

    async def row(self, sql: str, parameters: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Row | None:
        async with self._db.execute(sql, parameters) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def one(self, sql: str, parameters: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Row:
        """The row of a query that always has one (an aggregate)."""
        row = await self.row(sql, parameters)
        assert row is not None, "an aggregate query has one row"
        return row

    async def opening(self, game: sqlite3.Row) -> OpeningRecord | None:
        """The opening rule and steps of a game (a row of GAME_COLUMNS); None for a game without one."""
        rule = opening_rule_of(game)
        if rule is OpeningRule.NONE:
            return None
        rows = await self.rows(
            f"SELECT {OPENING_STEP_COLUMNS} FROM opening_steps WHERE game_id = ? ORDER BY idx", (game["game_id"],)
        )
        return OpeningRecord(rule, tuple(opening_step_from(row) for row in rows))

    async def moves(self, game_id: str) -> list[RecordedMove]:
        rows = await self.rows(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [recorded_move_from(row) for row in rows]
