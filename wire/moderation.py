"""The wire's moderation requests (the `moderation` feature): a moderator's actions, players' reports,
deleting games; `wire.moderation_events` has what the server answers and tells.

Imported into the request union of `wire.messages`, which must be imported
first (the `wire` package does so): these models stand on its base classes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from wire.ids import GameId, RoomId
from wire.messages import PAGE_LIMIT, SHOWN_TEXT, ClientMessage, PlayerName

Reason = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=SHOWN_TEXT)]
"""Why, in 1 to 200 characters without control characters: for the audit log, a report, a kick."""
ChatId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MAX_MUTE_MINUTES = 30 * 24 * 60
"""The longest mute: 30 days."""
DELETE_LIMIT = 100
"""The most games one `delete_games` deletes."""
RoleName = Literal["admin", "moderator"]
ModerationActionName = Literal[
    "grant",
    "revoke",
    "ban",
    "unban",
    "mute",
    "unmute",
    "remove_chat",
    "kick",
    "rename",
    "close_report",
    "delete_games",
    "reset_password",
]


# ------------------------------------------------------------ client -> server


class Mute(ClientMessage):
    """Refuse a player's chat, in every room and the lobby, for `minutes` (moderators)."""

    type: Literal["mute"] = "mute"
    player: PlayerName
    minutes: int = Field(ge=1, le=MAX_MUTE_MINUTES)
    reason: Reason


class Unmute(ClientMessage):
    type: Literal["unmute"] = "unmute"
    player: PlayerName
    reason: Reason


class Ban(ClientMessage):
    """Bar a player (moderators): their connections close, their seeks go, their games are forfeited."""

    type: Literal["ban"] = "ban"
    player: PlayerName
    reason: Reason


class Unban(ClientMessage):
    type: Literal["unban"] = "unban"
    player: PlayerName
    reason: Reason


class RenamePlayer(ClientMessage):
    """Give a player an inoffensive name (moderators); the old one is retired."""

    type: Literal["rename_player"] = "rename_player"
    player: PlayerName
    new_name: PlayerName
    reason: Reason


class Kick(ClientMessage):
    """Send a spectator out of a room (moderators)."""

    type: Literal["kick"] = "kick"
    room_id: RoomId
    player: PlayerName
    reason: Reason


class RemoveChat(ClientMessage):
    """Take a chat line back from everyone who saw it (moderators)."""

    type: Literal["remove_chat"] = "remove_chat"
    chat_id: ChatId
    reason: Reason


class ReportPlayer(ClientMessage):
    """Tell the moderators about a player, or about one of their chat lines (anyone)."""

    type: Literal["report"] = "report"
    player: PlayerName
    chat_id: ChatId | None = None
    reason: Reason


class ListReports(ClientMessage):
    """The open reports, oldest first (moderators)."""

    type: Literal["list_reports"] = "list_reports"
    limit: int = Field(default=PAGE_LIMIT, ge=1, le=PAGE_LIMIT)


class CloseReport(ClientMessage):
    type: Literal["close_report"] = "close_report"
    report_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    resolution: Reason


class DeleteGames(ClientMessage):
    """Delete finished games: one's own casual games against bots, or (admins) any games."""

    type: Literal["delete_games"] = "delete_games"
    game_ids: list[GameId] = Field(min_length=1, max_length=DELETE_LIMIT)
    reason: Reason | None = None
    """Why, for the audit log (an admin's deletions are logged)."""


class GetAuditLog(ClientMessage):
    """The latest moderation actions, newest first (admins)."""

    type: Literal["get_audit_log"] = "get_audit_log"
    limit: int = Field(default=PAGE_LIMIT, ge=1, le=PAGE_LIMIT)
    player: PlayerName | None = None
    """Only the actions done to this player."""


ModerationRequest = (
    Mute
    | Unmute
    | Ban
    | Unban
    | RenamePlayer
    | Kick
    | RemoveChat
    | ReportPlayer
    | ListReports
    | CloseReport
    | DeleteGames
    | GetAuditLog
)
