"""Server values as wire models: pure functions, one per thing a client is shown.

Rooms, storage and handlers keep their own values (a `Room`, a `GameResult`,
a `GameSummary`); this module is the one place that turns them into the
pydantic models of `server.protocol`. A result, a seat or a clock is
rendered here once, whichever message carries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from engine.psq import write_psq
from engine.record import ClockSetting, GameRecord, PlayerInfo, format_timestamp, record_to_dict, result_to_dict
from engine.sgf import write_sgf
from engine.types import Color, GameResult, Point
from server.clock import GameClock
from server.domain import ConnectionId, GameSummary, RoomFacts
from server.protocol import (
    ClockModel,
    ClockSettingModel,
    ColorName,
    GameSummaryModel,
    OffersModel,
    PlayerInfoModel,
    ResultModel,
    RoomMessage,
    RoomStateModel,
    RoomSummaryModel,
    SeatModel,
    StoneModel,
)

if TYPE_CHECKING:
    from server.rooms import Room


def color_name(color: Color) -> ColorName:
    """`black` or `white`."""
    return "black" if color is Color.BLACK else "white"


def color_at_ply(ply: int) -> Color:
    """The colour of the stone played at `ply` (black plays the odd plies)."""
    return Color.BLACK if ply % 2 == 1 else Color.WHITE


def result_model(result: GameResult) -> ResultModel:
    """A result as the wire's Result object (the same shape as in a stored record)."""
    return ResultModel.model_validate(result_to_dict(result))


def stone_model(ply: int, point: Point) -> StoneModel:
    """The stone played at `ply`."""
    return StoneModel(x=point.x, y=point.y, color=color_name(color_at_ply(ply)))


def clock_model(clock: GameClock | None, now: float) -> ClockModel | None:
    """Both players' time left at `now`, the increment, and whose time runs."""
    if clock is None:
        return None
    return ClockModel(
        black_ms=clock.left_ms(Color.BLACK, now),
        white_ms=clock.left_ms(Color.WHITE, now),
        increment_ms=clock.setting.increment_ms,
        running=None if clock.running is None else color_name(clock.running),
    )


def clock_setting_model(setting: ClockSetting | None) -> ClockSettingModel | None:
    """A clock's initial time and increment."""
    if setting is None:
        return None
    return ClockSettingModel(initial_ms=setting.initial_ms, increment_ms=setting.increment_ms)


def seat_model(seat: PlayerInfo | None, connected: bool) -> SeatModel | None:
    """Who holds a seat and whether they are connected; None for an open seat."""
    if seat is None:
        return None
    return SeatModel(name=seat.name, kind=seat.kind, level=seat.level, connected=connected)


def player_model(player: PlayerInfo) -> PlayerInfoModel:
    """A player as written in a game record or summary."""
    return PlayerInfoModel(name=player.name, kind=player.kind, level=player.level)


def room_state(room: Room, now: float) -> RoomStateModel:
    """The full snapshot of a room, as `room` messages carry it."""
    return RoomStateModel(
        room_id=room.room_id,
        game_id=room.game_id,
        rule=room.rule,
        size=room.size,
        status=room.status,
        black=seat_model(room.seats[Color.BLACK], room.seat_connected(Color.BLACK)),
        white=seat_model(room.seats[Color.WHITE], room.seat_connected(Color.WHITE)),
        to_move=color_name(room.board.to_move) if room.status == "playing" else None,
        moves=[stone_model(ply, point) for ply, point in enumerate(room.board.moves, start=1)],
        clock=clock_model(room.clock, now),
        result=None if room.result is None else result_model(room.result),
        seq=room.seq,
        private=room.private,
        spectators=room.spectator_count(),
        time_control=clock_setting_model(room.clock_setting),
        offers=OffersModel(
            draw=None if room.draw_offer is None else color_name(room.draw_offer),
            undo=None if room.undo_request is None else color_name(room.undo_request),
            rematch=[color_name(color) for color in sorted(room.rematch_asks)],
        ),
    )


def room_message(room: Room, connection: ConnectionId, now: float) -> RoomMessage:
    """The `room` message for one member connection: the snapshot and its role in it."""
    return RoomMessage(you=room.role_of(connection), room=room_state(room, now))


def room_summary(room: RoomFacts) -> RoomSummaryModel:
    """A room's line in `list_rooms`."""
    black, white = room.seats
    black_connected, white_connected = room.connected
    return RoomSummaryModel(
        room_id=room.room_id,
        rule=room.rule,
        size=room.size,
        status=room.status,
        black=seat_model(black, black_connected),
        white=seat_model(white, white_connected),
        spectators=room.spectators,
        clock=clock_setting_model(room.clock),
    )


def game_summary(game: GameSummary) -> GameSummaryModel:
    """A stored game's line in `list_games` and `GET /api/games`."""
    return GameSummaryModel(
        game_id=game.game_id,
        room_id=game.room_id,
        rule=game.rule,
        size=game.size,
        black=player_model(game.black),
        white=player_model(game.white),
        status="playing" if game.result is None else "finished",
        moves=game.move_count,
        result=None if game.result is None else result_model(game.result),
        started_at=format_timestamp(game.started_at),
        ended_at=None if game.ended_at is None else format_timestamp(game.ended_at),
    )


RecordFormat = Literal["json", "psq", "sgf"]


def render_record(record: GameRecord, format: RecordFormat) -> dict[str, Any] | str:
    """A game record in one of the formats the wire and HTTP serve: the JSON GameRecord
    object, Piskvork text, or SGF text."""
    if format == "psq":
        return write_psq(record)
    if format == "sgf":
        return write_sgf(record)
    return record_to_dict(record)
