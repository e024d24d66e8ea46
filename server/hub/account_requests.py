"""The accounts' requests (issue 30) over the wire: `hello` with a password or a device's token, setting
a password, the device list, signing out, deleting one's account.

`server.accounts.Accounts` decides and stores; this module knows the connections: which device each
signed in as, so that a device signed out, or an account deleted, has its connections closed (after a
last message saying why) and its token refused from then on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine.record import format_timestamp
from server.accounts.service import Accounts, SignedIn
from server.domain import ConnectionId, Refusal, SignedInDevice
from server.edge.connections import Connection
from server.hub.services import Services, signed_in
from server.moderation.gate import check_may_sign_in
from server.players.sessions import sign_in
from server.storage.accounts import STILL_PLAYING
from server.storage.writer import StorageUnavailable
from wire.accounts import DeleteAccount, GetAccount, ListDevices, SetPassword, SignOut
from wire.accounts_events import (
    AccountDeletedMessage,
    AccountMessage,
    DeviceModel,
    Devices,
    PasswordSetMessage,
    SignedOut,
)
from wire.messages import Hello, RequestId

logger = logging.getLogger(__name__)

UNNAMED_DEVICE = "a device"
"""The label of a device that did not name itself in `hello`."""


@dataclass(slots=True)
class _Session:
    """A signed-in connection, with the device of the account it signed in as."""

    connection: Connection
    device_id: str | None
    """None for a name without a password (its own token), until the name gets one."""
    label: str
    """What the device called itself in its `hello`."""


class AccountRequests:
    """Serves the accounts' requests, and remembers the device each connection signed in as."""

    def __init__(self, services: Services, accounts: Accounts) -> None:
        self._services = services
        self._accounts = accounts
        self._sessions: dict[ConnectionId, _Session] = {}
        """Each signed-in connection."""

    async def sign_in(self, connection: Connection, request: Hello, admit_new: Callable[[], None]) -> SignedIn:
        """Who the `hello` signs in: by password (a new device), by a device's token, or by the name's
        own token as before (`server.players.sessions`). A name a deleted account left waits its turn."""
        accounts = self._accounts
        await check_may_sign_in(self._services.storage, request.name)  # a ban bars every way in
        label = request.device or UNNAMED_DEVICE
        if request.password is not None:
            now = asyncio.get_running_loop().time()
            signed = await accounts.sign_in_with_password(
                request.name, request.password, request.kind, connection.address, label, now
            )
        else:
            device = (
                None
                if request.token is None
                else await accounts.sign_in_with_device(request.name, request.token, request.kind)
            )
            if device is None:
                await accounts.refuse_reserved_name(request.name)
                device = await self._sign_in_by_name(request, admit_new)
            signed = device
        self._sessions[connection.id] = _Session(connection, signed.device_id, label)
        if request.password is not None:
            await self._tell_devices(signed.player.name, connection)
        return signed

    async def _sign_in_by_name(self, request: Hello, admit_new: Callable[[], None]) -> SignedIn:
        """Sign in as before accounts (a new name, or its own token); a name kept with a password
        and no token says how to sign in to it."""
        services = self._services
        try:
            player, token = await sign_in(
                services.storage, request.name, request.token, request.kind, services.roster.is_level, admit_new
            )
        except Refusal as refusal:
            kept = await services.storage.find_player(request.name)
            if refusal.code == "name_taken" and kept is not None and await self._accounts.has_password(kept.name):
                raise Refusal(
                    "name_taken", f"the name {kept.name!r} is kept with a password; sign in with it", password=True
                ) from None
            raise
        return SignedIn(player, token, None)

    def connection_closed(self, connection: Connection) -> None:
        self._sessions.pop(connection.id, None)

    async def set_password(self, connection: Connection, request: SetPassword) -> None:
        player = signed_in(connection)
        now = asyncio.get_running_loop().time()
        label = self._session(connection).label
        first = await self._accounts.set_password(
            player, request.password, request.old_password, label, connection.address, now
        )
        if first is not None:
            self.became_device(player, first)
            self._services.hub.announce_first_device(player, first)
        gone: tuple[str, ...] = ()
        if request.sign_out_others and first is None:
            gone = await self._accounts.sign_out_others(player, self._session(connection).device_id)
        connection.send(PasswordSetMessage(name=player, id=request.id))
        if gone:
            self._services.hub.announce_signed_out(player, gone)
            await self.signed_out(player, gone, asked_by=connection)
        elif first is not None:
            await self._tell_devices(player, connection)

    async def get_account(self, connection: Connection, request: GetAccount) -> None:
        """The account as stored now: a role granted (or revoked) since `welcome` shows here."""
        player = signed_in(connection)
        password = await self._accounts.has_password(player)
        role = await self._services.storage.role_of(player)
        connection.send(AccountMessage(name=player, password=password, role=role, id=request.id))

    async def list_devices(self, connection: Connection, request: ListDevices) -> None:
        player = signed_in(connection)
        current = self._session(connection).device_id
        devices = await self._accounts.devices(player)
        connection.send(Devices(devices=_device_models(devices, current), id=request.id))

    async def sign_out(self, connection: Connection, request: SignOut) -> None:
        player = signed_in(connection)
        gone = await self._accounts.sign_out(player, request.device_id, request.all)
        connection.send(SignedOut(device_ids=list(gone), id=request.id))
        self._services.hub.announce_signed_out(player, gone)
        await self.signed_out(player, gone, asked_by=connection)

    async def signed_out(
        self, player: str, device_ids: Collection[str] | None, asked_by: Connection | None = None
    ) -> None:
        """Devices of the account were signed out (on this node, asked by `asked_by`, or on
        another), or every one and the name's own token (`device_ids` None: an operator's password
        reset): this node's connections signed in as them are told (but the one that asked, which has
        its answer) and closed, and the account's other connections here get the devices left."""

        def chosen(device_id: str | None) -> bool:
            return device_ids is None or device_id in device_ids

        for session in self._sessions_of(player):
            if chosen(session.device_id) and session.connection is not asked_by and session.device_id is not None:
                session.connection.send(SignedOut(device_ids=[session.device_id]))
        self._close(player, chosen, "signed out")
        await self._tell_devices(player, asked_by)

    async def delete_account(self, connection: Connection, request: DeleteAccount) -> None:
        player = signed_in(connection)
        # Every node's rooms (a seat waiting for an opponent too); stored games are checked again in
        # the deletion's own transaction, which no game started meanwhile slips past.
        if await self._services.hub.seated(player):
            raise Refusal("not_allowed", STILL_PLAYING)
        now = asyncio.get_running_loop().time()
        free_at = format_timestamp(await self._accounts.delete(player, request.password, connection.address, now))
        self._services.hub.announce_deleted(player, free_at)
        self.deleted(player, free_at, asked_by=connection, request_id=request.id)

    def deleted(
        self, player: str, name_free_at: str, asked_by: Connection | None = None, request_id: RequestId | None = None
    ) -> None:
        """The account was deleted (on this node, asked by `asked_by`, or on another): its standing
        is forgotten here, and this node's connections of it are told (the one that asked in its
        answer) and closed."""
        for session in self._sessions_of(player):
            reply_id = request_id if session.connection is asked_by else None
            deleted = AccountDeletedMessage(name=player, name_free_at=name_free_at, id=reply_id)
            session.connection.send(deleted)
        self._close(player, lambda _: True, "account deleted")

    async def _tell_devices(self, player: str, changed_by: Connection | None) -> None:
        """Send the account's devices, unasked, to its other connections here, once a device signed
        in or out (here or on another node): an Account page open on them shows the change. Best
        effort: a database that cannot be read now leaves them with the list they had (the change
        itself is stored)."""
        others = [session for session in self._sessions_of(player) if session.connection is not changed_by]
        if not others:
            return
        try:
            devices = await self._accounts.devices(player)
        except StorageUnavailable as error:
            logger.warning("the devices of %s were not sent to its other connections: %s", player, error)
            return
        for session in others:
            session.connection.send(Devices(devices=_device_models(devices, session.device_id)))

    def became_device(self, player: str, device_id: str) -> None:
        """The name's own token became the account's first device (here or on another node): so did
        every connection here signed in with it."""
        for session in self._sessions_of(player):
            if session.device_id is None:
                session.device_id = device_id

    def _session(self, connection: Connection) -> _Session:
        """The connection's session; a connection being closed because its device was signed out has none."""
        session = self._sessions.get(connection.id)
        if session is None:
            raise Refusal("unauthorized", "this device is signed out")
        return session

    def _sessions_of(self, player: str) -> list[_Session]:
        return [session for session in self._sessions.values() if session.connection.player == player]

    def _close(self, player: str, chosen: Callable[[str | None], bool], reason: str) -> None:
        """Close the player's connections whose device is `chosen`, once told why."""
        for session in self._sessions_of(player):
            if chosen(session.device_id):
                del self._sessions[session.connection.id]
                session.connection.close_after_sent(reason)


def _device_models(devices: list[SignedInDevice], current: str | None) -> list[DeviceModel]:
    """The devices as the wire lists them, `current` marking the one of the connection told."""
    return [
        DeviceModel(
            device_id=device.device_id,
            label=device.label,
            signed_in_at=format_timestamp(device.signed_in_at),
            current=device.device_id == current,
        )
        for device in devices
    ]
