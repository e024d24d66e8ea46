"""Helpers for the tests of the client's core: what it sent and showed, and the server's usual messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from client.actions import Action, Send, Show
from client.core import ClientCore
from engine.record import GameRecord, PlayerInfo, RecordedMove
from engine.types import Color, EndReason, GameResult, Point, Rule
from wire.messages import ClientMessage, Feature, Moved, PlayerModel, Welcome


def sent(actions: list[Action]) -> list[ClientMessage]:
    return [action.message for action in actions if isinstance(action, Send)]


def shown(actions: list[Action]) -> str:
    return "\n".join(action.text for action in actions if isinstance(action, Show))


def welcome(token: str = "t0k3n", features: list[Feature] | None = None) -> Welcome:
    return Welcome(player=PlayerModel(name="alice", rating=1500), token=token, features=features or [])


def moved(x: int, y: int, ply: int, seq: int) -> Moved:
    colour: Literal["black", "white"] = "black" if ply % 2 else "white"
    return Moved(room_id="r1", game_id="g1", ply=ply, color=colour, x=x, y=y, move="?", clock=None, seq=seq)


def signed_in_core(clock: Callable[[], float] = lambda: 0.0, *, scripted_input: bool = False) -> ClientCore:
    """alice's client, welcomed by the server."""
    client = ClientCore("alice", token=None, clock=clock, scripted_input=scripted_input)
    client.connected()
    client.handle_message(welcome())
    return client


def finished_record() -> GameRecord:
    """alice (black) resigned to easy after 7 moves, game g7."""
    points = [Point(7, 7), Point(0, 0), Point(7, 6), Point(1, 0), Point(7, 5), Point(2, 0), Point(7, 4)]
    moves = tuple(RecordedMove(point, Color.BLACK if ply % 2 == 0 else Color.WHITE) for ply, point in enumerate(points))
    return GameRecord(
        rule=Rule.FREESTYLE,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("easy", kind="bot", level="easy"),
        moves=moves,
        result=GameResult(Color.WHITE, EndReason.RESIGN),
        game_id="g7",
    )
