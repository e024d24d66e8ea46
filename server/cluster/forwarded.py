"""The room commands a node has forwarded to other nodes and not yet seen answered.

Every request with an id gets an answer (PROTOCOL.md). A command for a room held elsewhere goes over
the bus to the room's owner, which answers the caller through the bus and then acknowledges the
command (`ServedMessage`, after its answer, in the room's lane). An owner that dies with the command
unread (Redis counted its subscriber, so the delivery succeeded) or half served would leave it
unanswered for ever: so the caller's node keeps each command until it is acknowledged, and answers
`unavailable` ("try again") those still waiting when another node takes their room over (its
`OwnerNotice`). The retry reaches the new owner.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.domain import CallerRef, RoomId


@dataclass(frozen=True, slots=True)
class Waiting:
    """A command forwarded to `owner`, not yet acknowledged."""

    room_id: RoomId
    owner: str
    ref: CallerRef
    request_id: str | int


class ForwardedCommands:
    """The commands waiting for their owner's acknowledgement, by ticket (this node's numbers)."""

    def __init__(self) -> None:
        self._last_ticket = 0
        self._waiting: dict[int, Waiting] = {}

    def sent(self, room_id: RoomId, owner: str, ref: CallerRef, request_id: str | int | None) -> int:
        """Keep a command about to go to `owner`; its ticket, or 0 for a request owed no answer (it
        has no id), which is not kept."""
        if request_id is None:
            return 0
        self._last_ticket += 1
        self._waiting[self._last_ticket] = Waiting(room_id, owner, ref, request_id)
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
