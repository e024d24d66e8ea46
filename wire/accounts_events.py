"""The accounts' answers (issue 30), which `wire.messages` puts in `ServerEvent`.

None carries a password or a token other than `welcome`'s: a device is known by its id.
"""

from __future__ import annotations

from typing import Literal

from wire.messages import ServerMessage, WireModel


class DeviceModel(WireModel):
    """A device signed in to an account."""

    device_id: str
    label: str
    signed_in_at: str
    """When it signed in (ISO 8601, UTC)."""
    current: bool
    """Whether it is the device that asked."""


class PasswordSetMessage(ServerMessage):
    """The name is kept with the new password (answers `set_password`)."""

    type: Literal["password_set"] = "password_set"
    name: str


class AccountMessage(ServerMessage):
    """One's account as it stands now (answers `get_account`)."""

    type: Literal["account"] = "account"
    name: str
    password: bool
    """Whether the name is kept with a password."""
    role: Literal["admin", "moderator"] | None = None
    """One's moderation role, if any (the `moderation` feature)."""


class Devices(ServerMessage):
    """The devices signed in to one's account (answers `list_devices`), the first signed in first."""

    type: Literal["devices"] = "devices"
    devices: list[DeviceModel]


class SignedOut(ServerMessage):
    """These devices are signed out (answers `sign_out`, and tells each of them before it is closed)."""

    type: Literal["signed_out"] = "signed_out"
    device_ids: list[str]


class AccountDeletedMessage(ServerMessage):
    """The account is deleted (answers `delete_account`, before every connection of it is closed)."""

    type: Literal["account_deleted"] = "account_deleted"
    name: str
    name_free_at: str
    """From when anyone may take the name again (ISO 8601, UTC)."""
