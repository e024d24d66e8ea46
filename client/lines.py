"""Standard input as lines for an asyncio program."""

from __future__ import annotations

import asyncio
import sys
import threading


class StdinLines:
    """Lines of standard input, read by a daemon thread so that a pending read never keeps the
    program from exiting, and piped input works as well as a terminal."""

    def __init__(self) -> None:
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._reader: threading.Thread | None = None

    async def read_line(self) -> str | None:
        """The next line, without its newline; None at the end of input."""
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_stdin, args=(asyncio.get_running_loop(),), daemon=True)
            self._reader.start()
        return await self._lines.get()

    def _read_stdin(self, loop: asyncio.AbstractEventLoop) -> None:
        for line in sys.stdin:
            if not self._hand_over(loop, line.rstrip("\r\n")):
                return
        self._hand_over(loop, None)

    def _hand_over(self, loop: asyncio.AbstractEventLoop, line: str | None) -> bool:
        try:
            loop.call_soon_threadsafe(self._lines.put_nowait, line)
        except RuntimeError:  # the loop has closed: the program is ending
            return False
        return True
