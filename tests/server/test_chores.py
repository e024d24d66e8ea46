"""A chore (a loop stopped by cancelling its task) stops at its next pause when a cancel was dropped
on the way, as Python 3.11's `asyncio.wait_for` drops one that lands as its call returns."""

from __future__ import annotations

import asyncio

from server.chores import pause

HEARTBEAT_S = 3600.0
"""A pause far longer than the test: the chore must stop without waiting for it."""
STOPS_WITHIN_S = 5.0
"""A bound on the failure only: a chore that stops does so within a few rounds of the loop."""


async def chore(reply: asyncio.Future[None], waiting: asyncio.Event) -> None:
    """One round: wait (with a timeout, as redis-py waits for a command) for `reply`; then pause."""
    while True:
        waiting.set()
        await asyncio.wait_for(reply, HEARTBEAT_S)
        await pause(HEARTBEAT_S)


async def test_a_chore_whose_cancel_came_as_its_call_returned_stops_at_its_pause() -> None:
    reply = asyncio.get_running_loop().create_future()
    waiting = asyncio.Event()
    task = asyncio.create_task(chore(reply, waiting))
    await waiting.wait()
    reply.set_result(None)  # the call returns...
    task.cancel()  # ...in the same round of the loop as the cancel, which wait_for drops
    await asyncio.wait([task], timeout=STOPS_WITHIN_S)
    assert task.cancelled()


async def test_a_chore_that_timed_a_call_out_itself_goes_on_after_its_pause() -> None:
    rounds = 0

    async def timed_out_chore() -> None:
        nonlocal rounds
        while rounds < 2:
            try:
                async with asyncio.timeout(0):  # cancels the task, then takes the cancel back
                    await asyncio.Event().wait()
            except TimeoutError:
                rounds += 1
            await pause(0)

    await timed_out_chore()
    assert rounds == 2
