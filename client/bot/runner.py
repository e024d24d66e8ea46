"""The running `gomoku-bot`: its connection to the server, its games and their engine processes.

`BotRunner.run` connects, signs in as a bot account, and serves messages
until it is stopped; when the connection drops it waits a little (longer
after each failure, up to RECONNECT_LONGEST_S) and connects again, signs in
with its token, and joins the rooms `welcome` lists to resume its games.
Requests and answers follow the wire protocol only.

Each room where it holds a seat has a `GameDriver`: the room's `BotGame`
(what the server said) and one engine process (`brains.process`),
started when first needed and kept for the room's next game. A driver
thinks in a task of its own, so several games go on at once; it plays a
move only if the position is still the one it thought about. An engine that
fails is killed and asked again in a fresh process; if that fails too, the
bot resigns the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from brains.process import BrainFailure, BrainProcess
from client.bot.game import BotGame, step_model
from client.bot.settings import BotSettings
from client.tokens import TokenStore, TokenStoreError
from engine.gomocup_manager import TimeLimits
from wire.messages import (
    MAX_FRAME_BYTES,
    AcceptSeek,
    ClientMessage,
    DrawOffered,
    ErrorMessage,
    GameOver,
    Hello,
    JoinRoom,
    LeaveRoom,
    ListRooms,
    Lobby,
    Move,
    Moved,
    OpeningStep,
    OpeningStepped,
    Rematch,
    RematchOffered,
    Resign,
    RoomId,
    RoomMessage,
    Rooms,
    SeekAdded,
    SeekCreated,
    SeekModel,
    SeekRemoved,
    SeekRequest,
    ServerEvent,
    Undone,
    UndoRequested,
    WatchLobby,
    Welcome,
    parse_server_message,
)

logger = logging.getLogger("gomoku-bot")

_T = TypeVar("_T")

RoomEvent = Moved | Undone | GameOver | DrawOffered | UndoRequested | RematchOffered | OpeningStepped
"""The events of a room the bot follows."""

RECONNECT_FIRST_S = 1.0
"""The pause before reconnecting after a drop; it doubles with each failure in a row."""
RECONNECT_LONGEST_S = 30.0
ROOM_POLL_S = 3.0
"""How often the room list is read, when the bot joins open rooms."""
LEAVE_AFTER_S = 20.0
"""How long the bot stays in a finished room, for a rematch, before it leaves."""
ENGINE_ATTEMPTS = 2
"""Processes one question may fail in (the second a fresh one) before the bot resigns."""


class BotRunner:
    """A bot account on one server, playing with one engine command."""

    def __init__(
        self,
        url: str,
        name: str,
        engine: Sequence[str],
        settings: BotSettings,
        tokens: TokenStore | None,
        password: str | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.engine = tuple(engine)
        self.settings = settings
        self._tokens = tokens
        self._token: str | None = None
        self._password = password
        """The account's password (accounts), for signing in where no token is kept or it is refused."""
        self._hello_by_token = False
        """Whether the last hello sent a token (refused, it is tried again with the password)."""
        self.rating = 1500
        self.drivers: dict[RoomId, GameDriver] = {}
        self._websocket: ClientConnection | None = None
        self._send_lock = asyncio.Lock()
        self._seeking: str | None = None
        """The id of the bot's own seek waiting in the lobby ("" while asked for)."""
        self._joining: set[str] = set()
        """Rooms and seeks the bot has asked to join, not answered yet."""
        self._seeks: dict[str, SeekModel] = {}
        """The lobby's seeks, to look at again when a game ends."""
        self.signed_in = asyncio.Event()
        """Set once signed in (for tests and logs)."""

    # -------------------------------------------------------------- running

    async def run(self) -> None:
        """Play until cancelled: connect, serve, and after a drop connect again."""
        failures = 0
        try:
            while True:
                try:
                    async with websockets.connect(self.url, max_size=MAX_FRAME_BYTES, open_timeout=10) as websocket:
                        failures = 0
                        await self._serve(websocket)
                except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
                    logger.warning("connection to %s lost or refused: %s", self.url, error)
                finally:
                    self._websocket = None
                    self.signed_in.clear()
                failures += 1
                await asyncio.sleep(min(RECONNECT_FIRST_S * 2 ** (failures - 1), RECONNECT_LONGEST_S))
        finally:
            await asyncio.gather(*(driver.close() for driver in self.drivers.values()), return_exceptions=True)

    async def _serve(self, websocket: ClientConnection) -> None:
        self._websocket = websocket
        self._seeking = None
        self._joining.clear()
        self._seeks.clear()
        await self._hello(self._token or self._saved_token())
        poller = asyncio.get_running_loop().create_task(self._poll_rooms())
        try:
            async for frame in websocket:
                if isinstance(frame, str):
                    with contextlib.suppress(ValueError):  # a message of a later protocol
                        await self._handle(parse_server_message(frame))
        finally:
            poller.cancel()

    async def _hello(self, token: str | None) -> None:
        """Sign in with the token, else with the password (a new device of the account), else as a
        new name."""
        self._hello_by_token = token is not None
        if token is None and self._password is not None:
            hello = Hello(name=self.name, password=self._password, device="gomoku-bot", kind="bot", id="hello:")
        else:
            hello = Hello(name=self.name, token=token, kind="bot", id="hello:")
        await self.send(hello)

    def _saved_token(self) -> str | None:
        """The token kept from an earlier run, if any."""
        if self._tokens is None:
            return None
        try:
            return self._tokens.get(self.url, self.name)
        except TokenStoreError as error:
            raise BotStopped(str(error)) from None

    async def send(self, message: ClientMessage) -> None:
        """Send a request if connected (a request lost to a drop is made good by the resync after it)."""
        websocket = self._websocket
        if websocket is None:
            return
        async with self._send_lock:
            with contextlib.suppress(ConnectionClosed):
                await websocket.send(message.to_wire())

    # ------------------------------------------------------------- messages

    async def _handle(self, message: ServerEvent) -> None:
        match message:
            case Welcome():
                await self._welcome(message)
            case ErrorMessage():
                await self._refused(message)
            case RoomMessage():
                await self._room(message)
            case Lobby():
                self._seeks = {seek.seek_id: seek for seek in message.seeks}
                await self._look_for_games()
            case SeekAdded():
                self._seeks[message.seek.seek_id] = message.seek
                await self._consider_seek(message.seek)
            case SeekCreated() if message.seek.by.name == self.name:
                self._seeking = message.seek.seek_id
            case SeekRemoved():
                self._seeks.pop(message.seek_id, None)
                if message.seek_id == self._seeking:
                    self._seeking = None
                    await self._seek_if_free()
            case Rooms():
                await self._consider_rooms(message)
            case (
                Moved() | Undone() | GameOver() | DrawOffered() | UndoRequested() | RematchOffered() | OpeningStepped()
            ):
                await self._room_event(message)
            case _:
                pass

    async def _welcome(self, welcome: Welcome) -> None:
        self.name = welcome.player.name  # as the server writes it (names are compared ignoring case)
        self._token = welcome.token
        self.rating = welcome.player.rating
        if self._tokens is not None:
            try:
                self._tokens.put(self.url, self.name, welcome.token)
            except TokenStoreError as error:
                logger.warning("%s; the bot cannot come back as %s after a restart without it", error, self.name)
        kind, rooms = welcome.player.kind, len(welcome.rooms)
        logger.info("signed in as %s (%s, rated %d); resuming %d games", self.name, kind, self.rating, rooms)
        self.signed_in.set()
        for driver in self.drivers.values():
            driver.forget_what_was_sent()
        for room_id in welcome.rooms:
            await self.send(JoinRoom(room_id=room_id))
        if self.settings.accept_seeks:
            await self.send(WatchLobby())
        else:
            await self._seek_if_free()

    async def _refused(self, error: ErrorMessage) -> None:
        request = str(error.id or "")
        kind, _, subject = request.partition(":")
        if kind == "hello" and self._hello_by_token and self._password is not None:
            logger.info("the token of %s was refused (%s); signing in with the password", self.name, error.message)
            self._token = None
            await self._hello(None)
            return
        if kind == "hello":
            raise BotStopped(f"the server refused to sign in {self.name}: {error.message} ({error.code})")
        if kind in ("accept", "join"):
            self._joining.discard(subject)
        elif kind == "seek":
            self._seeking = None
        elif kind in ("move", "step") and subject in self.drivers:
            logger.info("room %s: %s refused (%s); reading the room again", subject, kind, error.message)
            await self.send(JoinRoom(room_id=RoomId(subject)))
        elif error.code not in ("not_found", "room_full"):
            logger.info("the server refused a request: %s (%s)", error.message, error.code)

    async def _room(self, message: RoomMessage) -> None:
        room_id = message.room.room_id
        self._joining.discard(str(message.id or "").partition(":")[2])  # an accepted seek, a joined room
        driver = self.drivers.get(room_id)
        if driver is None:
            if message.you == "spectator":
                return
            driver = self.drivers[room_id] = GameDriver(self, BotGame(room_id, self.name))
            logger.info("room %s: playing %s as %s", room_id, _opponent(message), message.you)
        before = driver.game.game_id
        driver.game.take_snapshot(message)
        if driver.game.game_id != before and driver.game.playing:
            logger.info("room %s: game %s begins", room_id, driver.game.game_id)
        driver.changed()

    async def _room_event(self, message: RoomEvent) -> None:
        driver = self.drivers.get(message.room_id)
        if driver is None:
            return
        game = driver.game
        if not game.follows(message.seq):
            await self.send(JoinRoom(room_id=game.room_id))
            return
        match message:
            case Moved():
                game.take_move(message)
            case Undone():
                game.take_undo(message)
            case GameOver():
                game.take_game_over(message)
                logger.info("room %s: game over: %s", game.room_id, message.result.model_dump(exclude_none=True))
                await self._look_for_games()
            case RematchOffered():
                if message.by != str(game.color) and self.settings.rematch and self.free_seats() > 0:
                    await self.send(Rematch(room_id=game.room_id))
            case DrawOffered() | UndoRequested():
                for answer in game.answers(message, self.settings.accept_draws):
                    await self.send(answer)
            case OpeningStepped():
                pass  # the `room` that follows carries the opening's new state
        driver.changed()

    # ------------------------------------------------------ finding games

    def free_seats(self) -> int:
        """How many more games the bot may start now."""
        playing = sum(1 for driver in self.drivers.values() if driver.game.playing)
        return self.settings.max_games - playing - len(self._joining) - (1 if self._seeking is not None else 0)

    async def _look_for_games(self) -> None:
        """With a seat free: accept a seek waiting in the lobby, or else seek a game."""
        for seek in list(self._seeks.values()):
            await self._consider_seek(seek)
        await self._seek_if_free()

    async def _consider_seek(self, seek: SeekModel) -> None:
        if seek.seek_id in self._joining or self.free_seats() <= 0:
            return
        if not self.settings.accepts_seek(seek, self.name, self.rating):
            return
        self._joining.add(seek.seek_id)
        await self.send(AcceptSeek(seek_id=seek.seek_id, id=f"accept:{seek.seek_id}"))

    async def _consider_rooms(self, rooms: Rooms) -> None:
        for room in rooms.rooms:
            if self.free_seats() <= 0:
                return
            if room.room_id not in self.drivers and self.settings.accepts_room(room, self.name):
                self._joining.add(room.room_id)
                await self.send(JoinRoom(room_id=room.room_id, id=f"join:{room.room_id}"))

    async def _poll_rooms(self) -> None:
        while True:
            await asyncio.sleep(ROOM_POLL_S)
            if self.settings.join_rooms and self.signed_in.is_set() and self.free_seats() > 0:
                await self.send(ListRooms())

    async def _seek_if_free(self) -> None:
        terms = self.settings.seek
        if terms is None or self._seeking is not None or self.free_seats() <= 0:
            return
        self._seeking = ""
        await self.send(SeekRequest(rule=terms.rule, size=terms.size, clock=terms.clock, rated=terms.rated, id="seek:"))

    def room_done(self, room_id: RoomId) -> None:
        """A driver has left its room."""
        self.drivers.pop(room_id, None)


class BotStopped(Exception):
    """The bot cannot go on (the server refused to sign it in); the message says why."""


def _opponent(message: RoomMessage) -> str:
    seats = {"black": message.room.black, "white": message.room.white}
    other = seats.get("white" if message.you == "black" else "black")
    return "(nobody yet)" if other is None else f"{other.name} ({other.kind})"


class GameDriver:
    """One room of the bot: its game as the server tells it, its engine process, its thinking."""

    def __init__(self, runner: BotRunner, game: BotGame) -> None:
        self.runner = runner
        self.game = game
        self._brain: BrainProcess | None = None
        self._task: asyncio.Task[None] | None = None
        self._acted: tuple[str | None, int] | None = None
        """The position (game and event number) the bot last answered, so as not to answer it twice."""
        self._leaving: asyncio.TimerHandle | None = None

    @property
    def engine_pid(self) -> int | None:
        """The process id of the room's engine, while it runs."""
        return None if self._brain is None or not self._brain.running else self._brain.pid

    def forget_what_was_sent(self) -> None:
        """After a reconnection: a move sent before the drop may be lost, so answer again."""
        self._acted = None

    def changed(self) -> None:
        """The room changed: act if the bot is to act and is not thinking already; once its game is
        over, leave the room after a while, unless a rematch begins."""
        game = self.game
        if game.playing and self._leaving is not None:
            self._leaving.cancel()
            self._leaving = None
        elif not game.playing and self._leaving is None:
            self._leaving = asyncio.get_running_loop().call_later(LEAVE_AFTER_S, lambda: self._spawn(self._leave()))
        if self._task is not None and not self._task.done():
            return
        key = (game.game_id, game.seq)
        action = game.to_act()
        if game.unplayable_opening() and self._acted != key:
            self._acted = key
            self._spawn(self._resign("its engine cannot take this opening's decisions"))
        elif action is not None and self._acted != key:
            self._acted = key
            self._spawn(self._move() if action == "move" else self._swap2())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        self._task = asyncio.get_running_loop().create_task(work)
        self._task.add_done_callback(self._after_task)

    def _after_task(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            logger.error("room %s: %s", self.game.room_id, task.exception())
        if self._task is task:
            self._task = None
            self.changed()

    def _limits(self) -> tuple[TimeLimits, float]:
        """The engine's limits for the bot's turn now, and how long to wait for its answer."""
        game, settings = self.game, self.runner.settings
        assert game.color is not None
        limits = settings.move_limits(game.clock, game.time_control, game.color)
        return limits, (limits.turn_ms + settings.tolerance_ms) / 1000

    async def _move(self) -> None:
        game = self.game
        moves = tuple(game.moves)
        limits, timeout_s = self._limits()
        point = await self._ask(lambda brain: brain.move(moves, limits, timeout_s))
        if point is not None and tuple(self.game.moves) == moves and self.game.to_act() == "move":
            await self.runner.send(Move(room_id=game.room_id, x=point.x, y=point.y, id=f"move:{game.room_id}"))

    async def _swap2(self) -> None:
        game = self.game
        stones = tuple(game.moves)
        limits, timeout_s = self._limits()
        decided = await self._ask(lambda brain: brain.swap2(stones, limits, timeout_s))
        if decided is not None and tuple(self.game.moves) == stones and self.game.to_act() == "swap2":
            step = OpeningStep(room_id=game.room_id, step=step_model(decided.step), id=f"step:{game.room_id}")
            await self.runner.send(step)

    async def _ask(self, question: Callable[[BrainProcess], Awaitable[_T]]) -> _T | None:
        """Ask the engine (a fresh process after a failure); resign the game if it fails twice."""
        failures = []
        for _ in range(ENGINE_ATTEMPTS):
            try:
                return await question(await self._ready())
            except BrainFailure as failure:
                logger.warning("room %s: engine failed: %s", self.game.room_id, failure)
                failures.append(str(failure))
                await self._drop_brain()
        await self._resign(f"its engine failed twice: {'; '.join(failures)}")
        return None

    async def _ready(self) -> BrainProcess:
        runner, game = self.runner, self.game
        if self._brain is None or not self._brain.running:
            self._brain = await BrainProcess.start(runner.engine, f"engine of room {game.room_id}")
        if self._brain.game != game.game_id:
            await self._brain.new_game(game.size, game.rule, runner.settings.start_timeout_s)
            self._brain.game = game.game_id
        return self._brain

    async def _drop_brain(self) -> None:
        if self._brain is not None:
            await self._brain.kill()
            self._brain = None

    async def _resign(self, reason: str) -> None:
        logger.warning("room %s: resigning: %s", self.game.room_id, reason)
        await self.runner.send(Resign(room_id=self.game.room_id))

    async def _leave(self) -> None:
        if self.game.playing:
            return
        await self.runner.send(LeaveRoom(room_id=self.game.room_id))
        self.runner.room_done(self.game.room_id)
        await self.close()

    async def close(self) -> None:
        """Stop thinking and close the engine."""
        if self._leaving is not None:
            self._leaving.cancel()
        task = self._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._brain is not None:
            await self._brain.close()
            self._brain = None
