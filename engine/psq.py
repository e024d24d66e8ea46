"""Piskvork `.psq` files, as Piskvork (the Gomocup manager) writes and reads them.

What Piskvork does, from its source (plastovicka/Piskvork, `savePsq` and
`openPsq` in `source/game.cpp`):

* Line 1 is `Piskvorky {width}x{height}, {a}:{b}, {h}`. `a` and `b` describe
  Piskvork's two player slots: 0 for a human, the computer's time level + 1
  for a brain (Gomocup tournament files say `11:11`). `h` is the slot that
  moved first; Piskvork refuses a file whose `h` is not 0 or 1.
* Then one line per move, `x,y,time`: x the column and y the row, both
  counted from 1, and the thinking time in milliseconds. When reading,
  Piskvork skips blank lines and accepts `x,y` without a time (time 0); the
  first line that is not a move ends the moves.
* Games saved by a tournament or a command-line game then name the two
  slots on one line each: a brain's file name (`pbrain-embryo.exe`) or
  `homo-1` / `homo-2` for a human; on reading, a line starting `homo-`
  makes that slot human, any other line is taken as a brain.
* The last line is a code: -1 when the game was saved by hand ("not
  available"), 0 when a tournament game ended normally, others for
  timeouts and crashed brains. Piskvork ignores it when reading, and
  everything after it: a game played under an opening rule adds there a
  line `opening RULE` and one `opening NAME (SIDE) ACTION` per step.

So `write_psq` writes the header with slot 0 moving first (`h` = 0, black
in slot 0), `a`/`b` as 0 for a human and 11 for a bot, the moves, a
player line each (`homo-NAME` for a human, so Piskvork keeps it human and
we keep the name; the bot's name for a bot), and the code: 0 for a
finished game, -1 for an unfinished one.

`read_psq` is as lenient as Piskvork (blank lines, missing times, `\\r\\n`,
missing player lines, anything after the code) and strict where a wrong
guess would lose the game: a bad header, a malformed move line, a point
off the board or already taken are RecordFormatErrors naming the line.
Brain names are shortened the way Piskvork shows them (`pbrain-embryo.exe`
reads as `embryo`). The format carries no rule, result, dates or clock:
the rule is the caller's, and the result is whatever the final position
shows (a five or a full board).
"""

from __future__ import annotations

import re

from engine.board import Board
from engine.errors import IllegalMoveError, RecordFormatError
from engine.notation import MAX_SIZE, MIN_SIZE
from engine.opening_record import describe
from engine.record import GameRecord, PlayerInfo, RecordedMove
from engine.types import Point, Rule

_HEADER = re.compile(r"Piskvorky\s*(\d+)\s*x\s*(\d+)\s*,\s*(-?\d+)\s*:\s*(-?\d+)\s*,\s*(-?\d+)")
_MOVE = re.compile(r"(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+))?")
_CODE = re.compile(r"-?\d+")

HUMAN_PREFIX = "homo-"
"""How Piskvork marks a human player's line."""
BOT_LEVEL = 11
"""The header value written for a bot slot (Piskvork's longest time level + 1)."""
CODE_FINISHED = 0
CODE_UNFINISHED = -1
OPENING_PREFIX = "opening "
"""Lines after the code that tell a game's opening rule and steps (Piskvork ignores them)."""


def write_psq(record: GameRecord) -> str:
    """The game as a `.psq` file that Piskvork opens (lines end with `\\n`).

    Raises ValueError if a player's name contains a line break, which the
    format cannot hold.
    """
    header = f"Piskvorky {record.size}x{record.size}, {_header_level(record.black)}:{_header_level(record.white)}, 0"
    lines = [header]
    lines.extend(f"{move.point.x + 1},{move.point.y + 1},{move.time_ms or 0}" for move in record.moves)
    lines.append(_player_line(record.black))
    lines.append(_player_line(record.white))
    lines.append(str(CODE_UNFINISHED if record.result is None else CODE_FINISHED))
    if record.opening is not None:
        lines.append(f"{OPENING_PREFIX}{record.opening.rule.value}")
        lines.extend(f"{OPENING_PREFIX}{line}" for line in describe(record.opening, record.size))
    return "\n".join(lines) + "\n"


def _header_level(player: PlayerInfo) -> int:
    return BOT_LEVEL if player.kind == "bot" else 0


def _player_line(player: PlayerInfo) -> str:
    if "\n" in player.name or "\r" in player.name:
        raise ValueError(f"player name {player.name!r} has a line break, which a .psq file cannot hold")
    return HUMAN_PREFIX + player.name if player.kind == "human" else player.name


def read_psq(text: str, rule: Rule = Rule.FREESTYLE) -> GameRecord:
    """Read a `.psq` file written by Piskvork (or `write_psq`), replaying it under `rule`.

    Raises RecordFormatError, naming the line, for a missing or bad header,
    a non-square or unsupported board size, a malformed move, or a move that
    is off the board or illegal where it stands.
    """
    lines = text.splitlines()
    if not lines:
        raise RecordFormatError("the .psq text is empty")
    size, first_slot, slot_levels = _read_header(lines[0])
    board = _new_board(size, rule)
    moves: list[RecordedMove] = []
    after_moves = len(lines)
    for index in range(1, len(lines)):
        line = lines[index].strip()
        if not line:
            continue
        match = _MOVE.fullmatch(line)
        if match is None:
            if "," in line:
                raise RecordFormatError(f"line {index + 1}: {line!r} is not a move written as x,y,time")
            after_moves = index
            break
        moves.append(_play_line(board, match, index + 1))
    slots = _read_players(lines[after_moves:], slot_levels)
    black, white = slots if first_slot == 0 else (slots[1], slots[0])
    return GameRecord(rule=rule, size=size, black=black, white=white, moves=tuple(moves), result=board.result)


def _read_header(line: str) -> tuple[int, int, tuple[int, int]]:
    """(size, the slot that moved first, the two slots' levels) from line 1."""
    match = _HEADER.fullmatch(line.strip().lstrip("\ufeff"))
    if match is None:
        raise RecordFormatError(f"line 1: {line.strip()!r} is not a Piskvork header like 'Piskvorky 15x15, 11:11, 0'")
    width, height, level_a, level_b, first = (int(group) for group in match.groups())
    if width != height:
        raise RecordFormatError(f"line 1: the board is {width}x{height}; only square boards are supported")
    if not MIN_SIZE <= width <= MAX_SIZE:
        raise RecordFormatError(f"line 1: a {width}x{width} board is outside the supported {MIN_SIZE}..{MAX_SIZE}")
    if first not in (0, 1):
        raise RecordFormatError(f"line 1: the player who moved first must be 0 or 1, not {first}")
    return width, first, (level_a, level_b)


def _new_board(size: int, rule: Rule) -> Board:
    try:
        return Board(size, rule)
    except ValueError as error:
        raise RecordFormatError(f"line 1: {error}") from error


def _play_line(board: Board, match: re.Match[str], number: int) -> RecordedMove:
    """Play one `x,y,time` line on the board and return it as a move."""
    column, row = int(match.group(1)), int(match.group(2))
    time_ms = int(match.group(3)) if match.group(3) is not None else 0
    size = board.size
    if not (1 <= column <= size and 1 <= row <= size):
        raise RecordFormatError(
            f"line {number}: {column},{row} is off the {size}x{size} board (x and y run from 1 to {size})"
        )
    if time_ms < 0:
        raise RecordFormatError(f"line {number}: the thinking time {time_ms} is negative")
    point = Point(column - 1, row - 1)
    color = board.to_move
    try:
        board.play(point)
    except IllegalMoveError as error:
        raise RecordFormatError(f"line {number}: move {board.ply + 1} ({column},{row}) is illegal: {error}") from error
    return RecordedMove(point, color, time_ms)


def _read_players(rest: list[str], slot_levels: tuple[int, int]) -> tuple[PlayerInfo, PlayerInfo]:
    """The two slots' players from the lines after the moves, or from the header levels."""
    lines = [line.strip() for line in rest if line.strip()]
    if lines and _CODE.fullmatch(lines[-1]):
        lines.pop()
    if len(lines) >= 2:
        return _player_from_line(lines[0], "1"), _player_from_line(lines[1], "2")
    return _player_from_level(slot_levels[0], "1"), _player_from_level(slot_levels[1], "2")


def _player_from_line(line: str, slot: str) -> PlayerInfo:
    if line.lower().startswith(HUMAN_PREFIX):
        return PlayerInfo(line[len(HUMAN_PREFIX) :] or slot, "human")
    name = re.split(r"[\\/]", line)[-1]
    if name.lower().endswith(".exe"):
        name = name[:-4]
    if name.lower().startswith("pbrain-"):
        name = name[len("pbrain-") :]
    return PlayerInfo(name or slot, "bot")


def _player_from_level(level: int, slot: str) -> PlayerInfo:
    return PlayerInfo(slot, "bot" if level > 0 else "human")
