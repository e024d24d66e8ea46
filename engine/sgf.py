"""SGF (Smart Game Format, FF[4]) for Gomoku and Renju, which SGF calls GM[4].

Writing gives the game-info properties players' tools show and the moves:

    (;GM[4]FF[4]CA[UTF-8]SZ[15]RU[renju]PB[alice]PW[hard]DT[2026-11-22]RE[B+]
    ;B[hh];W[ih];B[ii] ...)

A point is two letters, the column from the left then the row from the
top, `a` = 0 (as SGF has it for Go; Gomoku tools use the same). RE follows
the SGF convention: `B+` / `W+` for a win on the board (a five), `B+R`
resignation, `B+T` time, `B+F` forfeit (our `abandoned`), `Draw` for a
draw; an unfinished game has no RE. DT is the start date in UTC, RU the
rule name, GN the game id.

Reading takes the main line (the first variation at every fork) of the
first game in the file, and accepts what SGF editors write: whitespace
and line breaks anywhere between tokens, several properties per node
(even several moves in one node), `\\` escapes and soft line breaks in
values, FF[3] identifiers with lower-case letters, any other properties
(ignored). It rejects, with a RecordFormatError that says why: a GM other
than 4 (a file without GM is taken as Gomoku), a board that is not square
or not 5..26, setup stones (AB/AW/AE), passes, and moves that are illegal
in order. What SGF cannot carry comes back empty: thinking times, the
clock, player kinds (all read as human), the time of day and the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.board import Board
from engine.errors import IllegalMoveError, RecordFormatError
from engine.notation import MAX_SIZE, MIN_SIZE
from engine.opening_record import describe
from engine.record import GameRecord, PlayerInfo, RecordedMove, check_record
from engine.types import Color, EndReason, GameResult, Point, Rule

DEFAULT_SIZE = 15
"""The board size of a GM[4] file without SZ."""

_MOVE_PROPERTY = {Color.BLACK: "B", Color.WHITE: "W"}
_REASON_SUFFIX = {
    EndReason.FIVE: "",
    EndReason.RESIGN: "R",
    EndReason.TIMEOUT: "T",
    EndReason.ABANDONED: "F",
}
_SUFFIX_REASON = {
    "R": EndReason.RESIGN,
    "RESIGN": EndReason.RESIGN,
    "T": EndReason.TIMEOUT,
    "TIME": EndReason.TIMEOUT,
    "F": EndReason.ABANDONED,
    "FORFEIT": EndReason.ABANDONED,
}
_MOVES_PER_LINE = 10


# --------------------------------------------------------------------- writing


def write_sgf(record: GameRecord) -> str:
    """The game as an SGF FF[4] GM[4] text, ending with a newline."""
    root = [
        ("GM", "4"),
        ("FF", "4"),
        ("CA", "UTF-8"),
        ("SZ", str(record.size)),
        ("RU", record.rule.value),
        ("PB", record.black.name),
        ("PW", record.white.name),
    ]
    if record.started_at is not None:
        root.append(("DT", record.started_at.astimezone(UTC).date().isoformat()))
    if record.result is not None:
        root.append(("RE", _result_text(record.result)))
    if record.game_id is not None:
        root.append(("GN", record.game_id))
    if record.opening is not None:
        steps = describe(record.opening, record.size)
        root.append(("C", "\n".join([f"opening: {record.opening.rule.value}", *steps])))
    lines = ["(;" + "".join(f"{name}[{_escape(value)}]" for name, value in root)]
    moves = [f";{_MOVE_PROPERTY[move.color]}[{_point_text(move.point)}]" for move in record.moves]
    lines.extend("".join(moves[start : start + _MOVES_PER_LINE]) for start in range(0, len(moves), _MOVES_PER_LINE))
    return "\n".join(lines) + ")\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _point_text(point: Point) -> str:
    return chr(ord("a") + point.x) + chr(ord("a") + point.y)


def _result_text(result: GameResult) -> str:
    if result.winner is None:
        return "Draw"
    return f"{_MOVE_PROPERTY[result.winner]}+{_REASON_SUFFIX[result.reason]}"


# --------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class _Property:
    name: str
    values: tuple[str, ...]
    offset: int
    """Where the property starts in the text, for error messages."""


_Node = list[_Property]


class _Parser:
    """A recursive-descent reader of SGF's syntax that keeps only the main line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def main_line(self) -> list[_Node]:
        """The nodes of the first game tree, following the first variation at each fork."""
        start = self.text.find("(")
        if start < 0:
            raise RecordFormatError("not an SGF text: there is no '(' to open a game tree")
        self.pos = start
        return self._tree()

    def main_lines(self) -> Iterator[list[_Node]]:
        """The main line of each game tree of a collection in turn; the text after the last tree is
        ignored, as it is by `main_line`."""
        nodes = self.main_line()
        while True:
            yield nodes
            if self._peek() != "(":
                return
            nodes = self._tree()

    def _tree(self) -> list[_Node]:
        self._expect("(")
        nodes = []
        while self._peek() == ";":
            self.pos += 1
            nodes.append(self._node())
        if not nodes:
            raise self._error("a game tree must start with a node (';')")
        variations = []
        while self._peek() == "(":
            variations.append(self._tree())
        self._expect(")")
        return nodes + (variations[0] if variations else [])

    def _node(self) -> _Node:
        properties = []
        while (char := self._peek()) is not None and char.isalpha():
            offset = self.pos
            name = self._identifier()
            values = []
            while self._peek() == "[":
                values.append(self._value())
            if not values:
                raise self._error(f"property {name} has no value", offset)
            properties.append(_Property(name, tuple(values), offset))
        return properties

    def _identifier(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isalpha():
            self.pos += 1
        # FF[3] allowed lower-case letters in identifiers; they carry no meaning.
        return "".join(char for char in self.text[start : self.pos] if char.isupper())

    def _value(self) -> str:
        opened = self.pos
        self.pos += 1
        pieces: list[str] = []
        while True:
            if self.pos >= len(self.text):
                raise self._error("a value '[' is never closed", opened)
            char = self.text[self.pos]
            if char == "]":
                self.pos += 1
                return "".join(pieces)
            if char == "\\":
                self.pos += 1
                pieces.append(self._escaped())
            else:
                pieces.append(char)
                self.pos += 1

    def _escaped(self) -> str:
        """The character after a backslash; a backslash before a line break is a soft break."""
        if self.pos >= len(self.text):
            return ""
        for line_break in ("\r\n", "\n\r", "\n", "\r"):
            if self.text.startswith(line_break, self.pos):
                self.pos += len(line_break)
                return ""
        char = self.text[self.pos]
        self.pos += 1
        return char

    def _peek(self) -> str | None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else None

    def _expect(self, char: str) -> None:
        if self._peek() != char:
            found = "the end of the text" if self.pos >= len(self.text) else repr(self.text[self.pos])
            raise self._error(f"expected {char!r}, found {found}")
        self.pos += 1

    def _error(self, message: str, offset: int | None = None) -> RecordFormatError:
        return RecordFormatError(f"SGF {_where(self.text, self.pos if offset is None else offset)}: {message}")


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def _simple_text(value: str) -> str:
    """SGF SimpleText: every kind of whitespace is a space; we also trim the ends."""
    return " ".join(value.split())


# --------------------------------------------------------------------- reading


def read_sgf(text: str, default_rule: Rule = Rule.FREESTYLE) -> GameRecord:
    """Read the main line of the first game of an SGF text as a game record.

    The rule comes from RU when it names one (`renju`, `standard`,
    `freestyle`, or names containing those words), else `default_rule`.
    Raises RecordFormatError for a syntax error (with line and column), a
    GM other than 4, an unsupported board, setup stones, passes, a move
    illegal at its ply, or a result that contradicts the moves.
    """
    return _record_from(text, _Parser(text).main_line(), default_rule)


def read_sgf_games(text: str, default_rule: Rule = Rule.FREESTYLE) -> Iterator[GameRecord]:
    """Read every game of an SGF collection (`(;...)(;...)`), in order, as `read_sgf` reads one.

    A generator, so that a caller can stop after as many games as it takes;
    it raises RecordFormatError, as `read_sgf` does, when it reaches a game
    it cannot read.
    """
    for nodes in _Parser(text).main_lines():
        yield _record_from(text, nodes, default_rule)


def _record_from(text: str, nodes: list[_Node], default_rule: Rule) -> GameRecord:
    """The game record of one game tree's main line (`text` is the whole file, for error places)."""
    info = _game_info(nodes)
    _check_game(info)
    size = _read_size(info)
    rule = _read_rule(info.get("RU"), default_rule)
    try:
        board = Board(size, rule)
    except ValueError as error:
        raise RecordFormatError(str(error)) from error
    moves = tuple(_read_moves(text, nodes, board))
    record = GameRecord(
        rule=rule,
        size=size,
        black=PlayerInfo(_simple_text(info.get("PB", "")) or "black"),
        white=PlayerInfo(_simple_text(info.get("PW", "")) or "white"),
        moves=moves,
        result=_read_result(info.get("RE"), board),
        started_at=_read_date(info.get("DT")),
        game_id=_simple_text(info.get("GN", "")) or None,
    )
    check_record(record)
    return record


def _game_info(nodes: list[_Node]) -> dict[str, str]:
    """The first value of every non-move property of the main line, first occurrence kept."""
    info: dict[str, str] = {}
    for node in nodes:
        for prop in node:
            if prop.name not in ("B", "W"):
                info.setdefault(prop.name, prop.values[0])
    return info


def _check_game(info: dict[str, str]) -> None:
    game = info.get("GM", "4").strip()
    if game != "4":
        names = {"1": "Go", "2": "Othello", "3": "chess", "5": "Nine Men's Morris", "6": "backgammon"}
        what = names.get(game, f"game number {game}")
        raise RecordFormatError(f"this SGF is GM[{game}] ({what}), not Gomoku/Renju (GM[4])")
    for setup in ("AB", "AW", "AE"):
        if setup in info:
            raise RecordFormatError(
                f"this SGF sets up stones with {setup}[...]; only games played from an empty board can be read"
            )


def _read_size(info: dict[str, str]) -> int:
    text = info.get("SZ", str(DEFAULT_SIZE)).strip()
    width_text, _, height_text = text.partition(":")
    try:
        width = int(width_text)
        height = int(height_text) if height_text else width
    except ValueError:
        raise RecordFormatError(f"SZ[{text}] is not a board size") from None
    if width != height:
        raise RecordFormatError(f"SZ[{text}]: the board is {width}x{height}; only square boards are supported")
    if not MIN_SIZE <= width <= MAX_SIZE:
        raise RecordFormatError(f"SZ[{text}]: a {width}x{width} board is outside the supported {MIN_SIZE}..{MAX_SIZE}")
    return width


def _read_rule(text: str | None, default: Rule) -> Rule:
    name = _simple_text(text or "").lower()
    for rule in (Rule.RENJU, Rule.STANDARD, Rule.FREESTYLE):
        if rule.value in name:
            return rule
    return default


def _read_moves(text: str, nodes: list[_Node], board: Board) -> Iterator[RecordedMove]:
    """Every B and W property of the main line in order, played on `board` with checks."""
    for node in nodes:
        for prop in node:
            if prop.name not in ("B", "W"):
                continue
            color = Color.BLACK if prop.name == "B" else Color.WHITE
            ply = board.ply + 1
            where = "SGF " + _where(text, prop.offset)
            value = prop.values[0].strip()
            point = _read_point(value, board.size, f"{where}: move {ply} {prop.name}[{value}]")
            try:
                board.play(point, color)
            except IllegalMoveError as error:
                raise RecordFormatError(f"{where}: move {ply} {prop.name}[{value}] is illegal: {error}") from error
            yield RecordedMove(point, color)


def _read_point(value: str, size: int, context: str) -> Point:
    if value == "" or (value == "tt" and size <= 19):
        raise RecordFormatError(f"{context} is a pass, which a game record cannot hold")
    if len(value) != 2 or not all("a" <= char <= "z" for char in value):
        raise RecordFormatError(f"{context}: a point is two lower-case letters, column then row")
    point = Point(ord(value[0]) - ord("a"), ord(value[1]) - ord("a"))
    if not (point.x < size and point.y < size):
        raise RecordFormatError(f"{context} is off the {size}x{size} board")
    return point


def _read_result(text: str | None, board: Board) -> GameResult | None:
    """The result RE states, made exact by the final position where the two overlap.

    A five or a full board on the board is the result whatever RE says (a
    contradicting winner is caught by check_record). A win RE gives without
    a reason and without a five on the board can only have come from the
    loser giving up, so it reads as a resignation.
    """
    value = _simple_text(text or "").upper()
    ended = board.result
    if value in ("0", "DRAW", "JIGO"):
        if ended is not None and ended.winner is not None:
            return GameResult(None, EndReason.DRAW_AGREED)  # contradiction, reported by check_record
        return GameResult(None, EndReason.FULL_BOARD if board.is_full() else EndReason.DRAW_AGREED)
    if len(value) >= 2 and value[0] in "BW" and value[1] == "+":
        winner = Color.BLACK if value[0] == "B" else Color.WHITE
        if ended is not None:
            return ended if ended.winner is winner else GameResult(winner, EndReason.RESIGN)
        return GameResult(winner, _SUFFIX_REASON.get(value[2:], EndReason.RESIGN))
    return ended


def _read_date(text: str | None) -> datetime | None:
    """The first date of DT (SGF writes `YYYY-MM-DD`, possibly followed by more), at midnight UTC."""
    if text is None:
        return None
    try:
        return datetime.strptime(_simple_text(text)[:10], "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None
