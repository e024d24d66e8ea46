"""The bot ratings file: the installed one is read, and a file that is not a ratings file is refused."""

import json
from pathlib import Path

import pytest

from engine.registry import level_names
from server.players.bot_ratings import RATINGS_FILE, read_ratings, read_ratings_file


def test_the_installed_file_rates_bot_levels_and_says_how() -> None:
    ratings = read_ratings()
    assert ratings and set(ratings) <= set(level_names())
    measured = read_ratings_file(RATINGS_FILE)["measured"]
    assert measured["date"] and measured["command"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1500]",
        '{"measured": {}}',
        '{"ratings": {"master": "1941"}}',
        '{"ratings": {"master": true}}',
    ],
)
def test_a_file_that_is_not_a_ratings_file_is_refused_with_its_name(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="bot_ratings.json"):
        read_ratings(path)


def test_ratings_are_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps({"ratings": {"greedy": 1141, "master": 1941}, "measured": {"date": "2026-11-23"}}))
    assert read_ratings(path) == {"greedy": 1141, "master": 1941}
