"""A live server driven by several clients at once with hypothesis-made scripts: valid play mixed
with random and mutated frames.

Whatever the scripts, the server never answers `internal`, every game's
stored moves are the moves its clients saw, and a fresh pair of clients
still plays a normal game afterwards. The suite runs a few dozen scripts;
`python -m bench.fuzz` runs as many as asked.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect

from engine.record import GameRecord
from server.app import GameServer, ServerSettings
from server.rooms.room import RoomSettings

EXAMPLES = int(os.environ.get("GOMOKU_FUZZ_EXAMPLES", "25"))
"""Scripts per run (the bench raises it)."""
ANSWER_TIMEOUT_S = 10.0
SIZE = 7
REQUEST_TYPES = [
    "hello",
    "create_room",
    "list_rooms",
    "join_room",
    "leave_room",
    "list_bots",
    "move",
    "resign",
    "offer_draw",
    "answer_draw",
    "request_undo",
    "answer_undo",
    "rematch",
    "list_games",
    "get_game",
    "analyze",
]

json_character = st.characters() | st.characters(categories=["Cs"])
"""Any character, lone surrogates too: `json.dumps` writes them as escapes (`"\\ud800"`), valid JSON
syntax that is no text."""
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(json_character, max_size=20),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(json_character, max_size=8), inner, max_size=4),
    max_leaves=12,
)


VALID_STEPS = ["move"] * 12 + ["create", "join", "join"] + [
    "resign", "draw", "answer_draw", "undo", "answer_undo", "rematch", "leave",
    "list_rooms", "list_games", "get_game", "analyze",
]  # fmt: skip
"""Valid requests, moves far the most often, so that games get played."""


@st.composite
def valid_step(draw: st.DrawFn, kind: str | None = None) -> dict[str, Any]:
    return {
        "step": kind or draw(st.sampled_from(VALID_STEPS)),
        "pick": draw(st.integers(min_value=0, max_value=10_000)),
        "yes": draw(st.booleans()),
    }


@st.composite
def junk_step(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(st.sampled_from(["text", "json", "typed", "mutated"]))
    if shape == "text":
        return {"step": "raw", "text": draw(st.text(max_size=60))}
    if shape == "json":
        return {"step": "raw", "text": json.dumps(draw(json_value))}
    fields = draw(
        st.dictionaries(
            st.sampled_from(
                [
                    "room_id",
                    "x",
                    "y",
                    "move",
                    "id",
                    "as",
                    "accept",
                    "limit",
                    "size",
                    "rule",
                    "black",
                    "white",
                    "clock",
                    "game_id",
                    "format",
                    "point",
                    "after",
                    "before",
                    "time_ms",
                    "name",
                    "token",
                ]
            ),
            json_value,
            max_size=4,
        )
    )
    if shape == "typed":
        return {"step": "raw", "text": json.dumps({"type": draw(st.sampled_from(REQUEST_TYPES)), **fields})}
    return {"step": "mutate", "fields": fields, "pick": draw(st.integers(min_value=0, max_value=10_000))}


def script(first: str) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A client's steps: `first` (open a room, or join one), then valid play three times out of four."""
    step = st.one_of(valid_step(), valid_step(), valid_step(), junk_step())
    return st.tuples(valid_step(first), st.lists(step, min_size=5, max_size=40)).map(lambda pair: [pair[0], *pair[1]])


scripts = st.integers(min_value=2, max_value=4).flatmap(
    lambda count: st.tuples(*(script("create" if index % 2 == 0 else "join") for index in range(count))).map(list)
)


@dataclass
class FuzzClient:
    """One scripted client: what it sent, everything it received, and its view of each game."""

    name: str
    websocket: ClientConnection
    inbox: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    rooms: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Room id -> the last `room` snapshot seen."""
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def read(self) -> None:
        async for frame in self.websocket:
            message = json.loads(frame)
            self.inbox.append(message)
            self.follow(message)
            waiting = self.answers.pop(message.get("id"), None) if isinstance(message.get("id"), int) else None
            if waiting is not None and not waiting.done():
                waiting.set_result(message)

    def follow(self, message: dict[str, Any]) -> None:
        """Keep this client's view of its rooms: snapshots, moves, take-backs, ends."""
        kind = message["type"]
        if kind == "room":
            room = message["room"]
            self.rooms[room["room_id"]] = {**room, "moves": list(room["moves"]), "you": message["you"]}
            return
        room = self.rooms.get(message.get("room_id", ""))
        if room is None:
            return
        if kind == "moved":
            room["moves"].append({"x": message["x"], "y": message["y"], "color": message["color"]})
            room["to_move"] = "white" if message["color"] == "black" else "black"
        elif kind == "undone":
            del room["moves"][len(room["moves"]) - len(message["removed"]) :]
            room["to_move"] = message["to_move"]
        elif kind == "game_over":
            room["status"] = "finished"
        elif kind == "left":
            del self.rooms[message["room_id"]]

    def my_turns(self) -> list[str]:
        """Rooms where this client is to move."""
        return sorted(
            room_id
            for room_id, room in self.rooms.items()
            if room["status"] == "playing" and room.get("to_move") == room.get("you")
        )

    async def request(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        request_id = next(self.ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[request_id] = answer
        await self.websocket.send(json.dumps({**fields, "id": request_id}))
        try:
            return await asyncio.wait_for(answer, ANSWER_TIMEOUT_S)
        except TimeoutError:
            return None  # some requests have no answer to the sender (none is required by the contract)


def choose(items: list[Any], pick: int) -> Any:
    return items[pick % len(items)] if items else None


def valid_request(
    client: FuzzClient, step: dict[str, Any], all_rooms: list[str], open_rooms: list[str], games: list[str]
) -> dict[str, Any]:
    kind = step["step"]
    mine = client.my_turns() if kind == "move" and step["yes"] else []
    room_id = choose(mine or sorted(client.rooms) or all_rooms, step["pick"]) or "no-room"
    room = client.rooms.get(room_id, {})
    if kind == "create":
        seats = choose([("me", "open"), ("open", "me")], step["pick"])
        return {"type": "create_room", "size": SIZE, "black": seats[0], "white": seats[1], "private": step["yes"]}
    if kind == "join":
        return {
            "type": "join_room",
            "room_id": choose(open_rooms or all_rooms, step["pick"]) or "no-room",
            "as": "player" if step["yes"] or open_rooms else "spectator",
        }
    if kind == "move":
        taken = {(stone["x"], stone["y"]) for stone in room.get("moves", [])}
        empty = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in taken]
        x, y = choose(empty, step["pick"]) or (0, 0)
        return {"type": "move", "room_id": room_id, "x": x, "y": y}
    simple = {
        "resign": "resign",
        "draw": "offer_draw",
        "undo": "request_undo",
        "rematch": "rematch",
        "leave": "leave_room",
    }
    if kind in simple:
        return {"type": simple[kind], "room_id": room_id}
    if kind in ("answer_draw", "answer_undo"):
        return {"type": kind, "room_id": room_id, "accept": step["yes"]}
    if kind == "list_rooms":
        return {"type": "list_rooms", "limit": 1 + step["pick"] % 100}
    if kind == "list_games":
        return {"type": "list_games", "limit": 1 + step["pick"] % 100}
    if kind == "get_game":
        return {
            "type": "get_game",
            "game_id": choose(games, step["pick"]) or "no-game",
            "format": choose(["json", "psq", "sgf"], step["pick"]),
        }
    return {"type": "analyze", "room_id": room_id}


async def run_script(server_url: str, scripts: list[list[dict[str, Any]]]) -> list[FuzzClient]:
    clients = []
    readers = []
    for index in range(len(scripts)):
        client = FuzzClient(f"fuzz{index}", await connect(server_url, max_size=None))
        readers.append(asyncio.get_running_loop().create_task(client.read()))
        assert (await client.request({"type": "hello", "name": client.name}) or {}).get("type") == "welcome"
        clients.append(client)

    def all_rooms() -> list[str]:
        return sorted({room for client in clients for room in client.rooms})

    def open_rooms() -> list[str]:
        return sorted(
            {room_id for client in clients for room_id, room in client.rooms.items() if room["status"] == "waiting"}
        )

    def games() -> list[str]:
        return sorted({room["game_id"] for client in clients for room in client.rooms.values() if room.get("game_id")})

    async def play(client: FuzzClient, step: dict[str, Any]) -> None:
        if step["step"] == "raw":
            await client.websocket.send(step["text"])
        elif step["step"] == "mutate":
            move = {"step": "move", "pick": step["pick"], "yes": True}
            base = valid_request(client, move, all_rooms(), open_rooms(), games())
            await client.websocket.send(json.dumps({**base, **step["fields"]}))
        else:
            await client.request(valid_request(client, step, all_rooms(), open_rooms(), games()))

    for client, steps in zip(clients, scripts, strict=True):  # rooms are opened before others join them
        await play(client, steps[0])
    for turn in range(1, max(len(steps) for steps in scripts)):  # then each client's next step, all at once
        await asyncio.gather(
            *(play(client, steps[turn]) for client, steps in zip(clients, scripts, strict=True) if turn < len(steps))
        )
    await asyncio.sleep(0.2)
    for client in clients:
        await client.websocket.close()
    await asyncio.gather(*readers, return_exceptions=True)
    return clients


def moves_seen(client: FuzzClient) -> dict[str, list[tuple[int, int]]]:
    """For each game whose events this client saw without a gap and to its last one: its moves."""
    boards: dict[str, list[tuple[int, int]]] = {}
    seq: dict[str, int] = {}
    broken: set[str] = set()
    game_of_room: dict[str, str] = {}
    for message in client.inbox:
        kind = message["type"]
        if kind == "room":
            room = message["room"]
            game_of_room[room["room_id"]] = room["game_id"]
            boards[room["game_id"]] = [(stone["x"], stone["y"]) for stone in room["moves"]]
            seq[room["room_id"]] = room["seq"]
            broken.discard(room["game_id"])
        elif "seq" in message and message.get("room_id") in game_of_room:
            room_id = message["room_id"]
            game = game_of_room[room_id]
            if message["seq"] != seq.get(room_id, -1) + 1:
                broken.add(game)
            seq[room_id] = message["seq"]
            if kind == "moved":
                boards.setdefault(game, []).append((message["x"], message["y"]))
            elif kind == "undone":
                del boards.setdefault(game, [])[len(boards[game]) - len(message["removed"]) :]
        elif kind == "left":
            game = game_of_room.pop(message["room_id"], None)
            if game is not None:
                broken.add(game)
    return {game: moves for game, moves in boards.items() if game not in broken}


async def stored_record(app: GameServer, game_id: str, names: list[str]) -> GameRecord | None:
    """A game's record as stored, public or private (one of the scripts' players played or created it)."""
    for viewer in names:
        record = await app.storage.game_record(game_id, viewer)
        if record is not None:
            return record
    return None


async def check(app: GameServer, clients: list[FuzzClient]) -> None:
    internal = [message for client in clients for message in client.inbox if message.get("code") == "internal"]
    assert internal == [], internal
    closed_by_server = {client.name: client.websocket.close_code for client in clients}
    assert set(closed_by_server.values()) == {1000}, f"only the clients close their connections: {closed_by_server}"
    names = [client.name for client in clients]
    for client in clients:
        for game_id, seen in moves_seen(client).items():
            record = await stored_record(app, game_id, names)
            if record is None:
                assert seen == [], f"{client.name} saw moves of a game that was never stored"
                continue
            stored = [(move.point.x, move.point.y) for move in record.moves]
            assert stored == seen, f"{client.name} saw {seen} in {game_id}, the record holds {stored}"


async def a_normal_game(url: str) -> None:
    black = FuzzClient("fresh-black", await connect(url))
    white = FuzzClient("fresh-white", await connect(url))
    readers = [asyncio.get_running_loop().create_task(client.read()) for client in (black, white)]
    for client in (black, white):
        await client.request({"type": "hello", "name": client.name})
    room = await black.request({"type": "create_room", "size": SIZE})
    assert room is not None and room["type"] == "room"
    room_id = room["room"]["room_id"]
    await white.request({"type": "join_room", "room_id": room_id})
    for ply, (x, y) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)], start=1):
        reply = await (black if ply % 2 else white).request({"type": "move", "room_id": room_id, "x": x, "y": y})
        assert reply is not None and reply["type"] == "moved", reply
    await asyncio.sleep(0.1)
    assert any(message["type"] == "game_over" for message in white.inbox)
    for client in (black, white):
        await client.websocket.close()
    await asyncio.gather(*readers, return_exceptions=True)


async def scenario(scripts: list[list[dict[str, Any]]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings_ = ServerSettings(
            port=0,
            db_path=str(Path(folder) / "fuzz.sqlite3"),
            bot_workers=0,
            rate_per_second=1e6,
            rate_burst=1e6,
            room=RoomSettings(bot_move_pause_s=0.0),
        )
        app, server = await GameServer.start(settings_)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/ws"
        try:
            clients = await run_script(url, scripts)
            await check(app, clients)
            await a_normal_game(url)
        finally:
            server.close()
            await server.wait_closed()
            await app.close()


LONE_SURROGATE_ID = {"step": "raw", "text": '{"type": "list_rooms", "id": "\\ud800"}'}
"""A request whose id is no text (issue 27: it closed the connection with 1011)."""


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts=scripts)
@example(
    scripts=[
        [{"step": "create", "pick": 0, "yes": False}, LONE_SURROGATE_ID],
        [{"step": "join", "pick": 0, "yes": True}, LONE_SURROGATE_ID],
    ]
)
def test_random_and_mutated_frames_mixed_with_play_break_nothing(scripts: list[list[dict[str, Any]]]) -> None:
    asyncio.run(scenario(scripts))
