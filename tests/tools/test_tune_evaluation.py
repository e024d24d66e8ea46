"""Fitting the evaluation to game results: the terms are the engine's, and a fit learns from results."""

import dataclasses
import json
import math
import random
from pathlib import Path

import pytest

from engine.record import GameRecord, record_to_dict
from engine.rules import BLACK, WHITE
from engine.search.position import Position
from engine.types import Rule
from tools import tune_evaluation
from tools.arena import run_games, schedule
from tools.match import OPENINGS, PlayerSpec
from tools.tune_evaluation import OPENING_PLIES, Sample, Weights, fit, loss, sample_of, samples_of_game


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    """Eight quick games between two classic bots, which play the same way every time."""
    players = [PlayerSpec("greedy", level="greedy"), PlayerSpec("static", level="static")]
    tasks = schedule(players, None, OPENINGS[:4], time_ms=200, rule=Rule.FREESTYLE, seed=0)
    return [record for _, record in run_games(tasks, jobs=1)]


def test_the_terms_give_the_evaluation_the_engine_computes(games: list[GameRecord]) -> None:
    weights = Weights.engine()
    checked = 0
    for record in games:
        position = Position(record.size, Rule.FREESTYLE)
        for move in record.moves:
            if not position.fives[BLACK] and not position.fives[WHITE]:
                # The engine rounds down twice (percentages of integers); the tool does not round.
                assert weights.evaluate(sample_of(position, 0.5)) == pytest.approx(position.evaluate(), abs=2)
                checked += 1
            position.play(move.point.y * record.size + move.point.x)
    assert checked > 100


def test_positions_are_labelled_with_the_result_for_the_side_to_move(games: list[GameRecord]) -> None:
    record = next(game for game in games if game.result is not None and game.result.winner is not None)
    samples = list(samples_of_game(record))
    assert 0 < len(samples) <= len(record.moves) - OPENING_PLIES
    # The first position has OPENING_PLIES (five) stones, so white is to move in it.
    first_outcome = 1.0 if record.result is not None and record.result.winner == WHITE else 0.0
    assert samples[0].outcome == first_outcome and samples[1].outcome == 1 - first_outcome


def test_a_fit_recovers_weights_that_predict_the_results_better(games: list[GameRecord]) -> None:
    """Results drawn from a known model with other weights than the engine's: fitting from the
    engine's weights must predict results it has not seen better than the engine's weights do."""
    positions = [sample for record in games for sample in samples_of_game(record)]
    truth = dataclasses.replace(Weights.engine(), four=Weights.engine().four * 3, opponent_percent=50)
    generator = random.Random(5)

    def drawn(sample: Sample) -> Sample:
        chance = 1 / (1 + math.exp(-max(-50.0, min(50.0, truth.evaluate(sample) / 4000))))
        return dataclasses.replace(sample, outcome=float(generator.random() < chance))

    samples = [drawn(sample) for _ in range(3) for sample in positions]
    generator.shuffle(samples)
    held_out, fitted = samples[: len(samples) // 4], samples[len(samples) // 4 :]
    result = fit(Weights.engine(), fitted, rounds=25)
    engine = Weights.engine()
    engine_k = tune_evaluation.best_scale(engine, fitted)
    assert loss(result.weights, held_out, result.k) < loss(engine, held_out, engine_k)
    assert result.weights.opponent_percent < engine.opponent_percent


def test_the_command_prints_constants_to_paste(
    games: list[GameRecord], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for index, record in enumerate(games):
        (tmp_path / f"{index}.json").write_text(json.dumps(record_to_dict(record)))
    assert tune_evaluation.main([str(tmp_path), "--rounds=2"]) == 0
    printed = capsys.readouterr().out
    assert "held out" in printed and "OPPONENT_PERCENT = " in printed and "    OPEN_FOUR: " in printed


def test_too_few_games_are_refused_with_a_reason(
    games: list[GameRecord], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "one.json").write_text(json.dumps(record_to_dict(games[0])))
    assert tune_evaluation.main([str(tmp_path / "one.json")]) == 2
    assert "positions" in capsys.readouterr().err
