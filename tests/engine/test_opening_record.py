"""A game's opening in its record: JSON round trips, PSQ and SGF show it, a record that contradicts it is refused."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.errors import RecordFormatError
from engine.opening_record import OpeningRecord, OpeningStepRecord, check_opening, step_from_dict, step_to_dict
from engine.openings import ChooseColor, DeclareOffers, OfferFifths, OpeningRule, PlaceStones, Player, SelectFifth
from engine.psq import read_psq, write_psq
from engine.record import GameRecord, PlayerInfo, RecordedMove, record_from_dict, record_to_dict
from engine.sgf import read_sgf, write_sgf
from engine.types import Color, Point, Rule

STONES = (Point(7, 7), Point(8, 8), Point(9, 6))
SWAP2_STAYING_WHITE = OpeningRecord(
    OpeningRule.SWAP2,
    (
        OpeningStepRecord("alice", Player.FIRST, PlaceStones(STONES)),
        OpeningStepRecord("bob", Player.SECOND, ChooseColor(Color.WHITE)),
    ),
)


def swap2_game() -> GameRecord:
    """Alice placed three stones, Bob stayed white and played the 4th move."""
    moves = [*STONES, Point(6, 8)]
    colors = [Color.BLACK, Color.WHITE, Color.BLACK, Color.WHITE]
    return GameRecord(
        rule=Rule.FREESTYLE,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("bob"),
        moves=tuple(RecordedMove(point, color, 0) for point, color in zip(moves, colors, strict=True)),
        opening=SWAP2_STAYING_WHITE,
    )


@pytest.mark.parametrize(
    "step",
    [
        PlaceStones(STONES),
        ChooseColor(Color.BLACK),
        DeclareOffers(5),
        OfferFifths((Point(1, 2), Point(3, 4))),
        SelectFifth(Point(5, 6)),
    ],
)
def test_every_kind_of_step_reads_back_as_written(step: object) -> None:
    assert step_from_dict(json.loads(json.dumps(step_to_dict(step)))) == step  # type: ignore[arg-type]


def test_an_opening_survives_the_json_record() -> None:
    record = swap2_game()
    assert record_from_dict(json.loads(json.dumps(record_to_dict(record)))) == record
    assert record_to_dict(record)["opening"]["steps"][1] == {
        "by": "bob",
        "side": "second",
        "step": {"kind": "choose_color", "color": "white"},
    }


def test_psq_and_sgf_say_how_the_opening_went_and_stay_readable() -> None:
    record = swap2_game()
    psq = write_psq(record)
    assert "opening swap2\nopening alice (first) places h8 i7 j9\nopening bob (second) chooses white\n" in psq
    assert [move.point for move in read_psq(psq).moves] == [move.point for move in record.moves]
    sgf = write_sgf(record)
    assert "C[opening: swap2\nalice (first) places h8 i7 j9\nbob (second) chooses white]" in sgf
    assert [move.point for move in read_sgf(sgf).moves] == [move.point for move in record.moves]


def test_a_record_whose_moves_do_not_begin_with_the_openings_stones_is_refused() -> None:
    record = swap2_game()
    moved = replace(record, moves=(*record.moves[:2], RecordedMove(Point(12, 12), Color.BLACK, 0), record.moves[3]))
    with pytest.raises(RecordFormatError, match="first moves"):
        record_from_dict(record_to_dict(moved))


def test_an_opening_that_breaks_its_rule_is_refused() -> None:
    wrong = OpeningRecord(OpeningRule.SWAP, (OpeningStepRecord("bob", Player.SECOND, PlaceStones(STONES)),))
    with pytest.raises(RecordFormatError, match="cannot be replayed"):
        check_opening(wrong, 15, Rule.FREESTYLE, STONES)
