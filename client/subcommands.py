"""`gomoku bots`, `rooms`, `games`, `export`, `import`, `top`, `online`, `seeks` and `profile`: one
request (or one list, page by page), plain text out.

Lists print one line per item, fields separated by tabs, with `-` for an
empty field and no header, so that `cut`, `awk` and `while read` take them
apart; `--json` prints each item as the server sent it instead, one JSON
object per line. The columns are named in `gomoku SUBCOMMAND --help`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Literal, TextIO

from pydantic import ValidationError

from client import web_api
from client.commands import RecordFormat
from client.connection import Connection, ScriptError
from client.text import describe_clock_setting, printable, record_text
from engine.game_import import UploadTerms
from wire.imports import GamesImported, ImportFileModel, ImportGames
from wire.messages import (
    PAGE_LIMIT,
    Bots,
    GameId,
    GameMessage,
    Games,
    GameSummaryModel,
    GetGame,
    Leaderboard,
    LeaderboardMessage,
    ListBots,
    ListGames,
    ListRooms,
    Lobby,
    OnlinePlayers,
    PlayerInfoModel,
    ProfileModel,
    RoomId,
    Rooms,
    RoomSummaryModel,
    SeatModel,
    WatchLobby,
    WhoIsOnline,
    WireModel,
)
from wire.moderation import DeleteGames
from wire.moderation_events import GamesDeleted

BOT_COLUMNS = ("level", "rating", "description")
ROOM_COLUMNS = ("room", "status", "rule", "size", "clock", "black", "white", "spectators")
GAME_COLUMNS = (
    "game",
    "status",
    "winner",
    "reason",
    "black",
    "white",
    "rule",
    "size",
    "moves",
    "started_at",
    "ended_at",
)
"""The tab-separated fields of each list, in order (`winner` is black, white, draw or -)."""
LEADERBOARD_COLUMNS = ("name", "kind", "rating", "rd", "games")
ONLINE_COLUMNS = ("name", "rating", "status")
SEEK_COLUMNS = ("seek", "by", "rating", "rule", "size", "clock", "rated", "color", "rating_min", "rating_max", "quick")
"""`rated` and `quick` are yes or no; `color` is the colour the seeker plays (black, white or random)."""
IMPORT_COLUMNS = ("game", "file", "index", "format", "black", "white", "moves")
"""`index` is the game's place in its file, from 1; `format` is psq, sgf or moves."""
PROFILE_COLUMNS = ("name", "kind", "rating", "rd", "games", "wins", "losses", "draws")


async def list_bots(connection: Connection, out: TextIO, as_json: bool = False) -> None:
    """The bot levels: level, rating, description."""
    answer = await connection.request(ListBots())
    bots = answer.bots if isinstance(answer, Bots) else []
    if as_json:
        _json_lines(out, bots)
        return
    for bot in bots:
        _row(out, bot.level, bot.rating, bot.description)


async def list_rooms(connection: Connection, out: TextIO, as_json: bool = False, page_size: int = PAGE_LIMIT) -> None:
    """Every listed room, page after page, in room id order."""
    after: RoomId | None = None
    while True:
        answer = await connection.request_answer(ListRooms(limit=page_size, after=after), Rooms)
        if as_json:
            _json_lines(out, answer.rooms)
        else:
            for room in answer.rooms:
                _room_row(out, room)
        if answer.next is None or answer.next == after:
            return
        after = answer.next


async def list_games(
    connection: Connection,
    out: TextIO,
    player: str,
    limit: int,
    before: GameId | None = None,
    as_json: bool = False,
    page_size: int = PAGE_LIMIT,
) -> None:
    """A player's games, newest first (older than `before` if given), `limit` of them at most, in pages."""
    left = limit
    while left > 0:
        request = ListGames(player=player, limit=min(left, page_size), before=before)
        answer = await connection.request_answer(request, Games)
        games = answer.games[:left]
        if as_json:
            _json_lines(out, games)
        else:
            for game in games:
                _game_row(out, game)
        left -= len(games)
        if answer.next is None or answer.next == before or not games:
            return
        before = answer.next


async def export_game(
    connection: Connection, game_id: GameId, record_format: RecordFormat, out: TextIO, path: Path | None
) -> None:
    """A stored game's record in `record_format`, written to `path` (or to `out` when None)."""
    answer = await connection.request_answer(GetGame(game_id=game_id, format=record_format), GameMessage)
    text = record_text(answer.record)
    if path is None:
        out.write(text)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ScriptError(f"cannot write {path}: {error.strerror or error}") from None


async def leaderboard(
    connection: Connection, out: TextIO, kind: Literal["human", "bot"] | None, limit: int, as_json: bool = False
) -> None:
    """The best rated players, best first (provisional ratings after the others, as the server ranks them)."""
    answer = await connection.request_answer(Leaderboard(limit=limit, kind=kind), LeaderboardMessage)
    if as_json:
        _json_lines(out, answer.players)
        return
    for player in answer.players:
        _row(out, player.name, player.kind, player.rating, player.rd, player.games)


async def online(connection: Connection, out: TextIO, as_json: bool = False) -> None:
    """Who is online (the first PAGE_LIMIT by name): name, rating, idle or playing."""
    answer = await connection.request_answer(WhoIsOnline(), OnlinePlayers)
    if as_json:
        _json_lines(out, answer.players)
        return
    for player in answer.players:
        _row(out, player.name, player.rating, player.status)


async def seeks(connection: Connection, out: TextIO, as_json: bool = False) -> None:
    """The seeks waiting in the lobby now (the newest hundred), oldest first."""
    answer = await connection.request_answer(WatchLobby(), Lobby)
    if as_json:
        _json_lines(out, answer.seeks)
        return
    for seek in answer.seeks:
        _row(
            out,
            seek.seek_id,
            seek.by.name,
            seek.by.rating,
            seek.rule.value,
            seek.size,
            describe_clock_setting(seek.clock),
            _yes_no(seek.rated),
            seek.color,
            seek.rating_min,
            seek.rating_max,
            _yes_no(seek.quick),
        )


async def profile(websocket_url: str, name: str, out: TextIO, as_json: bool = False) -> None:
    """A player's profile over HTTP: one line of PROFILE_COLUMNS, or the whole profile as JSON."""
    try:
        url = web_api.api_url(websocket_url, web_api.player_path(name))
    except web_api.NoHttpAddress as error:
        raise ScriptError(str(error)) from None
    answer = await asyncio.to_thread(web_api.get, url, 0)
    if answer.status == 404:
        raise ScriptError(f"there is no player named {name!r}")
    if answer.status != 200:
        raise ScriptError(answer.body if answer.status is None else f"{url} answered HTTP {answer.status}")
    try:
        player = ProfileModel.model_validate_json(answer.body)
    except ValidationError as error:
        raise ScriptError(f"{url} did not answer with a profile: {error.errors()[0]['msg']}") from None
    if as_json:
        _json_lines(out, [player])
        return
    results = (player.wins, player.losses, player.draws)
    _row(out, player.name, player.kind, player.rating, player.rd, player.games, *results)


async def delete_games(connection: Connection, out: TextIO, game_ids: list[GameId]) -> None:
    """Delete games (one's own casual games against bots; an admin's, any): `deleted GAME_ID` per game."""
    answer = await connection.request_answer(DeleteGames(game_ids=game_ids), GamesDeleted)
    for game_id in answer.game_ids:
        _row(out, "deleted", game_id)


async def import_games(
    connection: Connection, out: TextIO, paths: list[Path], terms: UploadTerms, private: bool = False
) -> None:
    """Upload the files' games under `terms` (the rule, board and names the files leave out): a line
    per game stored, or nothing stored and the server's reason (a ScriptError)."""
    files = [ImportFileModel(name=path.name, text=_read_text(path)) for path in paths]
    upload = ImportGames(
        files=files, rule=terms.rule, size=terms.size, black=terms.black, white=terms.white, private=private
    )
    answer = await connection.request_answer(upload, GamesImported)
    for game in answer.games:
        _row(out, game.game_id, game.file, game.index, game.source, game.black, game.white, game.moves)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text; nothing was imported") from None
    except OSError as error:
        raise ScriptError(f"{path}: {error.strerror}; nothing was imported") from None


def _room_row(out: TextIO, room: RoomSummaryModel) -> None:
    _row(
        out,
        room.room_id,
        room.status,
        room.rule.value,
        room.size,
        describe_clock_setting(room.clock),
        _name(room.black),
        _name(room.white),
        room.spectators,
    )


def _game_row(out: TextIO, game: GameSummaryModel) -> None:
    result = game.result
    winner = None if result is None else (result.winner or "draw")
    _row(
        out,
        game.game_id,
        game.status,
        winner,
        None if result is None else result.reason.value,
        _name(game.black),
        _name(game.white),
        game.rule.value,
        game.size,
        game.moves,
        game.started_at,
        game.ended_at,
    )


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _name(seat: SeatModel | PlayerInfoModel | None) -> str | None:
    """A seat as the name of who holds it (a bot's name is its level), None when open."""
    return None if seat is None else seat.name


def _row(out: TextIO, *fields: object) -> None:
    """One line of tab-separated fields; None is `-`, and no field may break the line or the columns,
    nor write a control character or a direction override to the terminal (`printable`)."""
    cells = ("-" if field is None else printable(" ".join(str(field).split())) or "-" for field in fields)
    out.write("\t".join(cells) + "\n")


def _json_lines(out: TextIO, items: Iterable[WireModel]) -> None:
    for item in items:
        out.write(item.model_dump_json() + "\n")
