"""The server's vocabulary: ids, who is asking, refusals, and what rooms hand to storage.

Every other server module speaks in these terms. The ids and refusals are
the wire's own (`wire.ids`, `wire.errors`), named here too, as are the names of
moderation's roles and actions (`wire.moderation`); nothing else here
knows the wire (`server.rooms.views` renders these values as wire models) or the database
(`server.storage.database` writes the records and reads back the summaries), so a
room, the storage and their tests share one small set of plain values.

It is one module past 500 lines because the records form one closed set:
`StoreRecord` is the union of every change storage writes (games, accounts,
moderation, tournaments, reviews), and the record writer and its statements
match on all of them. Each feature's records stand in a section of their
own; their reading ports (`RecordReader`, `ModerationReader`,
`TournamentReader`) sit at the end, beside `Records`.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, NewType, Protocol

from engine.glicko2 import Rating
from engine.opening_record import OpeningRecord, OpeningStepRecord
from engine.openings import OpeningRule, OpeningState
from engine.record import ClockSetting, GameRecord, PlayerInfo, PlayerKind
from engine.review import GameReview, WinKind
from engine.types import Color, GameResult, Point, Rule
from wire.errors import ErrorCode as ErrorCode  # the wire's refusals and ids are the server's vocabulary too
from wire.errors import Refusal as Refusal
from wire.ids import GameId as GameId
from wire.ids import RoomId as RoomId
from wire.moderation import ModerationActionName, RoleName

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


PLAYER_ID_BYTES = 8


def new_player_id() -> str:
    """A new player's id: 16 hexadecimal digits, random, never a name's (rows about a player are
    keyed by it, so a name that moves or comes back carries nothing of another player's)."""
    return secrets.token_hex(PLAYER_ID_BYTES)


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
    player_id: str = field(default_factory=new_player_id)
    """The new player's id, theirs for good (`new_player_id`)."""


@dataclass(frozen=True, slots=True)
class BotsEnrolled:
    """Make sure every bot level has a player row, starting from its arena rating."""

    bots: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class DeviceSignedIn:
    """Store a device signed in to an account: its id, the SHA-256 (hex) of its token, a label."""

    device_id: str
    player: str
    token_hash: str
    label: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PasswordSet:
    """Store a name's password (argon2id's encoded hash) in place of any it had.

    Setting the first one turns the token the player signed in with into the account's first device
    (`first_device`), and the player row keeps a hash that no token matches: from then on a token
    signs in only while its device is signed in (`account_devices`)."""

    player: str
    password_hash: str
    at: datetime
    first_device: DeviceSignedIn | None = None
    replaced_token_hash: bytes | None = None
    """The player row's new token hash (of a token thrown away) when the name's own token stops
    signing in: its device moved to `first_device`, or (a reset) every device signed out."""


@dataclass(frozen=True, slots=True)
class DevicesSignedOut:
    """Forget devices signed in to an account: their tokens are refused from then on."""

    player: str
    device_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AccountDeleted:
    """Delete an account: its games, ratings and player row take `placeholder` for its name, its
    password, devices, role and mute go, and the name stays reserved until `name_free_at`. The
    account keeps its id: a newcomer who takes the name later is another player."""

    name: str
    placeholder: str
    at: datetime
    name_free_at: datetime
    unusable_token_hash: bytes


AccountRecord = DeviceSignedIn | PasswordSet | DevicesSignedOut | AccountDeleted
"""The records of accounts (`server.accounts`)."""
# --------------------------------------------------------------- moderation

Role = RoleName
"""A power granted on the server's machine (`gomoku-admin grant`): a moderator keeps order in chat
and rooms; an admin may also read the audit log and delete any game."""

AuditAction = ModerationActionName
"""What a moderation action did, as the audit log (and the wire) names it."""


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """Store one moderation action in the audit log: who did what to whom, why and when. Written in
    the transaction of the action's own records, so that no action goes unlogged."""

    entry_id: str
    at: datetime
    actor: str
    """Who acted: a moderator's name, or the operator of `gomoku-admin`."""
    action: AuditAction
    target: str
    """Whom (a player's name) or what (game ids, a chat line) it was done to."""
    reason: str
    detail: str | None = None
    """What the action's words alone do not say (a mute's end, a rename's new name, a line's text)."""
    actor_id: str | None = None
    """The acting moderator's player id (None: the operator)."""
    target_id: str | None = None
    """The player id of the player it was done to (None: games, a report), whatever they are called
    later: the log finds a player by any name they had."""


@dataclass(frozen=True, slots=True)
class RoleGranted:
    """Give a player a role (replacing the one they had)."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""
    role: Role
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RoleRevoked:
    """Take a player's role away."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""


@dataclass(frozen=True, slots=True)
class PlayerBanned:
    """Bar a player from signing in (their games and ratings stay as stored)."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""
    reason: str
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerUnbanned:
    """Let a banned player sign in again."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""


@dataclass(frozen=True, slots=True)
class PlayerMuted:
    """Refuse a player's chat lines until `until` (replacing an earlier mute)."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""
    until: datetime
    reason: str
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerUnmuted:
    """Let a muted player chat again before the mute ends."""

    player_id: str
    name: str
    """The player's name when it was done (a label: the row is the id's)."""


@dataclass(frozen=True, slots=True)
class PlayerRenamed:
    """Give a player a new name: the player row's label, and the names games, ratings and reports
    show; what is keyed by the player's id stays theirs. The old name is retired, so that nobody
    takes it again."""

    player_id: str
    old: str
    new: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of another player, or of one of their chat lines, for moderators."""

    report_id: str
    reporter: str
    target: str
    reason: str
    filed_at: datetime
    room_id: RoomId | None = None
    """Where the reported chat line was said (None: the lobby, or no line)."""
    chat_id: str | None = None
    chat_text: str | None = None
    """The reported line's words, kept as evidence once the line itself is gone."""
    closed_by: str | None = None
    """The moderator who closed it; None while it is open."""
    closed_at: datetime | None = None
    resolution: str | None = None


@dataclass(frozen=True, slots=True)
class ReportFiled:
    """Store a new report."""

    report: Report


@dataclass(frozen=True, slots=True)
class ReportClosed:
    """Close an open report, saying what was done about it."""

    report_id: str
    by: str
    at: datetime
    resolution: str


@dataclass(frozen=True, slots=True)
class GamesDeleted:
    """Delete finished games with everything stored of them (moves, opening steps, result, the rating
    history's points); the players' ratings stay as the games left them."""

    game_ids: tuple[GameId, ...]


ModerationRecord = (
    AuditEntry
    | RoleGranted
    | RoleRevoked
    | PlayerBanned
    | PlayerUnbanned
    | PlayerMuted
    | PlayerUnmuted
    | PlayerRenamed
    | ReportFiled
    | ReportClosed
    | GamesDeleted
)
"""The records of moderation (`server.storage.moderation_statements` writes them)."""

# ------------------------------------------------------------- tournaments

TournamentFormat = Literal["round_robin", "swiss", "arena"]
TournamentStatus = Literal["open", "running", "paused", "finished"]
"""Open for entries, playing, paused by its organiser (no new pairings), or over."""


@dataclass(frozen=True, slots=True)
class TournamentTerms:
    """What a tournament's organiser chose when creating it."""

    name: str
    format: TournamentFormat
    organiser: str
    rule: Rule
    size: int
    clock: ClockSetting
    opening: OpeningRule
    rated: bool
    cycles: int = 1
    """A round robin's cycles: 1 (single) or 2 (double)."""
    rounds: int = 0
    """A Swiss tournament's rounds."""
    duration_s: int = 0
    """How long an arena pairs players."""
    starts_at: datetime | None = None
    """When it starts by itself; None: when its organiser starts it."""
    max_players: int = 64
    listed: bool = True
    """Listed for everyone; if not, found only by its id (a link to join)."""
    organiser_id: str | None = None
    """The organiser's player id: only that player manages it, whatever their name becomes (None:
    a tournament from before player ids whose organiser was not found, which nobody manages)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A tournament's player: a person, a bot account, or a bot level the organiser added."""

    player: PlayerInfo
    seed: int
    """1 for the first to enter (the order ties are broken in)."""
    rating: float
    """The rating as the player entered: what its performance is measured against."""
    withdrawn: bool = False
    """Withdrawn during play: paired no more, its games stand."""

    @property
    def name(self) -> str:
        return self.player.name


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of one round of a tournament (an arena's waves are its rounds)."""

    round: int
    """1 for the first round."""
    board: int
    """1 for the first board of the round."""
    black: str
    white: str | None
    """None for a bye: black scores a win without playing."""
    game_id: GameId | None = None
    """The game once it has been opened (never for a bye)."""
    room_id: RoomId | None = None
    score: float | None = None
    """Black's score once the game has ended (1, 0.5 or 0; white's is 1 - score); a bye's at once (1 in
    a Swiss, 0 for a round robin's rest)."""

    @property
    def is_bye(self) -> bool:
        return self.white is None

    def players(self) -> tuple[str, ...]:
        return (self.black,) if self.white is None else (self.black, self.white)

    def score_of(self, name: str) -> float | None:
        """The player's score on this board: None while unplayed, or if the player is not on it."""
        if self.score is None:
            return None
        if name == self.black:
            return self.score
        return 1.0 - self.score if name == self.white else None

    def opponent_of(self, name: str) -> str | None:
        return self.white if name == self.black else self.black if name == self.white else None


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    """Store a new tournament, open for entries."""

    tournament_id: str
    terms: TournamentTerms
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EntrantAdded:
    """Store a player entering a tournament."""

    tournament_id: str
    entrant: Entrant
    at: datetime


@dataclass(frozen=True, slots=True)
class EntrantLeft:
    """Forget an entrant who withdrew (or was removed) before the start."""

    tournament_id: str
    name: str


@dataclass(frozen=True, slots=True)
class EntrantWithdrawn:
    """Mark an entrant withdrawn during play: paired no more, its games stand."""

    tournament_id: str
    name: str
    at: datetime


@dataclass(frozen=True, slots=True)
class TournamentProgress:
    """Store where a tournament stands: its status, its current round and its times."""

    tournament_id: str
    status: TournamentStatus
    round: int
    started_at: datetime | None
    ends_at: datetime | None
    """When an arena stops pairing."""
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """Store a round's pairings (byes with their score), before any of its games opens."""

    tournament_id: str
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True, slots=True)
class TournamentGameOpened:
    """Store which game a pairing is played in, in the transaction that stores the game."""

    tournament_id: str
    round: int
    board: int
    game_id: GameId
    room_id: RoomId


TournamentRecord = (
    TournamentCreated
    | EntrantAdded
    | EntrantLeft
    | EntrantWithdrawn
    | TournamentProgress
    | RoundPaired
    | TournamentGameOpened
)


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament read back: its terms, where it stands, its entrants and its pairings (each game's
    score read from the game's stored result)."""

    tournament_id: str
    terms: TournamentTerms
    created_at: datetime
    status: TournamentStatus
    round: int
    started_at: datetime | None
    ends_at: datetime | None
    ended_at: datetime | None
    entrants: tuple[Entrant, ...]
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True, slots=True)
class GameReviewed:
    """Store a finished game's review (once per game: a second one for the same game is dropped)."""

    game_id: GameId
    review: GameReview
    budget_nodes: int
    """The solver nodes each position was given."""
    reviewed_at: datetime


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position with a forced win whose first move is unique, and how hard players find it."""

    puzzle_id: str
    """Made from the position (`server.review.puzzles.puzzle_id`): one position, one puzzle."""
    game_id: GameId | None
    """The stored game it comes from; None for the starting set's (see `source`)."""
    source: str
    """Where it comes from, in words (a game of this server, or the starting set's bots' game)."""
    ply: int
    """Moves played before it: the attacker plays move `ply` of the game."""
    rule: Rule
    size: int
    moves: tuple[Point, ...]
    solution: tuple[Point, ...]
    """The attacker's moves with the defender's best replies between, attacker first."""
    theme: WinKind
    forbidden: bool
    """Whether renju's forbidden points decide it: at the end of the solution black cannot block
    white's five because the block is forbidden to black."""
    rating: Rating
    attempts: int
    """Rated tries so far."""

    @property
    def win_in(self) -> int:
        """The attacker's moves in the solution."""
        return (len(self.solution) + 1) // 2


@dataclass(frozen=True, slots=True)
class PuzzlesMined:
    """Store the puzzles found in some games (none, for most), and that those games were mined."""

    puzzles: tuple[Puzzle, ...]
    games: tuple[GameId, ...]
    """The stored games looked at (the starting set's puzzles have none)."""
    at: datetime


@dataclass(frozen=True, slots=True)
class PuzzleRated:
    """The rating change of a player's first try at a puzzle: one game between player and puzzle."""

    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


@dataclass(frozen=True, slots=True)
class PuzzleTried:
    """Store a player's finished try at a puzzle and, for the player's first try at it, both new
    ratings, worked out in the try's transaction from the ratings as stored then (see
    `server.storage.writer`), so that tries on several nodes at once lose no change."""

    player: str
    puzzle_id: str
    solved: bool
    at: datetime
    rated: PuzzleRated | None = None
    """Left None by whoever makes the record; the record writer sets it for a first try."""


@dataclass(frozen=True, slots=True)
class GameImported:
    """Store a game read from a player's file (`server.imports`), whole: seats, moves with the
    times the file gave, result and where it came from. Never rated, never a room."""

    game_id: GameId
    record: GameRecord
    """The game as read and checked (`engine.game_import`), with a result."""
    source: str
    """The format it was read from: `psq`, `sgf` or `moves`."""
    file_name: str
    """The name of the uploaded file it came from."""
    imported_by: str
    """The player who uploaded it (the game's creator)."""
    imported_at: datetime
    fingerprint: str
    """`engine.game_import.game_fingerprint` of the game: one game is stored once."""
    private: bool = False
    """Whether only the uploader may read it (a private game, as rooms have)."""


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
    | AccountRecord
    | ModerationRecord
    | TournamentRecord
    | GameReviewed
    | PuzzlesMined
    | PuzzleTried
    | GameImported
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
    result: GameResult | None = None
    """How the room's game ended, once it has."""
    scheduled: bool = False
    """Whether the server scheduled the room's current game (a tournament's)."""

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
    tournament_id: str | None = None
    """The tournament that scheduled the game (its room comes back `scheduled`), or None."""


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
    depth: int | None = None
    """The search depth the bot's seat set; None: its level's own."""
    width: int | None = None
    """The candidates per ply the bot's seat set; None: its level's own."""


# ------------------------------------------------------------ reading back


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    """A player as stored, for signing in: the id that is theirs for good, the name as first
    written (or as a rename set it), the token's hash, and whether it is a person or a bot."""

    player_id: str
    name: str
    token_hash: bytes
    kind: PlayerKind = "human"

    @property
    def is_level(self) -> bool:
        """Whether this is one of the server's bot levels: a bot with no token, as which nobody
        signs in (a bot account has a token, and signs in like a person)."""
        return self.kind == "bot" and not self.token_hash


@dataclass(frozen=True, slots=True)
class SignedInDevice:
    """A device signed in to an account (`server.accounts`), as stored: never its token."""

    device_id: str
    player: str
    """The account's name, as first written."""
    label: str
    """What the device called itself when it signed in (a browser, `gomoku`, `gomoku-bot`)."""
    signed_in_at: datetime


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


@dataclass(frozen=True, slots=True)
class GameToDelete:
    """What deciding whether a game may be deleted needs: its seats, whether it is rated, whether it
    is over."""

    game_id: GameId
    black: PlayerInfo
    white: PlayerInfo
    rated: bool
    finished: bool
    tournament_id: str | None = None
    """The tournament the game was played in, whose standings count it (None for most games)."""
    private: bool = False
    created_by: str | None = None

    def shown_to(self, name: str) -> bool:
        """Whether the player called `name` may know of the game: a public game anyone, a private one
        its players and its creator alone."""
        if not self.private:
            return True
        return name.lower() in {seat.lower() for seat in (self.black.name, self.white.name, self.created_by or "")}


class ModerationReader(Protocol):
    """What moderation reads back from storage (`server.storage.moderation`)."""

    async def role_of(self, name: str) -> Role | None:
        """The role of the player called `name` (ignoring case), or None."""

    async def roles(self) -> list[RoleGranted]:
        """Every role granted, by name."""

    async def ban_of(self, name: str) -> PlayerBanned | None:
        """The ban on `name` (ignoring case) as stored, or None."""

    async def mute_of(self, name: str) -> PlayerMuted | None:
        """The latest mute of `name` (ignoring case) as stored, ended or not, or None."""

    async def renamed_to(self, name: str) -> str | None:
        """The name a player once called `name` (ignoring case) has now, if a rename retired it."""

    async def audit_log(self, limit: int, target: str | None = None) -> list[AuditEntry]:
        """The latest moderation actions, newest first (only those done to `target` if given)."""

    async def sanctions_since(self, since: datetime) -> list[AuditEntry]:
        """The bans, renames, password resets and deletions of games logged since `since`, oldest
        first (those made by another process too)."""

    async def open_reports(self, limit: int) -> list[Report]:
        """The open reports, oldest first."""

    async def reports_filed_since(self, reporter: str, since: datetime) -> int:
        """How many reports `reporter` (ignoring case) has filed since `since`, from any node."""

    async def report(self, report_id: str) -> Report | None:
        """One report, open or closed, or None."""

    async def games_to_delete(self, game_ids: list[str]) -> list[GameToDelete]:
        """The stored games among `game_ids`, in no particular order."""

    async def unfinished_games_of(self, name: str) -> int:
        """How many stored games without a result `name` (ignoring case) holds a seat in."""

    async def name_reserved_until(self, name: str, now: datetime) -> datetime | None:
        """Until when a deleted account's name stays reserved, if it still is at `now`."""


class TournamentReader(Protocol):
    """Tournaments as storage reads them back (the server's Storage)."""

    async def tournament(self, tournament_id: str) -> StoredTournament | None:
        """A tournament with its entrants and pairings, or None."""

    async def tournaments(self, limit: int) -> list[StoredTournament]:
        """The listed tournaments, newest first."""

    async def unfinished_tournaments(self) -> list[StoredTournament]:
        """Every tournament not yet over."""


class Records(RecordReader, RecordStore, ModerationReader, Protocol):
    """Storage as the requests use it: its reads, its writes, and the adding of a player."""

    async def add_player(self, name: str, token_hash: bytes, kind: PlayerKind = "human") -> StoredPlayer | None:
        """Create a player; None if the name (ignoring case) was taken meanwhile. Raises
        StorageUnavailable when the database cannot take it now."""

    async def imported_games_like(self, fingerprints: Collection[str]) -> dict[str, GameId]:
        """The stored imported games among `fingerprints`, by fingerprint (`server.imports`)."""
