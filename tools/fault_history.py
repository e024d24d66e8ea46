"""What clients of a cluster under faults were told, and the checker that holds it against what is stored
(Jepsen's method: record every operation's request, answer and times, then prove properties of the
whole history; `tools.fault_schedule` runs the clients and the faults).

`RecordingClient` is one player's or spectator's websocket client that
reconnects to another node when its own fails, and notes in a `History`
every request it sent (with the game it believed it was in) and its answer
(None when none came: the connection was lost, or no answer within
ANSWER_TIMEOUT_S), and every message it was told, each with its time.

`check` reads the stored games, moves, results and rating changes from
PostgreSQL and proves, per game:
- every move a client was told was accepted (`moved` answering its `move`)
  is stored at its ply: none lost;
- the stored moves of a game run 1..n with no point twice: none duplicated;
- no two messages told different points at one ply of one game (answers,
  events and snapshots of every client, and the store): no fork;
- no move that every request for it was refused (an error answer, none
  unanswered, none accepted) is stored: a refusal is never stored;
- a timed game's clocks (no increment) never went up from one ply to the next;
- each client's `seq` of a room never went back (a stale node's snapshot);
- each finished game has the result every client was told, and each rated
  finished game changed its two players' ratings once (two rating changes,
  and each player's count of rated games equals their rating changes);
- no request was answered `internal` (for bugs only, never for a fault).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

ANSWER_TIMEOUT_S = 15.0
"""How long a client waits for an answer before it counts the request as unanswered."""
CONNECT_TIMEOUT_S = 5.0

Message = dict[str, Any]


@dataclass(slots=True)
class Asked:
    """One request and what answered it."""

    client: str
    sent_at: float
    request: Message
    game_id: str | None
    """The game the client believed the request was about (None outside a game)."""
    answer: Message | None = None
    answered_at: float | None = None


@dataclass(slots=True)
class Told:
    """One message a client received."""

    client: str
    at: float
    message: Message


@dataclass
class History:
    """Everything every client sent and was told, in the order it happened."""

    asked: list[Asked] = field(default_factory=list)
    told: list[Told] = field(default_factory=list)
    started_at: float = field(default_factory=time.monotonic)


class RecordingClient:
    """A signed-in websocket client that records everything, and moves to another node when its own fails."""

    _ids = itertools.count(1)

    def __init__(self, name: str, urls: Sequence[str], first: int, history: History) -> None:
        self.name = name
        self._urls = list(urls)
        self._next = first
        self._history = history
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self.token: str | None = None
        self.reconnects = 0

    async def request(self, game_id: str | None = None, **fields: Any) -> Message | None:
        """Send a request (connecting first if needed) and return its answer, or None if none came."""
        if self._socket is None and not await self._connect():
            return None
        assert self._socket is not None
        request_id = next(self._ids)
        request = {"id": request_id, **fields}
        asked = Asked(self.name, time.monotonic(), request, game_id)
        self._history.asked.append(asked)
        answer = await self._exchange(self._socket, request_id, request)
        if answer is None:
            await self.drop()
        asked.answer, asked.answered_at = answer, time.monotonic()
        return answer

    async def _exchange(self, socket: ClientConnection, request_id: int, request: Message) -> Message | None:
        waiting = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = waiting
        try:
            await socket.send(json.dumps(request))
            async with asyncio.timeout(ANSWER_TIMEOUT_S):
                answer: Message = await waiting
            return answer
        except (TimeoutError, OSError, WebSocketException, ConnectionLostError):
            return None
        finally:
            self._waiting.pop(request_id, None)

    async def _connect(self) -> bool:
        """Connect to the next node and sign in; whether it worked."""
        url = self._urls[self._next % len(self._urls)]
        self._next += 1
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                socket = await connect(url, open_timeout=CONNECT_TIMEOUT_S)
        except (TimeoutError, OSError, WebSocketException):
            return False
        self._socket = socket
        self._reader = asyncio.get_running_loop().create_task(self._read(socket))
        hello_id = next(self._ids)
        hello = {"id": hello_id, "type": "hello", "name": self.name, **({"token": self.token} if self.token else {})}
        welcome = await self._exchange(socket, hello_id, hello)
        if welcome is None or welcome.get("type") != "welcome":
            await self.drop()
            return False
        self.token = welcome["token"]
        self.reconnects += 1
        return True

    async def _read(self, socket: ClientConnection) -> None:
        with contextlib.suppress(OSError, WebSocketException):
            async for frame in socket:
                message: Message = json.loads(frame)
                self._history.told.append(Told(self.name, time.monotonic(), message))
                waiting = self._waiting.get(message.get("id", -1))
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(ConnectionLostError())

    async def drop(self) -> None:
        """Close the connection (the next request connects again, to the next node)."""
        socket, reader, self._socket, self._reader = self._socket, self._reader, None, None
        if socket is not None:
            with contextlib.suppress(Exception):
                await socket.close()
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


class ConnectionLostError(Exception):
    """The connection closed before the answer came."""


@dataclass
class Verdict:
    """What the checker found: the counts, and a few examples of each violation."""

    acknowledged: int = 0
    unanswered: int = 0
    internal: list[str] = field(default_factory=list)
    """Requests answered `internal`, which is for bugs only (PROTOCOL.md): never for a fault."""
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    forked: list[str] = field(default_factory=list)
    refused_but_stored: list[str] = field(default_factory=list)
    clocks_backwards: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    results_wrong: list[str] = field(default_factory=list)
    ratings_wrong: list[str] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    rated_finished: int = 0
    longest_unavailable_s: dict[str, float] = field(default_factory=dict)
    """Per room, the longest time from a request refused `unavailable` (or unanswered) to the next
    request served."""
    unavailable_because: dict[str, str] = field(default_factory=dict)
    """Per room, the last refusal's words in its longest unavailability."""

    @property
    def safe(self) -> bool:
        """Whether no acknowledged move was lost, duplicated or forked, no refusal stored, no result
        or rating wrong, and no clock went back."""
        violations = (self.lost, self.duplicated, self.forked, self.refused_but_stored, self.results_wrong)
        return not any(violations) and not self.ratings_wrong and not self.clocks_backwards and not self.internal


@dataclass
class _Stored:
    moves: dict[str, dict[int, tuple[int, int]]]
    results: dict[str, tuple[str | None, str]]
    rated: set[str]
    rating_rows: dict[str, int]
    games_by_player: dict[str, tuple[int, int]]
    """Per player: rated games counted in `players`, and rating changes stored."""


async def _read_store(database: str) -> _Stored:
    connection = await asyncpg.connect(database)
    try:
        moves: dict[str, dict[int, tuple[int, int]]] = defaultdict(dict)
        for row in await connection.fetch("SELECT game_id, ply, x, y FROM moves"):
            moves[row["game_id"]][row["ply"]] = (row["x"], row["y"])
        for row in await connection.fetch("SELECT game_id FROM games"):
            moves.setdefault(row["game_id"], {})
        results = {
            row["game_id"]: (row["winner"], row["reason"])
            for row in await connection.fetch("SELECT game_id, winner, reason FROM results")
        }
        rated = {row["game_id"] for row in await connection.fetch("SELECT game_id FROM games WHERE rated = 1")}
        rating_rows = {
            row["game_id"]: row["n"]
            for row in await connection.fetch("SELECT game_id, count(*) AS n FROM rating_changes GROUP BY game_id")
        }
        players = await connection.fetch(
            "SELECT p.name, p.games, (SELECT count(*) FROM rating_changes r WHERE r.player = p.name) AS changes "
            "FROM players p WHERE p.kind = 'human'"
        )
        games_by_player = {row["name"]: (row["games"], row["changes"]) for row in players}
    finally:
        await connection.close()
    return _Stored(moves, results, rated, rating_rows, games_by_player)


async def check(history: History, database: str) -> Verdict:
    """Hold the history against what PostgreSQL at `database` stores (see the module's docstring)."""
    stored = await _read_store(database)
    verdict = Verdict(games=len(stored.moves), finished=len(stored.results))
    verdict.rated_finished = len(stored.rated & set(stored.results))
    _check_moves(history, stored, verdict)
    _check_told(history, stored, verdict)
    _check_results_and_ratings(history, stored, verdict)
    verdict.longest_unavailable_s, verdict.unavailable_because = _unavailability(history)
    return verdict


def _check_moves(history: History, stored: _Stored, verdict: Verdict) -> None:
    """Acknowledged moves stored once, at their ply; stored games gapless; no refusal stored."""
    for asked in history.asked:
        if asked.answer is not None and asked.answer.get("code") == "internal":
            at = asked.sent_at - history.started_at
            verdict.internal.append(f"{asked.client} {asked.request.get('type')} at {at:.1f} s answered internal")
    accepted: set[tuple[str, tuple[int, int]]] = set()
    refused: dict[tuple[str, tuple[int, int]], list[Asked]] = defaultdict(list)
    unknown: set[tuple[str, tuple[int, int]]] = set()
    for asked in history.asked:
        if asked.request.get("type") != "move":
            continue
        point = (asked.request["x"], asked.request["y"])
        answer = asked.answer
        if answer is None:
            verdict.unanswered += 1
            if asked.game_id is not None:
                unknown.add((asked.game_id, point))
        elif answer.get("type") == "moved":
            verdict.acknowledged += 1
            game_id, ply = answer["game_id"], answer["ply"]
            accepted.add((game_id, point))
            if stored.moves.get(game_id, {}).get(ply) != point:
                verdict.lost.append(f"{game_id} ply {ply} {point}: told accepted, stored {stored.moves.get(game_id)}")
        elif asked.game_id is not None:
            refused[(asked.game_id, point)].append(asked)
    for game_id, plies in stored.moves.items():
        if sorted(plies) != list(range(1, len(plies) + 1)):
            verdict.duplicated.append(f"{game_id}: stored plies {sorted(plies)}")
        if len(set(plies.values())) != len(plies):
            verdict.duplicated.append(f"{game_id}: a point stored twice {plies}")
        for ply, point in plies.items():
            key = (game_id, point)
            if key in refused and key not in accepted and key not in unknown:
                told = "; ".join(
                    f"{asked.client} at {asked.sent_at - history.started_at:.1f} s: "
                    f"{(asked.answer or {}).get('code')} ({(asked.answer or {}).get('message')})"
                    for asked in refused[key]
                )
                verdict.refused_but_stored.append(f"{game_id} ply {ply} {point}: every request refused: {told}")


def _check_told(history: History, stored: _Stored, verdict: Verdict) -> None:
    """No fork between what clients were told and what is stored; clocks and seqs never back."""
    claims: dict[tuple[str, int], set[tuple[int, int]]] = defaultdict(set)
    for game_id, plies in stored.moves.items():
        for ply, point in plies.items():
            claims[(game_id, ply)].add(point)
    clocks: dict[tuple[str, int], dict[str, int]] = {}
    last_seq: dict[tuple[str, str], int] = {}
    for told in history.told:
        message = told.message
        kind = message.get("type")
        if kind == "moved":
            claims[(message["game_id"], message["ply"])].add((message["x"], message["y"]))
            clock = message.get("clock")
            if clock is not None and clock["increment_ms"] == 0:
                clocks[(message["game_id"], message["ply"])] = {"black": clock["black_ms"], "white": clock["white_ms"]}
        room = message.get("room") if kind == "room" else None
        if isinstance(room, dict) and room.get("game_id"):
            for ply, stone in enumerate(room["moves"], start=1):
                claims[(room["game_id"], ply)].add((stone["x"], stone["y"]))
        about = room if isinstance(room, dict) else message
        if "seq" in about and "room_id" in about:
            key = (told.client, about["room_id"])
            if about["seq"] < last_seq.get(key, -1):
                verdict.stale.append(f"{told.client} told {kind} seq {about['seq']} after {last_seq[key]}")
            last_seq[key] = max(about["seq"], last_seq.get(key, -1))
    for (game_id, ply), points in claims.items():
        if len(points) > 1:
            verdict.forked.append(f"{game_id} ply {ply}: {sorted(points)}")
    for (game_id, ply), clock in clocks.items():
        before = clocks.get((game_id, ply - 1))
        if before is not None and any(clock[color] > before[color] for color in clock):
            verdict.clocks_backwards.append(f"{game_id} ply {ply}: {before} then {clock}")


def _check_results_and_ratings(history: History, stored: _Stored, verdict: Verdict) -> None:
    """Each told result is the stored one; each rated finished game rated once."""
    for told in history.told:
        message = told.message
        if message.get("type") != "game_over":
            continue
        game_id = message["game_id"]
        result = message["result"]
        if stored.results.get(game_id) != (result["winner"], result["reason"]):
            verdict.results_wrong.append(f"{game_id}: told {result}, stored {stored.results.get(game_id)}")
    for game_id in stored.rated & set(stored.results):
        if stored.rating_rows.get(game_id, 0) != 2:
            verdict.ratings_wrong.append(f"{game_id}: {stored.rating_rows.get(game_id, 0)} rating changes")
    for name, (games, changes) in stored.games_by_player.items():
        if games != changes:
            verdict.ratings_wrong.append(f"{name}: {games} rated games counted, {changes} rating changes")


def _unavailability(history: History) -> tuple[dict[str, float], dict[str, str]]:
    """Per room, the longest span from a request refused `unavailable` or unanswered to the answer of
    the next one served (or, for a room its players gave up, to their last ask), and the last
    refusal's words in it."""
    longest: dict[str, float] = {}
    because: dict[str, str] = {}
    failing_since: dict[str, tuple[float, str]] = {}
    last_asked: dict[str, float] = {}
    for asked in sorted(history.asked, key=lambda asked: asked.sent_at):
        room_id = asked.request.get("room_id")
        if room_id is None:
            continue
        answer = asked.answer
        last_asked[room_id] = asked.answered_at or asked.sent_at
        if answer is None or answer.get("code") == "unavailable":
            since = failing_since.get(room_id, (asked.sent_at, ""))[0]
            failing_since[room_id] = (since, "no answer" if answer is None else str(answer.get("message")))
            continue
        if room_id in failing_since:
            _note_span(longest, because, room_id, failing_since.pop(room_id), asked.answered_at or asked.sent_at)
    for room_id, (since, words) in failing_since.items():  # never served again: asked until given up
        _note_span(longest, because, room_id, (since, f"given up; {words}"), last_asked[room_id])
    return longest, because


def _note_span(
    longest: dict[str, float], because: dict[str, str], room_id: str, failing: tuple[float, str], until: float
) -> None:
    since, words = failing
    if until - since >= longest.get(room_id, 0.0):
        longest[room_id] = until - since
        because[room_id] = words
