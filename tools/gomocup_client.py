"""Driving an external Gomocup (piskvork) brain as a subprocess, as a Bot: the arena's blocking
I/O layer over `engine.gomocup_manager`.

`GomocupEngine` starts the brain and begins a game (START, INFO rule, no
match clock); for each move asked of it, the manager says what the brain
does not know yet (BEGIN, TURN or the whole BOARD) and checks the answer.
This module only moves the lines: a thread reads the brain's output into
a queue, so that waiting for an answer can time out. MESSAGE and DEBUG
lines are kept aside; a crash, a malformed or illegal move raise
EngineError. ERROR or UNKNOWN to a move is a slip the manager forgives a
few times (`engine.gomocup_manager.Slipped`): the move is asked again, with
the whole position, once the brain has been quiet for a moment. Every
command waits COMMAND_PACE_MS after the brain's last output, so that a
brain that reads again only a moment after it answers (Rapfi) hears it.

A brain that has not answered when the move's time plus a grace period is
over is killed at once (no polite END first) and EngineTimeout is raised,
so a stuck engine can never stall an arena. The server drives brains with
the same manager through `brains.process`.
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
from engine.gomocup_manager import (
    COMMAND_PACE_MS,
    BrainEvent,
    BrainManager,
    BrainProtocolError,
    Introduced,
    Played,
    Resend,
    Said,
    Slipped,
    TimeLimits,
)
from engine.limits import SearchLimits
from engine.types import Rule

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
        """Start `command` and begin a game. Raises EngineError if it does not answer OK."""
        self.level = name
        self.size = size
        self.rule = rule
        self.grace_ms = grace_ms
        self.messages: list[str] = []
        """MESSAGE and DEBUG lines of the last move, and its slips, for people to read."""
        self._manager = BrainManager(name)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._last_output = time.monotonic()
        """When the brain last printed a line (the reader thread writes it)."""
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
        try:
            self._converse(self._manager.new_game(size, rule), START_TIMEOUT_S)
        except EngineError:
            self.close()
            raise

    def _read_lines(self) -> None:
        assert self._process.stdout is not None
        with self._process.stdout:
            for line in self._process.stdout:
                self._last_output = time.monotonic()
                self._lines.put(line.strip())
        self._lines.put(None)

    def _send(self, lines: Sequence[str]) -> None:
        """Write the lines, no sooner than COMMAND_PACE_MS after the brain's last output."""
        assert self._process.stdin is not None
        time.sleep(max(0.0, self._last_output + COMMAND_PACE_MS / 1000 - time.monotonic()))
        try:
            self._process.stdin.write("".join(line + "\n" for line in lines))
            self._process.stdin.flush()
        except OSError as error:
            raise EngineError(f"{self.level} stopped reading its input: {error}") from error

    def _converse(self, lines: Sequence[str], timeout_s: float) -> BrainEvent:
        """Send the manager's lines and read until the answer; kill the brain if none comes in time.
        After a slip, the question is asked again once the brain has been quiet long enough."""
        self._send(lines)
        deadline = time.monotonic() + timeout_s
        quiet_s: float | None = None
        """After a slip: how long the brain must be quiet before the question is asked again."""
        while True:
            left_s = max(0.0, deadline - time.monotonic())
            try:
                line = self._lines.get(timeout=left_s if quiet_s is None else min(left_s, quiet_s))
            except queue.Empty:
                if quiet_s is not None and time.monotonic() < deadline:
                    self._send(self._manager.retry())
                    quiet_s = None
                    continue
                self.kill()
                raise EngineTimeout(f"{self.level} did not answer within {timeout_s:.1f} s and was killed") from None
            if line is None:
                raise EngineError(f"{self.level} exited (code {self._process.poll()})")
            if not line:
                continue
            try:
                event = self._manager.receive(line)
            except BrainProtocolError as error:
                raise EngineError(str(error)) from None
            if isinstance(event, Said):
                self.messages.append(event.text)
            elif isinstance(event, Slipped):
                self.messages.append(f"{self.level} slipped ({event.text!r}): asked again")
                quiet_s = event.quiet_ms / 1000
            elif isinstance(event, Resend):
                self._send(event.lines)
            else:
                return event

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Ask the brain for a move in `board`. Raises EngineTimeout or EngineError."""
        turn_ms = limits.time_ms or DEFAULT_TURN_MS
        self.messages = []
        lines = self._manager.ask_move(board.moves, TimeLimits(turn_ms))
        event = self._converse(lines, (turn_ms + self.grace_ms) / 1000)
        assert isinstance(event, Played), "the answer to a move is a move"
        return Decision(move=event.point, score=0, pv=(event.point,))

    def about(self) -> str:
        """The brain's ABOUT line (name, version, author...)."""
        event = self._converse(self._manager.ask_about(), START_TIMEOUT_S)
        assert isinstance(event, Introduced), "the answer to ABOUT is a line about the brain"
        return event.text

    def kill(self) -> None:
        """Stop the brain at once."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def close(self) -> None:
        """Say END and give the brain a moment to leave, then kill it if it has not."""
        if self._process.poll() is None:
            try:
                self._send(self._manager.end())
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
