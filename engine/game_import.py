"""Reading a player's uploaded game files into checked game records, without any I/O.

An upload is a few files of text, each in one of three formats:

* `psq`: a Piskvork file (`engine.psq`), one game, played under the rule
  the upload names (the format carries none).
* `sgf`: an SGF collection of GM[4] games (`engine.sgf`), each game's main
  line; a game's RU names its rule, else the upload's rule applies.
* `moves`: plain move lists, one game per line, on the upload's board size
  and rule: each move is human notation (`h8`, the column letter then the
  row counted from the bottom) or `x,y` (counted from 0, x the column from
  the left and y the row from the top, as the wire's points). Blank lines
  and lines starting with `#` are skipped. The players are the names the
  upload gives.

A file's format is the one the upload names, else its name's suffix
(`.psq`, `.sgf`), else its first characters (`Piskvorky` or `(`), else a
move list. Every move is replayed on a board under its game's rule, so an
occupied point, a point off the board, a move after the end or a renju
game's forbidden point is refused. Everything is read before anything is
kept: the first problem refuses the whole upload with an UploadError that
names the file, the game and (from the format's reader) the line and move.
An upload is bounded in bytes, games and moves per game, and the same game
twice in one upload is refused.

A game whose record states no end (no five on the board, a full board or an
SGF result) is closed as ended without a winner by agreement, with a
`detail` saying the record did not tell how it ended (UNKNOWN_END), so that
it can be reviewed like any finished game and is never mistaken for a game
in progress.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal, get_args

from engine.board import Board
from engine.errors import IllegalMoveError, NotationError, RecordFormatError
from engine.notation import parse_point
from engine.psq import read_psq
from engine.record import GameRecord, PlayerInfo, RecordedMove, check_record
from engine.sgf import read_sgf_games
from engine.types import EndReason, GameResult, Point, Rule

ImportFormat = Literal["psq", "sgf", "moves"]
IMPORT_FORMATS: tuple[ImportFormat, ...] = get_args(ImportFormat)

MAX_UPLOAD_BYTES = 48_000
"""The most UTF-8 bytes of text in one upload, all files together (the wire's frame holds 64 KiB)."""
MAX_GAMES_PER_UPLOAD = 50
"""The most games one upload may hold, all files together."""
MAX_MOVES_PER_GAME = 400
"""The most moves one imported game may have."""
MAX_NAME_LENGTH = 64
"""A player's name as a file gives it is cut to this many characters."""

UNKNOWN_END = "imported: the record does not say how the game ended"
"""The `detail` of the result given to an imported game whose record states no end."""

_POINT_PAIR = re.compile(r"(\d{1,2}),(\d{1,2})")
_SUFFIX_FORMATS: dict[str, ImportFormat] = {".psq": "psq", ".sgf": "sgf"}


class UploadError(ValueError):
    """An upload that cannot be imported; the message names the file, the game and the move."""


class UploadTooBig(UploadError):
    """An upload past one of the bounds: bytes, games per upload, moves per game."""


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """One file of an upload."""

    name: str
    """The file's name as the uploader gives it, for messages and for its format."""
    text: str
    """The whole file."""
    format: ImportFormat | None = None
    """The file's format; None: from its name, else from its first characters."""


@dataclass(frozen=True, slots=True)
class UploadTerms:
    """What an upload says about games whose files do not."""

    rule: Rule = Rule.FREESTYLE
    """The rule of `.psq` games, move lists, and SGF games without RU."""
    size: int = 15
    """The board size of move lists."""
    black: str = "black"
    """The black player's name in move lists."""
    white: str = "white"
    """The white player's name in move lists."""


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """One game read from an upload, checked and ended, ready to be stored."""

    record: GameRecord
    """The game, with a result (UNKNOWN_END when its file stated none)."""
    source: ImportFormat
    """The format it was read from."""
    file: str
    """The name of the file it came from."""
    index: int
    """Its place in that file, from 1."""
    fingerprint: str
    """What makes two imports the same game (`game_fingerprint`)."""


def read_upload(files: list[UploadedFile], terms: UploadTerms) -> list[ImportedGame]:
    """Every game of an upload, in file order, each replayed under its rule and given an end.

    Raises UploadError for an upload past a bound, a file that cannot be
    read, a move that is illegal where it stands, or one game twice.
    """
    size = sum(len(file.text.encode("utf-8")) for file in files)
    if size > MAX_UPLOAD_BYTES:
        raise UploadTooBig(f"the upload is {size} bytes; at most {MAX_UPLOAD_BYTES} are taken at once")
    games: list[ImportedGame] = []
    seen: dict[str, ImportedGame] = {}
    for file in files:
        source = file.format or guess_format(file.name, file.text)
        for index, record in enumerate(_records(file, source, terms), start=1):
            where = f"{file.name}, game {index}"
            if len(games) == MAX_GAMES_PER_UPLOAD:
                raise UploadTooBig(f"{where}: an upload holds at most {MAX_GAMES_PER_UPLOAD} games")
            game = _checked(record, source, file.name, index)
            twin = seen.get(game.fingerprint)
            if twin is not None:
                raise UploadError(f"{where} is the same game as {twin.file}, game {twin.index}")
            seen[game.fingerprint] = game
            games.append(game)
    if not games:
        raise UploadError("the upload holds no game")
    return games


def guess_format(name: str, text: str) -> ImportFormat:
    """A file's format from its name's suffix, else from how its text starts, else a move list."""
    for suffix, source in _SUFFIX_FORMATS.items():
        if name.lower().endswith(suffix):
            return source
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("Piskvorky"):
        return "psq"
    if start.startswith("("):
        return "sgf"
    return "moves"


def game_fingerprint(record: GameRecord) -> str:
    """A digest of the rule, board, both names (ignoring case) and the moves: two imports of a game
    with the same players and moves have the same fingerprint, whatever else their files say."""
    moves = ";".join(f"{move.point.x},{move.point.y}" for move in record.moves)
    names = f"{record.black.name.casefold()}\n{record.white.name.casefold()}"
    text = f"{record.rule.value}\n{record.size}\n{names}\n{moves}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _records(file: UploadedFile, source: ImportFormat, terms: UploadTerms) -> Iterator[GameRecord]:
    """The games of one file as its format's reader gives them, its errors naming the file and game."""
    index = 1
    try:
        if source == "psq":
            yield read_psq(file.text, terms.rule)
        elif source == "sgf":
            for record in read_sgf_games(file.text, terms.rule):
                yield record
                index += 1
        else:
            for number, line in enumerate(file.text.splitlines(), start=1):
                if line.strip() and not line.lstrip().startswith("#"):
                    yield read_move_list(line, number, terms)
                    index += 1
    except RecordFormatError as error:
        raise UploadError(f"{file.name}, game {index}: {error}") from error


def read_move_list(text: str, line: int, terms: UploadTerms) -> GameRecord:
    """One game written as moves separated by spaces (`h8 i9` or `7,7 8,8`), played on the upload's
    board under its rule. Raises RecordFormatError naming the line and the move."""
    try:
        board = Board(terms.size, terms.rule)
    except ValueError as error:
        raise RecordFormatError(f"line {line}: {error}") from error
    moves: list[RecordedMove] = []
    for ply, token in enumerate(text.split(), start=1):
        point = _move_point(token, terms.size, f"line {line}: move {ply} ({token})")
        color = board.to_move
        try:
            board.play(point)
        except IllegalMoveError as error:
            raise RecordFormatError(f"line {line}: move {ply} ({token}) is illegal: {error}") from error
        moves.append(RecordedMove(point, color))
    return GameRecord(
        rule=terms.rule,
        size=terms.size,
        black=PlayerInfo(terms.black),
        white=PlayerInfo(terms.white),
        moves=tuple(moves),
        result=board.result,
    )


def _move_point(token: str, size: int, where: str) -> Point:
    pair = _POINT_PAIR.fullmatch(token)
    if pair is not None:
        point = Point(int(pair.group(1)), int(pair.group(2)))
        if not (point.x < size and point.y < size):
            raise RecordFormatError(f"{where} is off the {size}x{size} board (x and y run from 0 to {size - 1})")
        return point
    try:
        return parse_point(token, size)
    except NotationError as error:
        raise RecordFormatError(f"{where}: {error}; a move is written like 'h8' or '7,7'") from error


def _checked(record: GameRecord, source: ImportFormat, file: str, index: int) -> ImportedGame:
    """The game with short names and an end, checked again as a whole (the result against the moves)."""
    where = f"{file}, game {index}"
    if not record.moves:
        raise UploadError(f"{where} has no moves")
    if len(record.moves) > MAX_MOVES_PER_GAME:
        raise UploadTooBig(f"{where} has {len(record.moves)} moves; an imported game has at most {MAX_MOVES_PER_GAME}")
    ended = replace(
        record,
        black=replace(record.black, name=_short_name(record.black.name, "black")),
        white=replace(record.white, name=_short_name(record.white.name, "white")),
        result=record.result or GameResult(None, EndReason.DRAW_AGREED, detail=UNKNOWN_END),
        game_id=None,
    )
    try:
        check_record(ended)
    except RecordFormatError as error:
        raise UploadError(f"{where}: {error}") from error
    return ImportedGame(ended, source, file, index, game_fingerprint(ended))


def _short_name(name: str, seat: str) -> str:
    """A file's player name on one line, cut to MAX_NAME_LENGTH; the seat's colour if it has none."""
    return " ".join(name.split())[:MAX_NAME_LENGTH] or seat
