"""What each moderation action does to what is stored, with its entry in the audit log.

`Moderation` is shared by the server (for a moderator's requests) and by
`gomoku-admin` (for the operator on the server's machine): it checks the
action makes sense (the player exists, the new name is free, the games may
be deleted), then stores the action's records and its audit entry in one
transaction, so that nothing is done unlogged. Who may act at all is the
caller's business: the server checks a moderator's role, the operator may
do anything.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from pydantic import TypeAdapter, ValidationError

from engine.record import format_timestamp
from engine.registry import level_names
from server.domain import (
    AuditAction,
    AuditEntry,
    GameId,
    GamesDeleted,
    GameToDelete,
    PlayerBanned,
    PlayerMuted,
    PlayerRenamed,
    PlayerUnbanned,
    PlayerUnmuted,
    Records,
    Refusal,
    Report,
    ReportClosed,
    ReportFiled,
    Role,
    RoleGranted,
    RoleRevoked,
    RoomId,
    StoredPlayer,
    StoreRecord,
    is_server_bot,
    utc_now,
)
from wire.messages import PlayerName

_PLAYER_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)


RENAMED_TO = "to "
"""What a rename's audit entry says before the new name, in its detail."""


def new_name_of(rename: AuditEntry) -> str:
    """The name a rename's audit entry gave the player."""
    assert rename.action == "rename" and rename.detail is not None, rename
    return rename.detail.removeprefix(RENAMED_TO)


def new_entry_id() -> str:
    """A random id for an audit entry or a report."""
    return secrets.token_hex(8)


class Moderation:
    """The moderation actions on one server's storage."""

    def __init__(
        self,
        storage: Records,
        is_level: Callable[[str], bool] = lambda name: name.lower() in level_names(),
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._storage = storage
        self._is_level = is_level
        """Whether a name is a bot level's (nobody may take it, nobody moderates it)."""
        self._clock = clock

    async def player(self, name: str) -> StoredPlayer:
        """The stored player called `name`; Refusal `not_found` for nobody, `not_allowed` for a bot level."""
        player = await self._storage.find_player(name)
        if player is None:
            raise Refusal("not_found", f"there is no player {name!r}")
        if player.is_level:
            raise Refusal("not_allowed", f"{player.name!r} is one of the server's bots")
        return player

    async def log(
        self, actor: str, action: AuditAction, target: str, reason: str, detail: str | None = None
    ) -> AuditEntry:
        """Store an action that changes nothing stored (a kick, a removed chat line) in the audit log:
        done to the player called `target` now (their id logged with it), if there is one."""
        player = await self._storage.find_player(target)
        return await self.store_action([], actor, action, target, reason, detail, player)

    # -------------------------------------------------------------- roles

    async def grant(self, actor: str, name: str, role: Role, reason: str) -> StoredPlayer:
        player = await self.player(name)
        granted = RoleGranted(player.player_id, player.name, role, actor, self._clock())
        await self.store_action([granted], actor, "grant", player.name, reason, role, player)
        return player

    async def revoke(self, actor: str, name: str, reason: str) -> StoredPlayer:
        player = await self.player(name)
        role = await self._storage.role_of(player.name)
        if role is None:
            raise Refusal("not_found", f"{player.name!r} has no role")
        revoked = RoleRevoked(player.player_id, player.name)
        await self.store_action([revoked], actor, "revoke", player.name, reason, role, player)
        return player

    # --------------------------------------------------------------- bans

    async def ban(self, actor: str, name: str, reason: str) -> AuditEntry:
        """Bar the player from signing in; their games and ratings stay as stored. The entry (whose
        target is the player's name as stored) is what every node carries out (`sanctions`)."""
        player = await self.player(name)
        banned = PlayerBanned(player.player_id, player.name, reason, actor, self._clock())
        return await self.store_action([banned], actor, "ban", player.name, reason, None, player)

    async def unban(self, actor: str, name: str, reason: str) -> StoredPlayer:
        player = await self.player(name)
        if await self._storage.ban_of(player.name) is None:
            raise Refusal("not_found", f"{player.name!r} is not banned")
        unbanned = PlayerUnbanned(player.player_id, player.name)
        await self.store_action([unbanned], actor, "unban", player.name, reason, None, player)
        return player

    # -------------------------------------------------------------- mutes

    async def mute(self, actor: str, name: str, duration: timedelta, reason: str) -> tuple[StoredPlayer, datetime]:
        """Refuse the player's chat for `duration` from now (replacing a mute they had); the player,
        and when it ends."""
        player = await self.player(name)
        now = self._clock()
        until = now + duration
        muted = PlayerMuted(player.player_id, player.name, until, reason, actor, now)
        detail = f"until {format_timestamp(until)}"
        await self.store_action([muted], actor, "mute", player.name, reason, detail, player)
        return player, until

    async def unmute(self, actor: str, name: str, reason: str) -> StoredPlayer:
        player = await self.player(name)
        mute = await self._storage.mute_of(player.name)
        if mute is None or mute.until <= self._clock():
            raise Refusal("not_found", f"{player.name!r} is not muted")
        unmuted = PlayerUnmuted(player.player_id, player.name)
        await self.store_action([unmuted], actor, "unmute", player.name, reason, None, player)
        return player

    # ------------------------------------------------------------- rename

    async def rename(self, actor: str, name: str, new_name: str, reason: str) -> AuditEntry:
        """Give a player a new name everywhere it is stored, retiring the old one; the entry (its
        target the old name, `new_name_of` it the new one). Refused for a name that is not a valid
        player name or is taken (by a player, a bot, or a rename), and while the player has an
        unfinished game (its room holds the name)."""
        player = await self.player(name)
        try:
            new_name = _PLAYER_NAME.validate_python(new_name)
        except ValidationError:
            raise Refusal("bad_request", f"{new_name!r} is no player name: 1 to 32 letters, digits, _ or -") from None
        await self._check_free(player, new_name)
        if await self._storage.unfinished_games_of(player.name):
            raise Refusal("not_allowed", f"{player.name!r} is playing a game: rename them once it is over")
        renamed = PlayerRenamed(player.player_id, player.name, new_name, self._clock())
        detail = RENAMED_TO + new_name
        return await self.store_action([renamed], actor, "rename", player.name, reason, detail, player)

    async def _check_free(self, player: StoredPlayer, new_name: str) -> None:
        if self._is_level(new_name):
            raise Refusal("name_taken", f"{new_name!r} is a bot's name")
        holder = await self._storage.find_player(new_name)
        if holder is not None and holder.name.lower() != player.name.lower():
            raise Refusal("name_taken", f"{holder.name!r} is another player's name")
        retired_for = await self._storage.renamed_to(new_name)
        if retired_for is not None and retired_for.lower() != player.name.lower():
            raise Refusal("name_taken", f"{new_name!r} was retired by a rename; choose another")
        reserved_until = await self._storage.name_reserved_until(new_name, self._clock())
        if reserved_until is not None:
            raise Refusal("name_taken", f"{new_name!r} belonged to a deleted account: it stays reserved")

    # ------------------------------------------------------------ reports

    async def file_report(
        self,
        reporter: str,
        target: str,
        reason: str,
        room_id: RoomId | None = None,
        chat_id: str | None = None,
        chat_text: str | None = None,
    ) -> Report:
        """Store a player's report of another player (or of one of their chat lines) for moderators."""
        player = await self.player(target)
        if player.name.lower() == reporter.lower():
            raise Refusal("not_allowed", "you cannot report yourself")
        report = Report(new_entry_id(), reporter, player.name, reason, self._clock(), room_id, chat_id, chat_text)
        await self._storage.apply([ReportFiled(report)])
        return report

    async def close_report(self, actor: str, report_id: str, resolution: str) -> Report:
        report = await self._storage.report(report_id)
        if report is None:
            raise Refusal("not_found", f"there is no report {report_id!r}")
        if report.closed_at is not None:
            raise Refusal("not_allowed", f"report {report_id!r} was closed by {report.closed_by!r}")
        closed = ReportClosed(report_id, actor, self._clock(), resolution)
        target = await self._storage.find_player(report.target)
        detail = f"report {report_id}"
        await self.store_action([closed], actor, "close_report", report.target, resolution, detail, target)
        return report

    # ------------------------------------------------------------- games

    async def delete_games(self, actor: str, game_ids: Sequence[str], any_game: bool, reason: str) -> list[GameId]:
        """Delete finished games with all that is stored of them; the ids deleted. With `any_game`
        (an admin or the operator, logged), any finished games; without (a player), only the actor's
        own unrated games against the server's bots. All or none: one game that may not go refuses
        the lot. A private game a player may not see is "no such game" to them, as everywhere."""
        wanted = list(dict.fromkeys(game_ids))
        stored = await self._storage.games_to_delete(wanted)
        found = {game.game_id: game for game in stored if any_game or game.shown_to(actor)}
        missing = [game_id for game_id in wanted if game_id not in found]
        if missing:
            raise Refusal("not_found", f"there is no game {', '.join(map(repr, missing))}")
        for game in found.values():
            _check_deletable(game, actor, any_game)
        deleted = [GameId(game_id) for game_id in wanted]
        records: list[StoreRecord] = [GamesDeleted(tuple(deleted))]
        if any_game:
            await self.store_action(records, actor, "delete_games", " ".join(deleted), reason)
        else:
            await self._storage.apply(records)
        return deleted

    # -------------------------------------------------------------- store

    async def store_action(
        self,
        records: list[StoreRecord],
        actor: str,
        action: AuditAction,
        target: str,
        reason: str,
        detail: str | None = None,
        target_player: StoredPlayer | None = None,
    ) -> AuditEntry:
        """Store the action's records and its audit entry in one transaction (also for actions whose
        records another part makes: `gomoku-admin reset-password`). The entry keeps the ids of the
        acting moderator (None for the operator) and of `target_player`, whom it was done to."""
        acting = await self._storage.find_player(actor)
        actor_id = None if acting is None else acting.player_id
        target_id = None if target_player is None else target_player.player_id
        entry = AuditEntry(new_entry_id(), self._clock(), actor, action, target, reason, detail, actor_id, target_id)
        await self._storage.apply([*records, entry])
        return entry


def _check_deletable(game: GameToDelete, actor: str, any_game: bool) -> None:
    """Raise Refusal unless `actor` may delete the game: it must be over; a player (not `any_game`)
    may delete only their own unrated games against the server's bots."""
    if not game.finished:
        raise Refusal("not_allowed", f"game {game.game_id!r} is not over: finish it first")
    if game.tournament_id is not None:
        raise Refusal(
            "not_allowed", f"game {game.game_id!r} counts in tournament {game.tournament_id!r}'s standings: it stays"
        )
    if any_game:
        return
    if game.rated:
        raise Refusal("not_allowed", f"game {game.game_id!r} is rated: only an admin may delete it")
    seats = (game.black, game.white)
    mine = [seat for seat in seats if not is_server_bot(seat) and seat.name.lower() == actor.lower()]
    if not mine or not any(is_server_bot(seat) for seat in seats):
        raise Refusal("not_allowed", f"game {game.game_id!r} is not yours against a bot: only an admin may delete it")
