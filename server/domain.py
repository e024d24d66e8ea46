"""The server's vocabulary: ids, who is asking, refusals, and what rooms hand to storage.

Every other server module speaks in these terms. The ids and refusals are
the wire's own (`wire.ids`, `wire.errors`), named here too; nothing else here
knows the wire (`server.rooms.views` renders these values as wire models) or the database
(`server.storage.database` writes the records and reads back the summaries), so a
room, the storage and their tests share one small set of plain values.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, NewType, Protocol

from engine.glicko2 import Rating
from engine.opening_record import OpeningRecord, OpeningStepRecord
from engine.openings import OpeningRule, OpeningState
from engine.record import ClockSetting, GameRecord, PlayerInfo, PlayerKind
from engine.types import Color, GameResult, Point, Rule
from wire.errors import ErrorCode as ErrorCode  # the wire's refusals and ids are the server's vocabulary too
from wire.errors import Refusal as Refusal
from wire.ids import GameId as GameId
from wire.ids import RoomId as RoomId

ConnectionId = NewType("ConnectionId", int)
"""One websocket connection, numbered from 1 as they arrive (known only to the edge that holds it)."""
CallerRef = NewType("CallerRef", str)
"""Who sent a command, as rooms know it: `<node>/<connection>`, printable and opaque to a room
(only the edge that holds the connection reads it back)."""
LOCAL_NODE = "local"
"""The node of every connection while the server is one process."""

RoomStatus = Literal["waiting", "opening", "playing", "finished"]
"""A room waits for its seats, decides its game's opening, plays it, or is done with it."""


def _token(size: int) -> str:
    """Random URL-safe text of `size` bytes' worth, starting with a letter or digit (an id that
    starts with `-` reads as an option to command-line tools)."""
    while not (token := secrets.token_urlsafe(size))[0].isalnum():
        pass
    return token


def new_room_id() -> RoomId:
    """A short random room id, hard to guess (private rooms rely on it)."""
    return RoomId(_token(9))


def new_game_id() -> GameId:
    """A random game id."""
    return GameId(_token(12))


def utc_now() -> datetime:
    """The wall-clock time, for the start and end written in records."""
    return datetime.now(UTC)


def caller_ref(connection: ConnectionId, node: str = LOCAL_NODE) -> CallerRef:
    """The reference rooms know a connection by."""
    return CallerRef(f"{node}/{connection}")


def node_of(ref: CallerRef) -> str:
    """The node whose edge holds the connection a reference names."""
    return ref.partition("/")[0]


def connection_of(ref: CallerRef, node: str = LOCAL_NODE) -> ConnectionId | None:
    """The connection a reference names, if it is one of `node`'s."""
    ref_node, _, number = ref.partition("/")
    return ConnectionId(int(number)) if ref_node == node and number.isdigit() else None


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent a request: a reference to the connection it came on and the player signed in on it."""

    ref: CallerRef
    """The connection the request came on (its answer goes back there)."""
    name: str
    """The signed-in player's name."""
    kind: PlayerKind = "human"
    """A person, or a bot account (a program playing over the wire, like `gomoku-bot`)."""

    @property
    def seat(self) -> PlayerInfo:
        """The caller as a seat holder."""
        return PlayerInfo(self.name, self.kind)


# ---------------------------------------------------------------- audiences


@dataclass(frozen=True, slots=True)
class Everyone:
    """Every connection in the room (its players' and its spectators')."""


EVERYONE = Everyone()


@dataclass(frozen=True, slots=True)
class OneCaller:
    """The one connection a caller reference names, in the room or not (the answer to a request)."""

    ref: CallerRef


Audience = Everyone | OneCaller
"""Who a room's event is for: the room never names its members, the edge that holds them does."""


@dataclass(frozen=True, slots=True)
class Enter:
    """The caller's connection is in the room from now on (the edge subscribes it; again is harmless)."""

    ref: CallerRef
    name: str
    """The player signed in on it."""


@dataclass(frozen=True, slots=True)
class Exit:
    """The caller's connection is no longer in the room (the edge unsubscribes it)."""

    ref: CallerRef
    name: str
    """The player signed in on it."""


@dataclass(frozen=True, slots=True)
class PresenceReport:
    """What the edge counts for one room after connections entered, left or closed: how many
    connections each player named has in it now, and whether those that went asked to leave."""

    connections: dict[str, int]
    """Player name -> connections in the room (0: none left)."""
    on_purpose: bool = False
    """Whether the connections that went left by asking to (`leave_room`), not by closing."""


def is_server_bot(seat: PlayerInfo | None) -> bool:
    """Whether the server itself plays this seat: a bot level, ours or an outside engine.

    A person and a bot account (kind `bot` with no level: a program that
    signed in like a person, such as `gomoku-bot`) play over a connection.
    """
    return seat is not None and seat.kind == "bot" and seat.level is not None


# ------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Store a new game: its seats, rule, size and clock."""

    game_id: GameId
    room_id: RoomId
    rule: Rule
    size: int
    black: PlayerInfo
    white: PlayerInfo
    clock: ClockSetting | None
    started_at: datetime
    private: bool
    created_by: str | None = None
    """The player who created the room (None for games stored before this was kept)."""
    rated: bool = False
    """Whether the game is rated (its result will change both players' ratings)."""
    opening: OpeningRule = OpeningRule.NONE
    """The opening rule the game starts with."""


@dataclass(frozen=True, slots=True)
class OpeningStepTaken:
    """Store one step of a game's opening phase."""

    game_id: GameId
    index: int
    """0 for the first step."""
    taken: OpeningStepRecord


@dataclass(frozen=True, slots=True)
class SeatsDecided:
    """Store who plays which colour, once an opening has swapped them."""

    game_id: GameId
    black: PlayerInfo
    white: PlayerInfo


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """Store one move, with the mover's thinking time and the clocks after it."""

    game_id: GameId
    ply: int
    point: Point
    color: Color
    time_ms: int
    clock_ms: tuple[int, int] | None
    """(black, white) time left after the move, for untimed games None."""


@dataclass(frozen=True, slots=True)
class MovesTakenBack:
    """Forget the moves after ply `keep` (an accepted undo)."""

    game_id: GameId
    keep: int
    clock_ms: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class GameFinished:
    """Store how and when a game ended."""

    game_id: GameId
    result: GameResult
    ended_at: datetime
    clock_ms: tuple[int, int] | None
    rated: bool = False
    """Whether this result changes ratings: a rated game in which each side has moved."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place in the rating pool: Glicko-2 rating and how many rated games played."""

    name: str
    kind: PlayerKind
    rating: Rating
    games: int

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too unsure to rank (RD over PROVISIONAL_RD)."""
        return self.rating.rd > PROVISIONAL_RD


PROVISIONAL_RD = 110.0
"""A rating whose deviation is above this is provisional: the leaderboard lists it after the others."""


@dataclass(frozen=True, slots=True)
class RatingsChanged:
    """Store both players' new ratings after a rated game, with the rating history."""

    game_id: GameId
    before: tuple[Standing, Standing]
    """Black's and white's standing before the game."""
    after: tuple[Standing, Standing]
    """Black's and white's standing after it."""
    at: datetime


@dataclass(frozen=True, slots=True)
class ClocksSaved:
    """Store a game's clocks as they are now (the server is stopping: time thought until now counts)."""

    game_id: GameId
    clock_ms: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class PlayerAdded:
    """Store a new player: the name as first written, the hash of its token, and whether it is a
    person or a bot account."""

    name: str
    token_hash: bytes
    created_at: datetime
    kind: PlayerKind = "human"


@dataclass(frozen=True, slots=True)
class BotsEnrolled:
    """Make sure every bot level has a player row, starting from its arena rating."""

    bots: tuple[Standing, ...]


StoreRecord = (
    GameStarted
    | MovePlayed
    | MovesTakenBack
    | GameFinished
    | ClocksSaved
    | PlayerAdded
    | RatingsChanged
    | BotsEnrolled
    | OpeningStepTaken
    | SeatsDecided
)


"""A change to store; one request's records are written in one transaction, all or none."""


class RecordStore(Protocol):
    """Where records go: the server's Storage (tests script their own)."""

    async def apply(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        """Store one change's records durably, all or none; raise StorageUnavailable when the
        database cannot take them now (anything else it raises is a bug).

        A rated game the records finish is rated in the same transaction,
        from both players' ratings as stored then: the rating changes so
        stored are returned (none for records that finish no rated game)."""


# ------------------------------------------------------------ room facts


@dataclass(frozen=True, slots=True)
class RoomFacts:
    """What the rest of the server may know of a room between its changes.

    Taken after each stored change, so that listing rooms, finding a
    player's rooms or reading a position to analyse never reads a room
    half way through a change whose records are still being written.
    """

    room_id: RoomId
    rule: Rule
    size: int
    clock: ClockSetting | None
    private: bool
    status: RoomStatus
    seats: tuple[PlayerInfo | None, PlayerInfo | None]
    """Black's and white's seat."""
    connected: tuple[bool, bool]
    """Whether black's and white's player is connected (a bot always is)."""
    spectators: int
    moves: tuple[Point, ...]
    decided: bool
    """Whether the moves on the board end the game (a five or a full board)."""
    created_by: str | None = None
    """The player who opened the room."""
    rated: bool = False
    game_id: GameId | None = None
    """The room's current game."""
    opening: OpeningRule = OpeningRule.NONE
    """The opening rule of the room's games."""

    @property
    def bots_only(self) -> bool:
        """Whether the server plays both seats (two bot levels)."""
        return all(is_server_bot(seat) for seat in self.seats)

    def seat_of(self, name: str) -> Color | None:
        """The colour of the seat `name` holds here (as a person or a bot account), if any."""
        for color, seat in zip(Color, self.seats, strict=True):
            if seat is not None and not is_server_bot(seat) and seat.name == name:
                return color
        return None

    def analysis_refusal(self, name: str) -> str | None:
        """Why `name` may not have this room's position analysed, or None if they may (fair play, 1.2).

        While a game is unfinished, an engine's hint could decide it: nobody
        (spectators included, since anyone can open a second window as one)
        analyses an unfinished rated game, a bot's too, nor an unfinished game
        without a bot, which is two people's (or about to be: a seat still
        open). A casual game against a bot stays open, except to a bot account
        whose opponent is a person. Finished games are open to everyone.
        """
        if self.status == "finished":
            return None
        if self.rated:
            return "nobody may analyse a rated game before it is finished"
        if not any(seat is not None and seat.kind == "bot" for seat in self.seats):
            return "nobody may analyse a game between two people before it is finished"
        color = self.seat_of(name)
        opponent = None if color is None else self.seats[1 if color is Color.BLACK else 0]
        if opponent is not None and opponent.kind != "bot":
            return "a bot account may not analyse its game against a person"
        return None


# ------------------------------------------------------------- read back


@dataclass(frozen=True, slots=True)
class RestoredGame:
    """A room's latest game read back from storage after a restart: unfinished, or finished so
    recently that its players may still want a rematch."""

    room_id: RoomId
    game_id: GameId
    rule: Rule
    size: int
    black: PlayerInfo
    white: PlayerInfo
    clock: ClockSetting | None
    clock_ms: tuple[int, int] | None
    moves: tuple[Point, ...]
    started_at: datetime
    private: bool
    created_by: str | None = None
    result: GameResult | None = None
    """How the game ended, for a finished one."""
    rated: bool = False
    opening: OpeningRecord | None = None
    """The game's opening rule and the steps taken so far, for a game with one."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One stored game at a glance: who, what, how far, how it ended."""

    game_id: GameId
    room_id: RoomId
    rule: Rule
    size: int
    black: PlayerInfo
    white: PlayerInfo
    move_count: int
    """How many moves were played."""
    result: GameResult | None
    """How the game ended; None while it is unfinished."""
    started_at: datetime
    ended_at: datetime | None
    private: bool
    rated: bool = False


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one rated game, for the history a profile shows."""

    game_id: GameId | None
    """The game, or None for a private game the profile's viewer did not play."""
    at: datetime
    rating: Rating


@dataclass(frozen=True, slots=True)
class Profile:
    """What a player's page shows: standing, record, recent games and rating history."""

    standing: Standing
    wins: int
    """Rated games won (wins, losses and draws add up to `standing.games`)."""
    losses: int
    draws: int
    played: int
    """Finished games in one of its seats, rated or not."""
    recent: tuple[GameSummary, ...]
    """The last games, newest first (private ones only to their players)."""
    history: tuple[RatingPoint, ...]
    """The rating after each rated game, oldest first (the most recent ones)."""


@dataclass(frozen=True, slots=True)
class GamePage:
    """One page of a list of stored games, newest first."""

    games: tuple[GameSummary, ...]
    next: GameId | None
    """The id to page on from (`before`), or None on the last page."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot seat is to move: what to ask the bot pool, and the position version it is for."""

    version: int
    """The room's position version the move is for; an answer for another version is dropped."""
    color: Color
    level: str
    rule: Rule
    size: int
    moves: tuple[Point, ...]
    clock_ms: tuple[int, int] | None
    """The bot's time left and the clock's increment, in a timed game; None when untimed."""
    bots_only: bool = False
    """Whether both seats are bots (nobody but spectators waits for the move)."""
    not_before: float | None = None
    """In a game between two bots, the earliest moment (monotonic seconds) to play the move, so that
    people can follow the game; None to play at once."""
    opening: OpeningState | None = None
    """While the opening is being decided: its state (the bot takes one step of it, not a move)."""
    game_id: GameId | None = None
    """The game being played (an outside engine keeps one game per process)."""
    match_ms: int | None = None
    """In a timed game, each side's time at the start (an outside engine is told it)."""


# ------------------------------------------------------------ reading back


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    """A player as stored, for signing in: the name as first written, the token's hash, and
    whether it is a person or a bot."""

    name: str
    token_hash: bytes
    kind: PlayerKind = "human"

    @property
    def is_level(self) -> bool:
        """Whether this is one of the server's bot levels: a bot with no token, as which nobody
        signs in (a bot account has a token, and signs in like a person)."""
        return self.kind == "bot" and not self.token_hash


class RecordReader(Protocol):
    """What the server reads back from storage, as domain values: the reading port of the server's
    Storage, so that no caller needs the database behind it."""

    async def find_player(self, name: str) -> StoredPlayer | None:
        """The player called `name` (ignoring case), or None."""

    async def player_with_token(self, token_hash: bytes) -> StoredPlayer | None:
        """The player whose token has this hash, or None."""

    async def standing(self, name: str) -> Standing | None:
        """A player's (or a bot's) rating and rated games as stored now, or None for an unknown name."""

    async def leaderboard(self, limit: int, kind: PlayerKind | None) -> list[Standing]:
        """The best rated players, provisional ratings after the others; only `kind` if given."""

    async def profile(self, name: str, viewer: str | None, recent: int = 20, history: int = 100) -> Profile | None:
        """A player's page as `viewer` may see it; None for an unknown name."""

    async def games_to_restore(self, finished_since: datetime) -> list[RestoredGame]:
        """The games whose rooms come back after a restart, oldest first, with their moves."""

    async def game_record(self, game_id: str, viewer: str | None) -> GameRecord | None:
        """The whole record of a game `viewer` may read, or None."""

    async def list_games(
        self, player: str | None, limit: int, before: str | None, viewer: str | None = None
    ) -> GamePage | None:
        """A page of game summaries, newest first; None when `before` names no game `viewer` may see."""


class Records(RecordReader, RecordStore, Protocol):
    """Storage as the requests use it: its reads, its writes, and the adding of a player."""

    async def add_player(self, name: str, token_hash: bytes, kind: PlayerKind = "human") -> StoredPlayer | None:
        """Create a player; None if the name (ignoring case) was taken meanwhile. Raises
        StorageUnavailable when the database cannot take it now."""
