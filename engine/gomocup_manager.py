"""The manager's side of the Gomocup (piskvork) protocol, without I/O: what to tell a brain, and
what its answers mean.

`engine.gomocup` is the brain's side (our `gomoku-engine`); this module is
the other end, the part of a tournament manager that drives a brain. A
`BrainManager` formats the commands for each thing asked of the brain and
reads its answers one line at a time, handing out events; it never touches
a process, a pipe or a clock. Two thin I/O layers move its lines: a
blocking one for the arena (`tools.gomocup_client`) and an asyncio one for
the server and `gomoku-bot` (`brains.process`). Its tests feed it
lines.

It keeps track of what the brain already knows, so that each move asked
costs the brain as little as possible:

* a new game is `START size` the first time (or for another size), then
  `RESTART`; a brain that answers `UNKNOWN` or `ERROR` to RESTART gets
  `START` again (older brains do not know RESTART), then `INFO rule` and
  `INFO max_memory`;
* a move is `BEGIN` on an empty board the brain also holds empty, `TURN x,y`
  when the brain holds every move but the opponent's last, and otherwise
  `BOARD` with the whole position (own stones 1, the opponent's 2, in the
  order played), preceded by whichever `INFO` time limits changed;
* swap2 decisions are `SWAP2BOARD` (see `engine.gomocup` for the answers).

An answer that breaks the protocol (an answer that is not a move, a point
off the board, on a stone or forbidden, a swap2 answer with the wrong
number of stones, `ERROR` or `UNKNOWN` to anything but a move or a swap2
question) raises `BrainProtocolError`, after which the brain's position is
unknown; a caller usually kills such a brain.

`ERROR` or `UNKNOWN` to a move or a swap2 question is a slip, not yet a
failure: a real brain (Rapfi 0.43) drops a command that reaches it while it
is still finishing its previous answer, and says `ERROR Unknown command`.
The manager hands out `Slipped`; the caller waits until the brain has been
quiet for `Slipped.quiet_ms` and sends `retry()`, the whole question again
(every INFO and the position with `BOARD`, since what the brain holds is no
longer known). Only a slip after MOST_RETRIES retries is a failure. The
callers also keep COMMAND_PACE_MS between the brain's last output and
their next command, so that the slip seldom happens at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.errors import IllegalMoveError
from engine.gomocup import RULE_EXACT_FIVE, RULE_RENJU
from engine.openings import ChooseColor, PlaceStones
from engine.types import Color, Point, Rule

RULE_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: RULE_EXACT_FIVE, Rule.RENJU: RULE_RENJU}
"""The Gomocup `INFO rule` value of each rule."""

SWAP2_ANSWER_STONES = {0: (3,), 3: (0, 1, 2), 5: (0, 1)}
"""For each count of stones listed in SWAP2BOARD, how many stones the answer may place (0: SWAP)."""

COMMAND_PACE_MS = 20
"""The least time between the brain's last output and the next command sent to it: Rapfi 0.43 drops
a command that arrives within about a millisecond of its move (it prints the move before it reads
again), and a manager that answers at once, as an arena's quick opponent does, loses the command."""
SLIP_QUIET_MS = 50
"""How long the brain must have been quiet after a slip before the question is asked again; it
doubles with each retry of the same question."""
MOST_RETRIES = 3
"""How many times one question is asked again after a slip before the next slip is a failure."""


class BrainProtocolError(ValueError):
    """The brain answered something the protocol does not allow at this point."""


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """The limits told to the brain before a move, in milliseconds."""

    turn_ms: int
    """The most this move may take (`INFO timeout_turn`)."""
    match_ms: int = 0
    """The whole game's time for the brain (`INFO timeout_match`); 0 means no game clock."""
    left_ms: int | None = None
    """The brain's time left in the game (`INFO time_left`); None without a game clock."""


# ------------------------------------------------------------------ events


@dataclass(frozen=True, slots=True)
class Said:
    """A `MESSAGE` or `DEBUG` line: for people to read, not an answer."""

    text: str
    """The whole line."""


@dataclass(frozen=True, slots=True)
class Ready:
    """The brain answered `OK` to START or RESTART: it holds an empty board."""


@dataclass(frozen=True, slots=True)
class Played:
    """The brain's move, checked to be legal in the position it was asked about."""

    point: Point


@dataclass(frozen=True, slots=True)
class Swap2Decided:
    """The brain's decision at a swap2 step, as a step of `engine.openings`.

    Gomocup folds "stay white" and the move that follows into one answer;
    here that is `ChooseColor(WHITE)` with the move in `move`.
    """

    step: PlaceStones | ChooseColor
    """Stones placed, or the colour the brain takes."""
    move: Point | None = None
    """With `ChooseColor(WHITE)`: the move the brain plays next, as white."""


@dataclass(frozen=True, slots=True)
class Introduced:
    """The brain's answer to ABOUT (`name="...", version="..."`)."""

    text: str


@dataclass(frozen=True, slots=True)
class Resend:
    """Lines to send now, before the answer can come (a brain that does not know RESTART gets START)."""

    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Slipped:
    """The brain answered `ERROR` or `UNKNOWN` to a move or swap2 question, most likely because the
    command reached it too early: wait until it has been quiet for `quiet_ms` (reading on: its
    answer may still come), then send `BrainManager.retry()`."""

    text: str
    """The brain's line."""
    quiet_ms: int
    """How long the brain must stay quiet before the question is asked again."""


BrainEvent = Said | Ready | Played | Swap2Decided | Introduced | Resend | Slipped
"""What one line from the brain means. Every event but Said, Resend and Slipped is the awaited
answer."""


@dataclass(frozen=True, slots=True)
class _Awaiting:
    """The answer the brain owes: to which command, and what is needed to check it."""

    command: str
    """START, RESTART, MOVE, SWAP2 or ABOUT."""
    board: Board | None = None
    """For a move or a swap2 decision: the position asked about."""
    limits: TimeLimits | None = None
    """For a move or a swap2 decision: the time limits told with it (told again on a retry)."""


class BrainManager:
    """The state of one conversation with one brain process, from the manager's side."""

    def __init__(self, name: str = "brain") -> None:
        """`name` is how errors name the brain."""
        self.name = name
        self.size: int | None = None
        """The board size the brain was started with (None before START)."""
        self.rule = Rule.FREESTYLE
        self._known: tuple[Point, ...] | None = None
        """The moves the brain holds on its board, or None when that is not known."""
        self._awaiting: _Awaiting | None = None
        self._restart_known = True
        """False once the brain has refused RESTART: it gets START for each game."""
        self._told: dict[str, int] = {}
        """The INFO values already told since the game began."""
        self._setup: tuple[str, ...] = ()
        """The INFO lines that follow START or RESTART, kept to be sent again after a fallback."""
        self._prepared: tuple[tuple[Point, ...], Point] | None = None
        """A move the brain already gave (with a swap2 decision), and the position it is for."""
        self._slipped = False
        """Whether the awaited question slipped and waits for `retry` (further ERRORs are its echo)."""
        self._retries = 0
        """How many times the awaited question was asked again after a slip."""

    @property
    def awaiting(self) -> str | None:
        """The command whose answer is awaited, or None when the brain owes nothing."""
        return None if self._awaiting is None else self._awaiting.command

    def holds(self, moves: Sequence[Point]) -> bool:
        """Whether asking for a move in `moves` would cost the brain no BOARD (it follows this game)."""
        moves = tuple(moves)
        if self._prepared is not None and self._prepared[0] == moves:
            return True
        return (not moves and self._known == ()) or (bool(moves) and self._known == moves[:-1])

    # ---------------------------------------------------------------- asking

    def new_game(self, size: int, rule: Rule, max_memory_bytes: int | None = None) -> list[str]:
        """The lines that begin a game on an empty board: START (or RESTART) and the game's INFO."""
        self._expect_nothing()
        restart = self.size == size and self._restart_known
        first = "RESTART" if restart else f"START {size}"
        self.size = size
        self.rule = rule
        self._told = {}
        self._known = None
        self._prepared = None
        setup = [f"INFO rule {RULE_BITS[rule]}"]
        if max_memory_bytes is not None:
            setup.append(f"INFO max_memory {max_memory_bytes}")
        self._setup = tuple(setup)
        self._awaiting = _Awaiting("RESTART" if restart else "START")
        return [first, *setup]

    def ask_move(self, moves: Sequence[Point], limits: TimeLimits) -> list[str]:
        """The lines that ask for a move in the position after `moves` (black's first)."""
        self._expect_nothing()
        board = self._board(moves)
        lines = self._time_lines(limits)
        moves = tuple(moves)
        if not moves and self._known == ():
            lines.append("BEGIN")
        elif moves and self._known == moves[:-1]:
            lines.append(f"TURN {moves[-1].x},{moves[-1].y}")
        else:
            lines.extend(self._board_listing(board))
        self._known = None
        self._prepared = None
        self._await(_Awaiting("MOVE", board, limits))
        return lines

    def prepared_move(self, moves: Sequence[Point]) -> Point | None:
        """The move the brain already chose for this position with a swap2 decision, if any; asking
        for it again would make the brain think twice."""
        if self._prepared is None or self._prepared[0] != tuple(moves):
            return None
        return self._prepared[1]

    def ask_swap2(self, stones: Sequence[Point], limits: TimeLimits) -> list[str]:
        """The lines that ask the brain's swap2 decision, with `stones` (0, 3 or 5) on the board."""
        self._expect_nothing()
        if len(stones) not in SWAP2_ANSWER_STONES:
            raise ValueError(f"swap2 decisions are taken with 0, 3 or 5 stones on the board, not {len(stones)}")
        board = self._board(stones)
        lines = [*self._time_lines(limits), *self._swap2_listing(board)]
        self._known = None
        self._prepared = None
        self._await(_Awaiting("SWAP2", board, limits))
        return lines

    def retry(self) -> list[str]:
        """The lines that ask a question that slipped (`Slipped`) once more: every time limit and
        the whole position, since what the brain holds is not known."""
        awaiting = self._awaiting
        if awaiting is None or not self._slipped:
            raise RuntimeError(f"{self.name} has no question that slipped to ask again")
        assert awaiting.board is not None and awaiting.limits is not None, "only moves and swap2 questions slip"
        self._slipped = False
        self._retries += 1
        self._told = {}
        lines = self._time_lines(awaiting.limits)
        if awaiting.command == "MOVE":
            return [*lines, *self._board_listing(awaiting.board)]
        return [*lines, *self._swap2_listing(awaiting.board)]

    def ask_about(self) -> list[str]:
        """The line that asks the brain who it is."""
        self._expect_nothing()
        self._awaiting = _Awaiting("ABOUT")
        return ["ABOUT"]

    def end(self) -> list[str]:
        """The line that tells the brain to exit."""
        self._awaiting = None
        self._slipped = False
        return ["END"]

    def _await(self, awaiting: _Awaiting) -> None:
        """Await the answer to a new question."""
        self._awaiting = awaiting
        self._slipped = False
        self._retries = 0

    def _expect_nothing(self) -> None:
        if self._awaiting is not None:
            raise RuntimeError(f"{self.name} still owes an answer to {self._awaiting.command}")

    def _board(self, moves: Sequence[Point]) -> Board:
        if self.size is None:
            raise RuntimeError(f"{self.name} has not been started: call new_game first")
        return Board.from_moves(moves, self.size, self.rule)

    def _time_lines(self, limits: TimeLimits) -> list[str]:
        """INFO lines for the time limits the brain has not been told yet."""
        values = {"timeout_turn": limits.turn_ms, "timeout_match": limits.match_ms}
        if limits.left_ms is not None:
            values["time_left"] = limits.left_ms
        lines = []
        for key, value in values.items():
            if self._told.get(key) != value:
                self._told[key] = value
                lines.append(f"INFO {key} {value}")
        return lines

    @staticmethod
    def _swap2_listing(board: Board) -> list[str]:
        return ["SWAP2BOARD", *(f"{point.x},{point.y}" for point in board.moves), "DONE"]

    @staticmethod
    def _board_listing(board: Board) -> list[str]:
        mover = board.to_move
        lines = ["BOARD"]
        for ply, point in enumerate(board.moves):
            own = (Color.BLACK if ply % 2 == 0 else Color.WHITE) is mover
            lines.append(f"{point.x},{point.y},{1 if own else 2}")
        lines.append("DONE")
        return lines

    # ------------------------------------------------------------- answers

    def receive(self, line: str) -> BrainEvent:
        """What one line from the brain means. Raises BrainProtocolError for a line the protocol does
        not allow now (after which nothing is awaited and the brain's position is unknown)."""
        text = line.strip()
        keyword = text.split(" ", 1)[0].upper()
        if keyword in ("MESSAGE", "DEBUG"):
            return Said(text)
        awaiting = self._awaiting
        if awaiting is None:
            self._known = None
            raise BrainProtocolError(f"{self.name} said {_quoted(text)} when no answer was due")
        if keyword in ("ERROR", "UNKNOWN") and awaiting.command == "RESTART":
            return self._fall_back_to_start()
        if keyword in ("ERROR", "UNKNOWN") and awaiting.command in ("MOVE", "SWAP2"):
            slipped = self._slip(text)
            if slipped is not None:
                return slipped
        self._awaiting = None
        self._slipped = False
        try:
            if keyword in ("ERROR", "UNKNOWN"):
                asked = f" (asked {self._retries + 1} times)" if self._retries else ""
                raise BrainProtocolError(f"{self.name} answered {_quoted(text)} to {awaiting.command}{asked}")
            return self._answer(awaiting, text)
        except BrainProtocolError:
            self._known = None
            raise

    def _slip(self, text: str) -> Slipped | None:
        """The question's slip, while it may still be asked again (None once it may not). A
        complaint before the retry is sent echoes the same slip (the brain dropped several lines)."""
        if not self._slipped and self._retries >= MOST_RETRIES:
            return None
        self._slipped = True
        self._known = None
        return Slipped(text, SLIP_QUIET_MS << self._retries)

    def _fall_back_to_start(self) -> Resend:
        """The brain does not know RESTART: START it again, with the game's INFO."""
        assert self.size is not None
        self._restart_known = False
        self._awaiting = _Awaiting("START")
        return Resend((f"START {self.size}", *self._setup))

    def _answer(self, awaiting: _Awaiting, text: str) -> BrainEvent:
        match awaiting.command:
            case "START" | "RESTART":
                if text.upper() != "OK":
                    raise BrainProtocolError(f"{self.name} answered {_quoted(text)} to {awaiting.command}, not OK")
                self._known = ()
                return Ready()
            case "ABOUT":
                return Introduced(text)
            case "MOVE":
                assert awaiting.board is not None
                point = self._legal_point(text, awaiting.board)
                self._known = (*awaiting.board.moves, point)
                return Played(point)
            case _:
                assert awaiting.board is not None
                return self._swap2_answer(text, awaiting.board)

    def _swap2_answer(self, text: str, board: Board) -> Swap2Decided:
        stones = board.moves
        if text.upper() == "SWAP":
            if 0 not in SWAP2_ANSWER_STONES[len(stones)]:
                raise BrainProtocolError(f"{self.name} answered SWAP to SWAP2BOARD with no stones: it must place three")
            return Swap2Decided(ChooseColor(Color.BLACK))
        words = text.split()
        allowed = SWAP2_ANSWER_STONES[len(stones)]
        if len(words) not in allowed:
            counts = " or ".join("SWAP" if count == 0 else f"{count} point(s)" for count in allowed)
            raise BrainProtocolError(
                f"{self.name} answered {_quoted(text)} to SWAP2BOARD with {len(stones)} stones, not {counts}"
            )
        placed = []
        for word in words:
            point = self._legal_point(word, board)
            board.push(point)
            placed.append(point)
        if len(placed) == 1 and stones:
            self._prepared = (stones, placed[0])
            return Swap2Decided(ChooseColor(Color.WHITE), placed[0])
        return Swap2Decided(PlaceStones(tuple(placed)))

    def _legal_point(self, text: str, board: Board) -> Point:
        """The point `x,y` written in `text`, if the side to move may play it on `board`."""
        parts = text.replace(" ", "").split(",")
        if len(parts) != 2 or not all(part.lstrip("-").isdigit() for part in parts):
            raise BrainProtocolError(f"{self.name} answered {_quoted(text)}, not a move x,y")
        point = Point(int(parts[0]), int(parts[1]))
        try:
            board.check_move(point)
        except IllegalMoveError as error:
            raise BrainProtocolError(f"{self.name} played {point.x},{point.y}, which is illegal: {error}") from None
        return point


def _quoted(text: str, longest: int = 60) -> str:
    """The brain's words for an error message, cut short (a broken brain may print anything)."""
    return repr(text if len(text) <= longest else text[:longest] + "...")
