"""`gomoku review GAME_ID` and `gomoku puzzles`: a game's review as text, and a puzzle trainer that
reads the attacker's moves from standard input.

The review prints the turning point and one line per mark with its
winning line; `--json` prints the review as the server sent it. The
trainer shows each puzzle's board, reads a move per line (`h8` or
`x,y`), answers with the defender's reply, and ends a puzzle at the
solution or at the first wrong move, showing the solution and the
ratings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TextIO

from client.connection import Connection, ScriptError
from client.render import render_board
from client.values import CommandError, read_point
from engine.board import Board
from engine.types import Point, Rule
from wire.messages import GameId, PointModel
from wire.review import GameReviewMessage, GameReviewModel, MarkModel, PuzzleMessage, PuzzleModel, PuzzleProgress
from wire.review_requests import NextPuzzle, ReviewGame, TryPuzzle


@dataclass(frozen=True, slots=True)
class ReviewGameCommand:
    """`review GAME` in the interactive client: the game's review, printed when it comes."""

    game_id: GameId


def parse_review(arguments: list[str]) -> ReviewGameCommand:
    """`review GAME`. Raises CommandError without exactly one game id."""
    if len(arguments) != 1:
        raise CommandError("review needs one game id, like 'review Xy12ab'")
    return ReviewGameCommand(GameId(arguments[0]))


REVIEW_TIMEOUT_S = 600.0
"""How long `review` waits: a long game's review takes the server's workers a while, after every hint."""

ReadLine = Callable[[], Awaitable[str | None]]
"""The next line of input, None at its end."""

WINS = {"vcf": "by fours", "vct": "by threes and fours"}


def describe_mark(mark: MarkModel) -> str:
    """One mark as a line: the move, what it did, and its line."""
    line = " ".join(move.move for move in mark.line)
    move_number = mark.ply + 1
    if mark.kind == "missed_win":
        return f"move {move_number} ({mark.player}): missed a win {WINS[mark.win]}: {line}"
    opponent = "white" if mark.player == "black" else "black"
    return f"move {move_number} ({mark.player}): blunder, {opponent} wins {WINS[mark.win]}: {line}"


def review_text(review: GameReviewModel) -> str:
    """A review as text: the turning point, then the marks, one per line."""
    if not review.marks:
        return "no missed wins or blunders found\n"
    turning = "" if review.turning_point is None else f"turning point: move {review.turning_point + 1}\n"
    return turning + "".join(describe_mark(mark) + "\n" for mark in review.marks)


async def review_game(connection: Connection, game_id: GameId, out: TextIO, as_json: bool = False) -> None:
    """Print the review of a finished game (computed by the server first if needed)."""
    answer = await connection.request(ReviewGame(game_id=game_id), timeout_s=REVIEW_TIMEOUT_S)
    if not isinstance(answer, GameReviewMessage):
        raise ScriptError(f"the server answered review_game with {answer.type!r}")
    out.write(answer.review.model_dump_json() + "\n" if as_json else review_text(answer.review))


def puzzle_board(puzzle: PuzzleModel) -> Board:
    """The puzzle's position."""
    return Board.from_moves([Point(move.x, move.y) for move in puzzle.moves], puzzle.size, Rule(puzzle.rule))


async def train(connection: Connection, read_line: ReadLine, out: TextIO, count: int, daily: bool = False) -> int:
    """Offer up to `count` puzzles (the puzzle of the day alone with `daily`); the number solved.
    Stops early at the end of input."""
    solved = 0
    offered_count = 0
    for _ in range(1 if daily else count):
        offered = await connection.request_answer(NextPuzzle(daily=daily), PuzzleMessage)
        outcome = await _solve(connection, offered.puzzle, read_line, out)
        if outcome is None:
            break
        offered_count += 1
        solved += outcome
    out.write(f"solved {solved} of {offered_count}\n")
    return solved


async def _solve(connection: Connection, puzzle: PuzzleModel, read_line: ReadLine, out: TextIO) -> bool | None:
    """One puzzle: whether it was solved; None if input ended first."""
    board = puzzle_board(puzzle)
    out.write(f"puzzle {puzzle.puzzle_id} ({', '.join(puzzle.themes)}; rating {puzzle.rating}): {puzzle.source}\n")
    out.write(render_board(board) + f"\n{puzzle.to_move} to play and win\n")
    moves: list[PointModel] = []
    while True:
        line = await read_line()
        if line is None:
            return None
        try:
            point = _read_move(line, puzzle.size)
        except CommandError as error:
            out.write(f"{error}\n")
            continue
        progress = await connection.request_answer(
            TryPuzzle(puzzle_id=puzzle.puzzle_id, moves=[*moves, PointModel(x=point.x, y=point.y)]), PuzzleProgress
        )
        moves.append(PointModel(x=point.x, y=point.y))
        if progress.status == "continue" and progress.reply is not None:
            out.write(f"right; the answer is {progress.reply.move}\n")
            continue
        out.write(_ending(progress))
        return progress.status == "solved"


def _read_move(text: str, size: int) -> Point:
    """The move on a line (`h8` or `7,7`). Raises CommandError for one that names no point of the board."""
    typed = read_point(text.strip())
    if typed is None:
        raise CommandError(f"not a move: {text.strip()!r} (moves are written like h8, or x,y from the top left)")
    return typed.resolve(size)


def _ending(progress: PuzzleProgress) -> str:
    solution = " ".join(move.move for move in progress.solution)
    verdict = "solved" if progress.status == "solved" else "not the winning move"
    rating = ""
    if progress.player_rating is not None:
        rating = f"; your puzzle rating {progress.player_rating.before} -> {progress.player_rating.after}"
    return f"{verdict}: {solution}{rating}\n"
