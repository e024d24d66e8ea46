"""Piskvork `.psq` files: what Piskvork writes reads back, what we write reads in Piskvork's way."""

import pytest

from engine import Color, EndReason, GameResult, Point, RecordFormatError, Rule
from engine.psq import read_psq, write_psq
from engine.record import GameRecord, PlayerInfo, RecordedMove

# A Gomocup tournament game as Piskvork saves it on Windows (text mode: CRLF):
# header, moves with 1-based x,y and thinking time, the two brains, the end code.
TOURNAMENT_GAME = (
    "Piskvorky 20x20, 11:11, 0\r\n"
    "10,10,0\r\n"
    "10,11,0\r\n"
    "11,10,0\r\n"
    "11,11,1203\r\n"
    "12,10,874\r\n"
    "12,11,2011\r\n"
    "13,10,45\r\n"
    "9,10,1001\r\n"
    "14,10,640\r\n"
    "pbrain-embryo19_s.exe\r\n"
    "pbrain-rapfi.exe\r\n"
    "0\r\n"
)

# A game saved by hand from Piskvork's File menu: no player lines, code -1.
HAND_SAVED = """Piskvorky 15x15, 0:11, 0
8,8,5310
9,9,1000
9,8,4022
-1
"""


def test_a_tournament_game_reads_with_its_brains_times_and_five() -> None:
    record = read_psq(TOURNAMENT_GAME)
    assert record.size == 20
    assert record.rule is Rule.FREESTYLE
    assert record.black == PlayerInfo("embryo19_s", "bot")
    assert record.white == PlayerInfo("rapfi", "bot")
    assert record.moves[0] == RecordedMove(Point(9, 9), Color.BLACK, 0)
    assert record.moves[3] == RecordedMove(Point(10, 10), Color.WHITE, 1203)
    assert len(record.moves) == 9
    assert record.result == GameResult(Color.BLACK, EndReason.FIVE, tuple(Point(x, 9) for x in range(9, 14)))


def test_a_hand_saved_game_takes_the_players_kinds_from_the_header() -> None:
    record = read_psq(HAND_SAVED)
    assert record.size == 15
    assert (record.black.kind, record.white.kind) == ("human", "bot")
    assert [move.point for move in record.moves] == [Point(7, 7), Point(8, 8), Point(8, 7)]
    assert [move.time_ms for move in record.moves] == [5310, 1000, 4022]
    assert record.result is None


def test_human_players_are_the_homo_lines_and_keep_their_names() -> None:
    text = "Piskvorky 15x15, 0:0, 0\n8,8,100\n9,9,200\nhomo-1\nhomo-alice\n-1\n"
    record = read_psq(text)
    assert record.black == PlayerInfo("1", "human")
    assert record.white == PlayerInfo("alice", "human")


def test_when_the_second_slot_moved_first_the_players_are_swapped() -> None:
    text = "Piskvorky 15x15, 11:0, 1\n8,8,100\n9,9,200\npbrain-wine.exe\nhomo-2\n0\n"
    record = read_psq(text)
    assert record.black == PlayerInfo("2", "human")
    assert record.white == PlayerInfo("wine", "bot")


def test_brain_paths_are_shortened_the_way_piskvork_shows_them() -> None:
    text = "Piskvorky 15x15, 11:11, 0\n8,8,1\nC:\\gomocup\\pbrain-Yixin2018.exe\n/home/me/brains/pbrain-slowrenju\n0\n"
    record = read_psq(text)
    assert record.black.name == "Yixin2018"
    assert record.white.name == "slowrenju"


def test_reading_is_as_lenient_as_piskvork() -> None:
    text = (
        "\ufeffPiskvorky 15x15, 0:0, 0\n"
        "\n"
        " 8, 8 ,12\n"
        "9,9\n"  # no time: Piskvork reads 0
        "\n"
        "10,10,7\n"
        "homo-ann\n"
        "homo-ben\n"
        "-1\n"
        "anything Piskvork would ignore\n"
    )
    record = read_psq(text)
    assert [(move.point, move.time_ms) for move in record.moves] == [
        (Point(7, 7), 12),
        (Point(8, 8), 0),
        (Point(9, 9), 7),
    ]
    assert (record.black.name, record.white.name) == ("ann", "ben")


def test_a_renju_game_is_read_under_the_rule_the_caller_gives() -> None:
    record = read_psq(HAND_SAVED, Rule.RENJU)
    assert record.rule is Rule.RENJU


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the .psq text is empty"),
        ("8,8,0\n", "line 1: '8,8,0' is not a Piskvork header"),
        ("Piskvorky 20x15, 0:0, 0\n", "line 1: the board is 20x15; only square boards are supported"),
        ("Piskvorky 30x30, 0:0, 0\n", "line 1: a 30x30 board is outside the supported 5..26"),
        ("Piskvorky 15x15, 0:0, 2\n", "line 1: the player who moved first must be 0 or 1, not 2"),
        (
            "Piskvorky 20x20, 0:0, 0\n10,10,0\n21,5,0\n",
            r"line 3: 21,5 is off the 20x20 board \(x and y run from 1 to 20\)",
        ),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n0,5,0\n", "line 3: 0,5 is off the 20x20 board"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n\n10,10,0\n", r"line 4: move 2 \(10,10\) is illegal: j11 is already taken"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n11,x,0\n", "line 3: '11,x,0' is not a move written as x,y,time"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,-4\n", "line 2: the thinking time -4 is negative"),
    ],
)
def test_bad_files_are_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError, match=message):
        read_psq(text)


def test_a_move_after_the_five_is_refused_naming_the_line() -> None:
    text = TOURNAMENT_GAME.replace("pbrain-embryo", "1,1,0\r\npbrain-embryo")
    with pytest.raises(RecordFormatError, match=r"line 11: move 10 \(1,1\) is illegal: the game is over"):
        read_psq(text)


def test_a_renju_forbidden_move_is_refused_naming_the_line() -> None:
    text = "Piskvorky 15x15, 0:0, 0\n8,8,0\n1,1,0\n9,8,0\n1,3,0\n10,8,0\n1,5,0\n12,8,0\n1,7,0\n13,8,0\n1,9,0\n11,8,0\n"
    with pytest.raises(RecordFormatError, match=r"line 12: move 11 \(11,8\) is illegal: .*overline"):
        read_psq(text, Rule.RENJU)


# ----------------------------------------------------------------------- writing


def finished_game() -> GameRecord:
    return GameRecord(
        rule=Rule.FREESTYLE,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("hard", "bot", "hard"),
        moves=(
            RecordedMove(Point(7, 7), Color.BLACK, 5310),
            RecordedMove(Point(8, 8), Color.WHITE, 120),
            RecordedMove(Point(8, 7), Color.BLACK),
        ),
        result=GameResult(Color.WHITE, EndReason.TIMEOUT),
        game_id="g-7",
    )


def test_writing_follows_piskvork_line_for_line() -> None:
    assert write_psq(finished_game()) == ("Piskvorky 15x15, 0:11, 0\n8,8,5310\n9,9,120\n9,8,0\nhomo-alice\nhard\n0\n")


def test_an_unfinished_game_ends_with_the_code_for_not_available() -> None:
    record = GameRecord(Rule.FREESTYLE, 15, PlayerInfo("a"), PlayerInfo("b"), ())
    assert write_psq(record) == "Piskvorky 15x15, 0:0, 0\nhomo-a\nhomo-b\n-1\n"


def test_what_we_write_reads_back_with_everything_the_format_carries() -> None:
    record = finished_game()
    again = read_psq(write_psq(record))
    assert (again.size, again.black, again.white) == (15, PlayerInfo("alice"), PlayerInfo("hard", "bot"))
    assert [(move.point, move.color) for move in again.moves] == [(move.point, move.color) for move in record.moves]
    assert [move.time_ms for move in again.moves] == [5310, 120, 0]


def test_what_piskvork_writes_is_written_back_the_same_apart_from_line_ends() -> None:
    again = write_psq(read_psq(TOURNAMENT_GAME))
    assert again == TOURNAMENT_GAME.replace("\r\n", "\n").replace("pbrain-", "").replace(".exe", "")


def test_a_name_with_a_line_break_cannot_be_written() -> None:
    record = GameRecord(Rule.FREESTYLE, 15, PlayerInfo("a\nb"), PlayerInfo("c"), ())
    with pytest.raises(ValueError, match="line break"):
        write_psq(record)
