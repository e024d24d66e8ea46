"""The main search: threat-space search at the root, then iterative-deepening PVS.

`Searcher.iterate()` is a generator in the sunfish style: it yields a
`SearchResult` after each finished depth, so that a caller can report
progress (the Gomocup brain prints one MESSAGE per depth) and keep the
last result. The deadline and node limit are enforced inside the search
through a Budget; when they run out the generator simply stops.

Before deepening, the root looks for a win by threats: a five, a VCF, and
(if the settings allow) a VCT, and answers a four with its block. Inside
the alpha-beta search, forced replies are pruned (see movegen), a single
forced reply does not use up depth, late moves at quiet nodes may be
searched a ply shallower first (late move reductions), and at the leaves a
short VCF search stands in for quiescence. Scores are for the side to
move; a win in n plies from the root scores WIN - n.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.board import Board
from engine.limits import Budget, OutOfBudget
from engine.search.movegen import moves_in_order, ordered_moves, threat_replies
from engine.search.position import Position
from engine.search.threats import ThreatSolver, other, unstoppable_fours
from engine.types import Point

WIN = 1_000_000
"""The score of a five now; wins further away score less."""
WON = WIN - 1_000
"""Scores beyond this are proven wins (and below -WON proven losses)."""
MAX_PLY = 60
"""The deepest line the search follows, forced replies included."""
EVAL_LIMIT = 100_000
"""Static evaluations are clipped to this, well below WON."""

REDUCTION_DEPTH = 3
"""Late move reductions apply only this far from the leaves, where a ply saved is worth most."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How a level searches: widths, threat-search depths, and how far to deepen."""

    width: int = 12
    """Moves tried per node inside the tree (forced replies are never cut)."""
    root_width: int = 20
    """Moves tried at the root."""
    reduce_after: int = 0
    """Late move reductions: at a node with `REDUCTION_DEPTH` plies or more to go and no forced
    replies, the moves after this many are searched a ply shallower first, and fully only if they
    beat the best so far (0: no reductions)."""
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
    safety_vct_depth: int = 0
    """After each iteration, the best root moves are checked for an opponent's VCT this deep
    (0: no check); a move that allows one is scored as lost."""
    safety_share: float = 0.5
    """Part of the remaining time one such check may use (its node limit usually ends it sooner)."""
    last_iteration_after: float = 0.4
    """Once this part of the time is used, another iteration will hardly finish (each takes
    several times longer than the last), so a safety check may use all the time left."""
    safety_moves: int = 12
    """Most root moves checked per iteration."""
    safety_nodes: int = 25_000
    """Most nodes one safety check may use."""
    safety_margin: int = 500
    """A move proven safe deeper is preferred to a better scored one only within this margin."""
    safety_switch_nodes: int = 0
    """Once a root move is proven safe, the most nodes of one more check, for a VCT that may
    switch place once (see `ThreatSolver.vct`; 0: no such check). Such wins, when short, are
    found in a few hundred nodes, while proving there is none would cost as much again as the
    first check: a check that runs out counts as safe."""


@dataclass(slots=True)
class _Safety:
    """What the safety checks know about one root move."""

    proven: int = 0
    """The opponent has no VCT of this many threats after the move."""
    refutation: list[int] | None = None
    """The opponent's VCT after the move, once found."""
    switch_checked: bool = False
    """Whether the check for a VCT that switches place has run (see `safety_switch_nodes`)."""


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
        self._start = budget.clock()
        self._safety: dict[int, _Safety] = {}
        """Root move -> what the safety checks found about the opponent's VCT after it."""
        self._previous_best = -1
        """The move the last finished iteration chose (-1 before the first)."""
        self._natural = -1
        """The root move the move ordering puts first."""
        self._safety_solver = ThreatSolver(self.position, budget)
        """One solver for every safety check, so that what a check that ran out of time proved
        (lines that do not win) is not searched again when the move is checked later."""

    # ----------------------------------------------------------------- root

    def iterate(self) -> Iterator[SearchResult]:
        """Yield a result per finished depth until a limit is reached or the outcome is certain."""
        threat = self._root_threats()
        if threat is not None:
            yield threat
            return
        moves = ordered_moves(self.position, self.settings.root_width, history=self._history)
        if not moves:
            return
        self._natural = moves[0]
        if len(moves) == 1:
            yield self._result(moves[0], 0, 1, [moves[0]], ())
            return
        for depth in range(1, self.settings.max_depth + 1):
            try:
                moves, scores = self._search_root(moves, depth)
            except OutOfBudget:
                return
            if self.settings.safety_vct_depth:
                moves, scores = self._check_safety(scores)
            self._previous_best = moves[0]
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

    def _search_root(self, moves: list[int], depth: int) -> tuple[list[int], list[tuple[int, int]]]:
        """One iteration over the root moves; returns them re-ordered best first with scores."""
        position = self.position
        margin = self.settings.safety_margin if self._sharp() else 0
        alpha = -WIN - 1
        scored: list[tuple[int, int]] = []
        for index, move in enumerate(moves):
            lost = self._refuted_score(move)
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
        return [move for move, _ in scored], scored

    def _refuted_score(self, move: int) -> int | None:
        """The score of a root move a safety check refuted (a loss as long as the opponent's
        VCT), or None if none did.

        Such a move is not searched again in later iterations: its score is
        known, the search's time is better spent on the others, and a tree
        score of a refuted move, often high (the tree cannot see the VCT),
        would only raise the bar the later moves are searched against.
        """
        known = self._safety.get(move)
        if known is None or known.refutation is None:
            return None
        return -(WIN - 1 - len(known.refutation))

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

    def _sharp(self) -> bool:
        """Whether the safety checks have found the opponent's threats dangerous: a root move
        refuted, or a check that could not finish."""
        full = self.settings.safety_vct_depth
        return any(safety.refutation is not None or safety.proven < full for safety in self._safety.values())

    def _check_safety(self, scored: list[tuple[int, int]]) -> tuple[list[int], list[tuple[int, int]]]:
        """Score as lost the root moves after which the opponent wins by threats (VCT), and put
        first the move proven safest.

        The alpha-beta tree sees only a few plies, while a VCT can be twenty
        plies long: this is how the engine defends against one early. Moves
        are checked in `_check_order`, each by a VCT search that deepens step
        by step, until one is proven safe to the full depth. A check that
        runs out of time keeps the depth it proved, so that the next
        iteration resumes it. In the end a move proven safe deeper may beat a
        better scored one that was checked less (see `_put_safest_first` for
        which): in a sharp position, the move the tree likes best is often
        the one whose danger is too deep to see at once.
        """
        checks = [self.settings.safety_moves]
        if scored[0][1] > WON:
            return [move for move, _ in scored], scored
        for move, score in self._check_order(scored):
            if score < -WON or checks[0] <= 0:
                break
            safety = self._check(move, checks)
            if safety.refutation is None and safety.proven >= self.settings.safety_vct_depth:
                break
        for index, (move, score) in enumerate(scored):
            lost = self._refuted_score(move)
            if lost is not None and score > -WON:
                scored[index] = (move, lost)
        scored.sort(key=lambda item: item[1], reverse=True)
        self._put_safest_first(scored)
        return [move for move, _ in scored], scored

    def _check_order(self, scored: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The order of the safety checks: the tree's best move, then the move ordering's
        first (the natural move: the most own and opponent shapes), then the others by score."""
        natural = [item for item in scored[1:] if item[0] == self._natural]
        return scored[:1] + natural + [item for item in scored[1:] if item[0] != self._natural]

    def _check(self, move: int, checks: list[int]) -> _Safety:
        """The safety of `move`, deepened now as far as `checks` and the time allow.

        A check that runs out of its share of the time or nodes leaves room
        for one more, so that the natural move, checked second, can still be
        proven safe against a tree favourite whose danger was too deep to
        settle (as in a game lost to `alphabeta`, where black's natural g8 was
        safe and the favourite g11 lost to a VCT of 11 plies that the check
        could not finish). Running out of the whole budget ends the checking
        for this iteration, whose result still stands.
        """
        safety = self._safety.setdefault(move, _Safety())
        if safety.refutation is not None or safety.proven >= self.settings.safety_vct_depth:
            return safety
        checks[0] -= 1
        try:
            self._deepen_safety(move, safety)
        except OutOfBudget:
            checks[0] = 0 if self.budget.exhausted() else min(checks[0], 1)
        return safety

    def _deepen_safety(self, move: int, safety: _Safety) -> None:
        """Look for the opponent's VCT after `move`, two threats deeper at a time, recording in
        `safety` the depth proven to have none or the win found; once proven safe to the full
        depth, look for a VCT that switches place (`_switching_refutation`).

        Raises OutOfBudget when the check's share of the time or nodes runs out.
        """
        share = self.budget.sub_budget(self._safety_share(), self.settings.safety_nodes)
        solver = self._safety_solver
        solver.budget = share
        solver.hints = {
            point for known in self._safety.values() if known.refutation is not None for point in known.refutation[::2]
        }
        self.position.play(move)
        try:
            depth = min(max(safety.proven + 2, 4), self.settings.safety_vct_depth)
            while safety.proven < self.settings.safety_vct_depth:
                line = solver.vct(depth)
                if line is not None:
                    safety.refutation = line
                    return
                safety.proven = depth
                depth = min(depth + 2, self.settings.safety_vct_depth)
            if not safety.switch_checked:
                safety.refutation = self._switching_refutation(share)
                safety.switch_checked = True
        finally:
            self.position.undo()
            self.budget.absorb(share)

    def _switching_refutation(self, share: Budget) -> list[int] | None:
        """The opponent's VCT that switches place once, in the position after a root move the
        ordinary check proved safe, if one is found within `safety_switch_nodes` of `share`.

        As white in two games lost to `alphabeta` (openings `h8 i9 d7` and
        `h8 h9 g4`, which reached the same position mirrored), the 16th move
        let black win by threats that, against some defences, move elsewhere
        once: the ordinary check proves it safe (no VCT of 12 threats, in
        about 2,900 nodes), the check with a switch refutes it in about 320.
        """
        nodes = self.settings.safety_switch_nodes
        if not nodes:
            return None
        solver = self._safety_solver
        limited = share.sub_budget(1.0, nodes)
        solver.budget = limited
        try:
            return solver.vct_deepening(self.settings.safety_vct_depth, switches=1)
        except OutOfBudget:
            return None
        finally:
            share.absorb(limited)
            solver.budget = share

    def _safety_share(self) -> float:
        """The part of the time left that the next safety check may use."""
        deadline = self.budget.deadline
        if deadline is None or deadline <= self._start:
            return self.settings.safety_share
        used = (self.budget.clock() - self._start) / (deadline - self._start)
        return 1.0 if used >= self.settings.last_iteration_after else self.settings.safety_share

    def _put_safest_first(self, scored: list[tuple[int, int]]) -> None:
        """Move to the front, among the moves scoring within `safety_margin` of the best, the
        previous iteration's choice and the natural move, the one proven safe deepest (the
        best scored among equals), preferring quiet moves to fours once the opponent is known
        to have threat wins.

        The previous choice stays a candidate whatever its new score: scores
        swing between odd and even depths (the side that moves last at the
        leaves looks better), so a move that a depth-3 tree likes may be one
        the depth-2 tree already saw punished. Giving up a move proven safe
        for one whose check could not finish is how the engine chose the
        refuted move in most positions of `bench.defence`. The natural move
        (the move ordering's first: the most shapes made and blocked) is
        the one most often safe when the tree's favourites are refuted. Once
        the opponent is known to have threat wins, a four proves little (the
        opponent blocks it and the danger is still there), hence quiet moves
        first among equally safe ones.
        """
        best_score = scored[0][1]
        if abs(best_score) > WON or not self._safety:
            return
        threatened = any(safety.refutation is not None for safety in self._safety.values())
        fours = self.position.fours[self.position.side]

        def rank(index: int) -> tuple[int, bool, int]:
            move = scored[index][0]
            proven = self._safety[move].proven if move in self._safety else 0
            quiet = not (threatened and move in fours)
            return proven, quiet, -index

        close = [
            index
            for index, (move, score) in enumerate(scored)
            if score >= best_score - self.settings.safety_margin
            or (move in (self._previous_best, self._natural) and score > -WON)
        ]
        best = max(close, key=rank)
        scored.insert(0, scored.pop(best))

    # ---------------------------------------------------------------- tree

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Principal-variation search; the value of the position for the side to move."""
        position = self.position
        self.budget.tick()
        me = position.side
        if position.fives[me]:
            return WIN - ply - 1
        enemy_fives = position.fives[other(me)]
        if len(enemy_fives) > 1:
            return -(WIN - ply - 2)
        if position.ply == position.area:
            return 0
        if (depth <= 0 and not enemy_fives) or ply >= MAX_PLY:
            return self._leaf(ply)
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
        first = (table_move, *self._killers[ply])
        forced = threat_replies(position)
        moves = moves_in_order(position, forced, self.settings.width, first, self._history)
        if not moves:
            return -(WIN - ply - 2)
        next_depth = depth if len(moves) == 1 else depth - 1
        reduce_after = self._reduce_after(depth, forced is not None)
        original_alpha = alpha
        best_score = -WIN - 1
        best_move = moves[0]
        for index, move in enumerate(moves):
            position.play(move)
            try:
                if index == 0:
                    score = -self._negamax(next_depth, -beta, -alpha, ply + 1)
                else:
                    reduced = index >= reduce_after
                    score = -self._negamax(next_depth - reduced, -alpha - 1, -alpha, ply + 1)
                    if reduced and score > alpha:
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
                        self._reward(move, depth, ply)
                        break
        bound = _LOWER if best_score >= beta else _UPPER if best_score <= original_alpha else _EXACT
        self._store(depth, bound, best_score, best_move, ply)
        return best_score

    def _reduce_after(self, depth: int, forced: bool) -> int:
        """How many moves of this node are searched at full depth before the rest are reduced
        (the number of points, more than any node has, when none are: near the leaves, or when
        the side to move must answer a threat (`forced`), where every reply has to be searched
        in full)."""
        count = self.settings.reduce_after
        if not count or depth < REDUCTION_DEPTH or forced:
            return self.position.area
        return count

    def _leaf(self, ply: int) -> int:
        """Quiescence by threats: a short VCF for the side to move, else the static value."""
        position = self.position
        if position.fours[position.side]:
            line = self.solver.vcf(self.settings.leaf_vcf_depth)
            if line is not None:
                return WIN - ply - len(line)
        return max(-EVAL_LIMIT, min(EVAL_LIMIT, position.evaluate()))

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
        self._history[move] += depth * depth

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
