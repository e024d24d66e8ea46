"""bench.swap2 at a tiny size: the bots decide the opening, play the game, and the shares are printed."""

import pytest

from bench.swap2 import OpeningGameTask, main, play, second_choice
from engine.openings import OpeningRule, Player
from engine.types import Rule


def test_a_swap2_game_is_opened_by_the_bots_and_played_from_where_the_opening_left_it() -> None:
    game = play(OpeningGameTask("easy", OpeningRule.SWAP2, Rule.FREESTYLE, time_ms=50, decision_ms=50, seed=3))
    assert game.opening.is_finished
    moves = [move.point for move in game.record.moves]
    assert tuple(moves[: len(game.opening.moves)]) == game.opening.moves
    assert game.record.result is not None
    black = "first" if game.opening.black is Player.FIRST else "second"
    assert game.record.black.name == black
    assert game.first_points == (game.black_points if black == "first" else 1 - game.black_points)
    assert second_choice(game.opening) in ("took black", "took white", "placed two stones")


@pytest.mark.parametrize("opening", ["swap2", "none"])
def test_a_tiny_run_prints_both_shares_and_the_command(opening: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--level", "easy", "--opening", opening, "--games", "2", "--time-ms", "50", "--decision-ms", "50"]
    argv += ["--jobs", "1"]
    assert main(argv) == 0
    output = capsys.readouterr().out
    assert "[2/2]" in output
    assert "black's points:" in output and "the first player's points:" in output
    assert ("the second player" in output) == (opening == "swap2")
    assert output.rstrip().endswith("./dev run python -m bench.swap2 " + " ".join(argv))
