"""Review benchmark: what a game review and the puzzle miner cost, and whether live bots feel them.

    ./dev run python -m bench.review                           # 20 bot games, 40 bot moves per phase
    ./dev run python -m bench.review --games 2 --bot-moves 5   # a quick look

1. Reviews: `--games` games between the project's bots (`tools.match`, the
   levels of `tools.make_puzzles`) are reviewed position by position as a
   worker does (`engine.review.judge_position`, default budget), timing the
   CPU of each position. A game's figure is scaled to 60 plies (61
   positions) from its own mean, so that games of any length compare.
2. The miner: on the same games, the positions where a win starts are
   checked for a unique first move (`engine.review.find_puzzle`), as the
   server's miner does; the puzzles found and the CPU per game, per 1,000
   games.
3. Live bots beside reviews: `--bot-moves` moves of `--bot-level` thinking
   `--bot-ms` (in the first game's position after MIDDLE_GAME moves) in a
   bot pool of one worker, first alone, then while an analysis pool of one
   worker (at the server's lower CPU priority) reviews positions without a
   pause; each move's time from asking to the answer.

Prints one table; the reply times alone, beside reviews, and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.figures import Spread, command_line, milliseconds, note, ratio, table
from engine.board import Board
from engine.record import GameRecord
from engine.review import DEFAULT_BUDGET, find_puzzle, judge_position, puzzle_candidates, review_from_verdicts
from engine.types import Point, Rule
from server.app import ANALYSIS_NICENESS
from server.bots.pool import BotPool, BotRequest
from server.review.reviewer import position_request
from server.review.work import judge_in_worker
from tools.arena import run_games, schedule
from tools.make_puzzles import DEFAULT_PLAYERS
from tools.match import OPENINGS, parse_player

PLIES = 60
"""The game length a review's CPU is given for."""

MIDDLE_GAME = 10
"""The live bot moves in the first game's position after this many moves: past the opening book,
so that it thinks its whole time."""


@dataclass(frozen=True, slots=True)
class GameCost:
    """What reviewing and mining one game cost, in CPU seconds."""

    positions: tuple[float, ...]
    """Each position's review."""
    mining: float
    """The puzzle checks after the review."""
    puzzles: int

    @property
    def review_60(self) -> float:
        """The review's CPU scaled to a game of PLIES plies."""
        return sum(self.positions) / len(self.positions) * (PLIES + 1)


def cost_of(record: GameRecord) -> GameCost:
    """Review and mine one game in this process, timing the CPU of each step."""
    moves = tuple(move.point for move in record.moves)
    board = Board(record.size, record.rule)
    verdicts, times = [], []
    for index in range(len(moves) + 1):
        started = time.process_time()
        verdicts.append(judge_position(board, DEFAULT_BUDGET))
        times.append(time.process_time() - started)
        if index < len(moves):
            board.play(moves[index])
    review = review_from_verdicts(moves, verdicts)
    started = time.process_time()
    found = sum(
        find_puzzle(Board.from_moves(moves[:ply], record.size, record.rule), DEFAULT_BUDGET) is not None
        for ply in puzzle_candidates(review)
    )
    return GameCost(tuple(times), time.process_time() - started, found)


async def bot_replies(pool: BotPool, level: str, think_ms: int, count: int, moves: tuple[Point, ...]) -> list[float]:
    """Wall time of `count` bot moves in the position after `moves`, one after the other."""
    replies = []
    for _ in range(count):
        started = time.monotonic()
        await pool.choose(BotRequest(level, Rule.FREESTYLE, 15, moves, think_ms))
        replies.append(time.monotonic() - started)
    return replies


async def keep_reviewing(pool: BotPool, positions: Sequence[tuple[Point, ...]]) -> None:
    """Review the positions over and over, one at a time, as the server's reviewer does."""
    work = functools.partial(judge_in_worker, DEFAULT_BUDGET)
    while True:
        for moves in positions:
            await pool.run(work, position_request(Rule.FREESTYLE, 15, moves))


async def live_bots(arguments: argparse.Namespace, records: Sequence[GameRecord]) -> tuple[list[float], list[float]]:
    """Bot reply times alone, then beside a review that never stops."""
    middle = tuple(move.point for move in records[0].moves[:MIDDLE_GAME])
    positions = [
        tuple(move.point for move in record.moves[:ply]) for record in records for ply in range(len(record.moves))
    ]
    bots = BotPool(workers=1)
    reviews = BotPool(workers=1, niceness=ANALYSIS_NICENESS)
    try:
        await bot_replies(bots, arguments.bot_level, arguments.bot_ms, 2, middle)  # the worker starts
        note("bot moves alone")
        alone = await bot_replies(bots, arguments.bot_level, arguments.bot_ms, arguments.bot_moves, middle)
        note("bot moves beside reviews")
        reviewing = asyncio.create_task(keep_reviewing(reviews, positions))
        beside = await bot_replies(bots, arguments.bot_level, arguments.bot_ms, arguments.bot_moves, middle)
        reviewing.cancel()
        await asyncio.gather(reviewing, return_exceptions=True)
    finally:
        await asyncio.gather(bots.close(), reviews.close())
    return alone, beside


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.review", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="bot games to review and mine (default 20)")
    parser.add_argument("--time-ms", type=int, default=200, help="the games' thinking time per move (default 200)")
    parser.add_argument("--bot-level", default="medium", help="the live bot (default medium)")
    parser.add_argument("--bot-ms", type=int, default=300, help="the live bot's thinking time (default 300)")
    parser.add_argument("--bot-moves", type=int, default=40, help="live bot moves per phase (default 40)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    players = [parse_player(name) for name in DEFAULT_PLAYERS]
    tasks = schedule(players, None, OPENINGS, arguments.time_ms, Rule.FREESTYLE, seed=1)[: arguments.games]
    records: list[GameRecord] = []
    costs: list[GameCost] = []
    for index, record in run_games(tasks, 1):
        records.append(record)
        costs.append(cost_of(record))
        note(f"game {index + 1}: {len(record.moves)} moves, {costs[-1].puzzles} puzzles")
    alone, beside = asyncio.run(live_bots(arguments, records))
    positions = Spread.of([cpu for cost in costs for cpu in cost.positions])
    games = Spread.of([cost.review_60 for cost in costs])
    puzzles = sum(cost.puzzles for cost in costs)
    mining_s = sum(sum(cost.positions) + cost.mining for cost in costs)
    per_thousand = 1000 / len(costs)
    solo, loaded = Spread.of(alone), Spread.of(beside)
    assert positions is not None and games is not None and solo is not None and loaded is not None
    rows = [
        ["review, one position (CPU)", f"p50 {milliseconds(positions.p50)}, max {milliseconds(positions.maximum)}"],
        [f"review, a {PLIES}-ply game (CPU)", f"p50 {games.p50:.1f} s, max {games.maximum:.1f} s"],
        ["puzzles per 1,000 games", f"{puzzles * per_thousand:.0f} ({puzzles} in {len(costs)} games)"],
        ["miner CPU per 1,000 games", f"{mining_s * per_thousand / 60:.0f} min (review and checks)"],
        ["bot reply alone p50 / p99", f"{milliseconds(solo.p50)} / {milliseconds(solo.p99)}"],
        ["bot reply beside reviews p50 / p99", f"{milliseconds(loaded.p50)} / {milliseconds(loaded.p99)}"],
        ["p99 beside / alone", ratio(loaded.p99, solo.p99)],
    ]
    print(command_line(argv, "bench.review"))
    print(table(["figure", "value"], rows))


if __name__ == "__main__":
    main()
