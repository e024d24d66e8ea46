"""`alphabeta`: the classic course-project search: pattern evaluation, the best
N candidates per ply, alpha-beta to depth 4, and a hash table of positions.
A player may set the depth and the width (candidates per ply) of their
own `alphabeta` opponent, within DEPTH_BOUNDS and WIDTH_BOUNDS.

The evaluation weights the shapes of each side (see `shapes`) with the
usual SHAPE_SCORES, side to move minus opponent, kept up to date move by
move. At every node the empty points within two of a stone are ranked by
how much they gain for the mover plus how much they would gain for the
opponent (attack plus defence) and only the best `width` (CANDIDATES_PER_PLY
unless set) are searched. A table keyed by the Zobrist hash remembers each position's
value, bound and best move, so a position reached by another move order is
not searched again. The depths 1..DEFAULT_DEPTH are searched in turn, so a
time limit ends the search with the deepest finished answer.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from engine.board import Board
from engine.bots import Decision
from engine.classic.common import WIN_SCORE, nearby_points, rank
from engine.classic.shapes import Shape, added, board_shapes, own_gains, shape_change
from engine.limits import Budget, OutOfBudget, SearchLimits
from engine.types import Point

DEFAULT_DEPTH = 4
CANDIDATES_PER_PLY = 9
DEPTH_BOUNDS = (1, 8)
"""The depths a player may set (deeper than 8 plies this search does not finish in a minute)."""
WIDTH_BOUNDS = (1, 30)
"""The widths (candidates per ply) a player may set."""


def check_search_shape(depth: int, width: int, level: str = "alphabeta") -> None:
    """Refuse (ValueError, saying the bounds) a depth or width outside DEPTH_BOUNDS and WIDTH_BOUNDS
    for a bot of `level` searching with this tree."""
    for name, value, (low, high) in (("depth", depth, DEPTH_BOUNDS), ("width", width, WIDTH_BOUNDS)):
        if not low <= value <= high:
            raise ValueError(f"{level}'s {name} must be {low} to {high}, not {value}")


SHAPE_SCORES = (100_000, 10_000, 1_000, 1_000, 100, 100, 10)
"""Value of one shape, in Shape order: five, open four, four, open three, three, open two, two."""


def shapes_value(counts: list[int]) -> int:
    """The SHAPE_SCORES total of one side's shape counts."""
    return sum(score * count for score, count in zip(SHAPE_SCORES, counts, strict=True))


Evaluation = Callable[[list[int], list[int]], int]
"""A position's value for the side to move, from its shape counts and the opponent's (the leaves
of the tree read it; `static` plugs its own in)."""


def textbook_value(own: list[int], other: list[int]) -> int:
    """The evaluation for the side to move, who wins at once with any four
    and loses next move against an open four it cannot answer with one."""
    if own[Shape.OPEN_FOUR] or own[Shape.FOUR]:
        return WIN_SCORE // 2
    if other[Shape.OPEN_FOUR]:
        return -WIN_SCORE // 2
    return shapes_value(own) - shapes_value(other)


class Bound(enum.Enum):
    """What a stored value means: exact, or only a lower or upper bound."""

    EXACT = 0
    LOWER = 1
    UPPER = 2


@dataclass(frozen=True, slots=True)
class Entry:
    """A hash table entry."""

    depth: int
    score: int
    bound: Bound
    move: Point | None


class _Search:
    """One search: the board, the running shape counts, the table, and the budget that counts its nodes."""

    def __init__(
        self, board: Board, budget: Budget, width: int = CANDIDATES_PER_PLY, evaluation: Evaluation = textbook_value
    ) -> None:
        self.board = board
        self.budget = budget
        self.width = width
        self.evaluation = evaluation
        black, white = board_shapes(board)
        self.counts = {1: black, 2: white}
        self.table: dict[int, Entry] = {}

    def value(self) -> int:
        """The evaluation for the side to move."""
        mover = int(self.board.to_move)
        return self.evaluation(self.counts[mover], self.counts[3 - mover])

    def candidates(self) -> list[tuple[Point, int]]:
        """The best `width` playable points by attack plus defence value, best first."""
        board = self.board
        mover = int(board.to_move)
        scored = []
        for point in nearby_points(board, 2, playable_only=False):
            gains = own_gains(board, point)
            attack, defence = gains[mover - 1], gains[2 - mover]
            scored.append(
                (point, WIN_SCORE if attack[Shape.FIVE] > 0 else shapes_value(attack) + shapes_value(defence))
            )
        scored.sort(key=lambda item: -item[1])
        best = []
        for point, score in scored:
            if not board.is_forbidden(point):
                best.append((point, score))
                if score >= WIN_SCORE or len(best) == self.width:
                    break
        return best

    def play(self, point: Point) -> tuple[list[int], list[int]]:
        """Push `point` and update the counts; return the counts before, to undo with."""
        before = (self.counts[1], self.counts[2])
        black, white = shape_change(self.board, point, int(self.board.to_move))
        self.counts = {1: added(before[0], black), 2: added(before[1], white)}
        self.board.push(point)
        return before

    def undo(self, before: tuple[list[int], list[int]]) -> None:
        self.board.pop()
        self.counts = {1: before[0], 2: before[1]}

    def principal_variation(self, first: Point, length: int) -> tuple[Point, ...]:
        """`first` and the best replies the table remembers after it, up to `length` moves."""
        line = [first]
        self.board.push(first)
        while len(line) < length and self.board.result is None:
            entry = self.table.get(self.board.hash)
            if entry is None or entry.move is None or self.board.cells[entry.move.y * self.board.size + entry.move.x]:
                break
            line.append(entry.move)
            self.board.push(entry.move)
        for _ in line:
            self.board.pop()
        return tuple(line)

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        """The value for the side to move, `depth` plies deep, using and filling the table."""
        self.budget.tick()
        board = self.board
        if board.result is not None:
            return -WIN_SCORE if board.result.winner is not None else 0
        if depth == 0:
            return self.value()
        entry = self.table.get(board.hash)
        if entry is not None and entry.depth >= depth:
            if entry.bound is Bound.EXACT:
                return entry.score
            if entry.bound is Bound.LOWER and entry.score >= beta:
                return entry.score
            if entry.bound is Bound.UPPER and entry.score <= alpha:
                return entry.score
        moves = [point for point, _ in self.candidates()]
        if entry is not None and entry.move in moves:
            moves.remove(entry.move)
            moves.insert(0, entry.move)
        original_alpha = alpha
        best_score, best_move = -WIN_SCORE - 1, None
        for point in moves:
            before = self.play(point)
            score = -self.negamax(depth - 1, -beta, -alpha)
            self.undo(before)
            if score > best_score:
                best_score, best_move = score, point
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        if best_move is None:
            return 0
        bound = Bound.LOWER if best_score >= beta else Bound.UPPER if best_score <= original_alpha else Bound.EXACT
        self.table[board.hash] = Entry(depth, best_score, bound, best_move)
        return best_score


class AlphaBetaBot:
    """Alpha-beta over the best nine candidates per ply, four plies deep, with a hash table."""

    level = "alphabeta"
    description = "Textbook alpha-beta: pattern evaluation, best 9 candidates per ply, depth 4, hash table."

    def __init__(
        self, depth: int = DEFAULT_DEPTH, width: int = CANDIDATES_PER_PLY, evaluation: Evaluation = textbook_value
    ) -> None:
        """A bot searching `depth` plies over the best `width` points per ply (ValueError outside
        DEPTH_BOUNDS and WIDTH_BOUNDS), valuing the leaves by `evaluation`."""
        check_search_shape(depth, width)
        self.depth = depth
        self.width = width
        self.evaluation = evaluation

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Deepen one ply at a time up to the depth; answer with the deepest finished one.

        Moves that cannot beat the best found before them are cut off, so
        their scores in `candidates` are upper bounds.
        """
        # Each node ranks every point near the stones (a few milliseconds): the clock is read at every one.
        search = _Search(board.copy(), Budget.from_limits(limits, check_every=1), self.width, self.evaluation)
        root = search.candidates()
        ranked = rank(root, board, seed)
        finished_depth = 0
        for depth in range(1, (limits.depth or self.depth) + 1):
            if ranked[0][1] >= WIN_SCORE:
                break
            try:
                ranked = rank(self._search_root(search, [point for point, _ in ranked], depth), board, seed)
            except OutOfBudget:
                break
            finished_depth = depth
        move, score = ranked[0]
        return Decision(
            move=move,
            score=score,
            depth=finished_depth,
            nodes=search.budget.nodes,
            pv=search.principal_variation(move, finished_depth),
            candidates=tuple(ranked),
        )

    @staticmethod
    def _search_root(search: _Search, moves: list[Point], depth: int) -> list[tuple[Point, int]]:
        """Every root move's score at `depth`, the previous best searched first."""
        scored = []
        best = -WIN_SCORE - 1
        for point in moves:
            before = search.play(point)
            score = -search.negamax(depth - 1, -WIN_SCORE - 1, -(best - 1))
            search.undo(before)
            scored.append((point, score))
            best = max(best, score)
        return scored
