"""`gomoku bots|rooms|games|export|play`: plain text for scripts, errors on stderr, a meaningful exit status."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from client_harness import Completed, Launcher, gomoku_command, run_command

from client.connection import Connection
from client.subcommands import list_games, list_rooms
from client.tokens import TokenStore

LOSING_MOVES = [f"{column}{row}" for row in (1, 3, 13, 15) for column in "acegikmo"]
"""Moves on four far rows, two columns apart: they never threaten, so the bot builds its five."""


async def gomoku(server_port: int, tmp_path: Path, *arguments: str, name: str = "sam", stdin: str = "") -> Completed:
    return await run_command(gomoku_command(server_port, tmp_path, name, *arguments), stdin.encode())


def rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


async def test_bots_prints_a_tab_separated_line_per_level(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "bots")
    assert (done.status, done.stderr) == (0, "")
    levels = {row[0]: row for row in rows(done.stdout)}
    assert "easy" in levels and "master" in levels
    level, rating, description = levels["easy"]
    assert rating.isdigit() and description


async def test_bots_as_json_lines(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "bots", "--json")
    assert {json.loads(line)["level"] for line in done.stdout.splitlines()} >= {"easy", "master"}


async def test_rooms_lists_each_room_with_its_clock(launcher: Launcher, server_port: int, tmp_path: Path) -> None:
    alice = await launcher.start("alice")
    alice.type("create clock 5+3")
    room_id = (await alice.expect(r"room (\S+): you are playing black")).group(1)
    done = await gomoku(server_port, tmp_path, "rooms")
    assert done.status == 0
    assert [room_id, "waiting", "freestyle", "15", "5+3", "alice", "-", "0"] in rows(done.stdout)


async def test_rooms_walks_every_page(launcher: Launcher, server_port: int, tmp_path: Path) -> None:
    room_ids = []
    for name in ("alice", "bob", "carol"):
        player = await launcher.start(name)
        player.type("create")
        room_ids.append((await player.expect(r"room (\S+): you are playing black")).group(1))
    url = f"ws://127.0.0.1:{server_port}/ws"
    async with Connection.signed_in(url, "sam", TokenStore(tmp_path / "config")) as connection:
        out = io.StringIO()
        await list_rooms(connection, out, page_size=1)
    assert sorted(row[0] for row in rows(out.getvalue())) == sorted(room_ids)


async def test_play_prints_each_move_and_the_result(server_port: int, tmp_path: Path) -> None:
    moves = "".join(f"{move}\n" for move in LOSING_MOVES)
    done = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin=moves)
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"game \S+", lines[0])
    assert lines[1] == "1 black a1"
    assert re.fullmatch(r"2 white [a-o]\d+", lines[2])
    assert lines[-1] == "result white five"
    assert done.status == 0


async def test_play_resigns_when_input_ends_before_the_game(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", "--as", "white", "--size", "9", stdin="a1\n")
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"1 black [a-i]\d", lines[1])
    assert lines[2] == "2 white a1"
    assert lines[-1] == "result black resign"
    assert done.status == 3
    assert "input ended" in done.stderr


async def test_a_refused_move_is_reported_on_stderr_and_play_goes_on(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", "--size", "9", stdin="e5\ne5\nz99\na1\n")
    assert "e5" in done.stderr and "z99" in done.stderr
    assert "3 black a1" in done.stdout.splitlines()


async def test_a_finished_game_is_exported_to_stdout_or_a_file(server_port: int, tmp_path: Path) -> None:
    played = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin="h8\n")
    game_id = played.stdout.split()[1]
    sgf = await gomoku(server_port, tmp_path, "export", "-f", "sgf", "--", game_id)  # an id may start with '-'
    assert sgf.status == 0 and "GM[4]" in sgf.stdout
    record = await gomoku(server_port, tmp_path, "export", "--", game_id)
    assert json.loads(record.stdout)["moves"][0]["move"] == "h8"
    saved = await gomoku(server_port, tmp_path, "export", "-o", str(tmp_path / "game.psq"), "--", game_id)
    assert (saved.status, saved.stdout) == (0, "")
    assert (tmp_path / "game.psq").read_text().startswith("Piskvork")


async def test_an_unknown_game_is_an_error_on_stderr(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "export", "no-such-game", "-f", "psq")
    assert (done.status, done.stdout) == (1, "")
    assert done.stderr.startswith("gomoku: ") and "not_found" in done.stderr


async def test_games_lists_a_players_games_newest_first(server_port: int, tmp_path: Path) -> None:
    first = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin="h8\n")
    second = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin="h8\n")
    done = await gomoku(server_port, tmp_path, "games", "sam")
    assert done.status == 0
    listed = rows(done.stdout)
    assert [row[0] for row in listed] == [second.stdout.split()[1], first.stdout.split()[1]]
    game_id, status, winner, reason, black, white, rule, size, moves, started, ended = listed[0]
    assert (status, winner, reason, black, white, rule, size) == (
        "finished",
        "white",
        "resign",
        "sam",
        "greedy",
        "freestyle",
        "15",
    )
    assert moves == "2" and started.endswith("Z") and ended.endswith("Z")
    limited = await gomoku(server_port, tmp_path, "games", "--limit", "1")
    assert rows(limited.stdout) == listed[:1]


async def test_games_walks_the_pages_up_to_the_limit(server_port: int, tmp_path: Path) -> None:
    for _ in range(3):
        await gomoku(server_port, tmp_path, "play", "--bot", "greedy", stdin="")
    url = f"ws://127.0.0.1:{server_port}/ws"
    async with Connection.signed_in(url, "sam", TokenStore(tmp_path / "config")) as connection:
        out = io.StringIO()
        await list_games(connection, out, player="sam", limit=3, page_size=2)
    assert len(out.getvalue().splitlines()) == 3


async def test_a_name_taken_by_someone_else_is_an_error(server_port: int, tmp_path: Path) -> None:
    assert (await gomoku(server_port, tmp_path, "bots", name="tom")).status == 0
    done = await gomoku(server_port, tmp_path / "elsewhere", "bots", name="tom")
    assert (done.status, done.stdout) == (1, "")
    assert "belongs to another player" in done.stderr


async def test_an_unreachable_server_is_an_error(tmp_path: Path) -> None:
    done = await gomoku(9, tmp_path, "rooms")
    assert (done.status, done.stdout) == (1, "")
    assert "cannot connect to ws://127.0.0.1:9/ws" in done.stderr


async def test_the_options_may_come_after_the_subcommand(server_port: int, tmp_path: Path) -> None:
    url = f"ws://127.0.0.1:{server_port}/ws"
    command = ["bots", "--server", url, "--name", "sam", "--config-dir", str(tmp_path / "config")]
    done = await run_command(gomoku_command(server_port, tmp_path, "sam")[:3] + command)
    assert done.status == 0 and "easy\t" in done.stdout


async def test_bad_options_are_refused_with_status_2(tmp_path: Path) -> None:
    for arguments in (["games", "bob!"], ["play", "--bot", "easy", "--rule", "renju", "--size", "19"], ["export"]):
        done = await gomoku(9, tmp_path, *arguments)
        assert (done.status, done.stdout) == (2, "")
        assert "error" in done.stderr


async def test_top_and_profile_after_a_rated_game(server_port: int, tmp_path: Path) -> None:
    played = await gomoku(server_port, tmp_path, "play", "--bot", "greedy", "--rated", stdin="h8\n", name="sam")
    assert played.stdout.splitlines()[-1] == "result white resign"
    ((name, kind, rating, rd, games),) = rows((await gomoku(server_port, tmp_path, "top", "humans")).stdout)
    assert (name, kind, games) == ("sam", "human", "1") and int(rating) < 1500 and int(rd) < 350
    bots = rows((await gomoku(server_port, tmp_path, "top", "bots", "--limit", "2")).stdout)
    assert len(bots) == 2 and all(kind == "bot" and rating.isdigit() for _, kind, rating, _, _ in bots)
    everyone = await gomoku(server_port, tmp_path, "top", "--json")
    assert {json.loads(line)["kind"] for line in everyone.stdout.splitlines()} == {"bot", "human"}
    profile = await gomoku(server_port, tmp_path, "profile", "sam")
    assert rows(profile.stdout) == [["sam", "human", rating, rd, "1", "0", "1", "0"]]
    whole = json.loads((await gomoku(server_port, tmp_path, "profile", "--json", name="sam")).stdout)
    assert whole["recent"][0]["white"]["name"] == "greedy" and whole["history"][-1]["rating"] == int(rating)


async def test_a_profile_of_nobody_is_an_error(server_port: int, tmp_path: Path) -> None:
    done = await gomoku(server_port, tmp_path, "profile", "nobody")
    assert (done.status, done.stdout) == (1, "")
    assert done.stderr == "gomoku: there is no player named 'nobody'\n"


async def test_online_and_seeks_list_the_lobby(launcher: Launcher, server_port: int, tmp_path: Path) -> None:
    alice = await launcher.start("alice")
    alice.type("seek clock 5+3 rated as white rating 1400-1600")
    seek_id = (await alice.expect(r"your seek is in the lobby: (\S+):")).group(1)
    seeks = await gomoku(server_port, tmp_path, "seeks")
    assert rows(seeks.stdout) == [
        [seek_id, "alice", "1500", "freestyle", "15", "5+3", "yes", "white", "1400", "1600", "no"]
    ]
    online = await gomoku(server_port, tmp_path, "online")
    assert rows(online.stdout) == [["alice", "1500", "idle"], ["sam", "1500", "idle"]]
