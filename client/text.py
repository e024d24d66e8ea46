"""Sentences and tables that tell the player what the server said (pure: messages in, text out)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from client.render import format_clock_setting
from client.state import clock_setting
from engine.types import Color
from wire.messages import (
    BotInfoModel,
    ClockSettingModel,
    ErrorMessage,
    GameSummaryModel,
    PlayerInfoModel,
    RoomSummaryModel,
    SeatModel,
)

_WIN_REASONS = {
    "five": "with five in a row",
    "resign": "by resignation",
    "timeout": "on time",
    "abandoned": "as the opponent abandoned the game",
}
_DRAW_REASONS = {
    "draw_agreed": "draw by agreement",
    "full_board": "draw: the board is full",
}

PROVISIONAL_RD = 110
"""A rating whose deviation is above this is provisional (the server ranks such players last)."""

_DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a line could show other words than it holds."""
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
"""Zero-width and invisible characters: two names or words could look alike and differ."""


def printable(text: str) -> str:
    """`text` as it can safely go to a terminal: every character kept, but control characters (escape
    sequences, carriage returns, line breaks), direction overrides and zero-width characters written as
    `\\x1b`, `\\u202e` or `\\u200b`, so that a line from someone else can neither move the cursor nor
    disguise itself."""
    return "".join(_escaped(character) for character in text)


def printable_lines(text: str) -> str:
    """`text` of the client's own making, lines and tabs kept, as it can safely go to a terminal: what
    it quotes from the server (names, chat, reasons, tournament names) is `printable` in each line."""
    return "\n".join("\t".join(printable(cell) for cell in line.split("\t")) for line in text.split("\n"))


def _escaped(character: str) -> str:
    hidden = character in _DIRECTION_CONTROLS or character in _INVISIBLE
    if unicodedata.category(character) in ("Cc", "Zl", "Zp") or hidden:
        code = ord(character)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return character


def format_rating(rating: int, rd: int | None) -> str:
    """A rating, marked `?` while provisional: `1500?`."""
    return f"{rating}?" if rd is not None and rd > PROVISIONAL_RD else str(rating)


def describe_result(winner: Color | None, reason: str, names: Mapping[Color, str]) -> str:
    """One sentence saying how a game ended, naming the winner."""
    if winner is None:
        return _DRAW_REASONS.get(reason, f"draw ({reason})")
    how = _WIN_REASONS.get(reason, f"({reason})")
    return f"{winner} ({names.get(winner, '?')}) wins {how}"


def seat_name(seat: SeatModel | PlayerInfoModel | None) -> str:
    """Who sits on a seat, to name them in a sentence: a name, `bot LEVEL`, or `(open)`."""
    if seat is None:
        return "(open)"
    if seat.kind == "bot":
        return f"bot {seat.level or seat.name}"
    return seat.name


def describe_seat(seat: SeatModel | PlayerInfoModel | None) -> str:
    """Who sits on a seat, as a header shows it: `seat_name`, marked `(away)` while disconnected."""
    if isinstance(seat, SeatModel) and seat.kind == "human" and not seat.connected:
        return f"{seat.name} (away)"
    return seat_name(seat)


def describe_rated_seat(seat: SeatModel | None) -> str:
    """Who sits on a seat, with their rating when the server gives it: `alice (1500)`, `bob (1500?, away)`."""
    if seat is None or seat.rating is None:
        return describe_seat(seat)
    away = ", away" if seat.kind == "human" and not seat.connected else ""
    return f"{seat_name(seat)} ({format_rating(seat.rating, seat.rd)}{away})"


def describe_rooms(rooms: list[RoomSummaryModel]) -> str:
    """The room list as a table, or a sentence when there is none."""
    if not rooms:
        return "no rooms yet: 'create' opens one"
    lines = [
        f"{'room':<12} {'rule':<10} {'size':>5}  {'clock':<7} {'rated':<5} {'status':<9} {'black':<22} "
        f"{'white':<22} watching"
    ]
    for room in rooms:
        lines.append(
            f"{room.room_id:<12} {room.rule.value:<10} {room.size:>5}  {describe_clock_setting(room.clock):<7} "
            f"{'yes' if room.rated else 'no':<5} {room.status:<9} {describe_rated_seat(room.black):<22} "
            f"{describe_rated_seat(room.white):<22} {room.spectators}"
        )
    return "\n".join(lines)


def describe_clock_setting(clock: ClockSettingModel | None) -> str:
    """A room's time control as `5+3`, or `-` when untimed."""
    return "-" if clock is None else format_clock_setting(clock_setting(clock))


def record_text(record: dict[str, Any] | str) -> str:
    """A stored game's record, as `get_game` carries it, as the text of its file: PSQ and SGF as
    they come, JSON laid out for people to read."""
    return record if isinstance(record, str) else json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def describe_bots(bots: list[BotInfoModel]) -> str:
    """The bot levels with ratings and descriptions."""
    if not bots:
        return "this server has no bots"
    width = max(len(bot.level) for bot in bots)
    lines = [f"{'level':<{width}}  rating  about"]
    for bot in bots:
        rating = "-" if bot.rating is None else str(bot.rating)
        lines.append(f"{bot.level:<{width}}  {rating:>6}  {bot.description}{_search_bounds(bot)}")
    return "\n".join(lines)


def counted(count: int, noun: str) -> str:
    """ "1 move", "2 moves": a count with its noun, singular for one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _search_bounds(bot: BotInfoModel) -> str:
    """What `create ... depth N width N` may set for this level, if anything."""
    if bot.depth is None or bot.width is None:
        return ""
    return f" (depth {bot.depth.min}-{bot.depth.max}, width {bot.width.min}-{bot.width.max})"


def describe_games(games: list[GameSummaryModel]) -> str:
    """The game list, newest first, with players, length and result."""
    if not games:
        return "no games found"
    lines = []
    for game in games:
        if game.result is None:
            outcome = "playing" if game.status == "playing" else "unfinished"
        else:
            winner = Color.parse(game.result.winner) if game.result.winner else None
            names = {Color.BLACK: game.black.name, Color.WHITE: game.white.name}
            outcome = describe_result(winner, game.result.reason.value, names)
        started = (game.started_at or "")[:16].replace("T", " ")
        lines.append(
            f"{game.game_id:<12} {started:<16} {describe_seat(game.black)} vs {describe_seat(game.white)}, "
            f"{game.rule.value} {game.size}x{game.size}, {counted(game.moves, 'move')}: {outcome}"
        )
    return "\n".join(lines)


def describe_refused_sign_in(name: str, error: ErrorMessage) -> str:
    """Why the server refused `hello`, and what to do about it."""
    if error.code == "name_taken":
        return (
            f"the name {name!r} belongs to another player (or the saved token for it is not valid here); "
            "if it is yours and kept with a password, sign in with 'gomoku login'; else pick another name with --name"
        )
    return f"the server refused the sign-in: {error.message} ({error.code})"
