"""The reads of reviews and puzzles, as domain values; each function takes a read snapshot
(`Storage._snapshot`), so that `Storage` only forwards to it.

Rows are read by column name, lines of points from their JSON text (`rows.points_from`;
`review_statements.points_text` writes them).
"""

from __future__ import annotations

import dataclasses

from engine.glicko2 import LOSS, WIN, Rating, rate_game
from engine.record import parse_timestamp
from engine.review import GameReview, Mark, MarkKind, PlyEvaluation, WinKind
from engine.types import Color, Rule
from server.domain import GameId, GameReviewed, Puzzle, PuzzleRated, PuzzleTried
from server.storage.drivers import Queries, Reads
from server.storage.rows import Row, points_from, rating_from

PUZZLE_COLUMNS = (
    "puzzle_id, game_id, source, ply, rule, size, moves, solution, theme, forbidden, rating, rd, volatility, attempts"
)
"""The columns of `puzzles` that `puzzle_from` reads."""


def puzzle_from(row: Row) -> Puzzle:
    """A puzzle from a row of PUZZLE_COLUMNS."""
    return Puzzle(
        puzzle_id=row["puzzle_id"],
        game_id=None if row["game_id"] is None else GameId(row["game_id"]),
        source=row["source"],
        ply=row["ply"],
        rule=Rule(row["rule"]),
        size=row["size"],
        moves=points_from(row["moves"]),
        solution=points_from(row["solution"]),
        theme=WinKind(row["theme"]),
        forbidden=bool(row["forbidden"]),
        rating=rating_from(row),
        attempts=row["attempts"],
    )


async def review_of(read: Reads, game_id: str) -> GameReviewed | None:
    """The stored review of a game, or None if it has none yet."""
    head = await read.row(
        "SELECT reviewed_at, budget_nodes, turning_point FROM game_reviews WHERE game_id = ?", (game_id,)
    )
    if head is None:
        return None
    plies = await read.rows("SELECT ply, score, win_in FROM review_plies WHERE game_id = ? ORDER BY ply", (game_id,))
    marks = await read.rows(
        "SELECT ply, kind, player, win, line FROM review_marks WHERE game_id = ? ORDER BY ply, kind", (game_id,)
    )
    review = GameReview(
        evaluations=tuple(PlyEvaluation(row["ply"], row["score"], row["win_in"]) for row in plies),
        marks=tuple(_mark_from(row) for row in marks),
        turning_point=head["turning_point"],
    )
    return GameReviewed(GameId(game_id), review, head["budget_nodes"], parse_timestamp(head["reviewed_at"]))


def _mark_from(row: Row) -> Mark:
    player = Color.parse(row["player"])
    return Mark(row["ply"], MarkKind(row["kind"]), player, points_from(row["line"]), WinKind(row["win"]))


async def puzzle(read: Reads, puzzle_id: str) -> Puzzle | None:
    """The puzzle with this id, or None."""
    row = await read.row(f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE puzzle_id = ?", (puzzle_id,))
    return None if row is None else puzzle_from(row)


async def puzzle_near(read: Reads, player: str | None, rating: float) -> Puzzle | None:
    """The puzzle rated nearest to `rating` that `player` has not tried (any, for nobody)."""
    row = await read.row(
        f"SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE NOT EXISTS (SELECT 1 FROM player_puzzle_attempts a "
        f"WHERE a.puzzle_id = p.puzzle_id AND a.player_id = {_PLAYER_ID}) ORDER BY abs(rating - ?), puzzle_id LIMIT 1",
        (player, rating),
    )
    return None if row is None else puzzle_from(row)


async def puzzle_at(read: Reads, index: int) -> Puzzle | None:
    """The puzzle at `index` (modulo their number) in the order of their ids; None if there are none
    (the puzzle of the day is the one at the day's number)."""
    count = await read.row("SELECT count(*) AS n FROM puzzles")
    total = 0 if count is None else int(count["n"])
    if total == 0:
        return None
    row = await read.row(f"SELECT {PUZZLE_COLUMNS} FROM puzzles ORDER BY puzzle_id LIMIT 1 OFFSET ?", (index % total,))
    return None if row is None else puzzle_from(row)


async def puzzle_rating(read: Reads, player: str) -> tuple[Rating, int]:
    """A player's puzzle rating and rated tries (a newcomer's rating, 0, for one with none)."""
    row = await read.row(
        f"SELECT rating, rd, volatility, attempts FROM player_puzzle_ratings WHERE player_id = {_PLAYER_ID}", (player,)
    )
    if row is None:
        return Rating(), 0
    return rating_from(row), row["attempts"]


_PLAYER_ID = "(SELECT player_id FROM players WHERE name = ? COLLATE NOCASE)"
"""The id of the player called the parameter now: puzzle tries and ratings are keyed by it."""
_NEW_PLAYER = (
    "INSERT INTO player_puzzle_ratings (player_id, rating, rd, volatility, attempts) "
    "SELECT player_id, ?, ?, ?, 0 FROM players WHERE name = ? COLLATE NOCASE ON CONFLICT (player_id) DO NOTHING"
)
"""A newcomer's row for a player's first rated try, so that the try has a row to lock (two first
tries at once: the second waits for the first's row, then reads it)."""


async def rate_try(transaction: Queries, tried: PuzzleTried, for_update: str) -> PuzzleTried:
    """The try with its rating change if it is the player's first at the puzzle, worked out in the
    writer's `transaction` from the player's and the puzzle's ratings as stored now. Their rows are
    locked until it commits (`for_update`, the driver's), the player's first, and only then is it
    read whether the player tried the puzzle before: tries on several nodes at once are rated one
    after the other, and two first tries of one player once. Raises LookupError for a puzzle not
    stored."""
    newcomer = Rating()
    await transaction.executemany(_NEW_PLAYER, [(newcomer.rating, newcomer.rd, newcomer.volatility, tried.player)])
    player = await transaction.row(
        f"SELECT rating, rd, volatility FROM player_puzzle_ratings WHERE player_id = {_PLAYER_ID}{for_update}",
        (tried.player,),
    )
    if await _has_tried(transaction, tried.player, tried.puzzle_id):
        return tried
    puzzle = await transaction.row(
        f"SELECT rating, rd, volatility FROM puzzles WHERE puzzle_id = ?{for_update}", (tried.puzzle_id,)
    )
    if player is None or puzzle is None:  # a bug: not ValueError, which aiosqlite raises for a closed connection
        raise LookupError(f"puzzle {tried.puzzle_id} is not stored: a try at it cannot be rated")
    player_before, puzzle_before = rating_from(player), rating_from(puzzle)
    player_after, puzzle_after = rate_game(player_before, puzzle_before, WIN if tried.solved else LOSS)
    return dataclasses.replace(tried, rated=PuzzleRated(player_before, player_after, puzzle_before, puzzle_after))


async def _has_tried(read: Reads, player: str, puzzle_id: str) -> bool:
    """Whether the player has finished a try at the puzzle before (only the first try is rated)."""
    row = await read.row(
        f"SELECT 1 AS tried FROM player_puzzle_attempts WHERE player_id = {_PLAYER_ID} AND puzzle_id = ? LIMIT 1",
        (player, puzzle_id),
    )
    return row is not None


async def games_to_mine(read: Reads, limit: int) -> list[GameId]:
    """Finished games with moves that the puzzle miner has not looked at yet, oldest first."""
    rows = await read.rows(
        "SELECT g.game_id FROM games g JOIN results r USING (game_id) WHERE g.private = 0 AND NOT EXISTS "
        "(SELECT 1 FROM mined_games m WHERE m.game_id = g.game_id) ORDER BY r.ended_at, g.game_id LIMIT ?",
        (limit,),
    )
    return [GameId(row["game_id"]) for row in rows]
