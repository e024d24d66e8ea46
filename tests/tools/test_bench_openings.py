"""Candidate openings for `bench.openings --from-file`: read, checked, or refused with the line."""

from pathlib import Path

import pytest

from bench.openings import opening_games, read_openings
from tools.match import OPENINGS


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "candidates.txt"
    path.write_text(text)
    return path


def test_openings_are_read_one_per_line_without_comments_or_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "# distance three\nh8 h9 k11   # off the lines\n\n  h8  i9 e5\nh8 h9 l12 i12\n")
    assert read_openings(path) == ("h8 h9 k11", "h8 i9 e5", "h8 h9 l12 i12")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("h8 h9 k11\nh8 h8 k11\n", ":2: 'h8 h8 k11'"),
        ("h8 h9 z99\n", ":1: 'h8 h9 z99'"),
        ("h8 h9 k11\nh8   h9 k11\n", "listed twice"),
        ("h8 a1 i8 a2 j8 a3 k8 a4 l8\n", "already ends the game"),
        ("# nothing but comments\n\n", "no openings"),
    ],
)
def test_a_bad_candidate_is_refused_with_its_line(tmp_path: Path, text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match="candidates.txt") as refusal:
        read_openings(write(tmp_path, text))
    assert complaint in str(refusal.value)


def test_every_ordered_pairing_of_levels_plays_each_opening_once() -> None:
    tasks = opening_games(["hard", "master"], OPENINGS[:3], 100)
    assert len(tasks) == 12
    for opening in OPENINGS[:3]:
        pairings = {(task.black.name, task.white.name) for task in tasks if task.opening == opening}
        assert pairings == {("hard", "hard"), ("hard", "master"), ("master", "hard"), ("master", "master")}
    assert len({task.seed for task in tasks}) == 12
