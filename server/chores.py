"""The pause between two rounds of a chore (a loop that runs for the server's whole life, stopped by
cancelling its task).

On Python 3.11, `asyncio.wait_for` drops a cancel that lands as the call it waits for returns: the
call's result is returned, the task goes on, and `Task.cancelling()` alone still says that it was
asked to stop (CPython issue 86296, fixed in 3.12). redis-py sends every command through
`wait_for` (its `socket_timeout`), so a chore cancelled in the middle of a Redis write would go on
writing every heartbeat, and a server stopping, which waits for its chores, would never stop.
`pause` and `stop_if_asked`, called where a chore waits for its next round, are where such a chore
stops: they raise CancelledError at once if a cancel was dropped.
"""

from __future__ import annotations

import asyncio


def stop_if_asked() -> None:
    """Raise CancelledError if this task was cancelled and the cancel was dropped on the way."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def pause(seconds: float) -> None:
    """Sleep `seconds`, unless this task was asked to stop (cancelled, the cancel dropped on the
    way): then raise CancelledError at once."""
    stop_if_asked()
    await asyncio.sleep(seconds)
