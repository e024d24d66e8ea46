"""A game's review and puzzles, on games whose answers are known.

The games are real: `BOT_GAME` was played by the `easy` (black) and `medium`
(white) levels; the others are made from it by changing a move. A mark's
line is checked by playing it out on a Board: it must end in a five, or in
a four the defender cannot stop.
"""

from engine import Board, Color, Point, Rule, parse_point
from engine.review import (
    MarkKind,
    WinKind,
    find_puzzle,
    judge_position,
    puzzle_candidates,
    review_from_verdicts,
    review_game,
    win_starting_with,
)
from engine.search.position import Position

BOT_GAME = "h8 h9 d7 g10 f11 i10 g8 i8 i7 j9 g9 f10 h10 k8 h11 i11 k6 k10 h7 i9 i12 k9 l9 k11 k12 k7"
"""easy - medium, white wins. Black's h10 (ply 12) lets white win by threes and fours."""

MISSED_VCF = BOT_GAME.split()[:21] + ["a1", "k9"]
"""BOT_GAME until white, to move at ply 21, wins by fours (k9, l9 blocked, k11); white plays a1
instead and black takes k9."""

# Black to move: g5 makes a four (d5-g5, blocked at c5) and an open three (g5-g7); after the
# block at h5, g4 or g8 makes an open four. Every other move lets white take g5 and hold.
UNIQUE_FOUR_THREE = "d5 c5 e5 e6 f5 f6 g6 e4 g7 f4"


# White to move (the threat solvers' own example, tests/engine/search/test_threats.py): h7 makes a
# four whose only block, h8, is a double three, forbidden to black under renju.
FOUR_ONTO_A_FORBIDDEN_POINT = """
O . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . O . X . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def points(text: str | list[str], size: int = 15) -> list[Point]:
    words = text.split() if isinstance(text, str) else text
    return [parse_point(word, size) for word in words]


def wins_when_played_out(moves: list[Point], line: tuple[Point, ...], size: int = 15) -> bool:
    """Whether the line, played from the position after `moves`, ends the game for its first
    mover, or leaves the defender facing two points where the attacker makes five."""
    board = Board.from_moves(moves, size)
    attacker = board.to_move
    for point in line:
        board.play(point)
    if board.result is not None:
        return board.result.winner is attacker
    return board.to_move is not attacker and len(Position.from_board(board).fives[attacker]) >= 2


def test_a_missed_win_by_fours_is_marked_at_its_ply_with_a_line_that_wins() -> None:
    moves = points(MISSED_VCF)
    review, _ = review_game(moves, 15, Rule.FREESTYLE)
    missed = [mark for mark in review.marks if mark.kind is MarkKind.MISSED_WIN]
    assert [(mark.ply, mark.player, mark.win) for mark in missed] == [(21, Color.WHITE, WinKind.VCF)]
    assert missed[0].line[0] == parse_point("k9", 15)
    assert wins_when_played_out(moves[:21], missed[0].line)
    assert review.turning_point == 21


def test_a_blunder_that_allows_a_win_by_threats_is_marked_with_its_refutation() -> None:
    moves = points(BOT_GAME)
    review, _ = review_game(moves, 15, Rule.FREESTYLE)
    assert [(mark.ply, mark.kind, mark.player, mark.win) for mark in review.marks] == [
        (12, MarkKind.BLUNDER, Color.BLACK, WinKind.VCT)
    ]
    refutation = review.marks[0].line
    assert wins_when_played_out(moves[:13], refutation)
    assert review.turning_point == 12


def test_a_game_without_mistakes_has_no_marks_and_no_forced_wins() -> None:
    moves = points(BOT_GAME)[:12]
    review, _ = review_game(moves, 15, Rule.FREESTYLE)
    assert review.marks == ()
    assert review.turning_point is None
    assert [evaluation.win_in for evaluation in review.evaluations] == [None] * 13


def test_every_position_gets_a_bounded_evaluation_and_wins_are_counted_in_moves() -> None:
    moves = points(BOT_GAME)
    review, _ = review_game(moves, 15, Rule.FREESTYLE)
    assert [evaluation.ply for evaluation in review.evaluations] == list(range(len(moves) + 1))
    assert all(-1000 <= evaluation.score <= 1000 for evaluation in review.evaluations)
    # White (to move at odd plies) wins by fours in 3 at ply 19, and in 1 at ply 23: negative, white's.
    assert review.evaluations[19].win_in == -3
    assert review.evaluations[23].win_in == -1
    # Black, to move at ply 20, has no win and white keeps its own: lost, in white's two moves left.
    assert (review.evaluations[20].score, review.evaluations[20].win_in) == (-1000, -2)
    assert review.evaluations[-1].score == 1000 * -1  # black, to move after white's five, has lost


def test_the_verdicts_must_be_one_per_position() -> None:
    moves = points("h8 h9")
    verdicts = [judge_position(Board(15))]
    try:
        review_from_verdicts(moves, verdicts)
    except ValueError as error:
        assert "3 positions" in str(error)
    else:
        raise AssertionError("two moves and one verdict were accepted")


def test_renju_counts_a_four_whose_block_is_forbidden_to_black_as_a_win_for_white() -> None:
    renju = judge_position(Board.from_picture(FOUR_ONTO_A_FORBIDDEN_POINT, Rule.RENJU))
    freestyle = judge_position(Board.from_picture(FOUR_ONTO_A_FORBIDDEN_POINT, Rule.FREESTYLE))
    assert renju.win is not None and renju.win.kind is WinKind.VCF
    assert renju.win.line == (parse_point("h7", 15),)
    assert freestyle.win is None or freestyle.win.line != renju.win.line


def test_a_puzzle_has_a_first_move_that_only_wins_and_every_other_move_fails() -> None:
    moves = points(UNIQUE_FOUR_THREE, 9)
    board = Board.from_moves(moves, 9)
    found = find_puzzle(board)
    assert found is not None
    key = parse_point("g5", 9)
    assert found.win.line[0] == key and found.win.kind is WinKind.VCF
    assert wins_when_played_out(moves, found.win.line, 9)
    for move in board.legal_moves():
        if move == key:
            continue
        after = board.copy()
        after.play(move)
        reply = key if after.is_legal(key) else None
        threats = judge_position(after)
        if threats.win is not None:
            continue  # white wins at once: the move fails
        assert reply is not None
        after.play(reply)
        assert judge_position(after).win is None, f"{move} wins too"


def test_a_position_where_another_first_move_wins_too_is_no_puzzle() -> None:
    # The same four-three with white's stones far away: black wins in several ways.
    picture = """
    O . . . . . . . O
    . . . . . . . . .
    . . . . . . X . .
    . . . . . . X . .
    . . O X X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O . . . . . . . O
    """
    board = Board.from_picture(picture)
    assert judge_position(board).win is not None
    assert find_puzzle(board) is None


def test_puzzles_are_looked_for_where_the_side_to_move_has_a_win_of_two_moves_or_more() -> None:
    review, _ = review_game(points(BOT_GAME), 15, Rule.FREESTYLE)
    assert puzzle_candidates(review) == [13, 15, 17, 19, 21]


def test_another_move_that_wins_by_force_is_proved_with_a_line_that_wins_against_its_defence() -> None:
    # After g5 and its only block h5, g8 makes an open four as the solution's g4 does; a quiet move
    # and a four that leads nowhere win nothing.
    moves = points(UNIQUE_FOUR_THREE + " g5 h5", 9)
    board = Board.from_moves(moves, 9)
    for word in ("g4", "g8"):
        win = win_starting_with(board, parse_point(word, 9))
        assert win is not None and win.line == (parse_point(word, 9),)
    for word in ("a1", "g3"):
        assert win_starting_with(board, parse_point(word, 9)) is None


def test_a_win_in_another_order_than_the_solutions_is_proved_through_every_defence() -> None:
    # White's VCT f9 i12 e9 g9 e12 ... may start its second threat at e12 instead of e9.
    moves = points("h8 h9 f12 g8 i10 g10 g11 i9 j9 h11 d14 h10 h12 f9 i12")
    board = Board.from_moves(moves, 15)
    win = win_starting_with(board, parse_point("e12", 15))
    assert win is not None and win.line[0] == parse_point("e12", 15)
    assert wins_when_played_out(moves, win.line)
    assert win_starting_with(board, parse_point("a1", 15)) is None
