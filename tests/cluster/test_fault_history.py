"""The fault schedule's checker finds what it is there to find (`tools.fault_history.check`): a history
that broke each property is held against a real PostgreSQL database with the server's schema."""

from __future__ import annotations

import asyncpg

from tools.fault_history import Asked, History, Told, check

GAME = "g1"


def moved(ply: int, x: int, y: int, request_id: int = 0) -> dict[str, object]:
    message = {"type": "moved", "room_id": "r1", "game_id": GAME, "ply": ply, "x": x, "y": y, "seq": ply}
    return {**message, "color": "black" if ply % 2 else "white", "clock": None, "id": request_id}


async def store_game(database: str, moves: list[tuple[int, int]]) -> None:
    connection = await asyncpg.connect(database)
    try:
        await connection.execute(
            "INSERT INTO games (game_id, room_id, rule, size, black_name, black_kind, white_name, white_kind, "
            "started_at) VALUES ($1, 'r1', 'freestyle', 15, 'alice', 'human', 'bob', 'human', '2026-12-04T00:00:00Z')",
            GAME,
        )
        for ply, (x, y) in enumerate(moves, start=1):
            color = "black" if ply % 2 else "white"
            await connection.execute("INSERT INTO moves VALUES ($1, $2, $3, $4, $5, NULL)", GAME, ply, x, y, color)
    finally:
        await connection.close()


def move_asked(x: int, y: int, answer: dict[str, object] | None, at: float) -> Asked:
    request = {"id": 1, "type": "move", "room_id": "r1", "x": x, "y": y}
    return Asked("alice", at, request, GAME, answer, at + 0.1)


async def test_a_history_that_agrees_with_the_store_is_safe(postgres_url: str) -> None:
    await store_game(postgres_url, [(7, 7), (8, 8)])
    history = History(asked=[move_asked(7, 7, moved(1, 7, 7), 1.0), move_asked(8, 8, moved(2, 8, 8), 2.0)])
    history.told = [Told("bob", 1.1, moved(1, 7, 7)), Told("bob", 2.1, moved(2, 8, 8))]

    verdict = await check(history, postgres_url)

    assert verdict.safe and verdict.acknowledged == 2 and not verdict.stale


async def test_a_lost_a_forked_a_refused_but_stored_and_an_internal_answer_are_each_found(postgres_url: str) -> None:
    await store_game(postgres_url, [(7, 7), (8, 8)])
    unavailable = {"type": "error", "code": "unavailable", "message": "try again", "id": 1}
    history = History(
        asked=[
            move_asked(7, 7, moved(1, 7, 7), 1.0),
            move_asked(8, 8, unavailable, 2.0),  # refused, yet stored
            move_asked(9, 9, moved(3, 9, 9), 3.0),  # told accepted, not stored
            move_asked(10, 10, {"type": "error", "code": "internal", "message": "failed", "id": 1}, 4.0),
        ]
    )
    history.told = [Told("carol", 1.1, moved(1, 6, 6)), Told("carol", 3.1, {**moved(3, 9, 9), "seq": 0})]

    verdict = await check(history, postgres_url)

    assert not verdict.safe
    assert len(verdict.lost) == 1 and "ply 3" in verdict.lost[0]
    assert len(verdict.forked) == 1 and "ply 1" in verdict.forked[0]
    assert len(verdict.refused_but_stored) == 1 and "(8, 8)" in verdict.refused_but_stored[0]
    assert len(verdict.stale) == 1
    assert len(verdict.internal) == 1
    assert verdict.longest_unavailable_s == {"r1": 3.1 - 2.0}
