"""What nodes say to each other over the bus, and its JSON.

Five messages, each about one room (which gives its lane): a room command to the room's owner
(the caller's reference and name, the request as the client sent it, as wire JSON); the answer to
a command the room refused, to the caller's node; a room's changes, to the nodes whose sockets are
in it (each event's wire text serialised once by the owner, whatever the number of nodes); an
edge's count of a room's connections, to the room's owner; and a node's notice that it owns a room
(after taking it over, or after an outage of the bus), to every node. And three about the lobby,
which one node runs for all: a lobby request, a connection signed in, a connection closed, all in
the lobby's own lane (`LOBBY_LANE`); the lobby's node answers with replies like a room's. And two about
the tournaments, which the lobby's node directs: who directs them now, and a game ended elsewhere.
And four about moderation: a ban or rename stored, to every node; a player's connections to take
out of a room, to the room's owner; a moderator's request about another node's room or chat line,
to that node; a kick, to every node. And three about accounts: devices signed out, an account
deleted, a name's token become its first device, to every node. And one to the node that
forwarded a command: its owner has answered it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast, get_args

from engine.record import PlayerKind, format_timestamp, parse_timestamp
from server.domain import (
    EVERYONE,
    AuditAction,
    AuditEntry,
    CallerRef,
    Enter,
    Exit,
    GameId,
    OneCaller,
    PresenceReport,
    RoomId,
    node_of,
)
from server.rooms.room import Role, RoomChange, RoomEvent
from wire.messages import parse_server_message


class BusUnavailable(Exception):
    """The bus (Redis) cannot be reached: nothing was sent (or read)."""


@dataclass(frozen=True, slots=True)
class CommandMessage:
    """A room request (or an `analyze` of the room) from a caller on another node, for the room's
    owner."""

    room_id: RoomId
    ref: CallerRef
    name: str
    kind: PlayerKind
    request: str
    """The request as wire JSON."""
    ticket: int = 0
    """The caller's node's number for it, which the owner acknowledges once it has answered
    (`ServedMessage`); 0 for a request that is owed no answer (it has no id)."""
    sent_again: bool = False
    """A move sent again to the room's new owner, its first owner having never answered it
    (`server.cluster.forwarded`)."""


@dataclass(frozen=True, slots=True)
class ReplyMessage:
    """A message to callers of the node it goes to, in its wire form, serialised once for all (the
    refusal of a forwarded command, the lobby's messages)."""

    room_id: RoomId
    """The room it is about (its lane), or LOBBY_LANE."""
    refs: tuple[CallerRef, ...]
    text: str
    ticket: int = 0
    """The forwarded command it answers (`CommandMessage.ticket`), if it answers one: it stands for
    that command's `ServedMessage`, and it is dropped if its caller was answered already."""


LOBBY_LANE = RoomId("~lobby")
"""Where the lobby's messages go (no room id has a `~`): one lane, in order."""


@dataclass(frozen=True, slots=True)
class LobbyCommandMessage:
    """A lobby request from a caller on another node, for the node that runs the lobby."""

    ref: CallerRef
    name: str
    kind: PlayerKind
    address: str
    request: str
    """The request as wire JSON."""
    room_id: RoomId = LOBBY_LANE


@dataclass(frozen=True, slots=True)
class LobbySignedInMessage:
    """A connection on another node has signed in (it is online), for the node that runs the lobby."""

    ref: CallerRef
    name: str
    kind: PlayerKind
    address: str
    room_id: RoomId = LOBBY_LANE


@dataclass(frozen=True, slots=True)
class LobbyClosedMessage:
    """A signed-in connection on another node has closed, for the node that runs the lobby."""

    ref: CallerRef
    room_id: RoomId = LOBBY_LANE


@dataclass(frozen=True, slots=True)
class ChangesMessage:
    """A room's changes in order, for the edges of the nodes whose sockets are in it; or, to the
    room's node, an event another node relays (a chat line), for the room's node to publish."""

    room_id: RoomId
    changes: tuple[dict[str, Any], ...]
    """Each change as `encode_changes` wrote it."""


@dataclass(frozen=True, slots=True)
class PresenceMessage:
    """What one node's edge counts of a room's connections now, for the room's owner."""

    room_id: RoomId
    node: str
    connections: dict[str, int]
    on_purpose: bool

    @property
    def report(self) -> PresenceReport:
        return PresenceReport(self.connections, self.on_purpose)


@dataclass(frozen=True, slots=True)
class OwnerNotice:
    """`node` owns the room (it has taken it over, or the bus has come back): what others knew of
    its owner may be stale, and their members of the room may have missed its events."""

    room_id: RoomId
    node: str


# -------------------------------------------- tournaments: one node directs them (tournament_lease.py)


@dataclass(frozen=True, slots=True)
class DirectorNotice:
    """`node` directs the tournaments from now on (it has just taken them up), to every node: their
    connections watching a tournament watch it again there."""

    node: str
    room_id: RoomId = LOBBY_LANE


@dataclass(frozen=True, slots=True)
class GameEndedNotice:
    """A tournament's game has ended in a room of the sending node, its result stored, for the node
    that directs the tournaments (it reads the result back)."""

    game_id: GameId
    room_id: RoomId = LOBBY_LANE


TournamentNotice = DirectorNotice | GameEndedNotice
# ---------------------------------------------------------------- moderation across nodes

MODERATION_LANE = RoomId("~moderation")
"""Where notices of bans and renames go (no room id has a `~`): one lane, in order."""


@dataclass(frozen=True, slots=True)
class SanctionMessage:
    """A ban or a rename stored by `node` (its audit entry), for every node to carry out its part
    (`server.moderation.sanctions`)."""

    entry_id: str
    at: str
    actor: str
    action: str
    target: str
    reason: str
    detail: str | None
    node: str
    room_id: RoomId = MODERATION_LANE
    actor_id: str | None = None
    target_id: str | None = None

    @classmethod
    def of(cls, entry: AuditEntry, node: str) -> SanctionMessage:
        at = format_timestamp(entry.at)
        said = (entry.actor, entry.action, entry.target, entry.reason, entry.detail)
        return cls(entry.entry_id, at, *said, node, actor_id=entry.actor_id, target_id=entry.target_id)

    @property
    def entry(self) -> AuditEntry:
        action = cast(AuditAction, self.action)
        said = (self.actor, action, self.target, self.reason, self.detail)
        return AuditEntry(self.entry_id, parse_timestamp(self.at), *said, self.actor_id, self.target_id)


@dataclass(frozen=True, slots=True)
class TakeOutMessage:
    """A player's connections on another node that a moderator sends out of a room, for the room's
    owner to take out, a banned player's game there lost by forfeit first (`Hub.take_out`)."""

    room_id: RoomId
    name: str
    refs: tuple[CallerRef, ...]
    forfeit: str | None
    """Why the player's game is lost (a ban), or None (a kick: they play no game there)."""


@dataclass(frozen=True, slots=True)
class ModerationCommandMessage:
    """A moderator's request about what another node keeps (a kick in a room it holds, a chat line it
    heard), for that node to serve: its answer goes back as a reply."""

    room_id: RoomId
    """The room it is about (its lane), or MODERATION_LANE."""
    ref: CallerRef
    name: str
    request: str
    """The request as wire JSON."""


@dataclass(frozen=True, slots=True)
class KickMessage:
    """A spectator kicked out of a room by its owner `node`, for every node: it keeps them out of the
    room, and takes their connections there out of it."""

    room_id: RoomId
    name: str
    reason: str
    node: str


ModerationMessage = SanctionMessage | TakeOutMessage | ModerationCommandMessage | KickMessage


# ------------------------------------------- no forwarded command left unanswered (forwarded.py)


@dataclass(frozen=True, slots=True)
class ServedMessage:
    """The owner of a room has answered a command forwarded to it with the room's events (they went
    before, in the same lane), for the caller's node: the command no longer waits there
    (`ForwardedCommands`). A command answered with a reply needs none: the reply names it."""

    room_id: RoomId
    ticket: int


# ---------------------------------------------------------------- accounts across nodes

ACCOUNTS_LANE = RoomId("~accounts")
"""Where notices of sign-outs and deleted accounts go (no room id has a `~`): one lane, in order."""


@dataclass(frozen=True, slots=True)
class SignedOutNotice:
    """Devices of `name`'s account signed out on `node`, for every node to tell and close its
    connections signed in as them (`AccountRequests.signed_out`)."""

    name: str
    device_ids: tuple[str, ...]
    node: str
    room_id: RoomId = ACCOUNTS_LANE


@dataclass(frozen=True, slots=True)
class AccountDeletedNotice:
    """`name`'s account deleted on `node` (its name free again at `name_free_at`), for every node to
    tell and close its connections of it (`AccountRequests.deleted`)."""

    name: str
    name_free_at: str
    node: str
    room_id: RoomId = ACCOUNTS_LANE


@dataclass(frozen=True, slots=True)
class FirstDeviceNotice:
    """`name` set a first password on `node`: the name's own token became the account's first
    device, `device_id`, and so did every node's connections signed in with it (a sign-out of that
    device closes them too)."""

    name: str
    device_id: str
    node: str
    room_id: RoomId = ACCOUNTS_LANE


AccountNotice = SignedOutNotice | AccountDeletedNotice | FirstDeviceNotice


LobbyMessage = LobbyCommandMessage | LobbySignedInMessage | LobbyClosedMessage
BusMessage = (
    CommandMessage
    | ReplyMessage
    | ChangesMessage
    | PresenceMessage
    | OwnerNotice
    | LobbyMessage
    | TournamentNotice
    | ModerationMessage
    | AccountNotice
    | ServedMessage
)
_KINDS: dict[str, type[BusMessage]] = {kind.__name__: kind for kind in get_args(BusMessage)}


def encode_batch(messages: list[BusMessage]) -> str:
    """The JSON of a list of messages, each with its type's name under `message`."""
    return json.dumps([{"message": type(message).__name__, **_fields(message)} for message in messages])


def decode_batch(data: bytes | str) -> list[BusMessage]:
    """The messages of a batch; raises ValueError for one that is not a batch of bus messages."""
    try:
        return [_KINDS[item.pop("message")](**_read_fields(item)) for item in json.loads(data)]
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a batch of bus messages: {error!r}") from error


def _fields(message: BusMessage) -> dict[str, Any]:
    return {name: getattr(message, name) for name in message.__slots__}


def _read_fields(item: dict[str, Any]) -> dict[str, Any]:
    for name in ("changes", "refs", "device_ids"):
        if name in item:
            item[name] = tuple(item[name])
    return item


def encode_changes(changes: list[RoomChange]) -> tuple[dict[str, Any], ...]:
    """A room's changes as JSON values: each event's message as its wire text, serialised once."""
    return tuple(_encode_change(change) for change in changes)


def _encode_change(change: RoomChange) -> dict[str, Any]:
    match change:
        case Enter(ref=ref, name=name):
            return {"enter": ref, "name": name}
        case Exit(ref=ref, name=name):
            return {"exit": ref, "name": name}
        case RoomEvent():
            to = change.audience.ref if isinstance(change.audience, OneCaller) else None
            return {
                "text": change.message.to_wire(),
                "to": to,
                "roles": None if change.roles is None else dict(change.roles),
                "answers": change.answers,
                "request_id": change.request_id,
            }


def decode_changes(changes: tuple[dict[str, Any], ...]) -> list[RoomChange]:
    """The changes `encode_changes` wrote, as the edge takes them."""
    return [_decode_change(change) for change in changes]


def _decode_change(change: dict[str, Any]) -> RoomChange:
    if "enter" in change:
        return Enter(CallerRef(change["enter"]), change["name"])
    if "exit" in change:
        return Exit(CallerRef(change["exit"]), change["name"])
    roles: dict[str, Role] | None = change["roles"]
    return RoomEvent(
        parse_server_message(change["text"]),
        EVERYONE if change["to"] is None else OneCaller(CallerRef(change["to"])),
        roles=roles,
        answers=None if change["answers"] is None else CallerRef(change["answers"]),
        request_id=change["request_id"],
    )


def nodes_named(changes: list[RoomChange]) -> set[str]:
    """The nodes whose connections the changes name (entering, leaving, or one caller's message)."""
    refs: list[CallerRef] = []
    for change in changes:
        match change:
            case Enter(ref=ref) | Exit(ref=ref):
                refs.append(ref)
            case RoomEvent(audience=OneCaller(ref=ref)):
                refs.append(ref)
            case RoomEvent():
                pass
    return {node_of(ref) for ref in refs}
