"""Fixtures of the client's tests: the server's messages built from the protocol's own models, and real servers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Literal

import pytest
from client_harness import Launcher, RunningServer

from engine.board import Board
from engine.notation import parse_point
from engine.types import Color, Rule
from wire.messages import (
    ClockModel,
    ClockSettingModel,
    OffersModel,
    RoomMessage,
    RoomStateModel,
    SeatModel,
    StoneModel,
)


def colour_name(colour: Color) -> Literal["black", "white"]:
    return "black" if colour is Color.BLACK else "white"


def make_snapshot(
    moves: str = "",
    *,
    you: Literal["black", "white", "spectator"] = "black",
    seq: int = 5,
    status: Literal["waiting", "playing", "finished"] = "playing",
    clock: ClockModel | None = None,
    room_id: str = "r1",
    size: int = 15,
    time_control: ClockSettingModel | None = None,
    rated: bool = False,
    offers: OffersModel | None = None,
    ratings: tuple[int, int] | None = None,
    connected: tuple[bool, bool] = (True, True),
) -> RoomMessage:
    """A `room` message for alice (black) against bob (white) after `moves`, e.g. "h8 j9"; `ratings`
    and `connected` are black's and white's."""
    board = Board(size, Rule.FREESTYLE)
    black_rating, white_rating = ratings or (None, None)
    stones = []
    for text in moves.split():
        colour = board.to_move
        point = parse_point(text, size)
        board.play(point)
        stones.append(StoneModel(x=point.x, y=point.y, color=colour_name(colour)))
    state = RoomStateModel(
        room_id=room_id,
        game_id="g1",
        rule=Rule.FREESTYLE,
        size=size,
        status=status,
        black=SeatModel(name="alice", kind="human", connected=connected[0], rating=black_rating, rd=60),
        white=SeatModel(name="bob", kind="human", connected=connected[1], rating=white_rating, rd=60),
        to_move=colour_name(board.to_move) if status == "playing" else None,
        moves=stones,
        clock=clock,
        result=None,
        seq=seq,
        time_control=time_control,
        rated=rated,
        offers=offers or OffersModel(),
    )
    return RoomMessage(you=you, room=state)


@pytest.fixture
def snapshot() -> Callable[..., RoomMessage]:
    return make_snapshot


@pytest.fixture
async def running_server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    server = RunningServer(tmp_path / "games.sqlite3")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def server_port(running_server: RunningServer) -> int:
    return running_server.port


@pytest.fixture
async def launcher(server_port: int, tmp_path: Path) -> AsyncIterator[Launcher]:
    clients = Launcher(f"ws://127.0.0.1:{server_port}/ws", tmp_path / "config")
    yield clients
    await clients.stop_all()
