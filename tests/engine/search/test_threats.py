"""The threat-space solvers on constructed positions whose answers are known.

A VCF line is also checked independently of the solver: replayed on a
Board, every attacker move must make a four (or better), every defender
move must be the only block, and the line must end in a five or in a four
the defender cannot stop.
"""

from engine import Board, Point, Rule, format_point, parse_pairs, parse_point, rules
from engine.limits import Budget
from engine.search.position import Position
from engine.search.threats import ThreatSolver

# Black to move. h8 makes a four (d8-g8, blocked by O at c8) and an open three
# on the h file; after the forced block at i8, h7 or h11 makes an open four.
FOUR_THEN_OPEN_FOUR = """
O . . . . . . . . . . . . . O
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . O X X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O . . . . . . . . . . . . . O
"""

# Black to move. h8 makes two open threes at once (f8-h8 and h10-h8), which
# wins by threats though there is no four to play.
DOUBLE_THREE = """
O . . . . . . . . . . . . . O
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O . . . . . . . . . . . . . O
"""

# Black to move with only dead shapes: no four can lead anywhere.
NO_WIN = """
O . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . O X X X . O . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""

# White to move under renju: h7 makes a four whose only block, h8, would be
# a double-three for black (f8-g8-h8 and h8-i7-j6), so black cannot stop it.
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


def _solver(board: Board) -> ThreatSolver:
    return ThreatSolver(Position.from_board(board), Budget())


def _names(position: Position, line: list[int]) -> list[str]:
    return [format_point(position.point(index), position.size) for index in line]


def assert_is_vcf(board: Board, line: list[Point]) -> None:
    """Replay `line` on a copy of `board`, checking that it is a win by continuous fours."""
    board = board.copy()
    attacker = board.to_move
    for step, point in enumerate(line):
        board.play(point)
        if board.result is not None:
            assert board.result.winner is attacker
            return
        if step % 2 == 0:
            completions = _completions(board, attacker)
            assert completions, f"{point} is not a four"
            if len(completions) >= 2 or all(board.is_forbidden(block) for block in completions):
                assert step == len(line) - 1, "the line goes on after an unstoppable four"
                return
        else:
            assert _completions_before(board, attacker) == [point], f"{point} was not the only block"
    raise AssertionError("the line ends without a win")


def _completions(board: Board, color: int) -> list[Point]:
    found = []
    for point in board.empty_points():
        index = point.y * board.size + point.x
        board.cells[index] = color
        if rules.winning_run(board.cells, board.size, point.x, point.y, color, board.rule) is not None:
            found.append(point)
        board.cells[index] = rules.EMPTY
    return found


def _completions_before(board: Board, color: int) -> list[Point]:
    """The attacker's completions just before the defender's last move."""
    block = board.pop()
    try:
        return _completions(board, color)
    finally:
        board.push(block)


def test_vcf_finds_a_four_then_an_open_four() -> None:
    board = Board.from_picture(FOUR_THEN_OPEN_FOUR)
    solver = _solver(board)
    line = solver.vcf()
    assert line is not None
    names = _names(solver.position, line)
    assert names[:2] == ["h8", "i8"]
    assert names[2] in ("h7", "h11")
    assert_is_vcf(board, [solver.position.point(index) for index in line])


def test_vcf_reports_no_win_when_every_four_is_dead() -> None:
    assert _solver(Board.from_picture(NO_WIN)).vcf() is None


def test_vct_finds_a_double_three_where_there_is_no_vcf() -> None:
    board = Board.from_picture(DOUBLE_THREE)
    solver = _solver(board)
    assert solver.vcf() is None
    line = solver.vct(4)
    assert line is not None
    assert _names(solver.position, line)[0] == "h8"


def test_vct_reports_no_win_without_threats() -> None:
    assert _solver(Board.from_picture(NO_WIN)).vct(4) is None


def test_white_wins_by_a_four_whose_block_is_forbidden_for_black() -> None:
    board = Board.from_picture(FOUR_ONTO_A_FORBIDDEN_POINT, rule=Rule.RENJU)
    assert board.to_move == rules.WHITE
    solver = _solver(board)
    line = solver.vcf()
    assert line is not None
    assert _names(solver.position, line) == ["h7"]
    board.play(parse_point("h7", 15))
    assert board.forbidden_reason(parse_point("h8", 15)) is rules.Forbidden.DOUBLE_THREE


def test_the_same_four_is_no_win_in_freestyle_where_black_may_block() -> None:
    board = Board.from_picture(FOUR_ONTO_A_FORBIDDEN_POINT)
    assert _solver(board).vcf() is None


# Black to move (after white's h7 in a lost game): black wins by threats,
# i7 h12 m11 l11 j8 l10 l8 ... , a line a shallow VCT already finds.
SHORT_WIN_BY_THREATS = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . O X O . . .
. . . . . . . O X X X . . . .
. . . . . . X . . X O . . . .
. . . . . . . O X X X . . . .
. . . . . . . X O . . . . . .
. . . . . O O O . O . . . . .
. . . . . . . . . . O . . . .
. . . . . . . . . . . X . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def test_deepening_finds_a_short_win_by_threats_for_a_fraction_of_the_nodes() -> None:
    board = Board.from_picture(SHORT_WIN_BY_THREATS)
    deep = Budget()
    deep_line = ThreatSolver(Position.from_board(board), deep).vct(12)
    deepening = Budget()
    short_line = ThreatSolver(Position.from_board(board), deepening).vct_deepening(12)
    assert deep_line is not None and short_line is not None
    assert len(short_line) <= len(deep_line)
    assert deepening.nodes * 3 < deep.nodes


def test_hints_of_a_known_win_lead_the_solver_to_it_sooner() -> None:
    board = Board.from_picture(SHORT_WIN_BY_THREATS)
    plain = ThreatSolver(Position.from_board(board), Budget())
    line = plain.vct_deepening(12)
    assert line is not None
    hinted = ThreatSolver(Position.from_board(board), Budget())
    hinted.hints = set(line[::2])
    assert hinted.vct_deepening(12) == line
    assert hinted.budget.nodes < plain.budget.nodes


WIN_BY_THREATS_IN_NINE = "hhgijffihihjfhghggeihgfg"
"""A game lost to a VCT of nine threats (bench.defence): white's g10 let black win; no VCF."""


def _after_moves(pairs: str) -> ThreatSolver:
    board = Board()
    for point in parse_pairs(pairs, 15):
        board.play(point)
    return ThreatSolver(Position.from_board(board), Budget())


def test_a_win_by_threats_found_once_is_answered_again_from_memory() -> None:
    solver = _after_moves(WIN_BY_THREATS_IN_NINE)
    assert solver.vcf() is None
    line = solver.vct(12)
    nodes = solver.budget.nodes
    assert line is not None
    assert solver.vct(12) == line
    assert solver.budget.nodes == nodes


def test_a_remembered_win_is_not_claimed_by_a_shallower_search() -> None:
    solver = _after_moves(WIN_BY_THREATS_IN_NINE)
    line = solver.vct(12)
    assert line is not None and len(line) > 2 * 4
    assert solver.vct(4) is None


WIN_THAT_SWITCHES_PLACE = "h8 i9 d7 i8 i7 g9 g10 f9 h9 h10 f8 i11 h7 i12 i10 k7"
"""Black to move, 16 stones into a game `master` lost as white to `alphabeta`: black wins by
threats (the four h6, then j8, ...), but against some defences only with a threat off the
lines of the one before it, so a solver that always builds on its last threat finds no win."""


def test_a_win_by_threats_that_switches_place_once_is_found_only_with_a_switch() -> None:
    board = Board.from_moves([parse_point(word, 15) for word in WIN_THAT_SWITCHES_PLACE.split()])
    assert ThreatSolver(Position.from_board(board), Budget()).vct(8) is None
    position = Position.from_board(board)
    line = ThreatSolver(position, Budget()).vct(8, switches=1)
    assert line is not None
    replay = board.copy()
    attacker = replay.to_move
    for point in map(position.point, line):
        replay.play(point)
    won = replay.result is not None and replay.result.winner is attacker
    assert won or len(_completions(replay, attacker)) >= 2, "the line ends in a five or an unstoppable four"
