"""The main search: threat-space search at the root, then iterative-deepening PVS.

`Searcher.iterate()` is a generator in the sunfish style: it yields a
`SearchResult` after each finished depth, so that a caller can report
progress (the Gomocup brain prints one MESSAGE per depth) and keep the
last result. The deadline and node limit are enforced inside the search
through a Budget; when they run out the generator simply stops. A move
that is critical (`critical`: the opponent threatens to win, the best move
has just changed, or the best score fell) may run on past its planned time,
up to the most its limits allow (`Budget.settle`), and never past that.

Before deepening, the root looks for a win by threats: a five, a VCF, and
(if the settings allow) a VCT, and answers a four with its block. Inside
the alpha-beta search the moves are driven by threats: against a four only
its block; against an open three the side to move's own VCF first, then
only the defences (see movegen). A single forced reply does not use up
depth. At a quiet node the moves come ranked by the shapes they make for
both sides, and the late ones that make no threat are searched shallower
first, the more so the deeper the node and the later the move (late move
reductions), or near the leaves not at all (late move pruning). At the
leaves a short VCF search stands in for quiescence, where the static value
does not already fail high. After each iteration,
the best root moves are checked for the opponent's wins by threats, which
the tree is too shallow to see (`safety`). Scores are for the side to
move; a win in n plies from the root scores WIN - n.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from engine.board import Board
from engine.limits import Budget, OutOfBudget
from engine.search.movegen import moves_in_order, ordered_moves, threat_replies
from engine.search.position import WIN, WON, Position
from engine.search.safety import RootSafety, SafetySettings
from engine.search.threats import ThreatSolver, other, unstoppable_fours
from engine.types import Point

MAX_PLY: Final = 60
"""The deepest line the search follows, forced replies included."""
EVAL_LIMIT: Final = 100_000
"""Static evaluations are clipped to this, well below WON."""

REDUCTION_DEPTH: Final = 3
"""Late move reductions apply only this far from the leaves, where a ply saved is worth most."""
PRUNE_DEPTH: Final = 3
"""Late move pruning applies only this close to the leaves, where a late quiet move rarely matters."""
REDUCTION_MOVES: Final = 64
"""Moves per node the reductions table covers (no node has more after the width cut)."""
SCORE_FALL: Final = 1000
"""A fall of the best score this large since the last depth of the same parity makes a move
critical. A first choice, not tuned by games: in `bench.depth`'s 24 positions at 1 s, 13 of 64
such pairs of depths fell this far (the median fell 56; the best move changed 34 times in 86)."""

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


def reductions_table(scale: float, depths: int) -> list[list[int]]:
    """[depth][move index] -> plies by which late move reductions search that move shallower:
    `scale * ln(depth) * ln(index + 1)`, rounded down (all 0 when `scale` is 0)."""
    return [
        [int(scale * math.log(max(depth, 1)) * math.log(index + 1)) for index in range(REDUCTION_MOVES)]
        for depth in range(depths)
    ]


def critical(threatened: bool, best_moves: list[int], best_scores: list[int]) -> bool:
    """Whether a move deserves more than its planned time, after the depths whose best moves and
    scores are given (first depth first): the opponent threatens to win (`threatened`), the best
    move changed at the last depth, or the best score fell by SCORE_FALL or more since the depth
    two before (scores swing between odd and even depths, so only those of one parity compare)."""
    if threatened:
        return True
    if len(best_moves) >= 2 and best_moves[-1] != best_moves[-2]:
        return True
    return len(best_scores) >= 3 and best_scores[-1] <= best_scores[-3] - SCORE_FALL


# Plain Python even when this module is compiled: a compiled frozen dataclass cannot be unpickled,
# and each level's settings crosses to the server's worker processes.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How a level searches: widths, threat-search depths, and how far to deepen."""

    width: int = 12
    """Moves tried per node inside the tree (forced replies are never cut)."""
    root_width: int = 20
    """Moves tried at the root."""
    reduction: float = 0.0
    """Late move reductions: at a node with `REDUCTION_DEPTH` plies or more to go and no forced
    replies, a move after the first that makes no threat is searched
    `reduction * ln(depth) * ln(index + 1)` plies shallower first (rounded down, never below one
    ply), and again fully only if it beats the best so far (0: no reductions)."""
    prune_after: int = 0
    """Late move pruning: at a node with `PRUNE_DEPTH` plies or fewer to go and no forced replies,
    a move that makes no threat is not searched at all after the first `prune_after + depth *
    depth` moves, the move ordering's judgement of it standing (0: no pruning)."""
    max_depth: int = 30
    """Deepest iteration."""
    vcf_depth: int = 20
    """Most fours in a root VCF."""
    leaf_vcf_depth: int = 6
    """Most fours in the VCF that stands in for quiescence at the leaves."""
    vct_depth: int = 0
    """Most threats in a root VCT (0: no VCT)."""
    vct_share: float = 0.3
    """Part of the time the root VCT may use."""
    vct_nodes: int = 20_000
    """Most nodes the root VCT may use (it can grow very fast without a deadline)."""
    safety: SafetySettings = SafetySettings()
    """How the best root moves are checked for the opponent's threat wins after each iteration."""
    hand_set_evaluation: bool = False
    """Evaluate with the hand-set weights (`Position.evaluate_by_hand`), as the opening judge does."""


# Plain Python even when this module is compiled: a compiled frozen dataclass cannot be unpickled,
# and a search's result crosses to the server's worker processes.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one finished depth (or a root threat search) found."""

    move: Point
    """The best move found."""
    score: int
    """Its value for the side to move (beyond WON: a win; below -WON: a loss)."""
    depth: int
    """Depth of the iteration, or length of the winning line found by threat search."""
    nodes: int
    """Positions visited so far in this search, threat searches included."""
    seconds: float
    """Time since the search started, on the budget's clock."""
    pv: tuple[Point, ...]
    """Principal variation, starting with `move`."""
    root_scores: tuple[tuple[Point, int], ...] = ()
    """(move, score) at the root for the moves searched, best first; scores of moves
    searched with a null window are bounds."""

    @property
    def nodes_per_second(self) -> int:
        """Search speed over this result's time."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else self.nodes


class NodeCounts:
    """Where one search's nodes went, counted as it runs (read by `bench.depth` to see what the
    time buys): the threat searches apart from the tree, the tree's nodes by ply (the ratio of one
    ply's to the one before is the branching factor there), and the cut-offs by the index of the
    move that made them (a well-ordered search cuts with its first move)."""

    def __init__(self) -> None:
        self.root_threats = 0
        """Nodes of the root VCF and VCT."""
        self.safety = 0
        """Nodes of the root moves' safety checks."""
        self.leaf_vcf = 0
        """Nodes of the VCF searches that stand in for quiescence at the leaves."""
        self.fours_first = 0
        """Nodes of the side to move's VCF looked for before defending an open three."""
        self.tree_at_ply = [0] * (MAX_PLY + 2)
        """Positions the alpha-beta tree visited, by ply from the root (the root's moves at 1)."""
        self.cutoffs_at = [0] * REDUCTION_MOVES
        """Beta cut-offs by the index, in the move ordering, of the move that made them."""


# Compiled, it may still be subclassed in Python (a test records what each iteration searches).
@mypyc_attr(allow_interpreted_subclasses=True)
class Searcher:
    """One search of one position; not reusable across positions."""

    def __init__(self, board: Board, settings: SearchSettings, budget: Budget, full_root_window: bool = False):
        """Search `board` (whose game is not over) for the side to move.

        With `full_root_window`, every root move gets an exact score, which
        is slower but lets weaker levels choose among near-equal moves.
        """
        if board.result is not None:
            raise ValueError("the game is over: there is nothing to search")
        self.board = board
        self.position = Position.from_board(board)
        self.settings = settings
        self.budget = budget
        self.full_root_window = full_root_window
        self.solver = ThreatSolver(self.position, budget)
        self._table: dict[int, tuple[int, int, int, int]] = {}
        self._killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self._history = [0] * self.position.area
        self._reductions = reductions_table(settings.reduction, settings.max_depth + 1)
        self._start = budget.clock()
        self.counts = NodeCounts()
        """Where the nodes went so far."""
        self.safety = RootSafety(self.position, settings.safety, budget, self._start)
        """The safety checks of the root moves, and what they have found so far."""

    # ----------------------------------------------------------------- root

    def iterate(self) -> Iterator[SearchResult]:
        """Yield a result per finished depth until a limit is reached or the outcome is certain."""
        before = self.budget.nodes
        threat = self._root_threats()
        self.counts.root_threats += self.budget.nodes - before
        if threat is not None:
            yield threat
            return
        moves = ordered_moves(self.position, self.settings.root_width, history=self._history)
        if not moves:
            return
        self.safety.natural = moves[0]
        if len(moves) == 1:
            yield self._result(moves[0], 0, 1, [moves[0]], ())
            return
        threatened = threat_replies(self.position) is not None
        best_moves: list[int] = []
        best_scores: list[int] = []
        for depth in range(1, self.settings.max_depth + 1):
            try:
                scores = self._search_root(moves, depth)
            except OutOfBudget:
                return
            before = self.budget.nodes
            try:
                scores = self.safety.review(scores)
            finally:
                self.counts.safety += self.budget.nodes - before
            best_moves.append(scores[0][0])
            best_scores.append(scores[0][1])
            self.budget.settle(unsettled=critical(threatened, best_moves, best_scores))
            moves = [move for move, _ in scores]
            best_score = scores[0][1]
            yield self._result(moves[0], best_score, depth, self._principal_variation(moves[0], depth), scores)
            if abs(best_score) > WON or self.budget.exhausted():
                return

    def fallback(self) -> Point:
        """A reasonable move without searching: the best by move ordering (for when time is gone)."""
        moves = ordered_moves(self.position, 1)
        if moves:
            return self.position.point(moves[0])
        legal = self.board.legal_moves()
        if not legal:
            raise ValueError("no legal move in this position")
        return legal[0]

    def _root_threats(self) -> SearchResult | None:
        """A result straight from threat search: a five, the only block, a VCF or a VCT."""
        position = self.position
        me = position.side
        if position.fives[me]:
            win = min(position.fives[me])
            return self._result(win, WIN - 1, 1, [win], ())
        try:
            line = self.solver.vcf(self.settings.vcf_depth)
            if line is None and self.settings.vct_depth and not position.fives[other(me)]:
                line = self._root_vct()
        except OutOfBudget:
            return None
        if line is not None:
            return self._result(line[0], WIN - len(line), len(line), line, ())
        return None

    def _root_vct(self) -> list[int] | None:
        """A VCT within a share of the time; none if that share runs out.

        The search deepens two threats at a time, so that a short win is
        found at a fraction of the cost of a search started at full depth.
        """
        share = self.budget.sub_budget(self.settings.vct_share, self.settings.vct_nodes)
        solver = ThreatSolver(self.position, share)
        try:
            return solver.vct_deepening(self.settings.vct_depth)
        except OutOfBudget:
            self.budget.check()
            return None
        finally:
            self.budget.absorb(share)

    def _search_root(self, moves: list[int], depth: int) -> list[tuple[int, int]]:
        """One iteration over the root moves: each with its score, best first."""
        position = self.position
        margin = self.safety.scout_margin()
        alpha = -WIN - 1
        scored: list[tuple[int, int]] = []
        for index, move in enumerate(moves):
            lost = self.safety.refuted_score(move)
            if lost is not None:
                scored.append((move, lost))
                continue
            self.budget.tick()
            position.play(move)
            try:
                if index == 0 or self.full_root_window:
                    score = -self._negamax(depth - 1, -WIN - 1, WIN + 1, 1)
                else:
                    score = self._scout(depth, alpha, margin)
            finally:
                position.undo()
            scored.append((move, score))
            alpha = max(alpha, score)
        scored.sort(key=lambda item: item[1], reverse=True)
        self._store(depth, _EXACT, scored[0][1], scored[0][0], 0)
        return scored

    def _scout(self, depth: int, alpha: int, margin: int) -> int:
        """The score of a root move searched after the best so far (whose score is `alpha`).

        Exact if the move is better; otherwise an upper bound, except that
        with a `margin` a move that comes within it of `alpha` gets a lower
        bound above `alpha - margin` instead: the safety check may prefer such
        a close move, and must know it is close rather than guess from a bound.
        """
        floor = alpha - margin
        close_bound = None
        if margin and -WON < floor and alpha < WON:
            close_bound = -self._negamax(depth - 1, -floor - 1, -floor, 1)
            if close_bound <= floor:
                return close_bound
        score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1)
        if score > alpha:
            return -self._negamax(depth - 1, -WIN - 1, -alpha, 1)
        return score if close_bound is None else min(close_bound, alpha)

    # ---------------------------------------------------------------- tree

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Principal-variation search; the value of the position for the side to move."""
        position = self.position
        self.budget.tick()
        self.counts.tree_at_ply[ply] += 1
        me = position.side
        if position.fives[me]:
            return WIN - ply - 1
        enemy_fives = position.fives[other(me)]
        if len(enemy_fives) > 1:
            return -(WIN - ply - 2)
        if position.ply == position.area:
            return 0
        if (depth <= 0 and not enemy_fives) or ply >= MAX_PLY:
            return self._leaf(ply, beta)
        if not enemy_fives and not position.fours[other(me)] and self._has_open_four(me):
            return WIN - ply - 3
        table_move = -1
        entry = self._table.get(position.hash)
        if entry is not None:
            stored_depth, bound, stored_score, table_move = entry
            if stored_depth >= depth:
                score = self._from_table(stored_score, ply)
                if bound == _EXACT or (bound == _LOWER and score >= beta) or (bound == _UPPER and score <= alpha):
                    return score
        forced = threat_replies(position)
        if forced is not None and not enemy_fives:
            line = self._fours_first()
            if line is not None:
                return WIN - ply - len(line)
        first = (table_move, *self._killers[ply])
        moves = moves_in_order(position, forced, self.settings.width, first, self._history)
        if not moves:
            return -(WIN - ply - 2)
        next_depth = depth if len(moves) == 1 else depth - 1
        late = forced is None
        reductions = self._reductions[depth] if late and depth >= REDUCTION_DEPTH else ()
        searched_in_full = self._searched_in_full(depth) if late else len(moves)
        original_alpha = alpha
        best_score = -WIN - 1
        best_move = moves[0]
        for index, move in enumerate(moves):
            quiet = index > 0 and not self._makes_threat(move)
            if quiet and index >= searched_in_full:
                continue
            reduction = 0
            if quiet and reductions:
                reduction = max(0, min(reductions[min(index, REDUCTION_MOVES - 1)], next_depth - 1))
            position.play(move)
            try:
                if index == 0:
                    score = -self._negamax(next_depth, -beta, -alpha, ply + 1)
                else:
                    score = -self._negamax(next_depth - reduction, -alpha - 1, -alpha, ply + 1)
                    if reduction > 0 and score > alpha:
                        score = -self._negamax(next_depth, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(next_depth, -beta, -alpha, ply + 1)
            finally:
                position.undo()
            if score > best_score:
                best_score = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.counts.cutoffs_at[min(index, REDUCTION_MOVES - 1)] += 1
                        self._reward(move, depth, ply)
                        break
        bound = _LOWER if best_score >= beta else _UPPER if best_score <= original_alpha else _EXACT
        self._store(depth, bound, best_score, best_move, ply)
        return best_score

    def _fours_first(self) -> list[int] | None:
        """The side to move's win by fours, looked for when an open three threatens it before any
        defence is searched (the defences would all lose to the win anyway); None if none."""
        position = self.position
        if not position.fours[position.side] or not self.settings.leaf_vcf_depth:
            return None
        before = self.budget.nodes
        try:
            return self.solver.vcf(self.settings.leaf_vcf_depth)
        finally:
            self.counts.fours_first += self.budget.nodes - before

    def _makes_threat(self, move: int) -> bool:
        """Whether `move` makes an open three or better for the side to move, or takes the
        opponent's four point: a move that changes what the opponent must answer is never
        reduced or pruned."""
        position = self.position
        return move in position.threats[position.side] or move in position.fours[other(position.side)]

    def _searched_in_full(self, depth: int) -> int:
        """How many moves of a quiet node are searched before the moves that make no threat are
        pruned (the number of points, more than any node has, when none are: far from the
        leaves, or without late move pruning)."""
        count = self.settings.prune_after
        if not count or depth > PRUNE_DEPTH:
            return self.position.area
        return count + depth * depth

    def _leaf(self, ply: int, beta: int) -> int:
        """Quiescence by threats: a short VCF for the side to move, else the static value. A leaf
        whose static value already reaches `beta` fails high as it stands (a win by fours could
        only raise it), so it is not searched for one: the VCF at the leaves cost a third of all
        nodes, most of them at such leaves (see "Where the nodes go" in docs/engine.md)."""
        position = self.position
        value = position.evaluate_by_hand() if self.settings.hand_set_evaluation else position.evaluate()
        value = max(-EVAL_LIMIT, min(EVAL_LIMIT, value))
        if value >= beta:
            return value
        if position.fours[position.side]:
            before = self.budget.nodes
            try:
                line = self.solver.vcf(self.settings.leaf_vcf_depth)
            finally:
                self.counts.leaf_vcf += self.budget.nodes - before
            if line is not None:
                return WIN - ply - len(line)
        return value

    def _has_open_four(self, color: int) -> bool:
        """Whether `color` can make an open four (or double four) with a legal move."""
        position = self.position
        return any(not position.is_forbidden(point) for point in unstoppable_fours(position, color))

    def _reward(self, move: int, depth: int, ply: int) -> None:
        """Remember a move that cut off: as a killer at this ply and in the history table."""
        killers = self._killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self._history[move] = self._history[move] + depth * depth

    # ------------------------------------------------------ table and lines

    def _store(self, depth: int, bound: int, score: int, move: int, ply: int) -> None:
        if score > WON:
            score += ply
        elif score < -WON:
            score -= ply
        self._table[self.position.hash] = (depth, bound, score, move)

    @staticmethod
    def _from_table(score: int, ply: int) -> int:
        if score > WON:
            return score - ply
        if score < -WON:
            return score + ply
        return score

    def _principal_variation(self, first: int, depth: int) -> list[int]:
        """The expected line: the root move, then the table's best moves while they are legal."""
        position = self.position
        if first in position.fives[position.side]:
            return [first]
        line = [first]
        position.play(first)
        try:
            while len(line) < max(depth, 1) + 4:
                side = position.side
                if position.fives[side]:
                    line.append(min(position.fives[side]))
                    break
                entry = self._table.get(position.hash)
                if entry is None or entry[3] < 0 or position.cells[entry[3]]:
                    break
                line.append(entry[3])
                position.play(entry[3])
        finally:
            while position.ply > self.board.ply:
                position.undo()
        return line

    def _result(
        self,
        move: int,
        score: int,
        depth: int,
        line: list[int],
        scores: tuple[tuple[int, int], ...] | list[tuple[int, int]],
    ) -> SearchResult:
        point = self.position.point
        return SearchResult(
            move=point(move),
            score=score,
            depth=depth,
            nodes=self.budget.nodes,
            seconds=self.budget.clock() - self._start,
            pv=tuple(point(step) for step in line),
            root_scores=tuple((point(step), value) for step, value in scores),
        )
