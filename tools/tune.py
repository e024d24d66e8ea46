"""`gomoku-tune`: improve the `static` bot's weights by self-play.

    gomoku-tune --rounds 10 --population 6 --seed 1 --out my_weights.txt

Each round takes the current best weights (the champion) and makes
`population - 1` perturbed copies, each number multiplied by
exp(N(0, sigma)). All of them play a round robin (every opening, both
colours); the one with the most points becomes the champion, the old one
keeping its place on a tie. The same seed gives the same weights: the
perturbations come from one seeded generator and the bots are
deterministic. The champion is written as a weight file after every
round, and each round's points go to the log.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import engine.classic
from engine.classic.static import StaticWeights, format_weights, parse_weights
from engine.types import Rule
from tools.arena import run_games, schedule
from tools.match import OPENINGS, PlayerSpec

WEIGHT_FILE = Path(engine.classic.__file__).parent / "static_weights.txt"
"""The weight file shipped with the engine (its numbers are also built into the bot)."""


def perturb(weights: StaticWeights, sigma: float, generator: random.Random) -> StaticWeights:
    """A copy with every number multiplied by exp(N(0, sigma)), kept to four significant digits."""
    numbers = [float(f"{value * math.exp(generator.gauss(0, sigma)):.4g}") for value in weights.numbers()]
    return StaticWeights.from_numbers(numbers)


def play_round(
    candidates: Sequence[StaticWeights], openings: Sequence[str], time_ms: int, rule: Rule, jobs: int
) -> list[float]:
    """Each candidate's points in a round robin between them."""
    players = [PlayerSpec(f"c{index}", weights=weights) for index, weights in enumerate(candidates)]
    points = {player.name: 0.0 for player in players}
    tasks = schedule(players, None, openings, time_ms, rule, seed=0)
    for _, record in run_games(tasks, jobs):
        winner = record.result.winner if record.result is not None else None
        for name, color in ((record.black.name, 1), (record.white.name, 2)):
            points[name] += 0.5 if winner is None else float(winner == color)
    return [points[player.name] for player in players]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gomoku-tune", description="Self-play tuning of the static weights.")
    parser.add_argument("--weights", type=Path, default=WEIGHT_FILE, help="starting weight file (default: shipped)")
    parser.add_argument("--out", type=Path, default=Path("static_weights.tuned.txt"), help="weight file to write")
    parser.add_argument("--log", type=Path, help="per-round log file (default: OUT with .log)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--population", type=int, default=4, help="candidates per round, champion included")
    parser.add_argument("--sigma", type=float, default=0.3, help="spread of the perturbations (default 0.3)")
    parser.add_argument("--openings", type=int, default=2, help=f"openings per pairing, 1..{len(OPENINGS)}")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (static needs little)")
    parser.add_argument("--rule", type=Rule.parse, default=Rule.FREESTYLE, help="freestyle, standard or renju")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at once")
    parser.add_argument("--seed", type=int, default=0, help="seed of the perturbations")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.rounds < 1 or arguments.population < 2 or not 1 <= arguments.openings <= len(OPENINGS):
        print(f"gomoku-tune: need --rounds >= 1, --population >= 2, --openings 1..{len(OPENINGS)}", file=sys.stderr)
        return 2
    try:
        champion = parse_weights(arguments.weights.read_text())
    except (OSError, ValueError) as error:
        print(f"gomoku-tune: {arguments.weights}: {error}", file=sys.stderr)
        return 2
    log_path = arguments.log or arguments.out.with_suffix(".log")
    generator = random.Random(arguments.seed)
    openings = OPENINGS[: arguments.openings]
    with log_path.open("w") as log:
        for round_number in range(1, arguments.rounds + 1):
            candidates = [champion] + [
                perturb(champion, arguments.sigma, generator) for _ in range(arguments.population - 1)
            ]
            points = play_round(candidates, openings, arguments.time_ms, arguments.rule, arguments.jobs)
            best = max(range(len(candidates)), key=lambda index: (points[index], -index))
            champion = candidates[best]
            arguments.out.write_text(format_weights(champion))
            scores = " ".join(f"c{index}={value:g}" for index, value in enumerate(points))
            line = f"round {round_number}: {scores} -> c{best} ({'kept' if best == 0 else 'new champion'})"
            print(line, flush=True)
            log.write(line + "\n")
            log.write("  weights " + " ".join(f"{value:g}" for value in champion.numbers()) + "\n")
    print(f"weights written to {arguments.out}, log to {log_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
