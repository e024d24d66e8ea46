"""`gomoku review GAME_ID` and `gomoku puzzles`: a finished game's marks with their lines, and the
starting set's puzzles solved from standard input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from client_harness import RunningServer, gomoku_command, run_command
from core_harness import sent, shown, signed_in_core

from client.commands import CommandError, parse_command
from client.connection import Connection
from client.tokens import TokenStore
from engine.notation import format_point, parse_point
from wire.messages import AnalysisMoveModel, CreateRoom, JoinRoom, Move, RoomMessage
from wire.review import GameReviewMessage, GameReviewModel, MarkModel
from wire.review_requests import NextPuzzle, ReviewGame

BOT_GAME = "h8 h9 d7 g10 f11 i10 g8 i8 i7 j9 g9 f10 h10 k8 h11 i11 k6 k10 h7 i9 i12 k9 l9 k11 k12 k7"
"""easy - medium (tests/engine/test_game_review.py): black's h10, move 13, lets white win by threats."""


async def play_bot_game(server: RunningServer, tmp_path: Path) -> str:
    """BOT_GAME played by ann and bob; its game id."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    tokens = TokenStore(tmp_path / "players")
    async with Connection.signed_in(url, "ann", tokens) as black, Connection.signed_in(url, "bob", tokens) as white:
        created = await black.request_answer(CreateRoom(), RoomMessage)
        room_id = created.room.room_id
        joined = await white.request_answer(JoinRoom(room_id=room_id), RoomMessage)
        for ply, word in enumerate(BOT_GAME.split()):
            point = parse_point(word, 15)
            await (black if ply % 2 == 0 else white).request(Move(room_id=room_id, x=point.x, y=point.y))
    assert joined.room.game_id is not None
    return joined.room.game_id


async def test_review_prints_the_turning_point_and_each_mark_with_its_line(
    running_server: RunningServer, tmp_path: Path
) -> None:
    game_id = await play_bot_game(running_server, tmp_path)
    done = await run_command(gomoku_command(running_server.port, tmp_path, "sam", "review", game_id))
    assert (done.status, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "turning point: move 13"
    assert lines[1].startswith("move 13 (black): blunder, white wins by threes and fours: j7 ")
    as_json = await run_command(gomoku_command(running_server.port, tmp_path, "sam", "review", game_id, "--json"))
    assert json.loads(as_json.stdout)["marks"][0]["ply"] == 12


async def test_review_of_an_unknown_game_fails_with_the_servers_reason(
    running_server: RunningServer, tmp_path: Path
) -> None:
    done = await run_command(gomoku_command(running_server.port, tmp_path, "sam", "review", "nothing-here"))
    assert done.status == 1
    assert "no game" in done.stderr


async def test_puzzles_offers_a_starting_puzzle_and_a_right_line_solves_it(
    running_server: RunningServer, tmp_path: Path
) -> None:
    url = f"ws://127.0.0.1:{running_server.port}/ws"
    async with Connection.signed_in(url, "sam", TokenStore(tmp_path / "config")) as connection:
        offered = (await connection.request(NextPuzzle())).model_dump()["puzzle"]
    app = running_server._running[0]  # noqa: SLF001 - the harness keeps the server it started
    puzzle = await app.storage.puzzle(offered["puzzle_id"])
    assert puzzle is not None
    attacker_moves = "\n".join(format_point(point, puzzle.size) for point in puzzle.solution[::2]) + "\n"
    done = await run_command(
        gomoku_command(running_server.port, tmp_path, "sam", "puzzles", "--count", "1"), attacker_moves.encode()
    )
    assert (done.status, done.stderr) == (0, "")
    assert f"{offered['to_move']} to play and win" in done.stdout
    assert "solved: " in done.stdout and "your puzzle rating 1500 -> " in done.stdout
    assert done.stdout.rstrip().endswith("solved 1 of 1")


def test_the_interactive_review_command_asks_and_prints_the_marks() -> None:
    core = signed_in_core()
    [request] = sent(core.handle_line("review g42"))
    assert isinstance(request, ReviewGame) and request.game_id == "g42"
    line = [AnalysisMoveModel(x=9, y=8, move="j7"), AnalysisMoveModel(x=10, y=9, move="k6")]
    mark = MarkModel(ply=12, kind="blunder", player="black", win="vct", line=line)
    review = GameReviewModel(
        game_id="g42",
        evaluations=[],
        marks=[mark],
        turning_point=12,
        reviewed_at="2026-11-27T13:00:00Z",
        budget_nodes=1,
    )
    printed = shown(core.handle_message(GameReviewMessage(review=review, id=request.id)))
    assert printed == "turning point: move 13\nmove 13 (black): blunder, white wins by threes and fours: j7 k6"
    with pytest.raises(CommandError, match="one game id"):
        parse_command("review")
