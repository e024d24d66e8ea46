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
on that point (it was played before), and plays it otherwise (`Room.move_again`).
"""

from __future__ import annotations

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


class ForwardedCommands:
    """The commands waiting for their owner's acknowledgement, by ticket (this node's numbers)."""

    def __init__(self) -> None:
        self._last_ticket = 0
        self._waiting: dict[int, Waiting] = {}

    def sent(self, room_id: RoomId, owner: str, caller: Caller, request: ClientMessage) -> int:
        """Keep a command about to go to `owner`; its ticket, or 0 for a request owed no answer (it
        has no id), which is not kept. A move is kept whole, to be sent again (see above)."""
        request_id = request.id
        if request_id is None:
            return 0
        self._last_ticket += 1
        move = (caller, request) if isinstance(request, Move) else None
        self._waiting[self._last_ticket] = Waiting(room_id, owner, caller.ref, request_id, move)
        return self._last_ticket

    def served(self, ticket: int) -> bool:
        """The command is answered (or its sending failed, and the failure answers it): forget it.
        Whether it was still waiting (not answered `unavailable` meanwhile)."""
        return self._waiting.pop(ticket, None) is not None

    def moved(self, room_id: RoomId, owner: str) -> list[Waiting]:
        """The room is `owner`'s now: the commands for it that wait for another node, which will
        never answer them, in the order sent; no longer kept (the caller answers them)."""
        lost = [
            ticket for ticket, waiting in self._waiting.items() if waiting.room_id == room_id and waiting.owner != owner
        ]
        return [self._waiting.pop(ticket) for ticket in lost]
