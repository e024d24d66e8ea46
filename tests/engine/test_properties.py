"""Properties over random games: undo is exact, wins agree with a brute-force scan, formats round-trip.

Random games are played inside a random window of the board, at least half
filling it, so that they are dense enough to make fives and overlines often
(about four games in ten end with a five); under renju, black never plays a
forbidden point (as `play` would refuse it).
"""

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from engine import Board, Color, EndReason, GameResult, Point, Rule
from engine.notation import format_pairs, format_point, parse_pairs, parse_point
from engine.psq import read_psq, write_psq
from engine.record import ClockSetting, GameRecord, PlayerInfo, RecordedMove, record_from_dict, record_to_dict
from engine.sgf import read_sgf, write_sgf
from engine.zobrist import zobrist_keys


@dataclass
class RandomGame:
    board: Board
    snapshots: list[tuple[list[int], int, GameResult | None]]
    """(cells, hash, result) before each move, for checking undo."""


def play_random_game(rule: Rule, size: int, window: int, length: int, rng: random.Random) -> RandomGame:
    """Push up to `length` legal moves chosen inside a window of the board; stop when the game ends."""
    board = Board(size, rule)
    left = rng.randrange(size - window + 1)
    top = rng.randrange(size - window + 1)
    area = [Point(left + dx, top + dy) for dy in range(window) for dx in range(window)]
    snapshots: list[tuple[list[int], int, GameResult | None]] = []
    for _ in range(length):
        if board.result is not None:
            break
        candidates = [point for point in area if board.stone_at(point) is None]
        rng.shuffle(candidates)
        point = next((point for point in candidates if not board.is_forbidden(point)), None)
        if point is None:
            break
        snapshots.append((list(board.cells), board.hash, board.result))
        board.push(point)
    return RandomGame(board, snapshots)


@st.composite
def random_games(draw: st.DrawFn, max_size: int = 12, max_length: int = 120) -> RandomGame:
    rule = draw(st.sampled_from(list(Rule)))
    size = 15 if rule is Rule.RENJU else draw(st.integers(5, max_size))
    window = draw(st.integers(5, min(size, 9)))
    longest = min(window * window, max_length)
    length = draw(st.integers(min(window * window // 2, longest), longest))
    return play_random_game(rule, size, window, length, draw(st.randoms(use_true_random=False)))


def hash_from_scratch(board: Board) -> int:
    keys = zobrist_keys(board.size)
    value = 0
    for index, cell in enumerate(board.cells):
        value ^= keys[cell][index]
    return value


# --------------------------------------------------------------------- undo and hash


@given(random_games())
def test_pop_restores_the_cells_the_hash_and_the_result_exactly(game: RandomGame) -> None:
    board = game.board
    assert board.hash == hash_from_scratch(board)
    for cells, hash_before, result_before in reversed(game.snapshots):
        board.pop()
        assert board.cells == cells
        assert board.hash == hash_before == hash_from_scratch(board)
        assert board.result == result_before
    assert board.ply == 0 and board.hash == 0


@given(random_games())
def test_the_incremental_hash_always_equals_the_hash_from_scratch(game: RandomGame) -> None:
    replay = Board(game.board.size, game.board.rule)
    for point in game.board.moves:
        replay.push(point)
        assert replay.hash == hash_from_scratch(replay)


@given(random_games())
def test_looking_for_forbidden_points_leaves_the_board_as_it_was(game: RandomGame) -> None:
    board = game.board
    before = (list(board.cells), board.hash, board.result)
    legal = board.legal_moves()
    assert (board.cells, board.hash, board.result) == before
    assert all(board.stone_at(point) is None for point in legal)


# ---------------------------------------------------------------- win detection


def runs(board: Board) -> list[tuple[int, frozenset[Point]]]:
    """Every maximal run of one colour along every line, found by scanning the whole board."""
    size = board.size
    found = []
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for y in range(size):
            for x in range(size):
                color = board.cells[y * size + x]
                before = (x - dx, y - dy)
                if not color or (
                    0 <= before[0] < size
                    and 0 <= before[1] < size
                    and board.cells[before[1] * size + before[0]] == color
                ):
                    continue  # empty, or not the start of its run
                stones = []
                cx, cy = x, y
                while 0 <= cx < size and 0 <= cy < size and board.cells[cy * size + cx] == color:
                    stones.append(Point(cx, cy))
                    cx, cy = cx + dx, cy + dy
                found.append((color, frozenset(stones)))
    return found


def wins(color: int, length: int, rule: Rule) -> bool:
    if rule is Rule.FREESTYLE or (rule is Rule.RENJU and color == Color.WHITE):
        return length >= 5
    return length == 5


@given(random_games())
def test_win_detection_agrees_with_a_brute_force_scan_of_every_line(game: RandomGame) -> None:
    replay = Board(game.board.size, game.board.rule)
    for point in game.board.moves:
        replay.push(point)
        winning = [(color, stones) for color, stones in runs(replay) if wins(color, len(stones), replay.rule)]
        result = replay.result
        if not winning:
            expected = GameResult(None, EndReason.FULL_BOARD) if replay.is_full() else None
            assert result == expected
            continue
        assert result is not None and result.reason is EndReason.FIVE and result.line is not None
        assert {color for color, _ in winning} == {result.winner}
        assert frozenset(result.line) in {stones for _, stones in winning}
        assert point in result.line


# --------------------------------------------------------------------- notation


@given(
    st.integers(5, 26).flatmap(
        lambda size: st.tuples(st.just(size), st.integers(0, size - 1), st.integers(0, size - 1))
    )
)
def test_human_notation_round_trips(case: tuple[int, int, int]) -> None:
    size, x, y = case
    point = Point(x, y)
    assert parse_point(format_point(point, size), size) == point
    assert parse_point(format_point(point, size).upper(), size) == point


@given(st.lists(st.builds(Point, st.integers(0, 25), st.integers(0, 25))))
def test_letter_pairs_round_trip(points: list[Point]) -> None:
    text = format_pairs(points)
    assert len(text) == 2 * len(points)
    assert parse_pairs(text, 26) == points


# ---------------------------------------------------------------------- records

names = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,31}", fullmatch=True).filter(
    lambda name: not name.lower().startswith(("homo-", "pbrain-"))
)
"""Names as the wire allows them, less the two prefixes .psq gives a meaning."""
players = st.one_of(
    st.builds(PlayerInfo, names, st.just("human")),
    st.builds(PlayerInfo, names, st.just("bot"), st.sampled_from(["easy", "hard", "greedy"])),
)
zones = st.integers(-14 * 60, 14 * 60).map(lambda minutes: timezone(timedelta(minutes=minutes)))
moments = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=zones)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    game = draw(random_games(max_size=26, max_length=60))
    board = game.board
    times = st.one_of(st.none(), st.integers(0, 10**7))
    moves = tuple(
        RecordedMove(point, Color.BLACK if ply % 2 == 0 else Color.WHITE, draw(times))
        for ply, point in enumerate(board.moves)
    )
    result = board.result
    if result is None:
        winner = draw(st.sampled_from(list(Color)))
        result = draw(
            st.sampled_from(
                [
                    None,
                    GameResult(winner, EndReason.RESIGN),
                    GameResult(winner, EndReason.TIMEOUT),
                    GameResult(winner, EndReason.ABANDONED),
                    GameResult(None, EndReason.DRAW_AGREED),
                ]
            )
        )
    started = draw(st.one_of(st.none(), moments))
    ended = (
        None if started is None or result is None else started + draw(st.timedeltas(timedelta(0), timedelta(days=2)))
    )
    return GameRecord(
        rule=board.rule,
        size=board.size,
        black=draw(players),
        white=draw(players),
        moves=moves,
        result=result,
        started_at=started,
        ended_at=ended,
        game_id=draw(st.one_of(st.none(), st.from_regex(r"[a-z0-9-]{1,24}", fullmatch=True))),
        clock=draw(st.one_of(st.none(), st.builds(ClockSetting, st.integers(0, 10**8), st.integers(0, 10**6)))),
    )


@given(records())
def test_json_round_trip_is_lossless(record: GameRecord) -> None:
    text = json.dumps(record_to_dict(record))
    assert record_from_dict(json.loads(text)) == record


@given(records())
def test_psq_round_trip_keeps_what_psq_carries(record: GameRecord) -> None:
    again = read_psq(write_psq(record), record.rule)
    assert again == GameRecord(
        rule=record.rule,
        size=record.size,
        black=PlayerInfo(record.black.name, record.black.kind),
        white=PlayerInfo(record.white.name, record.white.kind),
        moves=tuple(RecordedMove(move.point, move.color, move.time_ms or 0) for move in record.moves),
        result=record.to_board().result,
    )


@given(records())
def test_sgf_round_trip_keeps_what_sgf_carries(record: GameRecord) -> None:
    again = read_sgf(write_sgf(record))
    started = record.started_at
    assert again == GameRecord(
        rule=record.rule,
        size=record.size,
        black=PlayerInfo(record.black.name),
        white=PlayerInfo(record.white.name),
        moves=tuple(RecordedMove(move.point, move.color) for move in record.moves),
        result=record.result,
        started_at=None
        if started is None
        else datetime.combine(started.astimezone(UTC).date(), datetime.min.time(), UTC),
        game_id=record.game_id,
    )
