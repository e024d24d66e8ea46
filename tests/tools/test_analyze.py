"""gomoku-analyze on each input format, as a table and as JSON."""

import json
from pathlib import Path

import pytest

from engine.psq import write_psq
from engine.record import GameRecord, PlayerInfo, RecordedMove, record_to_dict
from engine.sgf import write_sgf
from engine.types import Color, Point, Rule
from tools import analyze

# Both sides have an open three in a column (black h8-h10, white j8-j10);
# black to move makes an open four at h7 or h11.
PAIRS = "hhhighgifhfi"


def record() -> GameRecord:
    points = [Point(7, 7), Point(8, 7), Point(7, 6), Point(8, 6), Point(7, 5), Point(8, 5)]
    moves = tuple(RecordedMove(point, Color.BLACK if i % 2 == 0 else Color.WHITE) for i, point in enumerate(points))
    return GameRecord(Rule.FREESTYLE, 15, PlayerInfo("a"), PlayerInfo("b"), moves)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert analyze.main(argv) == 0
    return capsys.readouterr().out


def test_letter_pairs_one_per_line_as_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "positions.txt"
    path.write_text(f"# two positions\n{PAIRS}\n\nhh\n")
    output = run([str(path), "--bot=greedy", "--top=3"], capsys)
    assert f"{path}:2  ply 6, black to move" in output
    assert f"{path}:4  ply 1, white to move" in output
    first = output.splitlines()[1].split()
    assert first[0] == "greedy" and first[1] in ("h7", "h11")


def test_every_record_format_gives_the_same_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "game.json": json.dumps(record_to_dict(record())),
        "game.psq": write_psq(record()),
        "game.sgf": write_sgf(record()),
        "games.txt": PAIRS + "\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    output = run([*(str(tmp_path / name) for name in files), "--bot=greedy", "--bot=static", "--json"], capsys)
    entries = json.loads(output)
    assert len(entries) == 4
    for entry in entries:
        assert entry["moves"] == PAIRS and entry["to_move"] == "black"
        moves = {analysis["bot"]: analysis["move"] for analysis in entry["analyses"]}
        assert moves["greedy"] in ("h7", "h11") and moves["static"] in ("h7", "h11")
        greedy = entry["analyses"][0]
        assert greedy["top"][0] == {"move": greedy["move"], "score": greedy["score"]}


def test_a_json_list_and_the_ply_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps([record_to_dict(record()), record_to_dict(record())]))
    entries = json.loads(run([str(path), "--ply=2", "--json"], capsys))
    assert [entry["position"] for entry in entries] == [f"{path}#1", f"{path}#2"]
    assert all(entry["ply"] == 2 for entry in entries)


def test_a_bad_file_is_reported_and_the_rest_still_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("hhh\n")
    good = tmp_path / "good.txt"
    good.write_text("hh\n")
    assert analyze.main([str(bad), str(good)]) == 1
    captured = capsys.readouterr()
    assert "odd number of letters" in captured.err
    assert "ply 1" in captured.out
