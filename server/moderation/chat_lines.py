"""The last chat lines said on this server, by id: what a moderator removes and a player reports.

Chat is not stored; a line is known here from when it is said until
`keep` newer lines have pushed it out (or a moderator removed it), long
enough for someone to read it and act on it.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass

from server.domain import LOCAL_NODE, RoomId

KEEP_LINES = 2_000
"""How many of the latest chat lines can still be removed or reported."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line as it was said."""

    chat_id: str
    room_id: RoomId | None
    """The room it was said in; None for the lobby."""
    author: str
    text: str


def node_of_line(chat_id: str) -> str | None:
    """The node that heard a line (its id begins with the node's name), or None for an id that
    names none (not one of this server's)."""
    node, slash, _ = chat_id.partition("/")
    return node if slash else None


class ChatLines:
    """The latest `keep` lines heard on one node, oldest forgotten first. A line's id is the node's
    name and a random part (`<node>/<hex>`): unique over the nodes, and it says which node to ask
    to remove the line."""

    def __init__(self, node: str = LOCAL_NODE, keep: int = KEEP_LINES) -> None:
        self._node = node
        self._keep = keep
        self._lines: OrderedDict[str, ChatLine] = OrderedDict()

    def said(self, room_id: RoomId | None, author: str, text: str) -> ChatLine:
        """Remember a line just said; it gets a fresh id."""
        line = ChatLine(f"{self._node}/{secrets.token_hex(6)}", room_id, author, text)
        self._lines[line.chat_id] = line
        if len(self._lines) > self._keep:
            self._lines.popitem(last=False)
        return line

    def get(self, chat_id: str) -> ChatLine | None:
        """The line with this id, if it is recent enough and not removed."""
        return self._lines.get(chat_id)

    def forget(self, chat_id: str) -> None:
        """A removed line can be neither removed again nor reported."""
        self._lines.pop(chat_id, None)
