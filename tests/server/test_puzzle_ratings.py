"""Puzzle tries rated at once on two nodes of one database: no rating change is lost.

Each `Storage` here stands for a node (its own connections and record writer) on one SQLite file
or one PostgreSQL database (`database`, `tests/cluster/services.py`); the trainers answer tries
on both at the same moment, as two nodes (or two connections of one node) would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from engine.glicko2 import LOSS, WIN, Rating, rate_game
from engine.notation import parse_point
from engine.review import ForcedWin, PuzzleFound, WinKind
from engine.types import Rule
from server.domain import Puzzle, PuzzlesMined
from server.review.puzzles import PuzzleTrainer, new_puzzle
from server.storage.database import Storage

AT = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
POSITION = "d5 c5 e5 e6 f5 f6 g6 e4 g7 f4"
"""A 9x9 position, black to move: g5 (a four and an open three) is the only winning move."""
SOLVED = [parse_point(word, 9) for word in ("g5", "g4")]
FAILED = [parse_point("a5", 9)]


OTHER_POSITION = "h8 h9 f12 g8 i10 g10 g11 i9 j9 h11 d14 h10 h12"
"""A 15x15 position, white to move: f9, then i12 (the only block), then a win by threes and fours."""


def puzzle_of(position: str, solution: str, size: int) -> Puzzle:
    win = ForcedWin(WinKind.VCT, tuple(parse_point(word, size) for word in solution.split()))
    moves = tuple(parse_point(word, size) for word in position.split())
    return new_puzzle(PuzzleFound(win, False), Rule.FREESTYLE, size, moves, None, "a test's")


@pytest.fixture
async def nodes(database: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, with the puzzle and the players ann and bob stored (a puzzle
    rating is a signed-in player's, kept by their id)."""
    first = await Storage.open(database)
    second = await Storage.open(database)
    await first.apply([PuzzlesMined((puzzle_of(POSITION, "g5 h5 g4", 9),), (), AT)])
    for name in ("ann", "bob"):
        await first.add_player(name, name.encode())
    yield first, second
    await first.close()
    await second.close()


async def the_puzzle(storage: Storage) -> tuple[str, Rating]:
    found = await storage.puzzle_at(0)
    assert found is not None
    return found.puzzle_id, found.rating


async def test_two_players_first_tries_at_one_puzzle_on_two_nodes_both_move_its_rating(
    nodes: tuple[Storage, Storage],
) -> None:
    """The second try is rated from the puzzle's rating as the first left it, whichever is first."""
    first, second = nodes
    puzzle_id, start = await the_puzzle(first)
    results = await asyncio.gather(
        PuzzleTrainer(first).attempt("ann", puzzle_id, SOLVED),
        PuzzleTrainer(second).attempt("bob", puzzle_id, FAILED),
    )
    assert all(result.rated for result in results)
    ann_then_bob = rate_game(Rating(), rate_game(Rating(), start, WIN)[1], LOSS)[1]
    bob_then_ann = rate_game(Rating(), rate_game(Rating(), start, LOSS)[1], WIN)[1]
    _, stored = await the_puzzle(second)
    assert stored in (ann_then_bob, bob_then_ann)
    puzzle = await second.puzzle(puzzle_id)
    assert puzzle is not None and puzzle.attempts == 2
    befores = [result.puzzle_ratings[0] for result in results if result.puzzle_ratings is not None]
    assert start in befores and stored not in befores and len(set(befores)) == 2  # one after the other


async def test_one_players_two_first_tries_at_once_are_rated_once(nodes: tuple[Storage, Storage]) -> None:
    """Two tabs (or two nodes) finishing a player's first try at the same moment: one is rated."""
    first, second = nodes
    puzzle_id, _ = await the_puzzle(first)
    results = await asyncio.gather(
        PuzzleTrainer(first).attempt("ann", puzzle_id, SOLVED),
        PuzzleTrainer(second).attempt("ann", puzzle_id, SOLVED),
    )
    assert sorted(result.rated for result in results) == [False, True]
    rating, rated_tries = await second.puzzle_rating("ann")
    assert rated_tries == 1
    assert rating == rate_game(Rating(), Rating(1200.0, 250.0), WIN)[0]
    puzzle = await second.puzzle(puzzle_id)
    assert puzzle is not None and puzzle.attempts == 1


async def test_one_players_first_tries_at_two_puzzles_on_two_nodes_both_move_their_rating(
    nodes: tuple[Storage, Storage],
) -> None:
    first, second = nodes
    puzzle_id, _ = await the_puzzle(first)
    other = puzzle_of(OTHER_POSITION, "f9 i12 e9 g9 e12 f11 e8 d7 e10 e11 d11", 15)
    await first.apply([PuzzlesMined((other,), (), AT)])
    await asyncio.gather(
        PuzzleTrainer(first).attempt("ann", puzzle_id, SOLVED),
        PuzzleTrainer(second).attempt("ann", other.puzzle_id, [parse_point("a1", 15)]),
    )
    solved_first = rate_game(rate_game(Rating(), Rating(1200.0, 250.0), WIN)[0], other.rating, LOSS)[0]
    failed_first = rate_game(rate_game(Rating(), other.rating, LOSS)[0], Rating(1200.0, 250.0), WIN)[0]
    rating, rated_tries = await second.puzzle_rating("ann")
    assert rated_tries == 2
    assert rating in (solved_first, failed_first)
