"""gomoku-tune with a tiny budget: it writes weights and a log, reproducibly."""

from pathlib import Path

from engine.classic.static import parse_weights
from tools import tune


def tune_once(folder: Path, seed: int) -> str:
    folder.mkdir()
    out = folder / f"weights-{seed}.txt"
    argv = [
        "--rounds=2",
        "--population=3",
        "--openings=1",
        "--time-ms=50",
        "--jobs=2",
        f"--seed={seed}",
        f"--out={out}",
    ]
    assert tune.main(argv) == 0
    return out.read_text()


def test_the_same_seed_gives_the_same_weights_and_log(tmp_path: Path) -> None:
    first = tune_once(tmp_path / "a", 7)
    second = tune_once(tmp_path / "b", 7)
    assert first == second
    parse_weights(first)
    log_a = (tmp_path / "a" / "weights-7.log").read_text()
    log_b = (tmp_path / "b" / "weights-7.log").read_text()
    assert log_a == log_b
    assert log_a.startswith("round 1: c0=") and "round 2: " in log_a
