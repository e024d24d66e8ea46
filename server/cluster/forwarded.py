"""The room commands a node has forwarded to other nodes and not yet seen answered.

Every request with an id gets an answer (PROTOCOL.md). A command for a room held elsewhere goes over
the bus to the room's owner, which answers the caller through the bus and then acknowledges the
command (`ServedMessage`, after its answer, in the room's lane). An owner that dies with the command
unread (Redis counted its subscriber, so the delivery succeeded) or half served would leave it
unanswered for ever: so the caller's node keeps each command until it is acknowledged, and answers
`unavailable` ("try again") those still waiting when another node takes their room over (its
`OwnerNotice`). The retry reaches the new owner.

A move is the exception: its old owner may have stored it and lost the answer (paused, killed or
cut off right after the commit), and `unavailable` says that nothing changed. So a move still
waiting is sent again, by the caller's node, to the new owner, marked as sent again: there the
room, restored from what is stored, tells the caller `moved` if the caller's latest stone stands
on that point (it was played before), and plays it otherwise (`Room.move_again`). A move sent again
that is refused `unavailable` (the new owner named by a notice has not restored the room yet) is
not told so either: it waits for the next owner's notice (`wait_for_next_owner`), and goes again.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from server.domain import Caller, CallerRef, RoomId
from wire.messages import ClientMessage, Move


@dataclass(frozen=True, slots=True)
class Waiting:
    """A command forwarded to `owner`, not yet acknowledged."""

    room_id: RoomId
    owner: str
    ref: CallerRef
    request_id: str | int
    move: tuple[Caller, Move] | None = None
    """A move's caller and request, to send again to the room's next owner if this one never answers."""
    sent_again: bool = False
    """A move sent again: a refusal `unavailable` of it is not the caller's answer."""


class ForwardedCommands:
    """The commands waiting for their owner's acknowledgement, by ticket (this node's numbers)."""

    def __init__(self) -> None:
        self._last_ticket = 0
        self._waiting: dict[int, Waiting] = {}

    def sent(
        self, room_id: RoomId, owner: str, caller: Caller, request: ClientMessage, sent_again: bool = False
    ) -> int:
        """Keep a command about to go to `owner`; its ticket, or 0 for a request owed no answer (it
        has no id), which is not kept. A move is kept whole, to be sent again (see above)."""
        request_id = request.id
        if request_id is None:
            return 0
        move = (caller, request) if isinstance(request, Move) else None
        return self._keep(Waiting(room_id, owner, caller.ref, request_id, move, sent_again))

    def served(self, ticket: int) -> bool:
        """The command is answered (or its sending failed, and the failure answers it): forget it.
        Whether it was still waiting (not answered `unavailable` meanwhile)."""
        return self.answered(ticket) is not None

    def answered(self, ticket: int) -> Waiting | None:
        """`served`, returning the command if it was still waiting."""
        return self._waiting.pop(ticket, None)

    def wait_for_next_owner(self, waiting: Waiting) -> None:
        """Keep a move sent again and refused `unavailable` until the next notice of the room's
        owner, whoever it names, which sends it again."""
        self._keep(dataclasses.replace(waiting, owner=""))

    def _keep(self, waiting: Waiting) -> int:
        self._last_ticket += 1
        self._waiting[self._last_ticket] = waiting
        return self._last_ticket

    def moved(self, room_id: RoomId, owner: str) -> list[Waiting]:
        """The room is `owner`'s now: the commands for it that wait for another node, which will
        never answer them, in the order sent; no longer kept (the caller answers them)."""
        lost = [
            ticket for ticket, waiting in self._waiting.items() if waiting.room_id == room_id and waiting.owner != owner
        ]
        return [self._waiting.pop(ticket) for ticket in lost]
