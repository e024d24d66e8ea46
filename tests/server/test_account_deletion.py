"""Deleting an account is one conditional write: refused in its own transaction while the name holds
a seat in an unfinished game, however late before it that game started (another request of the
player's, or another node), so that no game is left playing under a deleted name.

On a SQLite file and on PostgreSQL (`database`, `tests/cluster/services.py`), two storages standing
for two nodes of one database.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from engine.record import PlayerInfo
from engine.types import Color, EndReason, GameResult, Rule
from server.accounts.service import Accounts, AccountSettings
from server.domain import GameFinished, GameId, GameStarted, Refusal, new_game_id, new_room_id
from server.storage.database import Storage

AT = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)


@pytest.fixture
async def nodes(database: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, with the players alice and bob."""
    first = await Storage.open(database)
    second = await Storage.open(database)
    for name in ("alice", "bob"):
        await first.add_player(name, name.encode())
    yield first, second
    await first.close()
    await second.close()


def game_of_alice_and_bob() -> GameStarted:
    return GameStarted(
        new_game_id(), new_room_id(), Rule.FREESTYLE, 15, PlayerInfo("alice"), PlayerInfo("bob"), None, AT, False
    )


def finished(game: GameId) -> GameFinished:
    return GameFinished(game, GameResult(Color.BLACK, EndReason.RESIGN), AT + timedelta(minutes=1), None)


async def test_a_game_started_on_another_node_before_the_deletion_is_stored_refuses_it(
    nodes: tuple[Storage, Storage],
) -> None:
    deleting, playing = nodes
    started = game_of_alice_and_bob()
    await playing.apply([started])  # after the room checks of the node that deletes, before its write

    with pytest.raises(Refusal) as refused:
        await Accounts(deleting, AccountSettings()).delete("alice", None, "127.0.0.1", 0.0)

    assert refused.value.code == "not_allowed"
    assert await deleting.find_player("alice") is not None
    assert await deleting.name_reserved_until("alice", AT) is None
    record = await deleting.game_record(started.game_id, None)
    assert record is not None and record.black.name == "alice"


async def test_once_the_game_is_over_the_account_is_deleted(nodes: tuple[Storage, Storage]) -> None:
    deleting, playing = nodes
    started = game_of_alice_and_bob()
    await playing.apply([started, finished(started.game_id)])

    await Accounts(deleting, AccountSettings()).delete("alice", None, "127.0.0.1", 0.0)

    assert await deleting.find_player("alice") is None
    record = await deleting.game_record(started.game_id, None)
    assert record is not None and record.black.name.startswith("deleted-")
