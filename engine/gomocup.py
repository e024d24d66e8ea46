"""The Gomocup (piskvork) brain protocol, without I/O: lines in, lines out.

A `BrainSession` reads one command line at a time and yields the lines to
send back, as they are produced: the `MESSAGE` trace of each finished
search depth comes out while the search is still running, then the move.
The `gomoku-engine` tool is a loop that feeds it stdin and prints what it
yields; the tests feed it scripted lines.

Commands follow the protocol of Petr Lastovicka's piskvork manager:
START, RECTSTART (square boards only), RESTART, BEGIN, TURN x,y,
BOARD ... DONE (fields 1 own stone, 2 opponent's stone, 3 a stone of a
continuous game's winning line, which is not on the board), INFO key
value, TAKEBACK x,y, END and ABOUT. Answers are `OK`, a move `x,y`,
`ERROR message`, `UNKNOWN message`, `MESSAGE text` and `DEBUG text`.
Coordinates are `x,y` from the top-left corner, like Point.

Swap2 tournaments add SWAP2BOARD ... DONE (Gomocup's extension of 2020, as
its manager documents it), listing the stones placed so far, one `x,y` a
line in the order played, and the brain decides as `engine.opening_bot`
does:

* no stones: the brain is the first player; it answers its three opening
  stones on one line, `x,y x,y x,y`;
* three stones: it is the second player, and answers `SWAP` (it takes
  black, and the opponent plays the 4th stone as white), one move (it
  stays white and this is its 4th stone, found by its ordinary search) or
  two moves `x,y x,y` (the 4th and 5th stones; the opponent chooses);
* five stones: it is the first player again, and answers `SWAP` (it takes
  black; the opponent plays the 6th stone as white) or one move (it takes
  white and this is the 6th stone).

The manager then carries on with BOARD or TURN, as in any game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.bots import Decision
from engine.errors import IllegalMoveError, OpeningError
from engine.limits import Clock, SearchLimits, most_move_time_ms, move_time_ms
from engine.notation import MAX_SIZE, MIN_SIZE, format_point
from engine.opening_bot import decide_opening
from engine.openings import ChooseColor, OpeningRule, OpeningState, PlaceStones, Player, apply, start_opening
from engine.registry import default_time_ms, make_bot
from engine.search.levels import EngineBot
from engine.search.search import SearchResult
from engine.types import Point, Rule

ABOUT = 'name="gomoku-engine", version="0.1.0", author="gomoku-server contributors", country="EU"'

RULE_EXACT_FIVE = 1
"""Gomocup INFO rule bit: only exactly five wins."""
RULE_CONTINUOUS = 2
"""Gomocup INFO rule bit: a continuous game (the game goes on after a five)."""
RULE_RENJU = 4
"""Gomocup INFO rule bit: renju."""
RULE_CARO = 8
"""Gomocup INFO rule bit: caro (a five blocked at both ends does not win)."""

SAFETY_MS = 60
"""Time kept back from each turn for the answer to reach the manager."""
FAST_TURN_MS = 100
"""Thinking time when the manager asks for moves as fast as possible (timeout_turn 0)."""


def rule_from_bits(bits: int) -> Rule:
    """The Rule for a Gomocup rule bitmask; raises ValueError for rules not supported."""
    if bits & RULE_CARO:
        raise ValueError("caro is not supported")
    if bits & RULE_RENJU:
        return Rule.RENJU
    if bits & RULE_EXACT_FIVE:
        return Rule.STANDARD
    return Rule.FREESTYLE


@dataclass(slots=True)
class TimeControl:
    """The manager's time limits in milliseconds (None: not given)."""

    turn_ms: int | None = None
    match_ms: int | None = None
    left_ms: int | None = None

    def budget_ms(self) -> int | None:
        """Thinking time for the next move, or None for the level's own default.

        The match clock (time left, no increment) is shared out by
        `engine.limits.move_time_ms`, as the server shares out its clocks,
        with the turn time as the cap and SAFETY_MS kept back.
        """
        if self.turn_ms == 0:
            return FAST_TURN_MS
        left_ms = self.left_ms if self.match_ms else None
        return move_time_ms(left_ms, cap_ms=self.turn_ms, reserve_ms=SAFETY_MS)

    def most_ms(self, budget_ms: int) -> int | None:
        """The most the next move may take, given `budget_ms` (what `budget_ms()` gave), while
        its search is unsettled: more of the match clock, never past the turn time (None
        without a match clock: the turn time is then all the move has)."""
        if not self.match_ms or self.left_ms is None:
            return None
        cap_ms = None if self.turn_ms is None else max(1, self.turn_ms - SAFETY_MS)
        return most_move_time_ms(budget_ms, max(1, self.left_ms - SAFETY_MS), cap_ms)


def format_message(depth: int, score: int, nodes: int, nodes_per_second: int, pv: Sequence[Point], size: int) -> str:
    """The MESSAGE line reporting one finished depth: `MESSAGE depth D score S nodes N nps R pv h8 i9 ...`."""
    line = " ".join(format_point(point, size) for point in pv)
    return f"MESSAGE depth {depth} score {score} nodes {nodes} nps {nodes_per_second} pv {line}"


class BrainSession:
    """One brain's state between commands: board, rule, time limits and the bot level."""

    def __init__(
        self,
        level: str,
        rule: Rule = Rule.FREESTYLE,
        seed: int = 0,
        clock: Clock = time.monotonic,
        nodes: int | None = None,
    ) -> None:
        """A session that plays as the bot `level` (ValueError if there is no such level);
        `clock` times bots that report no speed; `nodes`, if given, is the most nodes a move
        may search besides its time (a measurement that must not depend on the machine)."""
        self.level = level
        self.nodes = nodes
        self.search_depth: int | None = None
        """The search depth `INFO search_depth` set (None: the level's own; see `make_bot`)."""
        self.search_width: int | None = None
        """The candidates per ply `INFO search_width` set (None: the level's own)."""
        self.default_time_ms = default_time_ms(level)
        """The level's thinking time when the manager gives no time limits."""
        self._clock = clock
        self.rule = rule
        self.seed = seed
        self.board: Board | None = None
        self.time = TimeControl()
        self.finished = False
        """True after END: the caller should stop reading."""
        self._listing: str | None = None
        """BOARD or SWAP2BOARD while their lines are being read, up to DONE."""
        self._listed: list[str] = []

    # ------------------------------------------------------------ dispatch

    def receive(self, line: str) -> Iterator[str]:
        """Handle one line from the manager; yield every line to send back, in order."""
        text = line.strip()
        if not text:
            return
        if self._listing is not None:
            yield from self._listing_line(text)
            return
        command, _, argument = text.partition(" ")
        handler = self._handlers().get(command.upper())
        if handler is None:
            yield f"UNKNOWN command {command!r} is not supported"
            return
        yield from handler(argument.strip())

    def _handlers(self) -> dict[str, Callable[[str], Iterator[str]]]:
        return {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._start_board,
            "SWAP2BOARD": self._start_swap2_board,
            "INFO": self._info,
            "TAKEBACK": self._takeback,
            "END": self._end,
            "ABOUT": self._about,
        }

    # ------------------------------------------------------------ commands

    def _start(self, argument: str) -> Iterator[str]:
        try:
            size = int(argument)
        except ValueError:
            yield f"ERROR START needs a board size, not {argument!r}"
            return
        yield from self._new_board(size)

    def _rectstart(self, argument: str) -> Iterator[str]:
        try:
            width, height = (int(part) for part in argument.split(","))
        except ValueError:
            yield f"ERROR RECTSTART needs width,height, not {argument!r}"
            return
        if width != height:
            yield "ERROR only square boards are supported"
            return
        yield from self._new_board(width)

    def _new_board(self, size: int) -> Iterator[str]:
        if not MIN_SIZE <= size <= MAX_SIZE:
            yield f"ERROR board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}"
            return
        try:
            self.board = Board(size, self.rule)
        except ValueError as error:
            yield f"ERROR {error}"
            return
        yield "OK"

    def _restart(self, argument: str) -> Iterator[str]:
        if self.board is None:
            yield "ERROR RESTART before START"
            return
        yield from self._new_board(self.board.size)

    def _begin(self, argument: str) -> Iterator[str]:
        board = self.board
        if board is None:
            yield "ERROR BEGIN before START"
        elif board.ply:
            yield "ERROR BEGIN on a board that already has stones"
        else:
            yield from self._think(board)

    def _turn(self, argument: str) -> Iterator[str]:
        board = self.board
        if board is None:
            yield "ERROR TURN before START"
            return
        point = self._parse_point(argument, board.size)
        if point is None:
            yield f"ERROR TURN needs x,y on the board, not {argument!r}"
            return
        try:
            board.play(point)
        except IllegalMoveError as error:
            yield f"ERROR {error}"
            return
        if board.result is not None:
            yield "ERROR the game is over"
            return
        yield from self._think(board)

    def _start_board(self, argument: str) -> Iterator[str]:
        return self._start_listing("BOARD")

    def _start_swap2_board(self, argument: str) -> Iterator[str]:
        return self._start_listing("SWAP2BOARD")

    def _start_listing(self, command: str) -> Iterator[str]:
        """Start reading a listing (always up to DONE, so that no line of it is taken for a command)."""
        self._listing = command
        self._listed = []
        return iter(())

    def _listing_line(self, text: str) -> Iterator[str]:
        """One line of a listing; at DONE, the whole listing is read and answered."""
        if text.upper() != "DONE":
            self._listed.append(text)
            return
        command, lines = self._listing, self._listed
        self._listing, self._listed = None, []
        if self.board is None:
            yield f"ERROR {command} before START"
        elif command == "BOARD":
            yield from self._board_listing(lines)
        else:
            yield from self._swap2_listing(lines)

    def _board_listing(self, lines: list[str]) -> Iterator[str]:
        """Read `x,y,field` lines; a bad line spoils the whole listing."""
        stones: list[tuple[Point, int]] = []
        for text in lines:
            try:
                x, y, field = (int(part) for part in text.split(","))
            except ValueError:
                yield f"ERROR BOARD refused: a line must be x,y,field, not {text!r}"
                return
            if field not in (1, 2, 3):
                yield f"ERROR BOARD refused: a field must be 1, 2 or 3, not {field}"
                return
            stones.append((Point(x, y), field))
        yield from self._set_up(stones)

    def _swap2_listing(self, lines: list[str]) -> Iterator[str]:
        """Answer a swap2 decision for the stones listed (see the module docstring)."""
        board = self.board
        assert board is not None
        stones = []
        for text in lines:
            point = self._parse_point(text, board.size)
            if point is None:
                yield f"ERROR SWAP2BOARD refused: a line must be x,y on the board, not {text!r}"
                return
            stones.append(point)
        try:
            state = _swap2_state(stones, board.size, board.rule)
        except (ValueError, OpeningError) as error:  # IllegalMoveError is a ValueError
            yield f"ERROR SWAP2BOARD refused: {error}"
            return
        started = self._clock()
        thinking = self.thinking_ms()
        player = state.to_decide
        assert player is not None
        step = decide_opening(state, self.level, SearchLimits(time_ms=max(1, thinking // 2)), self.seed + len(stones))
        after = apply(state, player, step)
        self.board = after.board()
        match step:
            case PlaceStones(points):
                yield " ".join(f"{point.x},{point.y}" for point in points)
            case ChooseColor(color) if color is self.board.to_move:
                used_ms = int((self._clock() - started) * 1000)
                yield from self._think(self.board, max(1, thinking - used_ms))
            case _:
                yield "SWAP"

    def _set_up(self, stones: list[tuple[Point, int]]) -> Iterator[str]:
        """Rebuild the board from a BOARD listing, then answer with a move."""
        old = self.board
        assert old is not None
        own = [point for point, field in stones if field == 1]
        theirs = [point for point, field in stones if field == 2]
        if len(own) not in (len(theirs), len(theirs) - 1):
            yield f"ERROR {len(own)} own stones and {len(theirs)} of the opponent's: not my turn"
            return
        first, second = (own, theirs) if len(own) == len(theirs) else (theirs, own)
        order = [point for pair in zip(first, second, strict=False) for point in pair] + first[len(second) :]
        board = Board(old.size, old.rule)
        for point in order:
            if not board.is_on_board(point) or board.cells[point.y * board.size + point.x]:
                yield f"ERROR stone at {point.x},{point.y} is off the board or given twice"
                return
            board.push(point)
        self.board = board
        if board.result is not None:
            yield "ERROR the game is over"
            return
        yield from self._think(board)

    def _info(self, argument: str) -> Iterator[str]:
        key, _, value = argument.partition(" ")
        key = key.lower()
        if key in ("timeout_turn", "timeout_match", "time_left", "rule", "max_memory", "game_type"):
            try:
                number = int(value)
            except ValueError:
                yield f"ERROR INFO {key} needs a number, not {value!r}"
                return
            if key == "timeout_turn":
                self.time.turn_ms = number
            elif key == "timeout_match":
                self.time.match_ms = number
            elif key == "time_left":
                self.time.left_ms = number
            elif key == "rule":
                yield from self._set_rule(number)
        elif key in ("search_depth", "search_width"):
            yield from self._set_search_shape(key, value)
        # Other keys (evaluate, folder, ...) carry nothing this brain uses: the protocol says ignore them.

    def _set_search_shape(self, key: str, value: str) -> Iterator[str]:
        """`INFO search_depth N` or `INFO search_width N`: the depth or width of this brain's search,
        for a level that lets a player set them (`engine.registry.search_bounds`)."""
        try:
            number = int(value)
        except ValueError:
            yield f"ERROR INFO {key} needs a number, not {value!r}"
            return
        depth, width = (number, self.search_width) if key == "search_depth" else (self.search_depth, number)
        try:
            make_bot(self.level, depth, width)
        except ValueError as error:
            yield f"ERROR INFO {key}: {error}"
            return
        self.search_depth, self.search_width = depth, width

    def _set_rule(self, bits: int) -> Iterator[str]:
        try:
            rule = rule_from_bits(bits)
        except ValueError as error:
            yield f"ERROR {error}"
            return
        if bits & RULE_CONTINUOUS:
            yield "DEBUG continuous games are played as ordinary games"
        self.rule = rule
        board = self.board
        if board is not None and board.ply == 0 and board.rule is not rule:
            try:
                self.board = Board(board.size, rule)
            except ValueError as error:
                yield f"ERROR {error}"

    def _takeback(self, argument: str) -> Iterator[str]:
        board = self.board
        if board is None:
            yield "ERROR TAKEBACK before START"
            return
        point = self._parse_point(argument, board.size)
        if point is None or board.last_move != point:
            yield f"ERROR TAKEBACK {argument} is not the last move"
            return
        board.pop()
        yield "OK"

    def _end(self, argument: str) -> Iterator[str]:
        self.finished = True
        return iter(())

    def _about(self, argument: str) -> Iterator[str]:
        yield ABOUT

    # ------------------------------------------------------------- thinking

    def _think(self, board: Board, time_ms: int | None = None) -> Iterator[str]:
        """Search the position, reporting each depth, then answer with the move and play it;
        within `time_ms`, or without it the time `thinking_ms` gives."""
        bot = make_bot(self.level, self.search_depth, self.search_width)
        if time_ms is None:
            time_ms = self.thinking_ms()
            limits = SearchLimits(time_ms=time_ms, nodes=self.nodes, most_time_ms=self.time.most_ms(time_ms))
        else:
            limits = SearchLimits(time_ms=time_ms, nodes=self.nodes)
        seed = self.seed + board.ply
        if isinstance(bot, EngineBot):
            last: SearchResult | None = None
            for result in bot.think(board.copy(), limits):
                last = result
                yield format_message(
                    result.depth, result.score, result.nodes, result.nodes_per_second, result.pv, board.size
                )
            decision: Decision = bot.decide(board, last, seed)
        else:
            started = self._clock()
            decision = bot.choose(board.copy(), limits, seed)
            seconds = self._clock() - started
            speed = int(decision.nodes / seconds) if seconds > 0 else decision.nodes
            yield format_message(decision.depth, decision.score, decision.nodes, speed, decision.pv, board.size)
        board.play(decision.move)
        yield f"{decision.move.x},{decision.move.y}"

    def thinking_ms(self) -> int:
        """The time the next move may take: the manager's limits shared out, or without any
        the level's default time."""
        budget = self.time.budget_ms()
        return self.default_time_ms if budget is None else budget

    @staticmethod
    def _parse_point(text: str, size: int) -> Point | None:
        try:
            x, y = (int(part) for part in text.split(","))
        except ValueError:
            return None
        if not (0 <= x < size and 0 <= y < size):
            return None
        return Point(x, y)


def _swap2_state(stones: Sequence[Point], size: int, rule: Rule) -> OpeningState:
    """The swap2 opening after the listed stones: the first three placed by the first player,
    the next two by the second. Raises ValueError for another count or an illegal stone (an
    IllegalMoveError)."""
    if len(stones) not in (0, 3, 5):
        raise ValueError(f"0, 3 or 5 stones are listed at the decisions of swap2, not {len(stones)}")
    state = start_opening(OpeningRule.SWAP2, size, rule)
    if stones:
        state = apply(state, Player.FIRST, PlaceStones(tuple(stones[:3])))
    if len(stones) == 5:
        state = apply(state, Player.SECOND, PlaceStones(tuple(stones[3:])))
    return state
