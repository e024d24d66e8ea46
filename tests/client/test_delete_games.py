"""Deleting stored games from the terminal: `gomoku delete GAME...` and the client's `delete` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_harness import Completed, gomoku_command, run_command
from core_harness import sent, shown, signed_in_core

from client.commands import CommandError, parse_command
from client.moderation_commands import DeleteGamesCommand
from wire.messages import GameId
from wire.moderation import DeleteGames
from wire.moderation_events import GamesDeleted


async def gomoku(server_port: int, tmp_path: Path, *arguments: str, name: str = "sam", stdin: str = "") -> Completed:
    return await run_command(gomoku_command(server_port, tmp_path, name, *arguments), stdin.encode())


async def test_a_player_deletes_their_casual_games_against_a_bot_and_only_theirs(
    server_port: int, tmp_path: Path
) -> None:
    games = [(await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin="h8\n")) for _ in range(2)]
    game_ids = [played.stdout.split()[1] for played in games]

    refused = await gomoku(server_port, tmp_path, "delete", "--", game_ids[0], name="someone")
    assert refused.status == 1 and "not yours against a bot" in refused.stderr
    deleted = await gomoku(server_port, tmp_path, "delete", "--", *game_ids)
    assert (deleted.status, deleted.stderr) == (0, "")
    assert deleted.stdout == "".join(f"deleted\t{game_id}\n" for game_id in game_ids)
    gone = await gomoku(server_port, tmp_path, "export", "--", game_ids[0])
    assert gone.status == 1 and "there is no game" in gone.stderr
    assert (await gomoku(server_port, tmp_path, "games")).stdout == ""


def test_delete_reads_one_or_more_game_ids_each_once() -> None:
    assert parse_command("delete g1 g2 g1") == DeleteGamesCommand((GameId("g1"), GameId("g2")))
    with pytest.raises(CommandError, match="ids of the games"):
        parse_command("delete")
    with pytest.raises(CommandError, match="at most 100"):
        parse_command("delete " + " ".join(f"g{index}" for index in range(101)))


def test_the_client_asks_to_delete_and_says_what_was_deleted() -> None:
    core = signed_in_core()
    [request] = sent(core.handle_line("delete g1 g2"))
    assert isinstance(request, DeleteGames) and request.game_ids == ["g1", "g2"]
    answer = GamesDeleted(game_ids=[GameId("g1"), GameId("g2")], id=request.id)
    assert shown(core.handle_message(answer)) == "deleted 2 games: g1 g2"
