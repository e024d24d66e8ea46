"""Driving an external Gomocup (piskvork) brain as a subprocess, as a Bot.

`GomocupEngine` starts the brain, says START, INFO (rule, no match clock,
the time per move) and then, for each move asked of it, tells it only what
it does not know yet: BEGIN on an empty board, TURN with the opponent's
last move when the brain knows everything before it, and BOARD with the
whole game otherwise.
It reads the brain's answer `x,y`, keeping MESSAGE and DEBUG lines aside;
ERROR, UNKNOWN, a crash, a malformed or illegal move raise EngineError.

A brain that has not answered when the move's time plus a grace period is
over is killed at once (no polite END first) and EngineTimeout is raised,
so a stuck engine can never stall an arena.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from types import TracebackType

from engine.board import Board
from engine.bots import Decision
from engine.gomocup import RULE_EXACT_FIVE, RULE_RENJU
from engine.limits import SearchLimits
from engine.types import Point, Rule

RULE_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: RULE_EXACT_FIVE, Rule.RENJU: RULE_RENJU}
"""The Gomocup INFO rule value for each rule."""

START_TIMEOUT_S = 30.0
"""How long a brain may take to load and answer START."""

GRACE_MS = 1000
"""Time allowed beyond the move's limit (for pipes and a busy machine) before the kill."""

DEFAULT_TURN_MS = 5000
"""Time per move when the caller gives no limit."""


class EngineError(RuntimeError):
    """The brain failed: it crashed, said ERROR or UNKNOWN, or answered something unusable."""


class EngineTimeout(EngineError):
    """The brain did not answer in time and was killed."""


class GomocupEngine:
    """An external brain behind the Bot interface. Use it as a context manager, or call close()."""

    description = "An external engine speaking the Gomocup protocol."

    def __init__(
        self,
        command: Sequence[str],
        name: str = "engine",
        size: int = 15,
        rule: Rule = Rule.FREESTYLE,
        grace_ms: int = GRACE_MS,
    ) -> None:
        """Start `command` and say START and INFO rule. Raises EngineError if it does not answer OK."""
        self.level = name
        self.size = size
        self.rule = rule
        self.grace_ms = grace_ms
        self.messages: list[str] = []
        """MESSAGE and DEBUG lines of the last move, for people to read."""
        self._known: list[Point] = []
        self._turn_ms: int | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self._process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start {name}: {error}") from error
        self._reader = threading.Thread(target=self._read_lines, daemon=True)
        self._reader.start()
        self._send(f"START {size}")
        answer = self._answer(START_TIMEOUT_S)
        if answer != "OK":
            self.close()
            raise EngineError(f"{name} answered {answer!r} to START {size}")
        self._send(f"INFO rule {RULE_BITS[rule]}")
        self._send("INFO timeout_match 0")  # no match clock: each move has its own limit

    def _read_lines(self) -> None:
        assert self._process.stdout is not None
        with self._process.stdout:
            for line in self._process.stdout:
                self._lines.put(line.strip())
        self._lines.put(None)

    def _send(self, line: str) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError as error:
            raise EngineError(f"{self.level} stopped reading its input: {error}") from error

    def _answer(self, timeout_s: float) -> str:
        """The next line that is not MESSAGE or DEBUG; kill the brain if none comes in time."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise EngineTimeout(f"{self.level} did not answer within {timeout_s:.1f} s and was killed") from None
            if line is None:
                raise EngineError(f"{self.level} exited (code {self._process.poll()})")
            keyword = line.split(" ", 1)[0].upper()
            if keyword in ("MESSAGE", "DEBUG"):
                self.messages.append(line)
            elif keyword in ("ERROR", "UNKNOWN"):
                raise EngineError(f"{self.level} said: {line}")
            elif line:
                return line

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Ask the brain for a move in `board`. Raises EngineTimeout or EngineError."""
        turn_ms = limits.time_ms or DEFAULT_TURN_MS
        if turn_ms != self._turn_ms:
            self._send(f"INFO timeout_turn {turn_ms}")
            self._turn_ms = turn_ms
        self.messages = []
        moves = list(board.moves)
        if not moves:
            self._send("BEGIN")
        elif self._known == moves[:-1]:
            self._send(f"TURN {moves[-1].x},{moves[-1].y}")
        else:
            self._send_board(board)
        answer = self._answer((turn_ms + self.grace_ms) / 1000)
        move = self._parse_move(answer, board)
        self._known = [*moves, move]
        return Decision(move=move, score=0, pv=(move,))

    def _send_board(self, board: Board) -> None:
        self._send("BOARD")
        mover = board.to_move
        for point in board.moves:
            color = board.stone_at(point)
            self._send(f"{point.x},{point.y},{1 if color == mover else 2}")
        self._send("DONE")

    def _parse_move(self, answer: str, board: Board) -> Point:
        try:
            x_text, y_text = answer.split(",")
            point = Point(int(x_text), int(y_text))
        except ValueError:
            raise EngineError(f"{self.level} answered {answer!r}, not a move 'x,y'") from None
        if not board.is_legal(point):
            raise EngineError(f"{self.level} played the illegal move {answer!r}")
        return point

    def about(self) -> str:
        """The brain's ABOUT line (name, version, author...)."""
        self._send("ABOUT")
        return self._answer(START_TIMEOUT_S)

    def kill(self) -> None:
        """Stop the brain at once."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def close(self) -> None:
        """Say END and give the brain a moment to leave, then kill it if it has not."""
        if self._process.poll() is None:
            try:
                self._send("END")
                self._process.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self._process.stdin is not None:
            try:
                self._process.stdin.close()
            except OSError:
                pass
        self._reader.join(timeout=5)

    def __enter__(self) -> GomocupEngine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
