"""Reading uploaded game files: each format, each move checked under its rule, bounds and twins.

The files are written here by hand from the formats' descriptions (engine.psq, engine.sgf).
"""

from __future__ import annotations

import pytest

from engine.game_import import (
    MAX_GAMES_PER_UPLOAD,
    MAX_MOVES_PER_GAME,
    MAX_UPLOAD_BYTES,
    UNKNOWN_END,
    ImportedGame,
    UploadedFile,
    UploadError,
    UploadTerms,
    game_fingerprint,
    guess_format,
    read_upload,
)
from engine.types import Color, EndReason, Point, Rule

PSQ_BLACK_WINS = (
    "Piskvorky 15x15, 0:11, 0\n"
    "8,8,1200\n9,9,300\n9,8,800\n10,10,250\n10,8,700\n11,11,260\n11,8,900\n12,12,240\n12,8,500\n"
    "homo-ann\npbrain-lazy.exe\n0\n"
)
SGF_TWO_GAMES = (
    "(;GM[4]FF[4]SZ[15]RU[renju]PB[Carol]PW[Dave]RE[W+R]\n;B[hh];W[ih];B[ii])\n"
    "(;GM[4]FF[4]SZ[15]PB[Eve]PW[Finn];B[hh];W[ii](;B[hg])(;B[aa]))\n"
)
DOUBLE_THREE = "7,7 0,0 6,7 0,14 8,8 14,0 8,9 14,14 8,7"
"""Black's ninth stone, i8, makes two open threes: forbidden under renju, fine in freestyle."""


def read(*files: UploadedFile, terms: UploadTerms | None = None) -> list[ImportedGame]:
    return read_upload(list(files), terms or UploadTerms())


def test_a_piskvork_file_is_one_game_with_its_names_times_and_five() -> None:
    (game,) = read(UploadedFile("ann.psq", PSQ_BLACK_WINS))
    record = game.record
    assert (game.source, game.file, game.index) == ("psq", "ann.psq", 1)
    assert (record.black.name, record.white.name) == ("ann", "lazy")
    assert record.moves[0].point == Point(7, 7) and record.moves[0].time_ms == 1200
    assert record.result is not None and record.result.winner is Color.BLACK
    assert record.result.reason is EndReason.FIVE


def test_an_sgf_collection_gives_each_game_its_rule_result_and_main_line() -> None:
    first, second = read(UploadedFile("club.sgf", SGF_TWO_GAMES))
    assert first.record.rule is Rule.RENJU and (first.record.black.name, first.record.white.name) == ("Carol", "Dave")
    assert first.record.result is not None and first.record.result.winner is Color.WHITE
    assert second.index == 2 and second.record.rule is Rule.FREESTYLE
    assert [move.point for move in second.record.moves] == [Point(7, 7), Point(8, 8), Point(7, 6)]


def test_a_move_list_is_one_game_per_line_in_either_notation_with_the_uploads_names() -> None:
    text = "# our club night\nh8 i9 h9\n\n7,7 8,8 7,8 8,9\n"
    terms = UploadTerms(black="gina", white="hal")
    first, second = read(UploadedFile("night.txt", text), terms=terms)
    assert [move.point for move in first.record.moves] == [Point(7, 7), Point(8, 6), Point(7, 6)]
    assert [move.point for move in second.record.moves][:2] == [Point(7, 7), Point(8, 8)]
    assert (second.index, second.record.black.name, second.record.white.name) == (2, "gina", "hal")


def test_a_game_without_a_stated_end_is_closed_without_a_winner_saying_so() -> None:
    (game,) = read(UploadedFile("short.txt", "h8 i9 h9"))
    assert game.record.result is not None
    assert (game.record.result.winner, game.record.result.reason) == (None, EndReason.DRAW_AGREED)
    assert game.record.result.detail == UNKNOWN_END


def test_the_format_comes_from_the_name_then_the_text() -> None:
    assert guess_format("x.PSQ", "") == "psq"
    assert guess_format("upload", "\ufeffPiskvorky 15x15, 0:0, 0") == "psq"
    assert guess_format("upload", "  (;GM[4])") == "sgf"
    assert guess_format("upload", "h8 i9") == "moves"


def test_a_renju_games_forbidden_point_is_refused_naming_file_game_and_move() -> None:
    (freestyle,) = read(UploadedFile("line.txt", DOUBLE_THREE))
    assert len(freestyle.record.moves) == 9
    with pytest.raises(UploadError) as refused:
        read(UploadedFile("line.txt", DOUBLE_THREE), terms=UploadTerms(rule=Rule.RENJU))
    assert str(refused.value) == (
        "line.txt, game 1: line 1: move 9 (8,7) is illegal: i8 is forbidden for black under renju (double-three)"
    )


@pytest.mark.parametrize(
    ("file", "message"),
    [
        (UploadedFile("a.txt", "h8 i9\nh8 h8"), "a.txt, game 2: line 2: move 2 (h8) is illegal: h8 is already taken"),
        (UploadedFile("b.txt", "h8 q9"), "b.txt, game 1: line 1: move 2 (q9): 'q9' is outside the 15x15 board"),
        (UploadedFile("c.sgf", "(;GM[4];B[hh])(;GM[1];B[aa])"), "c.sgf, game 2: this SGF is GM[1] (Go)"),
        (UploadedFile("d.psq", "Piskvorky 15x15, 0:0, 0\n8,8\n8,8\n"), "d.psq, game 1: line 3: move 2 (8,8)"),
        (UploadedFile("e.txt", "# nothing\n"), "the upload holds no game"),
    ],
)
def test_a_bad_file_is_refused_naming_where(file: UploadedFile, message: str) -> None:
    with pytest.raises(UploadError) as refused:
        read(file)
    assert str(refused.value).startswith(message)


def test_bounds_on_bytes_games_and_moves() -> None:
    with pytest.raises(UploadError, match=f"at most {MAX_UPLOAD_BYTES} are taken"):
        read(UploadedFile("big.txt", "h8 " * (MAX_UPLOAD_BYTES // 3 + 1)))
    files = [UploadedFile(f"f{n}.txt", "\n".join(f"{x},{n} {x},{n + 5}" for x in range(15))) for n in range(4)]
    assert MAX_GAMES_PER_UPLOAD == 50
    with pytest.raises(UploadError, match="^f3.txt, game 6: an upload holds at most 50 games$"):
        read(*files)
    with pytest.raises(
        UploadError, match=f"^long.txt, game 1 has 402 moves; an imported game has at most {MAX_MOVES_PER_GAME}$"
    ):
        read(UploadedFile("long.txt", five_free_game(26, 402)), terms=UploadTerms(size=26))


def five_free_game(size: int, moves: int) -> str:
    """A move list of `moves` moves that never makes five: black holds the points where
    (x // 2 + y) is even, so that every line holds runs of two at most."""
    points = [(x, y) for y in range(size) for x in range(size)]
    blacks = [point for point in points if (point[0] // 2 + point[1]) % 2 == 0]
    whites = [point for point in points if (point[0] // 2 + point[1]) % 2 == 1]
    order = [point for pair in zip(blacks, whites, strict=True) for point in pair]
    return " ".join(f"{x},{y}" for x, y in order[:moves])


def test_the_same_game_twice_in_one_upload_is_refused_and_names_differ_in_case_only() -> None:
    with pytest.raises(UploadError, match=r"^b.txt, game 1 is the same game as a.txt, game 1$"):
        read(UploadedFile("a.txt", "h8 i9"), UploadedFile("b.txt", "h8 i9"))
    (upper,) = read(UploadedFile("a.txt", "h8 i9"), terms=UploadTerms(black="ANN"))
    (lower,) = read(UploadedFile("a.txt", "h8 i9"), terms=UploadTerms(black="ann"))
    (other,) = read(UploadedFile("a.txt", "h8 i9"), terms=UploadTerms(black="bob"))
    assert game_fingerprint(upper.record) == game_fingerprint(lower.record) != game_fingerprint(other.record)
