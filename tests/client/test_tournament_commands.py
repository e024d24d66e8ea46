"""`gomoku tournaments|standings|join|withdraw`: the tournaments from a script."""

from __future__ import annotations

from pathlib import Path

from client_harness import Completed, gomoku_command, run_command

from client.connection import Connection
from client.tokens import TokenStore
from wire.messages import ClockSettingModel
from wire.tournaments import CreateTournament, TournamentMessage


async def gomoku(server_port: int, tmp_path: Path, name: str, *arguments: str) -> Completed:
    return await run_command(gomoku_command(server_port, tmp_path, name, *arguments), b"")


def rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


async def test_a_player_lists_joins_reads_the_standings_and_withdraws(server_port: int, tmp_path: Path) -> None:
    url = f"ws://127.0.0.1:{server_port}/ws"
    async with Connection.signed_in(url, "ann", TokenStore(tmp_path / "config")) as connection:
        create = CreateTournament(
            name="Club night", format="swiss", rounds=4, clock=ClockSettingModel(initial_ms=300_000)
        )
        created = await connection.request_answer(create, TournamentMessage)
    tournament_id = created.tournament.tournament_id

    listed = await gomoku(server_port, tmp_path, "sam", "tournaments")
    assert (listed.status, listed.stderr) == (0, "")
    assert [tournament_id, "Club night", "swiss", "open", "0", "0", "4", "ann", "-"] in rows(listed.stdout)

    joined = await gomoku(server_port, tmp_path, "bob", "join", tournament_id)
    assert rows(joined.stdout) == [["1", "bob", "0", "0", "0,0", "-", "no"]]
    await gomoku(server_port, tmp_path, "cal", "join", tournament_id)
    shown = await gomoku(server_port, tmp_path, "sam", "standings", tournament_id)
    assert [row[1] for row in rows(shown.stdout)] == ["bob", "cal"]
    left = await gomoku(server_port, tmp_path, "bob", "withdraw", tournament_id)
    assert [row[1] for row in rows(left.stdout)] == ["cal"]

    unknown = await gomoku(server_port, tmp_path, "sam", "standings", "t-nothing")
    assert unknown.status == 1 and "no tournament" in unknown.stderr
