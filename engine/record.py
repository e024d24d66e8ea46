"""Game records: who played what, when, with how much thought, and how it ended.

A GameRecord is the one description of a game that every part shares: the
server stores it, the wire sends it (`get_game`), and the `psq` and `sgf`
modules translate it for other tools. Its dictionary form is the wire's
GameRecord object and is lossless: `record_from_dict(record_to_dict(r)) == r`
for every valid record. Times of day travel as ISO 8601 in UTC with a `Z`
(`2026-11-22T17:00:00Z`, with microseconds only when there are some).

Reading a dictionary checks everything a hand-edited or foreign file could
get wrong, and says where: a missing field, a wrong type, a move that is
illegal at its ply, a result that contradicts the moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar, cast

from engine.board import Board
from engine.errors import IllegalMoveError, NotationError, RecordFormatError
from engine.notation import MAX_SIZE, MIN_SIZE, format_point
from engine.opening_record import OpeningRecord, check_opening, opening_from_dict, opening_to_dict
from engine.types import Color, EndReason, GameResult, Point, Rule

_T = TypeVar("_T")

PlayerKind = Literal["human", "bot"]
PLAYER_KINDS: tuple[PlayerKind, ...] = ("human", "bot")

_WINNERLESS_REASONS = frozenset({EndReason.DRAW_AGREED, EndReason.FULL_BOARD})
"""Reasons that end a game without a winner; every other reason names one."""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One seat of a game, as it was when the game was played."""

    name: str
    """The player's name, or the bot's display name."""
    kind: PlayerKind = "human"
    """`human` or `bot`."""
    level: str | None = None
    """The bot level (`hard`, `greedy`, ...) for a bot, else None."""
    depth: int | None = None
    """The search depth in plies a player set for this bot (`engine.registry.search_bounds`);
    None: the level's own, or not a bot."""
    width: int | None = None
    """The candidates per ply a player set for this bot; None: the level's own, or not a bot."""


@dataclass(frozen=True, slots=True)
class ClockSetting:
    """A Fischer clock: a starting budget per player and a bonus after each move."""

    initial_ms: int
    """Each player's thinking time at the start, in milliseconds."""
    increment_ms: int
    """Time added to a player's clock after each of their moves, in milliseconds."""


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One stone of a game record."""

    point: Point
    """Where the stone was placed."""
    color: Color
    """Who placed it."""
    time_ms: int | None = None
    """How long the player thought before placing it, in milliseconds, if known."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: rule, board, players, moves with their times, result, start and end."""

    rule: Rule
    """The rule the game was played under."""
    size: int
    """Width and height of the board."""
    black: PlayerInfo
    """The player of the black stones (who moved first)."""
    white: PlayerInfo
    """The player of the white stones."""
    moves: tuple[RecordedMove, ...]
    """Every move in order, black's first."""
    result: GameResult | None = None
    """How the game ended, or None while it is unfinished."""
    started_at: datetime | None = None
    """When the first move could be played (timezone-aware), if known."""
    ended_at: datetime | None = None
    """When the game ended (timezone-aware), if it has."""
    game_id: str | None = None
    """The server's id for the game, if it has one."""
    clock: ClockSetting | None = None
    """The clock the game was played with, or None for an untimed game."""
    opening: OpeningRecord | None = None
    """How the first stones and the colours were decided, for a game with an opening rule."""

    def __post_init__(self) -> None:
        for name in ("started_at", "ended_at"):
            value = getattr(self, name)
            if value is not None and value.utcoffset() is None:
                raise ValueError(f"{name} must be timezone-aware, got the naive {value.isoformat()}")

    def to_board(self) -> Board:
        """Replay the moves on a fresh board, checking each one.

        Raises RecordFormatError naming the first move that is illegal at
        its ply (off the board, occupied, forbidden, after the end, or
        played by the wrong colour), or a board the rules do not allow.
        """
        try:
            board = Board(self.size, self.rule)
        except ValueError as error:
            raise RecordFormatError(str(error)) from error
        for ply, move in enumerate(self.moves, start=1):
            try:
                board.play(move.point, move.color)
            except IllegalMoveError as error:
                name = _point_name(move.point, self.size)
                raise RecordFormatError(f"move {ply} ({move.color} {name}) is illegal: {error}") from error
        return board


def _point_name(point: Point, size: int) -> str:
    """Human notation when the point is on the board, coordinates otherwise."""
    try:
        return format_point(point, size)
    except NotationError:
        return f"({point.x}, {point.y})"


# --------------------------------------------------------------------- writing


def format_timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a `Z`, e.g. `2026-11-22T17:00:00Z` (microseconds only if non-zero)."""
    utc = moment.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}" if utc.microsecond else ""
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def parse_timestamp(text: str) -> datetime:
    """Read an ISO 8601 time with a zone (`Z` or `+hh:mm`) as a UTC datetime.

    Raises ValueError for text that is not such a time, or has no zone.
    """
    moment = datetime.fromisoformat(text)
    if moment.utcoffset() is None:
        raise ValueError(f"{text!r} has no time zone; write it in UTC with a trailing Z")
    return moment.astimezone(UTC)


def result_to_dict(result: GameResult) -> dict[str, Any]:
    """The wire's Result object (`detail` only when there is one)."""
    written: dict[str, Any] = {
        "winner": None if result.winner is None else str(result.winner),
        "reason": result.reason.value,
        "line": None if result.line is None else [[point.x, point.y] for point in result.line],
    }
    if result.detail is not None:
        written["detail"] = result.detail
    return written


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """The wire's GameRecord object: only dicts, lists, strings, integers and None."""
    return {
        "game_id": record.game_id,
        "rule": record.rule.value,
        "size": record.size,
        "black": _player_to_dict(record.black),
        "white": _player_to_dict(record.white),
        "clock": None
        if record.clock is None
        else {"initial_ms": record.clock.initial_ms, "increment_ms": record.clock.increment_ms},
        "moves": [
            {
                "x": move.point.x,
                "y": move.point.y,
                "color": str(move.color),
                "move": _point_name(move.point, record.size),
                "time_ms": move.time_ms,
            }
            for move in record.moves
        ],
        "result": None if record.result is None else result_to_dict(record.result),
        "started_at": None if record.started_at is None else format_timestamp(record.started_at),
        "ended_at": None if record.ended_at is None else format_timestamp(record.ended_at),
        "opening": None if record.opening is None else opening_to_dict(record.opening),
    }


def _player_to_dict(player: PlayerInfo) -> dict[str, Any]:
    """A seat as the wire writes it; a bot's depth and width only when a player set them."""
    written: dict[str, Any] = {"name": player.name, "kind": player.kind, "level": player.level}
    if player.depth is not None:
        written["depth"] = player.depth
    if player.width is not None:
        written["width"] = player.width
    return written


# --------------------------------------------------------------------- reading


class _Fields:
    """A JSON object being read, which names the path of every field in its errors."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, Mapping):
            raise RecordFormatError(f"{path or 'a game record'} must be an object, not {_describe(value)}")
        self._data = cast(Mapping[str, object], value)
        self.path = path

    def name(self, key: str) -> str:
        """The path of a field, as errors print it: `moves[3].x`."""
        return f"{self.path}.{key}" if self.path else key

    def _get(self, key: str) -> object:
        if key not in self._data:
            raise RecordFormatError(f"{self.name(key)} is missing")
        return self._data[key]

    def _has(self, key: str) -> bool:
        """Whether an optional field is present and not null."""
        return self._data.get(key) is not None

    def integer(self, key: str, minimum: int | None = None) -> int:
        value = self._get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordFormatError(f"{self.name(key)} must be an integer, not {_describe(value)}")
        if minimum is not None and value < minimum:
            raise RecordFormatError(f"{self.name(key)} must be at least {minimum}, not {value}")
        return value

    def optional_integer(self, key: str, minimum: int | None = None) -> int | None:
        return self.integer(key, minimum) if self._has(key) else None

    def string(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise RecordFormatError(f"{self.name(key)} must be a string, not {_describe(value)}")
        return value

    def optional_string(self, key: str) -> str | None:
        return self.string(key) if self._has(key) else None

    def parsed(self, key: str, parse: Callable[[str], _T]) -> _T:
        """A string field read by `parse`, whose ValueError becomes a RecordFormatError."""
        text = self.string(key)
        try:
            return parse(text)
        except ValueError as error:
            raise RecordFormatError(f"{self.name(key)}: {error}") from error

    def optional_parsed(self, key: str, parse: Callable[[str], _T]) -> _T | None:
        return self.parsed(key, parse) if self._has(key) else None

    def child(self, key: str) -> _Fields:
        return _Fields(self._get(key), self.name(key))

    def optional_child(self, key: str) -> _Fields | None:
        return self.child(key) if self._has(key) else None

    def raw(self, key: str) -> object:
        """An optional field of any type, None when missing."""
        return self._data.get(key)

    def items(self, key: str) -> list[object]:
        value = self._get(key)
        if not isinstance(value, list):
            raise RecordFormatError(f"{self.name(key)} must be a list, not {_describe(value)}")
        return value


def _describe(value: object) -> str:
    """A short phrase naming a JSON value's type and, when small, the value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a long string"
    return f"{type(value).__name__} {value!r}"


def record_from_dict(data: object) -> GameRecord:
    """Read the wire's GameRecord object, checking every field and every move.

    `game_id`, `clock`, `result`, `started_at`, `ended_at`, `opening`, a move's
    `time_ms` and `move`, a player's `level`, `depth` and `width`, and a result's `winner`,
    `line` and `detail` may be missing (read as null); everything else is required. Unknown fields are ignored. Raises
    RecordFormatError with the path of the first bad field, or the ply of
    the first illegal move, or the way the result contradicts the moves.
    """
    fields = _Fields(data, "")
    rule = fields.parsed("rule", Rule.parse)
    size = fields.integer("size")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RecordFormatError(f"size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")
    record = GameRecord(
        rule=rule,
        size=size,
        black=_read_player(fields, "black"),
        white=_read_player(fields, "white"),
        moves=tuple(_read_move(item, f"moves[{index}]", size) for index, item in enumerate(fields.items("moves"))),
        result=_read_result(fields.optional_child("result")),
        started_at=fields.optional_parsed("started_at", parse_timestamp),
        ended_at=fields.optional_parsed("ended_at", parse_timestamp),
        game_id=fields.optional_string("game_id"),
        clock=_read_clock(fields.optional_child("clock")),
        opening=None if fields.raw("opening") is None else opening_from_dict(fields.raw("opening")),
    )
    check_record(record)
    return record


def _read_player(fields: _Fields, key: str) -> PlayerInfo:
    player = fields.child(key)
    kind = player.string("kind")
    if kind not in PLAYER_KINDS:
        raise RecordFormatError(f"{player.path}.kind must be 'human' or 'bot', not {kind!r}")
    return PlayerInfo(
        name=player.string("name"),
        kind=kind,
        level=player.optional_string("level"),
        depth=player.optional_integer("depth", minimum=1),
        width=player.optional_integer("width", minimum=1),
    )


def _read_clock(clock: _Fields | None) -> ClockSetting | None:
    if clock is None:
        return None
    return ClockSetting(
        initial_ms=clock.integer("initial_ms", minimum=0),
        increment_ms=clock.integer("increment_ms", minimum=0),
    )


def _read_move(item: object, path: str, size: int) -> RecordedMove:
    move = _Fields(item, path)
    point = Point(move.integer("x"), move.integer("y"))
    color = move.parsed("color", Color.parse)
    written = move.optional_string("move")
    if written is not None and written != _point_name(point, size):
        raise RecordFormatError(
            f"{path}.move is {written!r} but x={point.x}, y={point.y} is {_point_name(point, size)!r}"
        )
    return RecordedMove(point, color, move.optional_integer("time_ms", minimum=0))


def _read_result(result: _Fields | None) -> GameResult | None:
    if result is None:
        return None
    reason = result.parsed("reason", EndReason)
    winner = result.optional_parsed("winner", Color.parse)
    line_value = result.raw("line")
    line = None if line_value is None else _read_line(line_value, result.name("line"))
    return GameResult(winner, reason, line, result.optional_string("detail"))


def _read_line(value: object, path: str) -> tuple[Point, ...]:
    if not isinstance(value, list):
        raise RecordFormatError(f"{path} must be a list of [x, y] pairs, not {_describe(value)}")
    points = []
    for index, pair in enumerate(value):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in pair)
        ):
            raise RecordFormatError(f"{path}[{index}] must be an [x, y] pair of integers, not {_describe(pair)}")
        points.append(Point(pair[0], pair[1]))
    return tuple(points)


# ---------------------------------------------------------------- consistency


def check_record(record: GameRecord) -> Board:
    """Check that a record describes a game that could have happened; return its final board.

    The moves must be legal in order, the result must agree with the final
    position (a five or a full board ends the game with exactly that
    result; any other reason needs a position that has not ended), draws
    have no winner and other results have one, and the game cannot end
    before it starts. Raises RecordFormatError saying what disagrees.
    """
    board = record.to_board()
    if record.opening is not None:
        check_opening(record.opening, record.size, record.rule, tuple(move.point for move in record.moves))
    _check_result(record.result, board)
    if record.started_at is not None and record.ended_at is not None and record.ended_at < record.started_at:
        raise RecordFormatError(
            f"the game ends ({format_timestamp(record.ended_at)}) "
            f"before it starts ({format_timestamp(record.started_at)})"
        )
    return board


def _check_result(result: GameResult | None, board: Board) -> None:
    ended = board.result
    if result is None:
        if ended is not None:
            raise RecordFormatError(f"the moves end the game ({_say(ended)}) but the record has no result")
        return
    if (result.winner is None) != (result.reason in _WINNERLESS_REASONS):
        needs = "no winner" if result.reason in _WINNERLESS_REASONS else "a winner"
        raise RecordFormatError(f"a result by {result.reason} needs {needs}, but the winner is {result.winner}")
    if ended is not None:
        if (result.winner, result.reason) != (ended.winner, ended.reason):
            raise RecordFormatError(f"the result says {_say(result)} but the moves end in {_say(ended)}")
    elif result.reason in (EndReason.FIVE, EndReason.FULL_BOARD):
        raise RecordFormatError(f"the result says {_say(result)} but the moves do not end the game")
    if result.reason is EndReason.FIVE:
        _check_line(result, board)
    elif result.line is not None:
        raise RecordFormatError(f"a result by {result.reason} has no winning line, but one is given")


def _check_line(result: GameResult, board: Board) -> None:
    if result.line is None or len(result.line) < 5:
        raise RecordFormatError("a result by five must list the five (or more) winning stones")
    for point in result.line:
        if not board.is_on_board(point) or board.stone_at(point) is not result.winner:
            raise RecordFormatError(
                f"the winning line lists ({point.x}, {point.y}), which does not hold a {result.winner} stone"
            )


def _say(result: GameResult) -> str:
    if result.winner is None:
        return f"a draw ({result.reason})"
    return f"a {result.winner} win ({result.reason})"
