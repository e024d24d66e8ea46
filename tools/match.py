"""Playing one game between two players, each a bot level, a `static` bot with
given weights, or an external Gomocup brain; the arena and the tuner both
run their games through `play_game`, in worker processes.

A game starts from an opening (a few stones already placed, as in
tournaments, so that deterministic bots do not replay one game), gives
each move the same time limit, and ends with a five, a full board, or a
forfeit: an external brain that is too slow is killed and loses on time;
one that crashes or plays an illegal move loses as abandoned.
"""

from __future__ import annotations

import contextlib
import shlex
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.board import Board
from engine.bots import Bot
from engine.classic.static import StaticBot, StaticWeights, parse_weights
from engine.errors import IllegalMoveError
from engine.limits import SearchLimits
from engine.notation import format_point, parse_point
from engine.record import GameRecord, PlayerInfo, RecordedMove
from engine.registry import default_time_ms, level_names, make_bot
from engine.renju_openings import RENJU_SIZE, STANDARD_OPENINGS
from engine.types import Color, EndReason, GameResult, Point, Rule
from tools.gomocup_client import EngineError, EngineTimeout, GomocupEngine

OPENINGS: tuple[str, ...] = (
    "h8 h9 d7",
    "h8 i9 d7",
    "h8 h9 g12",
    "h8 i9 g12",
    "h8 h9 e4",
    "h8 i9 k12",
    "h8 h9 d11",
    "h8 i9 d11",
    "h8 h9 d6",
    "h8 i9 d6",
    "h8 h9 f12",
    "h8 i9 f12",
    "h8 h9 f4",
    "h8 i9 j12",
    "h8 h9 d10",
    "h8 i9 d10",
    "h8 h9 d5",
    "h8 i9 d5",
    "h8 h9 e12",
    "h8 i9 e12",
    "h8 h9 g4",
    "h8 i9 i12",
    "h8 h9 d9",
    "h8 i9 d9",
)
"""Quiet three-stone openings (black, white, black; white to move), chosen to
be about balanced between equal players. White's stone touches black's first
(h9 beside it, i9 on its diagonal); black's second stone stands four points
away and off every line through the first, so black's extra stone is worth
about as much as white's move. No two are the same up to symmetry, and the
two kinds alternate, so the first N of them (`--openings N`) mix both.
Every pairing plays each opening with both colours. `bench.openings` measures black's share between equal engines;
the earlier set, with black's stones two or three points apart, gave black
two games in three."""


RENJU_OPENINGS: tuple[str, ...] = tuple(
    " ".join(format_point(point, RENJU_SIZE) for point in opening.stones) for opening in STANDARD_OPENINGS
)
"""The 26 standard renju openings (1D to 13D, then 1I to 13I), a harder set than OPENINGS: played
in freestyle, many of them give black a clear advantage, so a pairing's score with both colours
tells how each side handles sharp positions rather than quiet ones."""

OPENING_SETS: dict[str, tuple[str, ...]] = {"balanced": OPENINGS, "renju26": RENJU_OPENINGS}
"""The arena's opening sets by name (`gomoku-arena --opening-set`)."""


def opening_moves(opening: str, size: int) -> list[Point]:
    """The points of an opening written in human notation, e.g. `h8 h9 j10`."""
    return [parse_point(word, size) for word in opening.split()]


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """How to get a player: exactly one of `level`, `command` or `weights` is set."""

    name: str
    """Display name in tables and records."""
    level: str | None = None
    """A bot level of engine.registry."""
    command: tuple[str, ...] | None = None
    """The command line of an external Gomocup brain."""
    weights: StaticWeights | None = None
    """Weights for a `static` bot (the tuner's candidates)."""


def parse_player(text: str) -> PlayerSpec:
    """A player from the command line: a level name, or `NAME=COMMAND ARGS` for an
    external brain. Raises ValueError naming the known levels."""
    if "=" in text:
        name, command = text.split("=", 1)
        words = tuple(shlex.split(command))
        if not name.strip() or not words:
            raise ValueError(f"{text!r}: an engine is written NAME=COMMAND [ARGS]")
        return PlayerSpec(name.strip(), command=words)
    if text not in level_names():
        raise ValueError(f"unknown bot level {text!r}: expected one of {', '.join(level_names())} or NAME=COMMAND")
    return PlayerSpec(text, level=text)


def weights_player(text: str) -> PlayerSpec:
    """A `static` bot with its own weights, from `NAME=FILE` on the command line.

    Raises ValueError (or OSError) when the text or the file is not right.
    """
    name, separator, file_name = text.partition("=")
    if not separator or not name.strip() or not file_name.strip():
        raise ValueError(f"{text!r}: a weighted static bot is written NAME=WEIGHT_FILE")
    return PlayerSpec(name.strip(), weights=parse_weights(Path(file_name.strip()).read_text()))


@contextlib.contextmanager
def open_player(spec: PlayerSpec, size: int, rule: Rule) -> Iterator[Bot]:
    """The player as a Bot for one game; an external brain is stopped afterwards."""
    if spec.command is not None:
        with GomocupEngine(spec.command, spec.name, size, rule) as engine:
            yield engine
    elif spec.weights is not None:
        yield StaticBot(spec.weights)
    elif spec.level is not None:
        yield make_bot(spec.level)
    else:
        raise ValueError(f"player {spec.name!r} has no level, command or weights")


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play (picklable, for a worker process)."""

    black: PlayerSpec
    white: PlayerSpec
    opening: str
    time_ms: int
    rule: Rule = Rule.FREESTYLE
    size: int = 15
    seed: int = 0
    level_times: bool = False
    """Whether each of our levels thinks its own time per move (`engine.registry.default_time_ms`,
    what it gets in an untimed game on the server: the time players meet it at) instead of
    `time_ms`, which then applies to outside brains only."""

    def move_time_ms(self, player: PlayerSpec) -> int:
        """The time `player` has for each move in this game."""
        if self.level_times and player.level is not None:
            return default_time_ms(player.level)
        return self.time_ms


def play_game(task: GameTask) -> GameRecord:
    """Play the game and return its record, opening stones included (with no time)."""
    board = Board(task.size, task.rule)
    recorded: list[RecordedMove] = []
    for point in opening_moves(task.opening, task.size):
        recorded.append(RecordedMove(point, board.to_move))
        board.play(point)
    started_at = datetime.now(UTC)
    with contextlib.ExitStack() as stack:
        bots: dict[Color, Bot] = {}
        for color, spec in ((Color.BLACK, task.black), (Color.WHITE, task.white)):
            try:
                bots[color] = stack.enter_context(open_player(spec, task.size, task.rule))
            except EngineError:
                result: GameResult | None = GameResult(color.other, EndReason.ABANDONED)
                break
        else:
            result = _play_out(board, bots, task, recorded)
    return GameRecord(
        rule=task.rule,
        size=task.size,
        black=_player_info(task.black),
        white=_player_info(task.white),
        moves=tuple(recorded),
        result=result,
        started_at=started_at,
        ended_at=datetime.now(UTC),
    )


def _play_out(board: Board, bots: dict[Color, Bot], task: GameTask, recorded: list[RecordedMove]) -> GameResult:
    """Play moves until the game ends; a brain's timeout, failure or illegal move loses it."""
    while board.result is None:
        mover = board.to_move
        limits = SearchLimits(time_ms=task.move_time_ms(task.black if mover is Color.BLACK else task.white))
        began = time.monotonic()
        try:
            decision = bots[mover].choose(board, limits, seed=task.seed + board.ply)
            board.play(decision.move)
        except EngineTimeout:
            return GameResult(mover.other, EndReason.TIMEOUT)
        except (EngineError, IllegalMoveError):
            return GameResult(mover.other, EndReason.ABANDONED)
        recorded.append(RecordedMove(decision.move, mover, round((time.monotonic() - began) * 1000)))
    return board.result


def _player_info(spec: PlayerSpec) -> PlayerInfo:
    return PlayerInfo(spec.name, "bot", spec.level or ("static" if spec.weights is not None else None))


def black_points(record: GameRecord) -> float:
    """Black's points from a finished game: 1, 1/2 or 0."""
    if record.result is None or record.result.winner is None:
        return 0.5
    return 1.0 if record.result.winner is Color.BLACK else 0.0
