"""A short real arena run: two bots, two openings, tiny time limits; and the openings themselves."""

import json
import sys
from pathlib import Path

import pytest

from engine.classic.static import DEFAULT_WEIGHTS, StaticWeights, format_weights
from engine.record import GameRecord, record_from_dict
from engine.types import Color, Point, Rule
from server.players.bot_ratings import read_ratings
from tools import arena
from tools.elo import Rating, compute_ratings
from tools.match import OPENINGS, RENJU_OPENINGS, PlayerSpec, opening_moves


def test_a_short_round_robin_saves_every_game_and_prints_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = arena.main(["greedy", "static", "--openings=2", "--time-ms=50", "--jobs=2", f"--out={tmp_path}", "--psq"])
    assert status == 0
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 4 and len(list(tmp_path.glob("*.psq"))) == 4
    players = set()
    for path in records:
        record = record_from_dict(json.loads(path.read_text()))
        record.to_board()
        assert record.result is not None
        players.add((record.black.name, record.white.name))
    assert players == {("greedy", "static"), ("static", "greedy")}
    output = capsys.readouterr().out
    assert "[4/4]" in output
    table = output[output.index("total") :]
    assert "greedy" in table and "static" in table and "/4" in table
    assert "±95%" in output


def test_an_external_brain_plays_in_the_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brain = f"self={sys.executable} -m tools.brain --level greedy"
    status = arena.main(
        ["greedy", "--gauntlet", brain, "--openings=1", "--time-ms=500", "--jobs=1", f"--out={tmp_path}"]
    )
    assert status == 0
    assert len(list(tmp_path.glob("*.json"))) == 2
    assert "self" in capsys.readouterr().out


def test_unknown_players_are_refused_with_the_known_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["greedy", "grandmaster"]) == 2
    assert "expected one of" in capsys.readouterr().err


def test_ratings_follow_the_results() -> None:
    results = [("a", "b", 1.0)] * 8 + [("b", "a", 0.0)] * 8 + [("b", "c", 0.5)] * 8
    ratings = {rating.name: rating for rating in compute_ratings(results)}
    assert ratings["a"].elo > ratings["b"].elo
    assert abs(ratings["b"].elo - ratings["c"].elo) < 100
    assert abs(sum(rating.elo for rating in ratings.values()) / 3 - 1500) < 1e-6
    assert ratings["a"].games == 16 and ratings["a"].points == 16
    assert 0 < ratings["b"].error < 1000


def test_a_brain_that_cannot_start_loses_its_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = arena.main(["greedy", "ghost=/nonexistent/brain", "--openings=1", "--jobs=1", f"--out={tmp_path}"])
    assert status == 0
    for path in tmp_path.glob("*.json"):
        record = record_from_dict(json.loads(path.read_text()))
        assert record.result is not None and record.result.reason.value == "abandoned"
        winner = record.black if record.result.winner is Color.BLACK else record.white
        assert winner.name == "greedy"


def test_update_ratings_merges_the_levels_it_rated_into_the_json_the_server_reads(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps({"ratings": {"master": 1900, "greedy": 1100}, "measured": {}}))
    ratings = [Rating("greedy", 1234.4, 50, 10, 5), Rating("rapfi", 2500, 50, 10, 5)]
    players = [PlayerSpec("greedy", level="greedy"), PlayerSpec("rapfi", command=("pbrain-rapfi",))]
    measured = arena.measurement(["greedy", "rapfi=pbrain-rapfi"], 10, 1000, Rule.FREESTYLE)
    written = arena.update_ratings(ratings, players, path, measured)
    assert written == {"greedy": 1234, "master": 1900}, "an outside engine is not a level; master keeps its rating"
    assert read_ratings(path) == written
    about = json.loads(path.read_text())["measured"]
    assert about["levels"] == ["greedy"] and about["games"] == 10
    assert about["command"] == "gomoku-arena greedy rapfi=pbrain-rapfi"


def test_a_round_robin_with_update_ratings_writes_the_ratings_file(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    options = ["--openings=1", "--time-ms=50", f"--out={tmp_path}", "--update-ratings", f"--ratings-file={path}"]
    status = arena.main(["greedy", "static", *options])
    assert status == 0
    assert set(read_ratings(path)) == {"greedy", "static"}
    assert json.loads(path.read_text())["measured"]["games"] == 2


def test_a_static_bot_with_its_own_weight_file_takes_part(tmp_path: Path) -> None:
    weights = tmp_path / "tuned.txt"
    weights.write_text(format_weights(StaticWeights(DEFAULT_WEIGHTS.own, DEFAULT_WEIGHTS.opponent, 2.0, 0.5)))
    games = tmp_path / "games"
    assert arena.main(["static", f"--weights=tuned={weights}", "--openings=1", "--jobs=1", f"--out={games}"]) == 0
    names = {record_from_dict(json.loads(path.read_text())).white.name for path in games.glob("*.json")}
    assert names == {"static", "tuned"}


def test_a_missing_weight_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["static", f"--weights=tuned={tmp_path / 'none.txt'}"]) == 2
    assert "none.txt" in capsys.readouterr().err


def test_a_gauntlet_can_give_its_player_one_colour_only(tmp_path: Path) -> None:
    status = arena.main(
        ["greedy", "static", "--gauntlet=easy", "--colour=white", "--openings=2", "--time-ms=50", f"--out={tmp_path}"]
    )
    assert status == 0
    records = [record_from_dict(json.loads(path.read_text())) for path in tmp_path.glob("*.json")]
    assert len(records) == 4
    assert {record.white.name for record in records} == {"easy"}
    assert {record.black.name for record in records} == {"greedy", "static"}


def test_a_player_given_twice_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["master", "greedy", "--gauntlet=master"]) == 2
    assert "(master given twice)" in capsys.readouterr().err


def test_one_colour_only_is_refused_outside_a_gauntlet(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["greedy", "static", "--colour=black"]) == 2
    assert "--colour needs --gauntlet" in capsys.readouterr().err


def _symmetries(points: list[Point]) -> set[tuple[Point, ...]]:
    """The opening under the board's eight symmetries about its centre h8 (colours kept)."""
    centre = 7
    images = set()
    for swap in (False, True):
        for sign_x in (1, -1):
            for sign_y in (1, -1):
                moved = []
                for point in points:
                    dx, dy = point.x - centre, point.y - centre
                    if swap:
                        dx, dy = dy, dx
                    moved.append(Point(centre + sign_x * dx, centre + sign_y * dy))
                images.add(tuple(moved))
    return images


def test_the_arena_openings_are_quiet_and_no_two_alike() -> None:
    """What the OPENINGS docstring promises: h8, white touching it, black's second stone four
    points away and off every line through h8; no opening a mirror or rotation of another."""
    seen: set[tuple[Point, ...]] = set()
    for opening in OPENINGS:
        first, white, second = opening_moves(opening, 15)
        assert first == Point(7, 7) and max(abs(white.x - 7), abs(white.y - 7)) == 1
        dx, dy = second.x - 7, second.y - 7
        assert max(abs(dx), abs(dy)) == 4 and dx != 0 and dy != 0 and abs(dx) != abs(dy)
        images = _symmetries([first, white, second])
        assert not images & seen, opening
        seen |= images


def test_with_level_times_each_of_our_levels_thinks_its_own_time_and_outside_brains_the_given_one() -> None:
    easy, master, brain = (
        PlayerSpec("easy", level="easy"),
        PlayerSpec("master", level="master"),
        PlayerSpec("x", command=("x",)),
    )
    (task, _) = arena.schedule([easy, master], None, OPENINGS[:1], 1000, Rule.FREESTYLE, 0, level_times=True)
    assert (task.move_time_ms(easy), task.move_time_ms(master), task.move_time_ms(brain)) == (300, 5_000, 1000)
    (equal, _) = arena.schedule([easy, master], None, OPENINGS[:1], 1000, Rule.FREESTYLE, 0)
    assert (equal.move_time_ms(easy), equal.move_time_ms(master)) == (1000, 1000)


def test_ratings_are_fitted_from_the_games_of_several_earlier_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ladder, anchors, path = tmp_path / "ladder", tmp_path / "anchors", tmp_path / "bot_ratings.json"
    brain = f"easy={sys.executable} -m tools.brain --level easy --nodes 300"
    assert arena.main(["greedy", "--gauntlet", brain, "--openings=1", "--jobs=1", f"--out={ladder}"]) == 0
    assert arena.main(["greedy", "--gauntlet=static", "--openings=1", "--time-ms=50", f"--out={anchors}"]) == 0
    capsys.readouterr()
    path.write_text(json.dumps({"ratings": {"master": 1900}, "measured": {}}))
    options = [f"--from-games={ladder}", f"--from-games={anchors}", "--update-ratings", f"--ratings-file={path}"]
    assert arena.main(options) == 0
    assert "4 saved games" in capsys.readouterr().out
    ratings = read_ratings(path)
    assert set(ratings) == {"easy", "greedy", "static", "master"}, "a brain named after a level is rated as it"
    measured = json.loads(path.read_text())["measured"]
    assert (
        measured["games"] == 4
        and measured["time_ms"] is None
        and sorted(measured["levels"])
        == [
            "easy",
            "greedy",
            "static",
        ]
    )


def test_rating_saved_games_needs_some(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main([f"--from-games={tmp_path}"]) == 2
    assert "no finished games" in capsys.readouterr().err


def test_anchors_keep_their_ratings_and_the_others_are_placed_against_them() -> None:
    results = [("a", "b", 1.0)] * 6 + [("a", "b", 0.0)] * 2 + [("c", "a", 0.5)] * 4
    ratings = {rating.name: rating for rating in compute_ratings(results, anchors={"b": 1300})}
    assert ratings["b"].elo == pytest.approx(1300) and ratings["b"].error == 0
    assert 1400 < ratings["a"].elo < 1600, "6.5 points of 9 against b (with the virtual draw): about +150"
    assert ratings["c"].elo == pytest.approx(ratings["a"].elo, abs=1)
    assert ratings["a"].error > 0


def test_saved_games_are_fitted_around_anchor_levels_which_keep_their_ratings(tmp_path: Path) -> None:
    games, path = tmp_path / "games", tmp_path / "bot_ratings.json"
    assert arena.main(["greedy", "--gauntlet=static", "--openings=1", "--time-ms=50", f"--out={games}"]) == 0
    path.write_text(json.dumps({"ratings": {"greedy": 1100, "master": 1900}, "measured": {}}))
    options = [f"--from-games={games}", "--anchor=greedy", "--update-ratings", f"--ratings-file={path}"]
    assert arena.main(options) == 0
    ratings = read_ratings(path)
    assert ratings["greedy"] == 1100 and ratings["master"] == 1900 and "static" in ratings
    assert json.loads(path.read_text())["measured"]["levels"] == ["static"]


def test_an_anchor_without_a_rating_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games, path = tmp_path / "games", tmp_path / "bot_ratings.json"
    assert arena.main(["greedy", "--gauntlet=static", "--openings=1", "--time-ms=50", f"--out={games}"]) == 0
    path.write_text(json.dumps({"ratings": {"master": 1900}, "measured": {}}))
    assert arena.main([f"--from-games={games}", "--anchor=greedy", f"--ratings-file={path}"]) == 2
    assert "the anchor 'greedy' has no rating" in capsys.readouterr().err


def test_the_ratings_list_bots_shows_order_the_engine_levels_as_the_ladder_does() -> None:
    """The ladder at the levels' own times: each level beats the one below (bench/RESULTS.md)."""
    ratings = read_ratings()
    ladder = ["easy", "medium", "hard", "master"]
    assert sorted(ladder, key=ratings.__getitem__) == ladder, ratings


def test_the_renju_opening_set_plays_the_26_standard_openings_from_their_three_stones(tmp_path: Path) -> None:
    assert len(RENJU_OPENINGS) == 26 and RENJU_OPENINGS[0] == "h8 h9 h10" and RENJU_OPENINGS[13].startswith("h8 i9")
    options = ["--opening-set=renju26", "--openings=2", "--time-ms=50", f"--out={tmp_path}"]
    assert arena.main(["greedy", "static", *options]) == 0
    openings = {tuple(move.point for move in record.moves[:3]) for record in map(_saved, tmp_path.glob("*.json"))}
    assert openings == {tuple(opening_moves(text, 15)) for text in RENJU_OPENINGS[:2]}


def test_more_openings_than_the_set_has_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["greedy", "static", "--opening-set=renju26", "--openings=27"]) == 2
    assert "--openings must be 1..26 for renju26" in capsys.readouterr().err


def _saved(path: Path) -> GameRecord:
    return record_from_dict(json.loads(path.read_text()))
