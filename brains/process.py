"""A Gomocup brain as an asyncio subprocess: the asyncio I/O layer over `engine.gomocup_manager`.

The manager decides what to say and what the answers mean; this module
only starts the process, writes the manager's lines, reads the brain's
lines back with a deadline, and keeps what the brain prints on stderr. It
never blocks the event loop: the process is started, fed, read and killed
with asyncio.

Stderr is read in large chunks, however it is cut into lines (a brain may
print a line of any length, or no end of them): the last few kilobytes are
kept, for the report of a failure, and the server's log takes a few
kilobytes a second of it, line by line; what the log cannot take is dropped,
and counted. Reading never stops (a brain whose stderr nobody read would be
stuck writing, and its pipes never closed), but it is paced: draining a
brain that prints as fast as it can costs a core's worth of copying;
past STDERR_READ_BYTES_PER_S, the brain waits to write as it would on a
slow terminal.

Commands are paced (`engine.gomocup_manager.COMMAND_PACE_MS` after the
brain's last output), and a slip (ERROR or UNKNOWN to a move: a command
that reached the brain too early) is asked again, whole, once the brain has
been quiet for a moment, up to the manager's `MOST_RETRIES`; each slip is
logged as a warning.

Every way a brain can fail ends in `BrainFailure` with a sentence saying
what happened (its stderr is kept apart, for the log), and a brain that
fails is killed: one that cannot be
started, exits, stops reading, prints a line the protocol does not allow,
or does not answer in time (`BrainTimeout`). The server's outside engines
(`server.bots.outside_engines`) and `gomoku-bot` (`client.bot`) both drive their
brains through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections import deque
from collections.abc import Callable, Sequence

from engine.gomocup_manager import (
    COMMAND_PACE_MS,
    BrainEvent,
    BrainManager,
    BrainProtocolError,
    Introduced,
    Played,
    Ready,
    Resend,
    Said,
    Slipped,
    Swap2Decided,
    TimeLimits,
)
from engine.types import Point, Rule

logger = logging.getLogger(__name__)

LINE_LIMIT_BYTES = 64 * 1024
"""The longest line a brain may print; a longer one is garbage."""
STDERR_TAIL_LINES = 20
"""How many of the brain's last stderr lines go with the report of a failure."""
STDERR_TAIL_BYTES = 4096
"""How much of the end of the brain's stderr is kept for that report (a line may be longer)."""
STDERR_CHUNK_BYTES = 64 * 1024
"""The most of the brain's stderr read at once."""
STDERR_READ_BYTES_PER_S = 2 * 1024 * 1024
"""The most of a brain's stderr read per second: far more than any engine's log, far less than a pipe
carries. Measured with a brain flooding stderr from a thread: read at this pace it cost the server 1%
of a core; drained as fast as it wrote, 59-67%."""
STDERR_READ_BURST_S = 0.5
"""How far ahead of that pace reading may run (a brain that prints a lot at once is not slowed)."""
STDERR_LOG_BYTES_PER_S = 4096
"""How much of the brain's stderr the log takes per second, on average..."""
STDERR_LOG_BURST_BYTES = 16 * 1024
"""...and at once; what the log cannot take is dropped (and counted)."""
MESSAGES_KEPT = 100
"""How many MESSAGE and DEBUG lines of one answer are kept (a chatty brain may print thousands)."""
CLOSE_TIMEOUT_S = 1.0
"""How long a brain told END may take to exit before it is killed."""


class BrainFailure(Exception):
    """The brain failed and was killed; the message says how."""


class BrainTimeout(BrainFailure):
    """The brain did not answer in time and was killed."""


class BrainProcess:
    """One running brain, one question at a time."""

    def __init__(
        self, process: asyncio.subprocess.Process, name: str, on_stderr_dropped: Callable[[int], None] | None = None
    ) -> None:
        """Use `BrainProcess.start`."""
        self.name = name
        self._process = process
        self._manager = BrainManager(name)
        self._stderr_end = b""
        """The last STDERR_TAIL_BYTES the brain printed on stderr."""
        self._log_allowance = _Allowance(STDERR_LOG_BYTES_PER_S, STDERR_LOG_BURST_BYTES)
        self._read_allowance = _Allowance(STDERR_READ_BYTES_PER_S, STDERR_READ_BYTES_PER_S * STDERR_READ_BURST_S)
        self._on_stderr_dropped = on_stderr_dropped
        self._stderr_reader = asyncio.get_running_loop().create_task(self._read_stderr())
        self.messages: deque[str] = deque(maxlen=MESSAGES_KEPT)
        """The last MESSAGE and DEBUG lines of the last answer, for people to read."""
        self.game: str | None = None
        """Whose game the brain holds now (a caller's label; None when it holds none)."""
        self._last_output = asyncio.get_running_loop().time()
        """When the brain last printed a line on stdout (the loop's clock)."""

    @classmethod
    async def start(
        cls,
        command: Sequence[str],
        name: str,
        cwd: str | None = None,
        on_stderr_dropped: Callable[[int], None] | None = None,
    ) -> BrainProcess:
        """Start the brain's process (it has said nothing yet; begin a game with `new_game`).
        `on_stderr_dropped` is told the size of each piece of stderr the log could not take.
        Raises BrainFailure when the command cannot be started."""
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                limit=LINE_LIMIT_BYTES,
                start_new_session=True,  # a signal to the server is not sent to its engines
            )
        except (OSError, ValueError) as error:
            raise BrainFailure(f"{name} cannot be started: {error}") from None
        return cls(process, name, on_stderr_dropped)

    @property
    def running(self) -> bool:
        """Whether the process is still alive."""
        return self._process.returncode is None

    @property
    def pid(self) -> int:
        return self._process.pid

    def holds(self, moves: Sequence[Point]) -> bool:
        """Whether the brain follows this position (asking it a move needs no BOARD)."""
        return self._manager.holds(moves)

    def stderr_tail(self) -> str:
        """The last lines the brain printed on stderr, joined with ` | ` (empty when none); at most
        STDERR_TAIL_LINES of them and STDERR_TAIL_BYTES in all."""
        text = self._stderr_end.decode("utf-8", errors="replace")
        lines = [line.rstrip() for line in text.splitlines() if line.strip()]
        return _last_bytes(" | ".join(lines[-STDERR_TAIL_LINES:]), STDERR_TAIL_BYTES)

    # ------------------------------------------------------------- asking

    async def new_game(self, size: int, rule: Rule, timeout_s: float, max_memory_bytes: int | None = None) -> None:
        """Begin a game on an empty board (START or RESTART, the rule, the memory)."""
        event = await self._converse(self._manager.new_game(size, rule, max_memory_bytes), timeout_s)
        assert isinstance(event, Ready), "START is answered OK"

    async def move(self, moves: Sequence[Point], limits: TimeLimits, timeout_s: float) -> Point:
        """The brain's move in the position after `moves` (checked to be legal there)."""
        prepared = self._manager.prepared_move(moves)
        if prepared is not None:
            return prepared
        event = await self._converse(self._manager.ask_move(moves, limits), timeout_s)
        assert isinstance(event, Played), "a move is answered with a move"
        return event.point

    async def swap2(self, stones: Sequence[Point], limits: TimeLimits, timeout_s: float) -> Swap2Decided:
        """The brain's swap2 decision with `stones` (0, 3 or 5) placed."""
        event = await self._converse(self._manager.ask_swap2(stones, limits), timeout_s)
        assert isinstance(event, Swap2Decided), "SWAP2BOARD is answered with a swap2 decision"
        return event

    async def about(self, timeout_s: float) -> str:
        """The brain's ABOUT line."""
        event = await self._converse(self._manager.ask_about(), timeout_s)
        assert isinstance(event, Introduced), "ABOUT is answered with a line"
        return event.text

    async def _converse(self, lines: Sequence[str], timeout_s: float) -> BrainEvent:
        """Send the lines, then read until the answer; any failure kills the brain."""
        self.messages.clear()
        try:
            async with asyncio.timeout(timeout_s):
                await self._send(lines)
                quiet_s: float | None = None
                """After a slip: how long the brain must be quiet before the question is asked again."""
                while True:
                    try:
                        async with asyncio.timeout(quiet_s):
                            line = await self._read_line()
                    except TimeoutError:
                        if quiet_s is None:
                            raise
                        await self._send(self._manager.retry())
                        quiet_s = None
                        continue
                    event = self._manager.receive(line)
                    if isinstance(event, Said):
                        self.messages.append(event.text)
                    elif isinstance(event, Slipped):
                        logger.warning("%s (pid %d) slipped (%r): asked again", self.name, self.pid, event.text)
                        quiet_s = event.quiet_ms / 1000
                    elif isinstance(event, Resend):
                        await self._send(event.lines)
                    else:
                        return event
        except TimeoutError:
            await self.kill()
            raise BrainTimeout(f"{self.name} did not answer within {timeout_s:.1f} s and was killed") from None
        except BrainProtocolError as error:
            await self.kill()
            raise BrainFailure(f"{error}; it was killed") from None
        except BrainFailure:
            await self.kill()
            raise

    async def _send(self, lines: Sequence[str]) -> None:
        """Write the lines, no sooner than COMMAND_PACE_MS after the brain's last output."""
        stdin = self._process.stdin
        assert stdin is not None
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self._last_output + COMMAND_PACE_MS / 1000 - loop.time()))
        try:
            stdin.write("".join(line + "\n" for line in lines).encode())
            await stdin.drain()
        except (ConnectionError, RuntimeError) as error:  # RuntimeError: the transport is closed
            raise BrainFailure(f"{self.name} stopped reading its input ({error}){self._exit_note()}") from None

    async def _read_line(self) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            try:
                data = await stdout.readline()
            except ValueError:  # a line past LINE_LIMIT_BYTES
                raise BrainFailure(f"{self.name} printed a line longer than {LINE_LIMIT_BYTES} bytes") from None
            self._last_output = asyncio.get_running_loop().time()
            if not data:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CLOSE_TIMEOUT_S):
                        await self._process.wait()
                raise BrainFailure(f"{self.name} exited{self._exit_note()}")
            text = data.decode("utf-8", errors="replace").strip()
            if text:
                return text

    def _exit_note(self) -> str:
        """The process's exit code, if it has exited (its stderr is for the log: `stderr_tail`)."""
        code = self._process.returncode
        return "" if code is None else f" with code {code}"

    async def _read_stderr(self) -> None:
        """Read stderr to its end, a chunk at a time: keep its end, log what the log may take."""
        stderr = self._process.stderr
        assert stderr is not None
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ConnectionError):
            while chunk := await stderr.read(STDERR_CHUNK_BYTES):
                self._read_allowance.take(len(chunk), loop.time())
                self._stderr_end = (self._stderr_end + chunk[-STDERR_TAIL_BYTES:])[-STDERR_TAIL_BYTES:]
                logged = self._log_allowance.take(len(chunk), loop.time())
                if logged:
                    self._log_stderr(chunk[:logged])
                if logged < len(chunk) and self._on_stderr_dropped is not None:
                    self._on_stderr_dropped(len(chunk) - logged)
                await asyncio.sleep(self._read_allowance.wait_s(STDERR_CHUNK_BYTES))

    def _log_stderr(self, chunk: bytes) -> None:
        if logger.isEnabledFor(logging.DEBUG):
            for line in chunk.decode("utf-8", errors="replace").splitlines():
                logger.debug("%s (pid %d) stderr: %s", self.name, self._process.pid, line)

    # ------------------------------------------------------------- ending

    async def kill(self) -> None:
        """Stop the brain at once."""
        if self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                # The brain leads a process group of its own: a wrapper script's children go too.
                os.killpg(self._process.pid, signal.SIGKILL)
        await self._process.wait()
        await self._finish()

    async def close(self) -> None:
        """Tell the brain END and give it a moment to leave; kill it if it does not."""
        if self._process.returncode is None:
            with contextlib.suppress(BrainFailure):
                await self._send(self._manager.end())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLOSE_TIMEOUT_S):
                    await self._process.wait()
        await self.kill()

    async def _finish(self) -> None:
        """Let the stderr reader see the end of the pipe (or stop it), and close stdin."""
        await asyncio.wait({self._stderr_reader}, timeout=CLOSE_TIMEOUT_S)
        self._stderr_reader.cancel()
        stdin = self._process.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.close()


class _Allowance:
    """A budget of bytes that refills at `per_second`, up to `burst`."""

    def __init__(self, per_second: float, burst: float) -> None:
        self._per_second = per_second
        self._burst = burst
        self._left = burst
        self._updated: float | None = None

    def take(self, size: int, now: float) -> int:
        """Take up to `size` bytes: as many as are left."""
        if self._updated is not None:
            self._left = min(self._burst, self._left + (now - self._updated) * self._per_second)
        self._updated = now
        taken = min(size, int(self._left))
        self._left -= taken
        return taken

    def wait_s(self, size: int) -> float:
        """How long from the last `take` until `size` bytes are left (0 if they are now)."""
        return max(0.0, size - self._left) / self._per_second


def _last_bytes(text: str, limit: int) -> str:
    """The end of `text` that fits in `limit` bytes of UTF-8, cut at a character's start.

    Joining lines with " | " and replacing a multi-byte character cut in two both make the text
    longer than the bytes it was decoded from, so the bound is applied to what is returned."""
    encoded = text.encode()
    if len(encoded) <= limit:
        return text
    return encoded[-limit:].decode("utf-8", errors="ignore")
