"""Everything the server keeps, in one SQLite file (aiosqlite) or in PostgreSQL (asyncpg, `--db postgresql://...`).

The schema comes from `migrations/NNNN_name.sql`, applied in order at start
and recorded in `schema_migrations`, so an old database is brought up to
date and a new one is created the same way (PostgreSQL starts from its
baseline, `migrations/postgresql/`). Once `apply` returns, the change
survives the process being killed (SQLite: WAL with full sync).

The SQL here and in the statement modules is written once for both
databases, with `?` (or `:name`) placeholders: a driver
(`server.storage.sqlite`, `server.storage.postgres`, behind
`server.storage.drivers.Driver`) runs it and reads rows by column name.

Changes arrive as records (`server.domain.StoreRecord`); `apply` commits
one request's records, all or none, through the group-commit writer of
`server.storage.writer`, and raises `StorageUnavailable` when the database cannot
take them now. Reads go through read snapshots, which see only
committed changes, and return the server's own values (`GameRecord`,
`GameSummary`, `RestoredGame`), each read from its row by name by one
function of `server.storage.rows`, never wire models: `server.rooms.views` renders
those. Callers see this class through its ports in `server.domain`
(`RecordStore` for writes, `RecordReader` for reads, `Records` for both),
so that only the server's start knows which database it is.
"""

from __future__ import annotations

import contextlib
import importlib.resources
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

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
    AuditEntry,
    GameId,
    GamePage,
    GameReviewed,
    GameToDelete,
    PlayerAdded,
    PlayerBanned,
    PlayerMuted,
    Profile,
    Puzzle,
    PuzzleTried,
    RatingsChanged,
    Report,
    RestoredGame,
    Role,
    RoleGranted,
    SignedInDevice,
    Standing,
    StoredPlayer,
    StoredTournament,
    StoreRecord,
)
from server.metrics import Metrics
from server.storage import accounts, moderation
from server.storage import review as review_reads
from server.storage.drivers import Driver, Parameters, Queries, StorageError
from server.storage.rows import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    OPENING_STEP_COLUMNS,
    STANDING_COLUMNS,
    STORED_PLAYER_COLUMNS,
    Row,
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
from server.storage.sqlite import SqliteDriver
from server.storage.tournaments import read_tournament, read_tournaments
from server.storage.writer import Fence, RecordWriter, StorageUnavailable

__all__ = ["Storage", "StorageError", "StorageSettings", "StorageUnavailable", "StoredPlayer", "is_postgres"]

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
"""The schema's migrations in a source checkout: the top-level `migrations/` folder."""
MIGRATIONS_PACKAGE = "server.migrations"
"""The same files inside an installed package (setup.py maps the folder to this package)."""
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A `--db` starting so names a PostgreSQL database; anything else is a SQLite file's path."""


@dataclass(frozen=True, slots=True)
class StorageSettings:
    """How the server waits for a database that another program holds."""

    busy_timeout_ms: int = 1_000
    """How long SQLite itself waits for another connection's lock, each attempt."""
    retry_s: float = 3.0
    """How long a write keeps trying a locked database before it gives up (`unavailable`)."""


def shipped_migrations() -> Traversable:
    """The migrations this server brings: its package's data when installed from a wheel, the
    checkout's folder when run from the source tree (an editable install cannot map the folder)."""
    try:
        return importlib.resources.files(MIGRATIONS_PACKAGE)
    except ModuleNotFoundError:
        return MIGRATIONS_DIR


def is_postgres(target: str | Path) -> bool:
    """Whether `--db` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return str(target).startswith(POSTGRES_SCHEMES)


class Storage:
    """The server's database: players, games, moves and results."""

    def __init__(self, driver: Driver, settings: StorageSettings, metrics: Metrics | None = None) -> None:
        self._driver = driver
        self._writer = RecordWriter(driver, settings.retry_s, metrics)

    @classmethod
    async def open(
        cls,
        target: str | Path,
        migrations: Traversable | None = None,
        settings: StorageSettings | None = None,
        metrics: Metrics | None = None,
    ) -> Storage:
        """Open the database `target`, a SQLite file's path (created if needed) or a PostgreSQL URL
        (`postgresql://USER@HOST:PORT/DB`, which needs the `cluster` extra), and apply pending migrations
        (`migrations`, by default those the server brings: `shipped_migrations`).

        Raises StorageError with one sentence naming the database and what is wrong with it.
        """
        settings = settings or StorageSettings()
        migrations = migrations or shipped_migrations()
        driver: Driver
        if is_postgres(target):
            try:
                from server.storage.postgres import PostgresDriver
            except ImportError as error:
                raise StorageError(
                    f"cannot use the database {target}: PostgreSQL needs asyncpg (pip install 'gomoku-server[cluster]')"
                ) from error
            driver = await PostgresDriver.open(str(target), migrations)
        else:
            driver = await SqliteDriver.open(Path(target), migrations, settings.busy_timeout_ms)
        return cls(driver, settings, metrics)

    async def close(self) -> None:
        """Finish pending writes and close the database."""
        await self._writer.close()
        await self._driver.close()

    async def limit_pages(self, pages: int | None) -> None:
        """Cap a SQLite database at `pages` pages (None: no cap); past it, writes fail as on a full disk.
        For an operator bounding disk use, and for tests standing in for one."""
        await self._sqlite("page limits").limit_pages(pages)

    async def page_count(self) -> int:
        """A SQLite database's size in pages."""
        return await self._sqlite("page counts").page_count()

    def _sqlite(self, what: str) -> SqliteDriver:
        if not isinstance(self._driver, SqliteDriver):
            raise StorageError(f"{what} are SQLite's: this database is PostgreSQL")
        return self._driver

    @contextlib.asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[_Snapshot]:
        """Queries in one read transaction: every query inside sees the same committed state, and
        the latest one. A database that cannot be read now (its server restarting, cut off) raises
        StorageUnavailable, answered `unavailable` as a write is, never `internal`."""
        try:
            async with self._driver.snapshot() as queries:
                yield _Snapshot(queries)
        except Exception as error:
            reason = self._driver.unavailable_reason(error)
            if reason is None or isinstance(error, StorageUnavailable):
                raise
            raise StorageUnavailable(reason) from error

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
        """The player whose token has this hash, or None (for an HTTP request that says who sends it):
        a name's own token, or that of a device signed in to its account."""
        async with self._snapshot() as read:
            row = await read.row(f"SELECT {STORED_PLAYER_COLUMNS} FROM players WHERE token_hash = ?", (token_hash,))
            device = await accounts.device_with_token(read, token_hash.hex()) if row is None else None
            if device is not None:
                row = await read.row(f"SELECT {STORED_PLAYER_COLUMNS} FROM players WHERE name = ?", (device.player,))
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
                f"SELECT {STANDING_COLUMNS} FROM players WHERE (CAST(? AS TEXT) IS NULL OR kind = ?) "
                "AND name NOT IN (SELECT placeholder FROM deleted_accounts) "
                "ORDER BY rd > ?, rating DESC, name LIMIT ?",
                (kind, kind, PROVISIONAL_RD, limit),
            )
        return [standing_from(row) for row in rows]

    async def profile(self, name: str, viewer: str | None, recent: int = 20, history: int = 100) -> Profile | None:
        """A player's page as `viewer` (a player's name, or None for anyone) may see it; None for an
        unknown name.

        The record counts rated games, private ones too, as the rating does:
        wins, losses and draws add up to the standing's games. `played` counts
        the finished games in one of its seats that `viewer` may see (a private
        game only to its players and creator), played here (an imported game
        names its players as text: it is nobody's). The last `recent` games and
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
                "SELECT SUM(CASE WHEN r.winner = s.side THEN 1 ELSE 0 END) AS wins, "
                "SUM(CASE WHEN r.winner <> s.side THEN 1 ELSE 0 END) AS losses, "
                "SUM(CASE WHEN r.winner IS NULL THEN 1 ELSE 0 END) AS draws FROM (SELECT c.game_id, "
                "CASE WHEN g.black_name = c.player COLLATE NOCASE THEN 'black' ELSE 'white' END AS side "
                "FROM rating_changes c JOIN games g USING (game_id) WHERE c.player = :name) s "
                "JOIN results r USING (game_id)",
                {"name": standing.name},
            )
            finished = await read.one(
                f"SELECT COUNT(*) AS played FROM games g JOIN results r USING (game_id) "
                f"WHERE {_SEATED.format(name=':name')} AND {_VISIBLE} AND {_NOT_IMPORTED}",
                {"name": standing.name, "viewer": viewer},
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

    # ------------------------------------------------------------ accounts

    async def password_hash(self, player: str) -> str | None:
        """The encoded password hash of the player (its name as stored), or None if it has none."""
        async with self._snapshot() as read:
            return await accounts.password_hash(read, player)

    async def devices(self, player: str) -> list[SignedInDevice]:
        """The devices signed in to the player's account, the first signed in first."""
        async with self._snapshot() as read:
            return await accounts.devices(read, player)

    async def device_with_token(self, token_hash: bytes) -> SignedInDevice | None:
        """The signed-in device whose token has this SHA-256, or None."""
        async with self._snapshot() as read:
            return await accounts.device_with_token(read, token_hash.hex())

    async def name_reserved_until(self, name: str, now: datetime) -> datetime | None:
        """Until when a deleted account's name stays reserved, if it still is at `now`."""
        async with self._snapshot() as read:
            return await accounts.name_reserved_until(read, name, now)

    # -------------------------------------------------------------- games

    def fence_writes(self, fence: Fence) -> None:
        """Run `fence` first in every write transaction, with the records it writes: it refuses the
        whole group (raising Fenced) when this node may no longer write them."""
        self._writer.fence = fence

    def watch_ratings(self, watcher: Callable[[RatingsChanged], None]) -> None:
        """Tell `watcher` of each rating change once it is committed (before `apply` returns it)."""
        self._writer.rating_watchers.append(watcher)

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        """Commit one request's records, all or none (possibly in one transaction with other
        requests'), with the rating change of a rated game they finish, computed in that
        transaction (see `server.storage.writer`); return the rating changes. Raises StorageUnavailable
        when the database cannot take them now."""
        return await self._writer.write(records)

    async def games_to_restore(
        self, finished_since: datetime, rooms: Collection[str] | None = None
    ) -> list[RestoredGame]:
        """The games whose rooms come back after a restart, oldest first, with their moves: every
        unfinished game, and each room's latest game if it finished at or after `finished_since`
        (its players may come back for a rematch); only those of `rooms` if given (a node taking
        over some rooms). An imported game is never one: it was played in no room here."""
        async with self._snapshot() as read:
            rows = await read.rows(
                f"SELECT {GAME_COLUMNS} FROM games g LEFT JOIN results r USING (game_id) "
                "WHERE (r.game_id IS NULL OR (r.ended_at >= ? AND g.rowid IN "
                f"(SELECT MAX(rowid) FROM games GROUP BY room_id))) AND {_NOT_IMPORTED} ORDER BY g.rowid",
                (format_timestamp(finished_since),),
            )
            restored = []
            for row in rows:
                if rooms is not None and row["room_id"] not in rooms:
                    continue
                moves = tuple(move.point for move in await read.moves(row["game_id"]))
                restored.append(restored_game_from(row, moves, await read.opening(row)))
        return restored

    async def imported_games_like(self, fingerprints: Collection[str]) -> dict[str, GameId]:
        """The stored imported games among `fingerprints` (`engine.game_import.game_fingerprint`), by
        fingerprint: the games an upload would store a second time."""
        if not fingerprints:
            return {}
        marks = ", ".join("?" for _ in fingerprints)
        async with self._snapshot() as read:
            rows = await read.rows(
                f"SELECT fingerprint, game_id FROM imported_games WHERE fingerprint IN ({marks})", tuple(fingerprints)
            )
        return {row["fingerprint"]: GameId(row["game_id"]) for row in rows}

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

        `player` matches either seat (a bot by its level name) of a game played
        here, and the creator of a game outside tournaments (two bots a player
        set playing; an imported game's uploader), ignoring case as names do; a
        tournament's organiser did not play its games. A private game is listed only when
        `viewer` played in it or created it. A finished game's summary says
        `rated` when its result changed ratings (an abort did not).
        """
        conditions = [_VISIBLE]
        parameters: dict[str, Any] = {"viewer": viewer, "limit": limit + 1}
        if player is not None:
            seated = f"({_SEATED.format(name=':player')} AND {_NOT_IMPORTED})"
            conditions.append(f"({seated} OR {_SET_UP_BY.format(name=':player')})")
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

    # --------------------------------------------------------- moderation

    async def role_of(self, name: str) -> Role | None:
        """The role of the player called `name` (ignoring case), or None."""
        async with self._snapshot() as read:
            return await moderation.role_of(read, name)

    async def roles(self) -> list[RoleGranted]:
        """Every role granted, by name."""
        async with self._snapshot() as read:
            return await moderation.roles(read)

    async def ban_of(self, name: str) -> PlayerBanned | None:
        """The ban on `name` (ignoring case) as stored, or None."""
        async with self._snapshot() as read:
            return await moderation.ban_of(read, name)

    async def mute_of(self, name: str) -> PlayerMuted | None:
        """The latest mute of `name` (ignoring case) as stored, ended or not, or None."""
        async with self._snapshot() as read:
            return await moderation.mute_of(read, name)

    async def renamed_to(self, name: str) -> str | None:
        """The name a player once called `name` (ignoring case) has now, if a rename retired it."""
        async with self._snapshot() as read:
            return await moderation.renamed_to(read, name)

    async def audit_log(self, limit: int, target: str | None = None) -> list[AuditEntry]:
        """The latest moderation actions, newest first (only those done to `target` if given)."""
        async with self._snapshot() as read:
            return await moderation.audit_log(read, limit, target)

    async def sanctions_since(self, since: datetime) -> list[AuditEntry]:
        """The bans, renames, password resets and deletions of games logged since `since`, oldest
        first (those made by another process too)."""
        async with self._snapshot() as read:
            return await moderation.sanctions_since(read, since)

    async def open_reports(self, limit: int) -> list[Report]:
        """The open reports, oldest first."""
        async with self._snapshot() as read:
            return await moderation.open_reports(read, limit)

    async def reports_filed_since(self, reporter: str, since: datetime) -> int:
        """How many reports `reporter` (ignoring case) has filed since `since`, from any node."""
        async with self._snapshot() as read:
            return await moderation.reports_filed_since(read, reporter, since)

    async def report(self, report_id: str) -> Report | None:
        """One report, open or closed, or None."""
        async with self._snapshot() as read:
            return await moderation.report(read, report_id)

    async def games_to_delete(self, game_ids: list[str]) -> list[GameToDelete]:
        """The stored games among `game_ids`, in no particular order."""
        async with self._snapshot() as read:
            return await moderation.games_to_delete(read, game_ids)

    async def unfinished_games_of(self, name: str) -> int:
        """How many stored games without a result `name` (ignoring case) holds a seat in."""
        async with self._snapshot() as read:
            return await moderation.unfinished_games_of(read, name)

    # -------------------------------------------------------- tournaments

    async def tournament(self, tournament_id: str) -> StoredTournament | None:
        """A tournament with its entrants and pairings, or None."""
        async with self._snapshot() as read:
            return await read_tournament(read, tournament_id)

    async def tournaments(self, limit: int) -> list[StoredTournament]:
        """The listed tournaments, newest first."""
        async with self._snapshot() as read:
            return await read_tournaments(read, "listed = 1", (), limit)

    async def unfinished_tournaments(self) -> list[StoredTournament]:
        """Every tournament not yet over, listed or not (its director takes it up again after a restart)."""
        async with self._snapshot() as read:
            return await read_tournaments(read, "status <> 'finished'", (), 1_000_000)

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

    async def store_try(self, tried: PuzzleTried) -> PuzzleTried:
        """Commit a finished try at a puzzle, rated in its transaction if it is the player's first at
        it (see `server.storage.writer`); the try as stored. Raises StorageUnavailable."""
        stored = [rated for rated in await self._writer.commit([tried]) if isinstance(rated, PuzzleTried)]
        return stored[0]

    async def games_to_mine(self, limit: int) -> list[GameId]:
        """Finished public games the puzzle miner has not looked at yet, oldest first."""
        async with self._snapshot() as read:
            return await review_reads.games_to_mine(read, limit)


_SEATED = "(g.black_name = {name} COLLATE NOCASE OR g.white_name = {name} COLLATE NOCASE)"
"""SQL: the player named by the parameter `name` holds a seat of the game `g` (names ignore case)."""

_SET_UP_BY = "(g.created_by = {name} COLLATE NOCASE AND g.tournament_id IS NULL)"
"""SQL: the player named by the parameter `name` set the game `g` up (not as a tournament's organiser)."""

_NOT_IMPORTED = "NOT EXISTS (SELECT 1 FROM imported_games i WHERE i.game_id = g.game_id)"
"""SQL: the game `g` was played here, not imported: an imported game's seats are names as text, not
accounts, so it is its uploader's (`created_by`) and no seated player's game, and never a room."""

_VISIBLE = (
    "(g.private = 0 OR ((g.black_name = :viewer COLLATE NOCASE OR g.white_name = :viewer COLLATE NOCASE) "
    f"AND {_NOT_IMPORTED}) OR g.created_by = :viewer COLLATE NOCASE)"
)
"""SQL: the game `g` may be shown to the player named by the parameter `viewer` (NULL for anyone): a
public game to anyone, a private one to its players and its creator only (a private imported game to
its uploader only: its seats name nobody's account)."""


class _Snapshot:
    """Queries inside one read transaction (see `Storage._snapshot`), with `?` or `:name` placeholders,
    on either database; rows are read by column name."""

    def __init__(self, queries: Queries) -> None:
        self._queries = queries

    async def rows(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        return await self._queries.rows(sql, parameters)

    async def row(self, sql: str, parameters: Parameters = ()) -> Row | None:
        return await self._queries.row(sql, parameters)

    async def one(self, sql: str, parameters: Parameters = ()) -> Row:
        """The row of a query that always has one (an aggregate)."""
        row = await self.row(sql, parameters)
        assert row is not None, "an aggregate query has one row"
        return row

    async def opening(self, game: Row) -> OpeningRecord | None:
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
