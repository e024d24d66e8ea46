"""The accounts' requests (issue 30): a password for a name, the devices signed in, deleting one's account.

`wire.messages` puts them in `ClientRequest`; their answers are `wire.accounts_events`. A password
travels only in these requests and in `hello`: no message from the server ever carries one.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StringConstraints

from wire.messages import ClientMessage

Password = Annotated[str, StringConstraints(min_length=8, max_length=256)]
"""8 to 256 characters, any of them."""


class SetPassword(ClientMessage):
    """Keep one's name with a password, or change it (then `old_password` is the current one)."""

    type: Literal["set_password"] = "set_password"
    password: Password
    old_password: str | None = None
    sign_out_others: bool = False
    """With a change of password: sign out every other device of the account (a password that may
    have leaked stops being enough anywhere but here)."""


class GetAccount(ClientMessage):
    """One's account as it stands now: whether the name has a password, and one's moderation role
    (granted or revoked since `welcome`, which said them at sign-in)."""

    type: Literal["get_account"] = "get_account"


class ListDevices(ClientMessage):
    """The devices signed in to one's account."""

    type: Literal["list_devices"] = "list_devices"


class SignOut(ClientMessage):
    """Sign a device out (`device_id`), or every device this one included (`all`): their tokens are refused
    from then on, and their connections are closed."""

    type: Literal["sign_out"] = "sign_out"
    device_id: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    all: bool = False


class DeleteAccount(ClientMessage):
    """Delete one's account: `password` is needed when the name has one."""

    type: Literal["delete_account"] = "delete_account"
    password: str | None = None
