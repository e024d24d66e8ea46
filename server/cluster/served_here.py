"""What other nodes' messages reach on this node, as the `ClusterHub` hands them on: its analyses
(`ForwardedAnalyses`), its moderation (`ModerationHere`, with `RemoteModerator` standing in for a
moderator on another node) and its accounts' sign-outs (`AccountsHere`). Each is a port: the hub
knows these few calls, not the server's modules behind them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Protocol

from server.cluster.bus_messages import ReplyMessage
from server.cluster.fan_out import Bus
from server.domain import AuditEntry, Caller, CallerRef, RoomId, node_of
from wire.messages import Analyze, ClientRequest, ServerMessage


class ForwardedAnalyses(Protocol):
    """Who searches the analyses that other nodes hand on to this one (`AnalysisRequests`)."""

    async def serve_forwarded(self, caller: Caller, request: Analyze, reply: Callable[[ServerMessage], None]) -> None:
        """Check and start the analysis of a room held here; `reply` answers the caller."""


class ModerationHere(Protocol):
    """A node's moderation, as other nodes reach it (`server.moderation.requests`)."""

    async def carry_out(self, entry: AuditEntry) -> None:
        """Do this node's part of a stored ban or rename."""

    async def kick_out(self, room_id: RoomId, name: str, reason: str) -> None:
        """Keep `name` out of the room, and take their connections here out of it."""

    async def serve_forwarded(self, moderator: RemoteModerator, request: ClientRequest) -> None:
        """Serve a moderator's request from another node; raise Refusal to answer it with an error."""


class AccountsHere(Protocol):
    """A node's accounts, as other nodes' sign-outs reach them (`server.hub.account_requests`)."""

    async def signed_out(self, name: str, device_ids: Collection[str] | None) -> None:
        """Tell and close this node's connections signed in as these devices of `name`'s account."""

    def deleted(self, name: str, name_free_at: str) -> None:
        """Tell and close this node's connections of `name`'s deleted account."""

    def became_device(self, name: str, device_id: str) -> None:
        """This node's connections signed in with the name's own token are signed in as its first device."""


class RemoteModerator:
    """A moderator on another node, as a request forwarded here sees them: what is sent to them goes
    back to their node, in the lane the request came in."""

    def __init__(self, bus: Bus, lane: RoomId, ref: CallerRef, name: str) -> None:
        self._bus = bus
        self._lane = lane
        self._ref = ref
        self.player: str | None = name

    def send(self, message: ServerMessage) -> None:
        self._bus.post(node_of(self._ref), self._lane, ReplyMessage(self._lane, (self._ref,), message.to_wire()))
