"""Every message of the wire contract (PROTOCOL.md, version 1) as a pydantic model.

There are two closed sets, one per direction, each a union discriminated on
`type`. Input is parsed in exactly one place (`parse_client_message` on the
server, `parse_server_message` in clients), so a missing or mistyped field
becomes a `bad_request` error before anything reaches the game logic.
Unknown fields are ignored, as the contract asks. Numbers and booleans are
read strictly: `"7"` is not a column and `1` is not `true`.

The server and the terminal client both import this module; it only grows
(new message types and optional fields), it never changes what exists.
It is one module, past 500 lines, by design: the contract is one closed
set of messages per direction, read in one place, and a reader finds every
field of the wire here.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from engine.types import EndReason, Rule
from wire.errors import ErrorCode, Refusal
from wire.ids import GameId as GameId  # the messages carry them: clients may import them from here
from wire.ids import RoomId as RoomId

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 65_536
"""The largest text frame either side sends or accepts."""
PAGE_LIMIT = 100
"""The most items one page of a list holds (1.1 paging): a page of any list fits in a frame."""

Feature = Literal[
    "paging",
    "ratings",
    "lobby",
    "chat",
    "claims",
    "analysis_at_ply",
    "openings",
    "lobby_batches",
    "accounts",
    "moderation",
    "tournaments",
    "review",
    "puzzles",
    "cluster",
    "import",
]
"""The names of the 1.1 additions, as `welcome` lists those a server supports."""

SHOWN_TEXT = r"^[^\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]*$"
"""The pattern of free text that other people are shown (chat, reasons, tournament names, device
labels): no control character (C0, DEL, C1), no direction mark, embedding, override or isolate, no
zero-width or invisible character, no line or paragraph separator, any of which could rewrite a
terminal, reorder a line or hide what it says."""

ColorName = Literal["black", "white"]
PlayerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
RequestId = Annotated[str, StringConstraints(max_length=64)] | int
BotLevel = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class ProtocolError(Refusal):
    """A frame that is not a request of the contract; it gets an `error` reply.

    Raised while parsing, before a request object exists, so it carries the
    request's `id` itself when the frame had a readable one.
    """

    def __init__(self, code: ErrorCode, message: str, request_id: str | int | None = None) -> None:
        super().__init__(code, message)
        self.request_id = request_id
        """The `id` of the request, echoed in the error."""


class WireModel(BaseModel):
    """Base of every message and part of one: extra fields ignored (read strictly off the wire)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


# ------------------------------------------------------------------ shared parts


class PointModel(WireModel):
    """A point as `{"x", "y"}`."""

    x: int
    y: int


class StoneModel(WireModel):
    """A stone on the board: where and whose."""

    x: int
    y: int
    color: ColorName


class ClockSettingModel(WireModel):
    """A clock as asked for in `create_room`: initial time and increment per move."""

    initial_ms: int = Field(gt=0, le=24 * 3600 * 1000)
    increment_ms: int = Field(default=0, ge=0, le=3600 * 1000)


class ClockModel(WireModel):
    """The clocks' state: time left for each colour and the increment."""

    black_ms: int
    white_ms: int
    increment_ms: int
    running: ColorName | None = None
    """Whose time is running now (an addition to the contract; null when stopped)."""


class ResultModel(WireModel):
    """How a game ended."""

    winner: ColorName | None
    reason: EndReason
    line: list[tuple[int, int]] | None = None
    detail: str | None = None
    """Why, in words, when the reason alone does not say (an extension, sent only when there is
    one: a bot whose engine kept failing resigns, and this says how it failed)."""

    @model_serializer(mode="wrap")
    def _without_empty_detail(self, serialize: SerializerFunctionWrapHandler) -> dict[str, Any]:
        written: dict[str, Any] = serialize(self)
        if written.get("detail") is None:
            written.pop("detail", None)
        return written


class SeatModel(WireModel):
    """Who holds a seat, and whether they are connected now."""

    name: str
    kind: Literal["human", "bot"]
    level: str | None = None
    depth: int | None = None
    """A bot's search depth as its seat set it (an extension); null: the level's own."""
    width: int | None = None
    """A bot's candidates per ply as its seat set them (an extension); null: the level's own."""
    connected: bool
    rating: int | None = None
    """The seat's player's rating (1.1 ratings), rounded."""
    rd: int | None = None
    """Its rating deviation, rounded."""
    games: int | None = None
    """Rated games it has played."""


class OffersModel(WireModel):
    """Offers waiting for an answer in a room (an addition to the contract)."""

    draw: ColorName | None = None
    """Who offered a draw, if the offer stands."""
    undo: ColorName | None = None
    """Who asked to take back, if the request stands."""
    rematch: list[ColorName] = []
    """Who has asked for a rematch of the finished game."""


OpeningName = Literal["none", "swap", "swap2", "soosorv8"]
"""An opening rule (1.1 openings): `soosorv8` is renju's."""


class PlaceStonesModel(WireModel):
    """Put stones on the board in this order (their colours go on alternating, black first)."""

    kind: Literal["place"] = "place"
    points: list[PointModel] = Field(min_length=1, max_length=3)


class ChooseColorModel(WireModel):
    """Take a colour for the rest of the game; the opponent gets the other."""

    kind: Literal["choose_color"] = "choose_color"
    color: ColorName


class DeclareOffersModel(WireModel):
    """Soosõrv-8: how many fifth moves black must offer (1 to 8)."""

    kind: Literal["declare_offers"] = "declare_offers"
    count: int = Field(ge=1, le=8)


class OfferFifthsModel(WireModel):
    """Soosõrv-8: the fifth moves black offers, none a mirror image of another."""

    kind: Literal["offer_fifths"] = "offer_fifths"
    points: list[PointModel] = Field(min_length=1, max_length=8)


class SelectFifthModel(WireModel):
    """Soosõrv-8: the offered fifth move white chooses."""

    kind: Literal["select_fifth"] = "select_fifth"
    point: PointModel


OpeningStepModel = Annotated[
    PlaceStonesModel | ChooseColorModel | DeclareOffersModel | OfferFifthsModel | SelectFifthModel,
    Field(discriminator="kind"),
]
"""One decision of the opening phase."""


class OpeningChoiceModel(WireModel):
    """A kind of step open to the player whose decision it is, with what it must satisfy."""

    kind: Literal["place", "choose_color", "declare_offers", "offer_fifths", "select_fifth"]
    colors: list[ColorName] | None = None
    """`place`: the colours of the stones due, in order."""
    least: int | None = None
    """`declare_offers`: the smallest count allowed."""
    most: int | None = None
    """`declare_offers`: the largest count allowed."""
    count: int | None = None
    """`offer_fifths`: how many fifth moves are due."""
    offers: list[PointModel] | None = None
    """`select_fifth`: the fifth moves on offer."""


class TakenOpeningStepModel(WireModel):
    """A step of the opening as it was taken."""

    by: str
    """The player who took it."""
    step: OpeningStepModel


class OpeningStateModel(WireModel):
    """The opening phase of a room's game: whose decision it is and what they may do."""

    rule: OpeningName
    to_decide: ColorName | None
    """The (tentative) colour of the player whose decision it is; null once the opening is over."""
    decider: str | None
    """That player's name."""
    choices: list[OpeningChoiceModel]
    steps: list[TakenOpeningStepModel]
    """Every step taken so far, in order."""


class RoomStateModel(WireModel):
    """A full snapshot of a room: what a client needs to draw it from nothing."""

    room_id: RoomId
    game_id: GameId | None
    rule: Rule
    size: int
    status: Literal["waiting", "opening", "playing", "finished"]
    black: SeatModel | None
    white: SeatModel | None
    to_move: ColorName | None
    moves: list[StoneModel]
    clock: ClockModel | None
    result: ResultModel | None
    seq: int
    private: bool = False
    """Whether the room is left out of `list_rooms` (an addition to the contract)."""
    spectators: int = 0
    """How many spectators watch (an addition to the contract)."""
    time_control: ClockSettingModel | None = None
    """The clock's initial time and increment (an addition to the contract; null when untimed)."""
    offers: OffersModel = OffersModel()
    """Offers waiting for an answer (an addition to the contract), so that a client coming back
    sees them."""
    rated: bool = False
    """Whether the room's games are rated (1.1 ratings)."""
    opening: OpeningStateModel | None = None
    """The opening phase (1.1 openings): while status is `opening`, and after, the steps taken."""


class RoomSummaryModel(WireModel):
    """One line of the room list."""

    room_id: RoomId
    rule: Rule
    size: int
    status: Literal["waiting", "opening", "playing", "finished"]
    black: SeatModel | None
    white: SeatModel | None
    spectators: int
    clock: ClockSettingModel | None = None
    rated: bool = False
    opening: OpeningName = "none"


class PlayerInfoModel(WireModel):
    """A player as written in a game record."""

    name: str
    kind: Literal["human", "bot"] = "human"
    level: str | None = None
    depth: int | None = None
    """A bot's search depth as its seat set it (an extension); null: the level's own."""
    width: int | None = None
    """A bot's candidates per ply as its seat set them (an extension); null: the level's own."""


class GameSummaryModel(WireModel):
    """One line of the game list (`list_games`, `GET /api/games`)."""

    game_id: GameId
    room_id: RoomId | None
    rule: Rule
    size: int
    black: PlayerInfoModel
    white: PlayerInfoModel
    status: Literal["playing", "finished"]
    moves: int
    """How many moves were played."""
    result: ResultModel | None
    started_at: str | None
    ended_at: str | None
    rated: bool = False


class RangeModel(WireModel):
    """The lowest and highest value a setting may take."""

    min: int
    max: int


class BotInfoModel(WireModel):
    """A bot level people can play against."""

    level: str
    description: str
    rating: int | None
    """Arena rating, or null when the level has not been rated yet."""
    depth: RangeModel | None = None
    """The search depths (plies) a bot seat of this level may set (an extension); null: none."""
    width: RangeModel | None = None
    """The widths (candidates per ply) a bot seat of this level may set (an extension); null: none."""


class PlayerModel(WireModel):
    """The signed-in player as told in `welcome`."""

    name: str
    kind: Literal["human", "bot"] = "human"
    """A person's account or a bot account (an extension)."""
    rating: int
    rd: int = 350
    """Rating deviation (1.1 ratings), rounded."""
    games: int = 0
    """Rated games played."""


class RatingChangeModel(WireModel):
    """One player's rating before and after a rated game, rounded."""

    before: int
    after: int


class RatingsModel(WireModel):
    """Both players' rating changes in a rated game."""

    black: RatingChangeModel
    white: RatingChangeModel


class LeaderboardEntryModel(WireModel):
    """One line of the leaderboard."""

    name: str
    kind: Literal["human", "bot"]
    rating: int
    rd: int
    games: int


class RatingPointModel(WireModel):
    """A player's rating after one rated game (in a profile's history)."""

    game_id: GameId | None
    """The game; null for a private game the profile's reader did not play."""
    at: str
    rating: int
    rd: int


class ProfileModel(WireModel):
    """A player's page, served by `GET /api/players/{name}` (1.1 ratings)."""

    name: str
    kind: Literal["human", "bot"]
    rating: int
    rd: int
    games: int
    """Rated games played (private ones too, as the rating counts them)."""
    wins: int
    """Rated games won; `wins`, `losses` and `draws` add up to `games`."""
    losses: int
    draws: int
    played: int
    """Finished games in one of the player's seats, rated or not (an addition to the contract)."""
    recent: list[GameSummaryModel]
    """The last 20 games, newest first; a private game only to its players."""
    history: list[RatingPointModel] = []
    """The rating after each rated game, oldest first (an addition to the contract)."""


class SeekerModel(WireModel):
    """Who made a seek."""

    name: str
    rating: int
    kind: Literal["human", "bot"] = "human"
    """A person or a bot account (an extension)."""


class SeekModel(WireModel):
    """An offer to play, waiting in the lobby for someone to accept it."""

    seek_id: str
    by: SeekerModel
    rule: Rule
    size: int
    clock: ClockSettingModel | None
    rated: bool
    color: Literal["black", "white", "random"]
    """The colour the seek's owner plays."""
    rating_min: int | None
    rating_max: int | None
    created_at: str
    quick: bool = False
    """Whether it waits from a `quick_pair` (an addition to the contract)."""
    opening: OpeningName = "none"
    """The opening rule (1.1 openings); the seek's owner is the first player."""


class OnlinePlayerModel(WireModel):
    """A player with a connection open."""

    name: str
    rating: int
    status: Literal["idle", "playing"]


class AnalysisMoveModel(WireModel):
    """A move as `{"x", "y", "move"}`."""

    x: int
    y: int
    move: str


# ------------------------------------------------------------ client -> server


class Message(WireModel):
    """A whole frame: every message may carry an `id`."""

    id: RequestId | None = None

    def to_wire(self) -> str:
        """The JSON text of the message (compact, UTF-8); `id` is left out when there is none."""
        return self.model_dump_json(by_alias=True, exclude=_WITHOUT_ID if self.id is None else None)


_WITHOUT_ID = {"id"}


class ClientMessage(Message):
    """A request from a client; `id` comes back in the reply."""


class ServerMessage(Message):
    """A message from the server; `id` is that of the request that caused it, as seen by its sender."""


class BotSeatSpec(WireModel):
    """A seat taken by a bot of the named level."""

    bot: BotLevel
    depth: int | None = Field(default=None, ge=1)
    """The bot's search depth in plies (an extension), within the bounds `list_bots` gives for its
    level; absent: the level's own."""
    width: int | None = Field(default=None, ge=1)
    """The bot's candidates per ply (an extension), within the bounds `list_bots` gives; absent:
    the level's own."""


SeatSpec = Literal["me", "open"] | BotSeatSpec


DeviceLabel = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=SHOWN_TEXT)]
"""Accounts: what a device calls itself in the device list: 1 to 64 characters, no control character."""


class Hello(ClientMessage):
    type: Literal["hello"] = "hello"
    name: PlayerName
    token: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = None
    kind: Literal["human", "bot"] | None = None
    """An extension: `bot` creates a bot account (a program playing over the wire, shown as a bot in
    seats and on the leaderboard); a later hello may leave it out. Absent: a person's account."""
    password: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = None
    """Accounts: sign in to a name kept with a password, from any device (instead of `token`); the
    `welcome` carries a fresh token for this device."""
    device: DeviceLabel | None = None
    """Accounts: what this device calls itself in the device list (a browser, `gomoku`, `gomoku-bot`)."""


class CreateRoom(ClientMessage):
    type: Literal["create_room"] = "create_room"
    rule: Rule = Rule.FREESTYLE
    size: int = Field(default=15, ge=5, le=26)
    black: SeatSpec = "me"
    white: SeatSpec = "open"
    clock: ClockSettingModel | None = None
    private: bool = False
    rated: bool = False
    """A rated game (1.1 ratings): both seats filled by two different players; no undo."""
    opening: OpeningName = "none"
    """The opening rule (1.1 openings); the black seat is the first player, who places the first stones."""

    @model_validator(mode="after")
    def _check_rule_and_seats(self) -> CreateRoom:
        _check_rule(self.rule, self.size, self.opening)
        if self.black == "me" and self.white == "me":
            raise ValueError("only one seat can be 'me'")
        return self


def _check_rule(rule: Rule, size: int, opening: OpeningName) -> None:
    if rule is Rule.RENJU and size != 15:
        raise ValueError("renju is played on 15x15 only")
    if opening == "soosorv8" and rule is not Rule.RENJU:
        raise ValueError("soosorv8 is an opening of renju")


class OpeningStep(ClientMessage):
    """Take one decision of the opening phase (1.1 openings)."""

    type: Literal["opening_step"] = "opening_step"
    room_id: RoomId
    step: OpeningStepModel


class ListRooms(ClientMessage):
    """A page of the listed rooms, in room id order, after the cursor `after` (1.1 paging)."""

    type: Literal["list_rooms"] = "list_rooms"
    limit: int = Field(default=PAGE_LIMIT, ge=1, le=PAGE_LIMIT)
    after: RoomId | None = None


class JoinRoom(ClientMessage):
    type: Literal["join_room"] = "join_room"
    room_id: RoomId
    as_: Literal["player", "spectator"] = Field(default="player", validation_alias="as", serialization_alias="as")


class LeaveRoom(ClientMessage):
    type: Literal["leave_room"] = "leave_room"
    room_id: RoomId


class ListBots(ClientMessage):
    type: Literal["list_bots"] = "list_bots"


class Move(ClientMessage):
    """A move given either as `x` and `y` or as human notation in `move`."""

    type: Literal["move"] = "move"
    room_id: RoomId
    x: int | None = None
    y: int | None = None
    move: Annotated[str, StringConstraints(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _check_one_form(self) -> Move:
        has_xy = self.x is not None or self.y is not None
        if has_xy and (self.x is None or self.y is None):
            raise ValueError("a move needs both x and y")
        if has_xy == (self.move is not None):
            raise ValueError("give either x and y, or move, but not both")
        return self


class Resign(ClientMessage):
    type: Literal["resign"] = "resign"
    room_id: RoomId


class OfferDraw(ClientMessage):
    type: Literal["offer_draw"] = "offer_draw"
    room_id: RoomId


class AnswerDraw(ClientMessage):
    type: Literal["answer_draw"] = "answer_draw"
    room_id: RoomId
    accept: bool


class RequestUndo(ClientMessage):
    type: Literal["request_undo"] = "request_undo"
    room_id: RoomId


class AnswerUndo(ClientMessage):
    type: Literal["answer_undo"] = "answer_undo"
    room_id: RoomId
    accept: bool


class Rematch(ClientMessage):
    """Ask for a new game in the same room with colours swapped (an addition to the contract)."""

    type: Literal["rematch"] = "rematch"
    room_id: RoomId


class ListGames(ClientMessage):
    type: Literal["list_games"] = "list_games"
    player: PlayerName | None = None
    limit: int = Field(default=50, ge=1, le=PAGE_LIMIT)
    before: GameId | None = None


class GetGame(ClientMessage):
    type: Literal["get_game"] = "get_game"
    game_id: GameId
    format: Literal["json", "psq", "sgf"] = "json"


class Analyze(ClientMessage):
    """The engine's view of a room's position, or (1.1) of a stored game's after `ply` moves."""

    type: Literal["analyze"] = "analyze"
    room_id: RoomId | None = None
    game_id: GameId | None = None
    ply: int | None = Field(default=None, ge=0, le=26 * 26)
    time_ms: int = Field(default=1000, ge=1, le=60_000)
    point: PointModel | None = None

    @model_validator(mode="after")
    def _check_one_position(self) -> Analyze:
        if (self.room_id is None) == (self.game_id is None):
            raise ValueError("give either room_id, or game_id and ply")
        if (self.game_id is None) != (self.ply is None):
            raise ValueError("game_id and ply go together")
        return self


class Leaderboard(ClientMessage):
    """The best rated players (1.1 ratings)."""

    type: Literal["leaderboard"] = "leaderboard"
    limit: int = Field(default=50, ge=1, le=PAGE_LIMIT)
    kind: Literal["human", "bot"] | None = None


class WatchLobby(ClientMessage):
    type: Literal["watch_lobby"] = "watch_lobby"
    batches: bool = False
    """1.2: hear the lobby's changes as one `lobby_changes` a tick, in place of one message per change."""


class UnwatchLobby(ClientMessage):
    type: Literal["unwatch_lobby"] = "unwatch_lobby"


class SeekRequest(ClientMessage):
    """Offer a game in the lobby."""

    type: Literal["seek"] = "seek"
    rule: Rule = Rule.FREESTYLE
    size: int = Field(default=15, ge=5, le=26)
    clock: ClockSettingModel | None = None
    rated: bool = False
    color: Literal["black", "white", "random"] = "random"
    rating_min: int | None = Field(default=None, ge=0, le=5000)
    rating_max: int | None = Field(default=None, ge=0, le=5000)
    opening: OpeningName = "none"
    """The opening rule (1.1 openings); the seek's owner is the first player."""

    @model_validator(mode="after")
    def _check_seek(self) -> SeekRequest:
        _check_rule(self.rule, self.size, self.opening)
        if self.rating_min is not None and self.rating_max is not None and self.rating_min > self.rating_max:
            raise ValueError("rating_min is above rating_max")
        return self


class CancelSeek(ClientMessage):
    type: Literal["cancel_seek"] = "cancel_seek"
    seek_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class AcceptSeek(ClientMessage):
    type: Literal["accept_seek"] = "accept_seek"
    seek_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class QuickPair(ClientMessage):
    """Play the nearest-rated player asking for the same game, or wait for one."""

    type: Literal["quick_pair"] = "quick_pair"
    rule: Rule = Rule.FREESTYLE
    size: int = Field(default=15, ge=5, le=26)
    clock: ClockSettingModel | None = None
    rated: bool = False

    @model_validator(mode="after")
    def _check_rule(self) -> QuickPair:
        if self.rule is Rule.RENJU and self.size != 15:
            raise ValueError("renju is played on 15x15 only")
        return self


class WhoIsOnline(ClientMessage):
    type: Literal["who_is_online"] = "who_is_online"
    limit: int = Field(default=PAGE_LIMIT, ge=1, le=PAGE_LIMIT)


ChatText = Annotated[str, StringConstraints(min_length=1, max_length=500, pattern=SHOWN_TEXT)]
"""1 to 500 characters, none of them a control character."""


class ChatRequest(ClientMessage):
    """Say something to a room (its players and spectators) or, with `room_id` null, to the lobby."""

    type: Literal["chat"] = "chat"
    room_id: RoomId | None = None
    text: ChatText


class ClaimWin(ClientMessage):
    """Claim a game whose opponent has been away long enough (1.1 claims)."""

    type: Literal["claim_win"] = "claim_win"
    room_id: RoomId


from wire.accounts import DeleteAccount, GetAccount, ListDevices, SetPassword, SignOut  # noqa: E402 (they stand on ClientMessage)
from wire.imports import GamesImported, ImportGames  # noqa: E402  (they stand on the message bases above)
from wire.moderation import ModerationRequest  # noqa: E402  (it stands on the classes above)
from wire.review_requests import ReviewRequest  # noqa: E402  (stands on ClientMessage above)
from wire.tournaments import TournamentEvent, TournamentRequest  # noqa: E402 (they stand on the parts above)

ClientRequest = Annotated[
    Hello
    | CreateRoom
    | ListRooms
    | JoinRoom
    | LeaveRoom
    | ListBots
    | Move
    | Resign
    | OfferDraw
    | AnswerDraw
    | RequestUndo
    | AnswerUndo
    | Rematch
    | ListGames
    | GetGame
    | Analyze
    | Leaderboard
    | WatchLobby
    | UnwatchLobby
    | SeekRequest
    | CancelSeek
    | AcceptSeek
    | QuickPair
    | WhoIsOnline
    | ChatRequest
    | ClaimWin
    | OpeningStep
    | SetPassword
    | ListDevices
    | SignOut
    | DeleteAccount
    | GetAccount
    | ModerationRequest
    | TournamentRequest
    | ReviewRequest
    | ImportGames,
    Field(discriminator="type"),
]
"""Every request a client may send."""

_CLIENT_ADAPTER: TypeAdapter[ClientRequest] = TypeAdapter(ClientRequest)
CLIENT_TYPES = frozenset(str(model.model_fields["type"].default) for model in get_args(get_args(ClientRequest)[0]))
"""The `type` of every request."""
_REQUEST_ID_ADAPTER: TypeAdapter[str | int] = TypeAdapter(RequestId)
TYPE_NAMED_CHARS = 40
"""How much of an unknown `type` its error repeats: the answer to any frame must fit in one."""


def _request_id(raw: dict[str, Any]) -> str | int | None:
    """The request's `id` if it is a valid one, so even a rejected request gets it back.

    Validated as `RequestId` itself: `json.loads`, which reads a refused frame
    again, accepts what the validator refused, such as a lone surrogate
    (`"\\ud800"`), which is no text and could not be written back.
    """
    try:
        return _REQUEST_ID_ADAPTER.validate_python(raw.get("id"), strict=True)
    except ValidationError:
        return None


def peek_request_id(text: str) -> str | int | None:
    """The `id` of a frame, if it is a JSON object with a valid one; for answering a request
    that will not be served (it was rate limited) with its id all the same."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return _request_id(raw) if isinstance(raw, dict) else None


def _describe(error: ValidationError) -> str:
    parts = []
    for detail in error.errors()[:3]:
        if detail["type"] == "json_invalid":  # what json.loads reads and the validator does not
            parts.append(f"{detail['msg']} (a string that is no text, such as a lone surrogate \\ud800)")
            continue
        where = ".".join(str(piece) for piece in detail["loc"][1:]) or "fields"
        parts.append(f"{where}: {detail['msg']}")
    return "; ".join(parts)


def parse_client_message(text: str) -> ClientRequest:
    """Read one text frame from a client.

    Raises ProtocolError with `bad_json` (not JSON), `bad_request` (not an
    object, no string `type`, or a missing or mistyped field) or
    `unknown_type`; the error carries the request's `id` when it had one.
    A valid frame is parsed once; only a refused one is read again, to say
    precisely what is wrong with it.
    """
    try:
        return _CLIENT_ADAPTER.validate_json(text, strict=True)
    except ValidationError as error:
        failure = error
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(raw, dict):
        raise ProtocolError("bad_request", "a message must be a JSON object")
    request_id = _request_id(raw)
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_request", "a message needs a string 'type'", request_id)
    if kind not in CLIENT_TYPES:
        named = kind if len(kind) <= TYPE_NAMED_CHARS else kind[:TYPE_NAMED_CHARS] + "..."
        raise ProtocolError("unknown_type", f"unknown message type {named!r}", request_id)
    raise ProtocolError("bad_request", f"{kind}: {_describe(failure)}", request_id) from None


# ------------------------------------------------------------ server -> client


class Welcome(ServerMessage):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    player: PlayerModel
    token: str
    rooms: list[RoomId] = []
    """Rooms where this player holds a seat in an unfinished game (an addition to the contract)."""
    features: list[Feature] = []
    """The 1.1 additions this server supports."""
    password: bool | None = None
    """Accounts: whether the name is kept with a password (absent from servers without accounts)."""
    role: Literal["admin", "moderator"] | None = None
    """The player's moderation role, if any (the `moderation` feature)."""


class ErrorMessage(ServerMessage):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    password: Literal[True] | None = None
    """Accounts: on the `name_taken` of a `hello` for a name kept with a password (sign in with the
    password instead); absent from every other error."""

    def to_wire(self) -> str:
        """As any message's, without `password` where it says nothing."""
        left_out = (set() if self.id is not None else {"id"}) | (set() if self.password else {"password"})
        return self.model_dump_json(by_alias=True, exclude=left_out or None)


class RoomMessage(ServerMessage):
    type: Literal["room"] = "room"
    you: Literal["black", "white", "spectator"]
    room: RoomStateModel


class Rooms(ServerMessage):
    type: Literal["rooms"] = "rooms"
    rooms: list[RoomSummaryModel]
    next: RoomId | None = None
    """The cursor of the next page (pass it as `after`); null on the last page."""


class Left(ServerMessage):
    type: Literal["left"] = "left"
    room_id: RoomId


class Bots(ServerMessage):
    type: Literal["bots"] = "bots"
    bots: list[BotInfoModel]
    engine_build: str | None = None
    """How the bots' search engine runs on this server: `compiled` (to C, by mypyc), `pure`
    (Python) or `partly compiled`; the same bots either way, the compiled ones about three
    times faster. Null from a server older than this field."""


class Spectators(ServerMessage):
    type: Literal["spectators"] = "spectators"
    room_id: RoomId
    count: int


class Moved(ServerMessage):
    type: Literal["moved"] = "moved"
    room_id: RoomId
    game_id: GameId
    ply: int
    color: ColorName
    x: int
    y: int
    move: str
    clock: ClockModel | None
    seq: int


class GameOver(ServerMessage):
    type: Literal["game_over"] = "game_over"
    room_id: RoomId
    game_id: GameId
    seq: int
    result: ResultModel
    ratings: RatingsModel | None = None
    """Both players' rating changes, for a rated game (1.1 ratings)."""


class DrawOffered(ServerMessage):
    type: Literal["draw_offered"] = "draw_offered"
    room_id: RoomId
    by: ColorName
    seq: int


class UndoRequested(ServerMessage):
    type: Literal["undo_requested"] = "undo_requested"
    room_id: RoomId
    by: ColorName
    seq: int


class Undone(ServerMessage):
    type: Literal["undone"] = "undone"
    room_id: RoomId
    removed: list[StoneModel]
    to_move: ColorName
    seq: int
    clock: ClockModel | None = None
    """The clocks after the undo (an addition to the contract)."""


class Declined(ServerMessage):
    type: Literal["declined"] = "declined"
    room_id: RoomId
    what: Literal["draw", "undo"]
    seq: int


class RematchOffered(ServerMessage):
    """A player asked for a rematch (an addition to the contract)."""

    type: Literal["rematch_offered"] = "rematch_offered"
    room_id: RoomId
    by: ColorName
    seq: int


class Games(ServerMessage):
    type: Literal["games"] = "games"
    games: list[GameSummaryModel]
    next: GameId | None = None
    """The cursor of the next page (pass it as `before`); null on the last page."""


class GameMessage(ServerMessage):
    type: Literal["game"] = "game"
    game_id: GameId
    format: Literal["json", "psq", "sgf"]
    record: dict[str, Any] | str


class Analysis(ServerMessage):
    type: Literal["analysis"] = "analysis"
    room_id: RoomId | None = None
    game_id: GameId | None = None
    """For the analysis of a stored game's position (1.1): the game and the ply."""
    ply: int | None = None
    best: AnalysisMoveModel
    score: int
    depth: int
    nodes: int
    pv: list[str]
    point_score: int | None = None


class LeaderboardMessage(ServerMessage):
    type: Literal["leaderboard"] = "leaderboard"
    players: list[LeaderboardEntryModel]


class Lobby(ServerMessage):
    """The lobby as a watcher starts: how many are online and the newest seeks (at most 100)."""

    type: Literal["lobby"] = "lobby"
    online: int
    seeks: list[SeekModel]
    seq: int | None = None
    """To a watcher of batches (1.2): the `seq` of the last batch this snapshot includes; the next
    `lobby_changes` it gets is numbered `seq` + 1 (a gap means a batch was missed)."""


class SeekAdded(ServerMessage):
    type: Literal["seek_added"] = "seek_added"
    seek: SeekModel


class SeekRemoved(ServerMessage):
    type: Literal["seek_removed"] = "seek_removed"
    seek_id: str


class LobbyChanges(ServerMessage):
    """What changed in the lobby since the previous batch (1.2), sent once a tick to watchers of batches."""

    type: Literal["lobby_changes"] = "lobby_changes"
    added: list[SeekModel]
    removed: list[str]
    """The ids of the seeks that left the lobby."""
    online: int | None
    """How many players are online, or null when that has not changed since the previous batch."""
    seq: int
    """The lobby's count of batches: one more than the previous batch's."""


class OnlineCount(ServerMessage):
    type: Literal["online"] = "online"
    count: int


class SeekCreated(ServerMessage):
    type: Literal["seek_created"] = "seek_created"
    seek: SeekModel


class OnlinePlayers(ServerMessage):
    type: Literal["online_players"] = "online_players"
    count: int
    players: list[OnlinePlayerModel]


class ChatMessage(ServerMessage):
    type: Literal["chat"] = "chat"
    room_id: RoomId | None
    from_: str = Field(validation_alias="from", serialization_alias="from")
    text: str
    at: str
    """When it was said (ISO 8601, UTC)."""
    chat_id: str | None = None
    """The line's id, for reporting or removing it (the `moderation` feature)."""


class OpeningStepped(ServerMessage):
    """A step of the opening was taken (a fresh `room` follows with the new state and seats)."""

    type: Literal["opening_step"] = "opening_step"
    room_id: RoomId
    seq: int
    by: str
    step: OpeningStepModel


class OpponentAway(ServerMessage):
    """A seat's player has lost their last connection during a game (1.1 claims)."""

    type: Literal["opponent_away"] = "opponent_away"
    room_id: RoomId
    color: ColorName
    claim_at_ms: int
    """Milliseconds from now after which the opponent may claim the win."""


class OpponentBack(ServerMessage):
    type: Literal["opponent_back"] = "opponent_back"
    room_id: RoomId
    color: ColorName


from wire.accounts_events import (  # noqa: E402 (they stand on ServerMessage)
    AccountDeletedMessage,
    AccountMessage,
    Devices,
    PasswordSetMessage,
    SignedOut,
)
from wire.moderation_events import ModerationEvent  # noqa: E402  (it stands on the classes above)
from wire.review import ReviewEvent  # noqa: E402  (stands on ServerMessage above)

ServerEvent = Annotated[
    Welcome
    | ErrorMessage
    | RoomMessage
    | Rooms
    | Left
    | Bots
    | Spectators
    | Moved
    | GameOver
    | DrawOffered
    | UndoRequested
    | Undone
    | Declined
    | RematchOffered
    | Games
    | GameMessage
    | Analysis
    | LeaderboardMessage
    | Lobby
    | LobbyChanges
    | SeekAdded
    | SeekRemoved
    | OnlineCount
    | SeekCreated
    | OnlinePlayers
    | ChatMessage
    | OpponentAway
    | OpponentBack
    | OpeningStepped
    | PasswordSetMessage
    | Devices
    | SignedOut
    | AccountDeletedMessage
    | AccountMessage
    | ModerationEvent
    | TournamentEvent
    | ReviewEvent
    | GamesImported,
    Field(discriminator="type"),
]
"""Every message the server may send."""

_SERVER_ADAPTER: TypeAdapter[ServerEvent] = TypeAdapter(ServerEvent)


def parse_server_message(text: str) -> ServerEvent:
    """Read one text frame from the server (for clients).

    Raises ValueError (pydantic's ValidationError is one) when the frame is
    not a message of this version of the contract.
    """
    return _SERVER_ADAPTER.validate_json(text, strict=True)


def error_message(refusal: Refusal, request_id: str | int | None) -> ErrorMessage:
    """The `error` frame answering a refused request."""
    return ErrorMessage(
        code=refusal.code, message=refusal.message, id=request_id, password=True if refusal.password else None
    )
