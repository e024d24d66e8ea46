"""Why a request was refused, as the wire contract names it, and the exception that carries it."""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "bad_json",
    "bad_request",
    "unknown_type",
    "unauthorized",
    "name_taken",
    "not_found",
    "room_full",
    "not_a_player",
    "not_started",
    "not_your_turn",
    "out_of_board",
    "occupied",
    "forbidden",
    "game_over",
    "not_allowed",
    "no_pending_offer",
    "rate_limited",
    "busy",
    "internal",
    "unavailable",
    "limit_reached",
]
"""Why a request was refused, as the wire contract names it."""


class Refusal(Exception):
    """A request the server refuses; nothing was changed by it.

    Raised by rooms, sign-in and request handlers alike; the connection
    handler answers it with an `error` carrying the request's id.
    """

    def __init__(self, code: ErrorCode, message: str, *, password: bool = False) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        """The contract's error code."""
        self.message = message
        """A sentence for people."""
        self.password = password
        """Accounts: a `hello` refused for a name kept with a password, to sign in with it instead."""
