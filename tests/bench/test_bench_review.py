"""bench.review: a game review's and the miner's CPU, and bot replies beside reviews."""

import pytest

from bench.review import PLIES, GameCost, cost_of, main
from engine.notation import parse_point
from engine.record import GameRecord, PlayerInfo, RecordedMove
from engine.types import Color, Rule


def test_a_games_review_is_scaled_to_sixty_plies_from_its_own_mean() -> None:
    cost = GameCost(positions=(0.1, 0.3), mining=1.0, puzzles=0)
    assert cost.review_60 == pytest.approx(0.2 * (PLIES + 1))


def test_each_position_of_a_game_is_timed_once() -> None:
    moves = tuple(
        RecordedMove(parse_point(word, 15), Color.BLACK if index % 2 == 0 else Color.WHITE)
        for index, word in enumerate("h8 h9 i8 g8 j8".split())
    )
    record = GameRecord(Rule.FREESTYLE, 15, PlayerInfo("a", "human"), PlayerInfo("b", "human"), moves, None)
    cost = cost_of(record)
    assert len(cost.positions) == 6
    assert all(cpu >= 0 for cpu in cost.positions)


def test_a_short_run_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "1", "--bot-moves", "2", "--bot-level", "greedy", "--bot-ms", "50"])
    printed = capsys.readouterr().out
    assert printed.startswith("python -m bench.review --games 1")
    for figure in ("review, one position", "60-ply game", "puzzles per 1,000 games", "beside reviews p50 / p99"):
        assert figure in printed
