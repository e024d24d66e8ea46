"""Room actors: a change is stored before anyone hears of it, or it does not happen."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.types import Point, Rule
from server.actors import RoomRegistry
from server.domain import Caller, ConnectionId, new_room_id
from server.protocol import ServerMessage
from server.rooms import Room, RoomSettings
from server.storage import Storage

ALICE = Caller(ConnectionId(1), "alice")
BOB = Caller(ConnectionId(2), "bob")


async def test_a_move_that_cannot_be_stored_is_neither_sent_nor_kept(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    sent: list[tuple[ConnectionId, ServerMessage]] = []
    registry = RoomRegistry(storage, sent.extend, None)
    room = Room(new_room_id(), Rule.FREESTYLE, 15, None, False, RoomSettings())
    actor = registry.actor_for(room)
    await actor.run(lambda room, now: room.open(ALICE, "me", "open", now))
    registry.add(actor)
    await actor.run(lambda room, now: room.join(BOB, True, now))
    await actor.run(lambda room, now: room.move(ALICE, Point(7, 7), now))
    heard = len(sent)

    await storage.close()
    with pytest.raises(ValueError):
        await actor.run(lambda room, now: room.move(BOB, Point(8, 8), now))

    assert len(sent) == heard
    assert actor.room.board.moves == (Point(7, 7),)
    assert actor.room.seq == 1
    await registry.close()
