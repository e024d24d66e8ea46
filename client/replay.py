"""Stepping through a stored game move by move (pure: a record in, screens of text out)."""

from __future__ import annotations

from client.render import render_board
from client.text import counted, describe_result
from engine.board import Board
from engine.notation import format_point
from engine.record import GameRecord, PlayerInfo
from engine.types import Color, GameResult

REPLAY_HELP = "replay: Enter or n next, p back, first, last, a move NUMBER to jump, q to stop"


class Replay:
    """A game record with a cursor: how many of its moves are on the board."""

    def __init__(self, record: GameRecord) -> None:
        """Start before the first move. Raises RecordFormatError if the moves are not a legal game."""
        record.to_board()
        self.record = record
        self.ply = 0
        """How many moves are shown."""

    @property
    def length(self) -> int:
        """How many moves the game has."""
        return len(self.record.moves)

    def go_to(self, ply: int) -> None:
        """Show the position after `ply` moves (clamped to the game)."""
        self.ply = min(max(ply, 0), self.length)

    def navigate(self, line: str) -> bool:
        """Move the cursor as a replay command asks; False if `line` is not one (q is handled by the caller)."""
        word = line.strip().lower()
        if word in ("", "n", "next"):
            self.go_to(self.ply + 1)
        elif word in ("p", "prev", "back"):
            self.go_to(self.ply - 1)
        elif word in ("first", "start"):
            self.go_to(0)
        elif word in ("last", "end"):
            self.go_to(self.length)
        elif word.isdigit():
            self.go_to(int(word))
        else:
            return False
        return True

    def screen(self) -> str:
        """The title, the position at the cursor with its last move marked, and what happened."""
        record = self.record
        board = Board(record.size, record.rule)
        for move in record.moves[: self.ply]:
            board.push(move.point)
        title = (
            f"game {record.game_id or '(no id)'}: {_player(record.black)} (black) vs {_player(record.white)} (white), "
            f"{record.rule} {record.size}x{record.size}"
        )
        lines = [title, render_board(board, board.last_move)]
        if self.ply == 0:
            lines.append(f"start of the game, {counted(self.length, 'move')}")
        else:
            move = record.moves[self.ply - 1]
            thought = f" ({move.time_ms / 1000:.1f} s)" if move.time_ms is not None else ""
            lines.append(
                f"move {self.ply}/{self.length}: {move.color} {format_point(move.point, record.size)}{thought}"
            )
        if self.ply == self.length:
            lines.append(_result(record.result, record) if record.result else "the game is unfinished")
        return "\n".join(lines)


def _player(player: PlayerInfo) -> str:
    return f"{player.name} (bot {player.level})" if player.kind == "bot" and player.level else player.name


def _result(result: GameResult, record: GameRecord) -> str:
    names = {Color.BLACK: record.black.name, Color.WHITE: record.white.name}
    return describe_result(result.winner, result.reason.value, names)
