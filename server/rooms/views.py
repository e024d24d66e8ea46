"""Server values as wire models: pure functions, one per thing a client is shown.

Rooms, storage and handlers keep their own values (a `Room`, a `GameResult`,
a `GameSummary`); this module is the one place that turns them into the
pydantic models of `wire.messages`. A result, a seat or a clock is
rendered here once, whichever message carries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter

from engine.opening_record import step_to_dict
from engine.openings import MayChooseColor, MayDeclareOffers, MayOfferFifths, MayPlaceStones, OpenStep, Step
from engine.psq import write_psq
from engine.record import ClockSetting, GameRecord, PlayerInfo, format_timestamp, record_to_dict, result_to_dict
from engine.sgf import write_sgf
from engine.types import Color, GameResult, Point
from server.domain import GameSummary, Profile, RoomFacts, Standing
from server.lobby.seeks import Seek
from server.rooms.clock import GameClock
from wire.messages import (
    ClockModel,
    ClockSettingModel,
    ColorName,
    GameSummaryModel,
    LeaderboardEntryModel,
    OffersModel,
    OpeningChoiceModel,
    OpeningStateModel,
    OpeningStepModel,
    PlayerInfoModel,
    PointModel,
    ProfileModel,
    RatingPointModel,
    ResultModel,
    RoomMessage,
    RoomStateModel,
    RoomSummaryModel,
    SeatModel,
    SeekerModel,
    SeekModel,
    StoneModel,
    TakenOpeningStepModel,
)

if TYPE_CHECKING:
    from server.rooms.opening_phase import OpeningPhase
    from server.rooms.room import Room


_OPENING_STEP: TypeAdapter[OpeningStepModel] = TypeAdapter(OpeningStepModel)


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


def seat_model(seat: PlayerInfo | None, connected: bool, standing: Standing | None = None) -> SeatModel | None:
    """Who holds a seat, whether they are connected, and their rating when known; None for an open seat."""
    if seat is None:
        return None
    if standing is None:
        return SeatModel(
            name=seat.name, kind=seat.kind, level=seat.level, depth=seat.depth, width=seat.width, connected=connected
        )
    rating, rd, games = rounded(standing)
    return SeatModel(
        name=seat.name,
        kind=seat.kind,
        level=seat.level,
        depth=seat.depth,
        width=seat.width,
        connected=connected,
        rating=rating,
        rd=rd,
        games=games,
    )


def rounded(standing: Standing) -> tuple[int, int, int]:
    """Rating, deviation and rated games as the wire shows them (whole numbers)."""
    return round(standing.rating.rating), round(standing.rating.rd), standing.games


def leaderboard_entry(standing: Standing) -> LeaderboardEntryModel:
    """One line of the leaderboard."""
    rating, rd, games = rounded(standing)
    return LeaderboardEntryModel(name=standing.name, kind=standing.kind, rating=rating, rd=rd, games=games)


def player_model(player: PlayerInfo) -> PlayerInfoModel:
    """A player as written in a game record or summary."""
    return PlayerInfoModel(
        name=player.name, kind=player.kind, level=player.level, depth=player.depth, width=player.width
    )


def room_state(room: Room, now: float) -> RoomStateModel:
    """The full snapshot of a room, as `room` messages carry it."""
    return RoomStateModel(
        room_id=room.room_id,
        game_id=room.game_id,
        rule=room.rule,
        size=room.size,
        status=room.status,
        black=_seat(room, Color.BLACK),
        white=_seat(room, Color.WHITE),
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
        rated=room.rated,
        opening=None if room.opening is None else opening_model(room.opening),
    )


def opening_step_model(step: Step) -> OpeningStepModel:
    """An opening step as the wire shows it (the record's form)."""
    return _OPENING_STEP.validate_python(step_to_dict(step))


def opening_model(phase: OpeningPhase) -> OpeningStateModel:
    """A room's opening: whose decision it is, what they may do, and the steps taken."""
    decider = phase.decider()
    return OpeningStateModel(
        rule=phase.state.rule.value,
        to_decide=None if decider is None else color_name(decider[2]),
        decider=None if decider is None else decider[1].name,
        choices=[_choice(choice) for choice in phase.state.open_steps],
        steps=[TakenOpeningStepModel(by=taken.player, step=opening_step_model(taken.step)) for taken in phase.taken],
    )


def _choice(choice: OpenStep) -> OpeningChoiceModel:
    if isinstance(choice, MayPlaceStones):
        return OpeningChoiceModel(kind="place", colors=[color_name(color) for color in choice.colors])
    if isinstance(choice, MayChooseColor):
        return OpeningChoiceModel(kind="choose_color")
    if isinstance(choice, MayDeclareOffers):
        return OpeningChoiceModel(kind="declare_offers", least=choice.least, most=choice.most)
    if isinstance(choice, MayOfferFifths):
        return OpeningChoiceModel(kind="offer_fifths", count=choice.count)
    return OpeningChoiceModel(kind="select_fifth", offers=[PointModel(x=p.x, y=p.y) for p in choice.offers])


def _seat(room: Room, color: Color) -> SeatModel | None:
    seat = room.seats[color]
    standing = None if seat is None else room.standings.get(seat.name)
    return seat_model(seat, room.seat_connected(color), standing)


def room_message(room: Room, now: float) -> RoomMessage:
    """The `room` message, as a spectator reads it: the edge says `you` for each seated recipient
    (the snapshot is built once for all of them)."""
    return RoomMessage(you="spectator", room=room_state(room, now))


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
        rated=room.rated,
        opening=room.opening.value,
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
        rated=game.rated,
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


def seek_model(seek: Seek) -> SeekModel:
    """A seek as the wire shows it."""
    clock = seek.terms.clock
    return SeekModel(
        seek_id=seek.seek_id,
        by=SeekerModel(name=seek.owner, rating=seek.rating, kind=seek.owner_kind),
        rule=seek.terms.rule,
        size=seek.terms.size,
        clock=clock_setting_model(clock),
        rated=seek.terms.rated,
        color=seek.color,
        opening=seek.terms.opening.value,
        rating_min=seek.rating_min,
        rating_max=seek.rating_max,
        created_at=format_timestamp(seek.created_at),
        quick=seek.quick,
    )


def profile_model(profile: Profile) -> ProfileModel:
    """A player's page, as `GET /api/players/{name}` serves it."""
    rating, rd, games = rounded(profile.standing)
    return ProfileModel(
        name=profile.standing.name,
        kind=profile.standing.kind,
        rating=rating,
        rd=rd,
        games=games,
        wins=profile.wins,
        losses=profile.losses,
        draws=profile.draws,
        played=profile.played,
        recent=[game_summary(game) for game in profile.recent],
        history=[
            RatingPointModel(
                game_id=point.game_id,
                at=format_timestamp(point.at),
                rating=round(point.rating.rating),
                rd=round(point.rating.rd),
            )
            for point in profile.history
        ],
    )
