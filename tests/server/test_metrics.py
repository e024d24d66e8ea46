"""`/metrics`: the server's own figures in Prometheus's text format."""

from __future__ import annotations

import asyncio
import re

from server_harness import ClientFactory, ServerFactory


def value(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert match is not None, f"{name} is missing"
    return float(match.group(1))


async def test_metrics_count_connections_rooms_moves_and_bot_searches(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1)
    alice = await client("alice", server=server)
    room_id = (await alice.request(type="create_room", white={"bot": "greedy"}))["room"]["room_id"]
    await alice.request(type="move", room_id=room_id, move="h8")
    await alice.expect_next("moved")
    await asyncio.sleep(0.3)  # at least one probe of the event loop's lag

    status, content_type, text = await server.get("/metrics")

    assert status == 200 and content_type.startswith("text/plain")
    assert value(text, "gomoku_connections") == 1
    assert value(text, 'gomoku_rooms{status="playing"}') == 1
    assert value(text, "gomoku_moves_total") == 2
    assert value(text, "gomoku_bot_search_seconds_count") >= 1
    assert value(text, "gomoku_bot_wait_seconds_count") >= 1
    assert value(text, "gomoku_bot_queue_length") == 0
    assert value(text, "gomoku_db_write_seconds_count") >= 2
    assert value(text, "gomoku_event_loop_lag_seconds_count") >= 1
