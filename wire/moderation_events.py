"""What the server answers and tells about moderation (the `moderation` feature; the requests are in
`wire.moderation`).

Imported into the event union of `wire.messages`, which must be imported
first (the `wire` package does so): these models stand on its base classes.
"""

from __future__ import annotations

from typing import Literal

from wire.ids import GameId, RoomId
from wire.messages import ServerMessage, WireModel
from wire.moderation import ModerationActionName


class ReportModel(WireModel):
    report_id: str
    reporter: str
    player: str
    reason: str
    filed_at: str
    room_id: RoomId | None = None
    chat_id: str | None = None
    chat_text: str | None = None
    """The reported line's words, as they were said."""


class AuditEntryModel(WireModel):
    at: str
    actor: str
    action: ModerationActionName
    target: str
    reason: str
    detail: str | None = None


class ModerationDone(ServerMessage):
    """A moderator's action is done (stored and logged): the answer to mute, unmute, ban, unban,
    rename_player, kick, remove_chat and close_report."""

    type: Literal["moderation_done"] = "moderation_done"
    action: ModerationActionName
    target: str
    """The player acted on (for `remove_chat`, the line's author; for `close_report`, the report's id)."""
    until: str | None = None
    """For `mute`: when it ends (ISO 8601, UTC)."""
    new_name: str | None = None
    """For `rename_player`: the player's name from now on."""


class ChatRemoved(ServerMessage):
    """A moderator took a chat line back: clients stop showing it."""

    type: Literal["chat_removed"] = "chat_removed"
    room_id: RoomId | None
    chat_id: str


class Kicked(ServerMessage):
    """A moderator sent you out of a room (a `left` for each of your connections in it follows)."""

    type: Literal["kicked"] = "kicked"
    room_id: RoomId
    reason: str


class Renamed(ServerMessage):
    """A moderator renamed you: sign in as `name`, with the same token (the server closes this
    connection next)."""

    type: Literal["renamed"] = "renamed"
    name: str
    reason: str


class ReportFiled(ServerMessage):
    type: Literal["report_filed"] = "report_filed"
    report_id: str


class Reports(ServerMessage):
    type: Literal["reports"] = "reports"
    reports: list[ReportModel]


class GamesDeleted(ServerMessage):
    type: Literal["games_deleted"] = "games_deleted"
    game_ids: list[GameId]


class AuditLog(ServerMessage):
    type: Literal["audit_log"] = "audit_log"
    entries: list[AuditEntryModel]


ModerationEvent = ModerationDone | ChatRemoved | Kicked | Renamed | ReportFiled | Reports | GamesDeleted | AuditLog
