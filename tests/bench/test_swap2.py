"""bench.swap2 at a tiny size: the bots decide the opening, play the game, and the shares are printed."""

import dataclasses

import pytest

from bench.swap2 import OpeningGameTask, different_games, main, play, second_choice
from engine.openings import OpeningRule, Player
from engine.symmetry import SYMMETRIES
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


def test_a_tiny_run_plays_as_many_games_without_an_opening_rule_and_prints_each_rules_shares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--level", "easy", "--games", "2", "--time-ms", "50", "--decision-ms", "50", "--jobs", "1"]
    assert main(argv) == 0
    output = capsys.readouterr().out
    assert "[4/4]" in output
    assert output.count("] swap2 ") == 2 and output.count("] none ") == 2
    swap2, none = output.split("  swap2 opening: 2 games, ")[1].split("  none opening: 2 games, ")
    assert "black's points:" in swap2 and "the first player's points:" in swap2 and "the second player" in swap2
    assert "black's points:" in none and "the first player's points:" not in none
    assert output.rstrip().endswith("./dev run python -m bench.swap2 " + " ".join(argv))


@pytest.mark.parametrize("opening", ["swap", "none"])
def test_a_run_with_one_opening_rule_alone_prints_its_shares(opening: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--level", "easy", "--opening", opening, "--games", "2", "--time-ms", "50", "--decision-ms", "50"]
    argv += ["--jobs", "1", "--no-comparison"]
    assert main(argv) == 0
    output = capsys.readouterr().out
    assert "[2/2]" in output
    assert f"  {opening} opening: 2 games, " in output and "black's points:" in output
    assert ("the first player's points:" in output) == (opening != "none")
    assert output.rstrip().endswith("./dev run python -m bench.swap2 " + " ".join(argv))


def test_the_same_game_mirrored_counts_once() -> None:
    task = OpeningGameTask("easy", OpeningRule.NONE, Rule.FREESTYLE, time_ms=50, decision_ms=50, seed=0)
    game = play(task)
    mirrored = [SYMMETRIES[1].apply(move.point, 15) for move in game.record.moves]
    record = dataclasses.replace(
        game.record,
        moves=tuple(
            dataclasses.replace(move, point=point) for move, point in zip(game.record.moves, mirrored, strict=True)
        ),
    )
    assert different_games([game, dataclasses.replace(game, record=record)]) == 1
