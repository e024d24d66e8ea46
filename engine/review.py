"""A game's review: where a forced win was missed, which move let the opponent force one.

The review stands on the threat solvers (`engine.search.threats`): they
prove a win by fours (VCF) or by threes and fours (VCT), so a mark is not
an opinion but a line that wins when played out. It comes in two steps,
so that a server can spread the work over its bot workers one position
at a time, at the lowest priority:

1. `judge_position` looks at one position with a bounded node budget:
   a static evaluation and the side to move's forced win, if the solvers
   find one within the budget (renju's forbidden points count: a win whose
   line needs black to play a forbidden point is no win, a block forbidden
   to black does not stop white).
2. `review_from_verdicts` puts the verdicts of every position of a game
   together: the evaluation of every ply, the marks and the turning point.

A mark:

* a **missed win** at ply `i`: the player to move had a forced win (kept
  as the mark's line) and the move played did not keep it: it made no
  five, and two plies later the player had no forced win left;
* a **blunder** at ply `i`: after the move the opponent has a forced win
  (the refutation, kept as the mark's line) that it did not have when it
  was last to move (ply `i - 1`).

The **turning point** is the last marked move: the last time a forced
win changed hands or was let go, after which the game went the way it did.

Pure: no I/O, no clock but the node budget, nothing kept between calls.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.limits import Budget, OutOfBudget
from engine.search.position import Position
from engine.search.threats import ThreatSolver, WinningLine, other, unstoppable_fours
from engine.types import Color, Point, Rule

EVAL_BOUND = 1000
"""An evaluation lies in [-EVAL_BOUND, EVAL_BOUND], from black's side; forced wins are `win_in`."""

EVAL_SCALE = 20
"""The engine's static evaluation is divided by this before it is bounded (a double threat, about
36,000, is then past the bound: the position is as good as won)."""


class WinKind(enum.StrEnum):
    """How a forced win goes."""

    VCF = "vcf"
    """By continuous fours: each attacker move is a four, each reply the only block."""
    VCT = "vct"
    """By threes and fours: the defender has a choice after a three, and loses against each."""


class MarkKind(enum.StrEnum):
    """What a mark says about a move."""

    MISSED_WIN = "missed_win"
    """The player to move had a forced win and did not play it."""
    BLUNDER = "blunder"
    """The move let the opponent force a win it did not have before."""


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How hard each position is looked at; the default is the server's."""

    nodes: int = 20_000
    """Most solver nodes for one position (VCF then VCT share them)."""
    vcf_fours: int = 20
    """Most fours of a VCF."""
    vct_threats: int = 6
    """Most threats of a VCT."""


DEFAULT_BUDGET = ReviewBudget()


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """A forced win of the side to move, with its line."""

    kind: WinKind
    line: tuple[Point, ...]
    """Attacker first, the defender's replies between (one defence, for a VCT)."""

    @property
    def win_in(self) -> int:
        """The attacker's moves in the line, the winning one included."""
        return (len(self.line) + 1) // 2


@dataclass(frozen=True, slots=True)
class PositionVerdict:
    """What the solvers found in one position (the side to move is the board's)."""

    score: int
    """Static evaluation for the side to move, within +-EVAL_BOUND."""
    win: ForcedWin | None
    """The side to move's forced win, if one was found within the budget."""
    lost: bool = False
    """The game is over and the side to move lost it (the opponent made five)."""


@dataclass(frozen=True, slots=True)
class PlyEvaluation:
    """The evaluation before the move of one ply, from black's side (as a graph draws it)."""

    ply: int
    """Moves played before this position."""
    score: int
    """Within +-EVAL_BOUND; +-EVAL_BOUND as well when a side has a forced win."""
    win_in: int | None
    """A forced win: positive for black in that many of its moves, negative for white."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A move the review points at."""

    ply: int
    """The move's index in the game (0 is black's first move)."""
    kind: MarkKind
    player: Color
    """Who played the move."""
    line: tuple[Point, ...]
    """A missed win: the win that was there, from this ply. A blunder: the opponent's win after
    the move, from the next ply."""
    win: WinKind


@dataclass(frozen=True, slots=True)
class GameReview:
    """A whole game's review."""

    evaluations: tuple[PlyEvaluation, ...]
    """One per position, from the empty board to the last one."""
    marks: tuple[Mark, ...]
    """In the order of the game."""
    turning_point: int | None
    """The ply of the last marked move; None when no move is marked."""


def judge_position(board: Board, budget: ReviewBudget = DEFAULT_BUDGET) -> PositionVerdict:
    """The verdict on `board`'s position for its side to move; the solvers stop at the budget."""
    result = board.result
    if result is not None:
        lost = result.winner is not None and result.winner is not board.to_move
        return PositionVerdict(score=-EVAL_BOUND if lost else 0, win=None, lost=lost)
    position = Position.from_board(board)
    score = max(-EVAL_BOUND, min(EVAL_BOUND, position.evaluate() // EVAL_SCALE))
    return PositionVerdict(score=score, win=_forced_win(position, budget))


def _forced_win(position: Position, budget: ReviewBudget) -> ForcedWin | None:
    """The side to move's VCF, else its VCT, within the node budget (None past it)."""
    try:
        return _solve(position, budget)
    except OutOfBudget:
        return None


def _solve(position: Position, budget: ReviewBudget) -> ForcedWin | None:
    """The side to move's VCF, else its VCT, or None; raises OutOfBudget past the node budget."""
    solver = ThreatSolver(position, Budget(max_nodes=budget.nodes))
    line = solver.vcf(budget.vcf_fours)
    if line is not None:
        return ForcedWin(WinKind.VCF, _points(position, line))
    line = solver.vct_deepening(budget.vct_threats)
    return None if line is None else ForcedWin(WinKind.VCT, _points(position, line))


def _points(position: Position, line: WinningLine) -> tuple[Point, ...]:
    return tuple(position.point(index) for index in line)


def review_from_verdicts(moves: Sequence[Point], verdicts: Sequence[PositionVerdict]) -> GameReview:
    """The review of a game of `moves` from the verdicts on its positions, one per ply from the
    empty board to the position after the last move (`len(moves) + 1` of them).

    Raises ValueError if the counts do not match.
    """
    if len(verdicts) != len(moves) + 1:
        raise ValueError(f"a game of {len(moves)} moves has {len(moves) + 1} positions, not {len(verdicts)}")
    evaluations = tuple(_evaluation(ply, verdicts) for ply in range(len(verdicts)))
    marks: list[Mark] = []
    for ply, move in enumerate(moves):
        marks.extend(_marks_of_move(ply, move, verdicts))
    return GameReview(evaluations, tuple(marks), marks[-1].ply if marks else None)


def review_game(
    moves: Sequence[Point], size: int, rule: Rule, budget: ReviewBudget = DEFAULT_BUDGET
) -> tuple[GameReview, list[PositionVerdict]]:
    """Review a whole game in this process (the server spreads `judge_position` over its workers
    instead), with the verdicts on its positions. Raises IllegalMoveError for moves that are not
    a game."""
    board = Board(size, rule)
    verdicts = [judge_position(board, budget)]
    for move in moves:
        board.play(move)
        verdicts.append(judge_position(board, budget))
    return review_from_verdicts(moves, verdicts), verdicts


def _side(ply: int) -> Color:
    return Color.BLACK if ply % 2 == 0 else Color.WHITE


def _evaluation(ply: int, verdicts: Sequence[PositionVerdict]) -> PlyEvaluation:
    """The verdict on the position at `ply` seen from black's side. A side to move with no win,
    whose opponent had a forced win before and still has one after the move, is lost: the
    opponent's win counts here too (in the moves it has left), so that a graph does not swing
    back to even at every other ply of a won game."""
    verdict = verdicts[ply]
    sign = 1 if _side(ply) is Color.BLACK else -1
    if verdict.win is not None:
        return PlyEvaluation(ply, sign * EVAL_BOUND, sign * verdict.win.win_in)
    after = verdicts[ply + 1].win if ply + 1 < len(verdicts) else None
    if ply > 0 and verdicts[ply - 1].win is not None and after is not None:
        return PlyEvaluation(ply, -sign * EVAL_BOUND, -sign * after.win_in)
    return PlyEvaluation(ply, sign * (-EVAL_BOUND if verdict.lost else verdict.score), None)


def _marks_of_move(ply: int, move: Point, verdicts: Sequence[PositionVerdict]) -> list[Mark]:
    """The marks of the move played at `ply` (a missed win, a blunder, both or none)."""
    player = _side(ply)
    before, after = verdicts[ply], verdicts[ply + 1]
    marks = []
    if before.win is not None and not _kept_win(ply, move, before.win, verdicts):
        marks.append(Mark(ply, MarkKind.MISSED_WIN, player, before.win.line, before.win.kind))
    opponent_had_win = ply > 0 and verdicts[ply - 1].win is not None
    if after.win is not None and not opponent_had_win:
        marks.append(Mark(ply, MarkKind.BLUNDER, player, after.win.line, after.win.kind))
    return marks


def _kept_win(ply: int, move: Point, win: ForcedWin, verdicts: Sequence[PositionVerdict]) -> bool:
    """Whether the player with a forced win at `ply` kept it with `move`: the move made five, or
    the player still has a forced win two plies on (or, when the game stops before, the move
    is the line's first)."""
    if verdicts[ply + 1].lost:
        return True
    if ply + 2 < len(verdicts):
        return verdicts[ply + 2].win is not None
    return move == win.line[0]


# ------------------------------------------------------------------ puzzles

MIN_PUZZLE_MOVES = 2
"""A puzzle's win takes at least this many of the attacker's moves (a five in one is no puzzle)."""

MAX_DEFENCES = 4
"""Replies tried for the defender after another first move than the winning one, before the move
counts as winning too: the winning move's point, then each point where the attacker's next win
would start."""


@dataclass(frozen=True, slots=True)
class PuzzleFound:
    """A position's forced win whose first move is the only one that wins."""

    win: ForcedWin
    forbidden: bool
    """Whether renju's forbidden points decide it: at the end of the line black cannot block
    white's five because the block is forbidden to black."""


def puzzle_candidates(review: GameReview) -> list[int]:
    """The plies where the side to move has a forced win of MIN_PUZZLE_MOVES moves or more: where a
    puzzle may be (most are not: another first move wins too)."""
    return [
        evaluation.ply
        for evaluation in review.evaluations
        if evaluation.win_in is not None
        and abs(evaluation.win_in) >= MIN_PUZZLE_MOVES
        and (evaluation.win_in > 0) == (_side(evaluation.ply) is Color.BLACK)
    ]


def find_puzzle(board: Board, budget: ReviewBudget = DEFAULT_BUDGET) -> PuzzleFound | None:
    """The side to move's forced win as a puzzle, if it has one of `MIN_PUZZLE_MOVES` moves or more
    and every other first move fails; None otherwise, or when the budget does not settle it.

    Every other legal move is tried as the first: it fails when the defender has a reply after
    which the solvers find no forced win left for the attacker (the only block when the move is
    a four, else the winning line's first point). A move the solvers cannot settle within the
    budget counts as not failing, so that a puzzle is never published with a second solution.
    """
    if board.result is not None:
        return None
    position = Position.from_board(board)
    win = _forced_win(position, budget)
    if win is None or win.win_in < MIN_PUZZLE_MOVES:
        return None
    key = _index(position, win.line[0])
    for move in board.legal_moves():
        index = _index(position, move)
        if index != key and not _fails(position, index, key, budget):
            return None
    return PuzzleFound(win, _decided_by_forbidden_point(position, win))


def _index(position: Position, point: Point) -> int:
    return point.y * position.size + point.x


def _fails(position: Position, move: int, key: int, budget: ReviewBudget) -> bool:
    """Whether the attacker's `move` (instead of `key`, the winning one) lets a defence hold."""
    attacker = position.side
    position.play(move)
    try:
        threats = position.fives[attacker]
        if position.fives[other(attacker)] and not threats:
            return True  # the defender makes five at once
        if len(threats) > 1:
            return False
        if threats:
            return _holds(position, next(iter(threats)), budget) is None
        return _defender_wins(position, budget) or _some_defence_holds(position, key, budget)
    finally:
        position.undo()


def _defender_wins(position: Position, budget: ReviewBudget) -> bool:
    """Whether the defender, to move after a quiet move, has a forced win of its own."""
    try:
        return _solve(position, budget) is not None
    except OutOfBudget:
        return False


def _some_defence_holds(position: Position, key: int, budget: ReviewBudget) -> bool:
    """Whether one of the defender's free replies leaves the attacker no forced win: `key` first,
    then, up to MAX_DEFENCES in all, the point where the win the attacker still had after the
    last reply tried starts. False when none held or the budget ran out first."""
    defence = key
    for _ in range(MAX_DEFENCES):
        win = _holds(position, defence, budget)
        if win is None:
            return True
        if win.line == ():
            return False
        defence = _index(position, win.line[0])
    return False


def _holds(position: Position, defence: int, budget: ReviewBudget) -> ForcedWin | None:
    """None if the defender's `defence` leaves the attacker no forced win; else the attacker's win
    (with an empty line when the reply is not allowed, or the budget ran out: it does not hold)."""
    unsettled = ForcedWin(WinKind.VCF, ())
    if position.is_forbidden(defence):
        return unsettled
    position.play(defence)
    try:
        if position.fives[position.side]:
            return unsettled
        return _solve(position, budget)
    except OutOfBudget:
        return unsettled
    finally:
        position.undo()


def _decided_by_forbidden_point(position: Position, win: ForcedWin) -> bool:
    """Whether, once the line is played, black cannot stop white's five only because the point is
    forbidden to black (renju): the puzzle's forbidden-point theme."""
    if position.rule is not Rule.RENJU:
        return False
    played = 0
    try:
        for point in win.line:
            position.play(_index(position, point))
            played += 1
        if position.side != Color.BLACK:
            return False
        return any(position.forbidden_for_black(point) for point in position.fives[Color.WHITE])
    finally:
        for _ in range(played):
            position.undo()


# ------------------------------------------------------------------ another winning move


def win_starting_with(board: Board, move: Point, budget: ReviewBudget = DEFAULT_BUDGET) -> ForcedWin | None:
    """The side to move's forced win that starts with `move` (a legal move that makes no five), proved
    against every defence the threat solvers weigh, or None (also when the budget does not settle it):
    what a puzzle's trainer accepts in place of the solution's move after the first.

    After a four, the only block (none: the four cannot be stopped, and the line is `move` alone);
    after a three, each point where the attacker would make a four that cannot be stopped, each
    point that spoils the three and each counter-four, as the VCT solver weighs them. After each,
    the solvers look for the attacker's win afresh, as the puzzle check does (`_holds`), so that a
    win in another order than the solution's counts. The line is `move`, the best defence and the
    win after it.
    """
    if board.result is not None:
        return None
    position = Position.from_board(board)
    attacker = position.side
    position.play(_index(position, move))
    try:
        defences = _defences(position, _index(position, move), attacker)
        if defences is None:
            return None
        if not defences:
            return ForcedWin(WinKind.VCF, (move,))
        first = _win_after(position, defences[0], budget)
        if first is None or any(_win_after(position, defence, budget) is None for defence in defences[1:]):
            return None
        kind = WinKind.VCF if position.fives[attacker] and first.kind is WinKind.VCF else WinKind.VCT
        return ForcedWin(kind, (move, position.point(defences[0]), *first.line))
    finally:
        position.undo()


def _win_after(position: Position, defence: int, budget: ReviewBudget) -> ForcedWin | None:
    """The attacker's forced win after the defender's `defence`, or None (also past the budget)."""
    position.play(defence)
    try:
        return _forced_win(position, budget)
    finally:
        position.undo()


def _defences(position: Position, move: int, attacker: int) -> list[int] | None:
    """With the defender to move after the attacker's `move`: the replies to weigh, best first; an
    empty list when nothing stops the attacker's five (two of them, or a block forbidden to black);
    None when `move` threatens nothing the solvers can prove (a quiet move), or the defender makes
    five first."""
    defender = other(attacker)
    if position.fives[defender]:
        return None
    completions = position.fives[attacker]
    if len(completions) > 1:
        return []
    if completions:
        block = next(iter(completions))
        return [block] if not position.is_forbidden(block) else []
    pending = [
        point
        for point in unstoppable_fours(position, attacker)
        if not (attacker == Color.BLACK and position.forbidden_for_black(point))
    ]
    if not pending:
        return None
    spoilers = {point for point in position.line_neighbours(move) if point in position.fours[attacker]}
    replies = set(pending) | spoilers | position.fours[defender]
    legal = [point for point in replies if not position.is_forbidden(point)]
    # None when every reply weighed is forbidden to the defender: the VCT solver proves no win then either.
    return sorted(legal, key=position.move_value, reverse=True) or None
