"""Fit the search's evaluation to game results (Texel's method).

    ./dev run gomoku-arena master hard medium --openings 24 --time-ms 200 --out /tmp/games
    ./dev run python -m tools.tune_evaluation /tmp/games

`Position.evaluate` is a weighted sum of a few terms: for the side to move
and for its opponent, how many (direction, empty point) pairs would make
each shape, whether the side to move has a double threat to play, and how
many the opponent has. Every position of some games, labelled with how the
game ended for the side to move (1, 0.5 or 0), says how well those terms
predict the result: the evaluation `e` of a position stands for the winning
chance 1 / (1 + exp(-e / K)). This tool finds the weights (and the scale K)
that make those chances closest to the results, in mean squared error, by
trying each weight a little higher and lower in turn (Texel's tuning, as
chess engines use it), and prints them scaled back to the engine's present
K, so that the search's margins keep their meaning.

The positions are those the evaluation is used on: after the opening
stones, with no five to make for either side (the search settles those
before it evaluates). A fifth of them, chosen at random with a fixed seed,
are kept apart to check that the fit predicts games it has not seen.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path

from engine.record import GameRecord, record_from_dict
from engine.rules import BLACK, WHITE
from engine.search import position as evaluation
from engine.search.patterns import FOUR, OPEN_FOUR, OPEN_THREE, OPEN_TWO, THREE, TWO
from engine.search.position import SHAPES_OF_PAIRS, Position
from engine.types import Rule

SHAPES = (TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR)
"""The shapes whose potential the evaluation weighs (weaker ones are worth nothing, a five ends the game)."""
OPENING_PLIES = 5
"""Positions with fewer stones are skipped: the arena's openings place the first ones."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One position's evaluation terms and how its game ended for the side to move."""

    outcome: float
    """1 won, 0.5 drawn, 0 lost."""
    own: tuple[int, ...]
    """The side to move's count of (direction, empty point) pairs making each of `SHAPES`."""
    theirs: tuple[int, ...]
    """The same for the opponent."""
    double_threat: int
    """1 when the side to move has a double threat to play and the opponent no four, else 0."""
    dangers: int
    """Points (up to two) where the opponent would make a double threat."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The numbers of `Position.evaluate`, as real numbers while they are fitted."""

    two: float
    open_two: float
    three: float
    open_three: float
    four: float
    open_four: float
    opponent_percent: float
    blocked_open_four_percent: float
    double_threat_win: float
    double_threat_danger: float

    @classmethod
    def engine(cls) -> Weights:
        """The weights the engine uses now."""
        return cls.of(
            tuple(float(evaluation.POTENTIAL[shape]) for shape in SHAPES),
            evaluation.OPPONENT_PERCENT,
            evaluation.BLOCKED_OPEN_FOUR_PERCENT,
            evaluation.DOUBLE_THREAT_WIN,
            evaluation.DOUBLE_THREAT_DANGER,
        )

    @classmethod
    def of(cls, potentials: Sequence[float], *others: float) -> Weights:
        """Weights from the shape values (in the order of `SHAPES`) and the other four numbers."""
        two, open_two, three, open_three, four, open_four = potentials
        opponent, blocked, win, danger = others
        return cls(two, open_two, three, open_three, four, open_four, opponent, blocked, win, danger)

    def potentials(self) -> tuple[float, ...]:
        """The shape values, in the order of `SHAPES`."""
        return (self.two, self.open_two, self.three, self.open_three, self.four, self.open_four)

    def scaled(self, factor: float) -> Weights:
        """Every value multiplied by `factor` (the percentages stay, being ratios)."""
        return Weights.of(
            [value * factor for value in self.potentials()],
            self.opponent_percent,
            self.blocked_open_four_percent,
            self.double_threat_win * factor,
            self.double_threat_danger * factor,
        )

    def evaluate(self, sample: Sample) -> float:
        """`Position.evaluate` of the sample's position with these weights (in real numbers)."""
        potentials = self.potentials()
        own = sum(value * count for value, count in zip(potentials, sample.own, strict=True))
        theirs = sum(value * count for value, count in zip(potentials, sample.theirs, strict=True))
        blocked = sample.theirs[-1] * self.open_four * self.blocked_open_four_percent / 100
        value = own - (theirs - blocked) * self.opponent_percent / 100
        return value + self.double_threat_win * sample.double_threat - self.double_threat_danger * sample.dangers


def sample_of(position: Position, outcome: float) -> Sample:
    """The evaluation terms of `position`, labelled with `outcome`."""
    side = position.side
    other = WHITE if side == BLACK else BLACK
    counts = {BLACK: [0] * (max(SHAPES) + 1), WHITE: [0] * (max(SHAPES) + 1)}
    area = position.area
    for point in range(area):
        if position.cells[point]:
            continue
        for direction in range(4):
            black, white = SHAPES_OF_PAIRS[position.pairs[direction * area + point]]
            counts[BLACK][black] += 1
            counts[WHITE][white] += 1
    return Sample(
        outcome=outcome,
        own=tuple(counts[side][shape] for shape in SHAPES),
        theirs=tuple(counts[other][shape] for shape in SHAPES),
        double_threat=int(not position.fours[other] and position.double_threats(side, 1) > 0),
        dangers=position.double_threats(other, 2),
    )


def samples_of_game(record: GameRecord) -> Iterator[Sample]:
    """A sample for each position of a freestyle game that the evaluation would be asked about."""
    winner = record.result.winner if record.result is not None else None
    position = Position(record.size, Rule.FREESTYLE)
    for move in record.moves:
        if position.ply >= OPENING_PLIES and not position.fives[BLACK] and not position.fives[WHITE]:
            outcome = 0.5 if winner is None else float(winner == position.side)
            yield sample_of(position, outcome)
        position.play(move.point.y * record.size + move.point.x)


def read_records(paths: Iterable[Path]) -> Iterator[GameRecord]:
    """The finished freestyle games among the JSON records in `paths` (files or folders)."""
    for path in paths:
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for file in files:
            record = record_from_dict(json.loads(file.read_text()))
            if record.rule is Rule.FREESTYLE and record.result is not None:
                yield record


def loss(weights: Weights, samples: Sequence[Sample], k: float) -> float:
    """Mean squared error between the outcomes and the chances the evaluation gives them."""
    total = 0.0
    for sample in samples:
        chance = 1 / (1 + math.exp(-max(-50.0, min(50.0, weights.evaluate(sample) / k))))
        total += (sample.outcome - chance) ** 2
    return total / len(samples)


def best_scale(weights: Weights, samples: Sequence[Sample]) -> float:
    """The K that fits `weights` best (a golden-section search; the loss has one minimum in K)."""
    low, high = 10.0, 100_000.0
    for _ in range(40):
        left, right = low + (high - low) * 0.382, low + (high - low) * 0.618
        if loss(weights, samples, left) < loss(weights, samples, right):
            high = right
        else:
            low = left
    return (low + high) / 2


@dataclass(frozen=True, slots=True)
class Fit:
    """What a fit found."""

    weights: Weights
    """The fitted weights, at their own scale `k`."""
    k: float
    train_loss: float


def fit(start: Weights, samples: Sequence[Sample], rounds: int = 60, log: bool = False) -> Fit:
    """Texel's tuning from `start`: each round tries each weight a step higher and lower and keeps
    what lowers the loss, then refits K; the step halves after a round with no gain."""
    weights, step = start, 0.2
    k = best_scale(weights, samples)
    current = loss(weights, samples, k)
    for round_number in range(rounds):
        improved = False
        for field in fields(Weights):
            for factor in (1 + step, 1 - step):
                old = getattr(weights, field.name)
                trial = replace(weights, **{field.name: old * factor if old else 1.0})
                trial_loss = loss(trial, samples, k)
                if trial_loss < current - 1e-9:
                    weights, current, improved = trial, trial_loss, True
                    break
        k = best_scale(weights, samples)
        current = loss(weights, samples, k)
        if log:
            print(f"round {round_number}: K {k:.0f}, loss {current:.5f}", file=sys.stderr, flush=True)
        if not improved:
            step /= 2
            if step < 0.01:
                break
    return Fit(weights, k, current)


def describe(weights: Weights) -> str:
    """The weights as the engine's constants, rounded as they would be written."""
    names = ("TWO", "OPEN_TWO", "THREE", "OPEN_THREE", "FOUR", "OPEN_FOUR")
    lines = [f"    {name}: {round(value)}," for name, value in zip(names, weights.potentials(), strict=True)]
    lines += [
        f"OPPONENT_PERCENT = {round(weights.opponent_percent)}",
        f"BLOCKED_OPEN_FOUR_PERCENT = {round(weights.blocked_open_four_percent)}",
        f"DOUBLE_THREAT_WIN = {round(weights.double_threat_win)}",
        f"DOUBLE_THREAT_DANGER = {round(weights.double_threat_danger)}",
    ]
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tune_evaluation", description="Fit the evaluation's weights to game results."
    )
    parser.add_argument("records", nargs="+", type=Path, help="JSON game records, or folders of them")
    parser.add_argument("--rounds", type=int, default=60, help="most rounds of the fit (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the split between fitted and held-out positions")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    samples = [sample for record in read_records(arguments.records) for sample in samples_of_game(record)]
    if len(samples) < 100:
        print(f"only {len(samples)} positions: give the games of a few dozen arena runs at least", file=sys.stderr)
        return 2
    random.Random(arguments.seed).shuffle(samples)
    held_out, fitted = samples[: len(samples) // 5], samples[len(samples) // 5 :]
    engine = Weights.engine()
    engine_k = best_scale(engine, fitted)
    result = fit(engine, fitted, arguments.rounds, log=True)
    print(f"{len(fitted)} positions fitted, {len(held_out)} held out")
    engine_losses = loss(engine, fitted, engine_k), loss(engine, held_out, engine_k)
    fitted_losses = result.train_loss, loss(result.weights, held_out, result.k)
    print(f"the engine's weights: K {engine_k:.0f}, loss {engine_losses[0]:.5f}, held out {engine_losses[1]:.5f}")
    print(f"fitted:               K {result.k:.0f}, loss {fitted_losses[0]:.5f}, held out {fitted_losses[1]:.5f}")
    print("at the engine's K:")
    print(describe(result.weights.scaled(engine_k / result.k)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
