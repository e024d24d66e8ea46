"""SGF GM[4]: files as SGF editors and renju boards write them, and what we write."""

from datetime import UTC, datetime

import pytest

from engine import Color, EndReason, GameResult, Point, RecordFormatError, Rule, parse_pairs
from engine.record import ClockSetting, GameRecord, PlayerInfo, RecordedMove
from engine.sgf import read_sgf, write_sgf

# A renju game as a web renju board exports it: game info in the root node,
# a comment with escaped brackets and a soft line break, a variation after move 5
# (the main line is the first), one node per line.
RENJU_BOARD_EXPORT = r"""(;GM[4]FF[4]CA[UTF-8]AP[Web Renju Board:1.0.0]ST[0]
SZ[15]PB[Ann (1800)]PW[Ben \] the second]RU[Renju]DT[2025-06-01]RE[B+R]
C[Opening: [sun\]rise, a long \
comment]
;B[hh]
;W[ig]
;B[ii]
;W[gi]
;B[jj]C[the main line]
(;W[kk]
;B[jh])
(;W[gg]C[a variation, not read]
;B[ff]))
"""

# A gomoku game from another editor: FF[3] identifiers with lower-case letters,
# spaces and tabs between everything, a draw written as RE[0].
FF3_GAME = """(
  ; GaMe[4] FileFormat[3] SiZe[15] PlayerBlack[first] PlayerWhite[second] REsult[0]
  ; B [hh] ; W [hi]
  ; B\t[ih] ; W [ii]
)"""

# A bare game list as some sites write it: several moves in one node, two games in one file.
COMPACT_COLLECTION = (
    "(;GM[4]FF[4]SZ[15]DT[2018-04-15]PB[Yixin]PW[Qi Guan]RE[0]B[hh]W[ig]B[gj])"
    "(;GM[4]FF[4]SZ[15]PB[someone]PW[else];B[aa])"
)


def test_a_renju_board_export_reads_its_main_line_and_game_info() -> None:
    record = read_sgf(RENJU_BOARD_EXPORT)
    assert record.rule is Rule.RENJU
    assert record.size == 15
    assert record.black == PlayerInfo("Ann (1800)")
    assert record.white == PlayerInfo("Ben ] the second")
    assert [move.point for move in record.moves] == parse_pairs("hhgiiiigjjkkhj", 15)
    assert [move.color for move in record.moves] == [Color.BLACK, Color.WHITE] * 3 + [Color.BLACK]
    assert record.result == GameResult(Color.BLACK, EndReason.RESIGN)
    assert record.started_at == datetime(2025, 6, 1, tzinfo=UTC)


def test_ff3_identifiers_and_whitespace_everywhere_are_accepted() -> None:
    record = read_sgf(FF3_GAME)
    assert (record.black.name, record.white.name) == ("first", "second")
    assert [move.point for move in record.moves] == [Point(7, 7), Point(7, 8), Point(8, 7), Point(8, 8)]
    assert record.result == GameResult(None, EndReason.DRAW_AGREED)
    assert record.rule is Rule.FREESTYLE


def test_moves_in_one_node_are_read_in_order_and_only_the_first_game_is_taken() -> None:
    record = read_sgf(COMPACT_COLLECTION)
    assert [move.point for move in record.moves] == [Point(7, 7), Point(8, 6), Point(6, 9)]
    assert (record.black.name, record.white.name) == ("Yixin", "Qi Guan")


def test_a_file_without_gm_is_taken_as_gomoku_and_a_missing_size_as_15() -> None:
    record = read_sgf("(;B[hh];W[ii])")
    assert record.size == 15
    assert len(record.moves) == 2
    assert (record.black.name, record.white.name) == ("black", "white")


def test_the_rule_comes_from_ru_or_else_from_the_caller() -> None:
    assert read_sgf("(;GM[4]RU[standard];B[hh])").rule is Rule.STANDARD
    assert read_sgf("(;GM[4]RU[Gomoku];B[hh])", default_rule=Rule.STANDARD).rule is Rule.STANDARD
    assert read_sgf("(;GM[4];B[hh])").rule is Rule.FREESTYLE


def test_a_five_on_the_board_is_the_result_and_re_must_agree() -> None:
    five = ";B[ah];W[bh];B[ai];W[bi];B[aj];W[bj];B[ak];W[bk];B[al]"
    record = read_sgf(f"(;GM[4]SZ[15]RE[B+]{five})")
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == (Color.BLACK, EndReason.FIVE)
    assert read_sgf(f"(;GM[4]SZ[15]{five})").result == record.result
    with pytest.raises(RecordFormatError, match=r"the result says a white win \(resign\) but the moves end in a black"):
        read_sgf(f"(;GM[4]SZ[15]RE[W+R]{five})")


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ("B+", GameResult(Color.BLACK, EndReason.RESIGN)),
        ("W+T", GameResult(Color.WHITE, EndReason.TIMEOUT)),
        ("W+Time", GameResult(Color.WHITE, EndReason.TIMEOUT)),
        ("B+F", GameResult(Color.BLACK, EndReason.ABANDONED)),
        ("W+Resign", GameResult(Color.WHITE, EndReason.RESIGN)),
        ("Draw", GameResult(None, EndReason.DRAW_AGREED)),
        ("0", GameResult(None, EndReason.DRAW_AGREED)),
        ("Void", None),
        ("?", None),
    ],
)
def test_results_without_a_five_on_the_board(result: str, expected: GameResult | None) -> None:
    assert read_sgf(f"(;GM[4]RE[{result}];B[hh];W[ii])").result == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[1]FF[4]SZ[19];B[pd];W[dp])", r"this SGF is GM\[1\] \(Go\), not Gomoku/Renju \(GM\[4\]\)"),
        ("(;GM[4]SZ[15]AB[hh][ii]AW[jj];B[kk])", r"sets up stones with AB\[...\]"),
        ("(;GM[4]SZ[15:19];B[hh])", r"SZ\[15:19\]: the board is 15x19; only square boards"),
        ("(;GM[4]SZ[40];B[hh])", r"SZ\[40\]: a 40x40 board is outside the supported 5..26"),
        ("(;GM[4]SZ[big])", r"SZ\[big\] is not a board size"),
        ("(;GM[4]\n;B[hh];W[])", r"SGF line 2, column 8: move 2 W\[\] is a pass"),
        ("(;GM[4];B[hh];W[tt])", r"move 2 W\[tt\] is a pass"),
        ("(;GM[4];B[hh];W[h])", r"move 2 W\[h\]: a point is two lower-case letters"),
        ("(;GM[4];B[hh];W[hp])", r"move 2 W\[hp\] is off the 15x15 board"),
        ("(;GM[4];B[hh];B[ii])", r"move 2 B\[ii\] is illegal: it is white's turn, not black's"),
        ("(;GM[4];B[hh];W[hh])", r"move 2 W\[hh\] is illegal: h8 is already taken"),
        ("(;GM[4]PB[open\n;B[hh)", r"SGF line 1, column 10: a value '\[' is never closed"),
        ("(;GM[4];B[hh]", r"SGF line 1, column 14: expected '\)', found the end of the text"),
        ("(;GM[4];B[hh]];W[ii])", r"SGF line 1, column 14: expected '\)', found '\]'"),
        ("(;GM[4];B", r"property B has no value"),
        ("()", r"a game tree must start with a node"),
        ("no game here", r"not an SGF text"),
    ],
)
def test_bad_sgf_is_refused_saying_why_and_where(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError, match=message):
        read_sgf(text)


def test_a_renju_game_with_a_forbidden_move_is_refused() -> None:
    moves = ";B[hh];W[aa];B[hi];W[ac];B[hj];W[ae];B[hl];W[ag];B[hm];W[ai];B[hk]"
    with pytest.raises(RecordFormatError, match=r"move 11 B\[hk\] is illegal: .*forbidden.*overline"):
        read_sgf(f"(;GM[4]RU[renju]{moves})")


# ----------------------------------------------------------------------- writing


def sample_record() -> GameRecord:
    return GameRecord(
        rule=Rule.RENJU,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("hard [bot]\\", "bot", "hard"),
        moves=tuple(
            RecordedMove(point, Color.BLACK if ply % 2 == 0 else Color.WHITE, 1000)
            for ply, point in enumerate(parse_pairs("hhhiiijjggkkgfiljklj", 15))
        ),
        result=GameResult(Color.WHITE, EndReason.TIMEOUT),
        started_at=datetime(2026, 11, 22, 23, 30, tzinfo=UTC),
        ended_at=datetime(2026, 11, 23, 0, 10, tzinfo=UTC),
        game_id="g-7",
        clock=ClockSetting(300_000, 0),
    )


def test_writing_gives_the_game_info_and_the_moves_ten_to_a_line() -> None:
    assert write_sgf(sample_record()) == (
        "(;GM[4]FF[4]CA[UTF-8]SZ[15]RU[renju]PB[alice]PW[hard [bot\\]\\\\]DT[2026-11-22]RE[W+T]GN[g-7]\n"
        ";B[hh];W[ih];B[ii];W[jj];B[gg];W[kk];B[fg];W[li];B[kj];W[jl])\n"
    )


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (GameResult(Color.BLACK, EndReason.RESIGN), "RE[B+R]"),
        (GameResult(Color.BLACK, EndReason.ABANDONED), "RE[B+F]"),
        (GameResult(None, EndReason.DRAW_AGREED), "RE[Draw]"),
    ],
)
def test_results_are_written_as_sgf_defines_them(result: GameResult, text: str) -> None:
    record = GameRecord(Rule.FREESTYLE, 15, PlayerInfo("a"), PlayerInfo("b"), (), result)
    assert text in write_sgf(record)


def test_an_unfinished_game_has_no_re_and_no_moves_line() -> None:
    record = GameRecord(Rule.STANDARD, 9, PlayerInfo("a"), PlayerInfo("b"), ())
    assert write_sgf(record) == "(;GM[4]FF[4]CA[UTF-8]SZ[9]RU[standard]PB[a]PW[b])\n"


def test_what_we_write_reads_back_with_everything_sgf_carries() -> None:
    record = sample_record()
    again = read_sgf(write_sgf(record))
    assert again == GameRecord(
        rule=record.rule,
        size=record.size,
        black=PlayerInfo("alice"),
        white=PlayerInfo("hard [bot]\\"),
        moves=tuple(RecordedMove(move.point, move.color) for move in record.moves),
        result=record.result,
        started_at=datetime(2026, 11, 22, tzinfo=UTC),
        game_id="g-7",
    )


def test_a_five_written_as_b_plus_reads_back_as_the_same_five() -> None:
    moves = parse_pairs("hhihhiiihjijhkikhl", 15)
    board_record = GameRecord(
        Rule.FREESTYLE,
        15,
        PlayerInfo("a"),
        PlayerInfo("b"),
        tuple(RecordedMove(point, Color.BLACK if ply % 2 == 0 else Color.WHITE) for ply, point in enumerate(moves)),
    )
    record = GameRecord(
        board_record.rule,
        board_record.size,
        board_record.black,
        board_record.white,
        board_record.moves,
        board_record.to_board().result,
    )
    assert record.result is not None and record.result.reason is EndReason.FIVE
    assert "RE[B+]" in write_sgf(record)
    assert read_sgf(write_sgf(record)) == record
