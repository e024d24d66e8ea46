"""Safety checks at the root: does a root move let the opponent win by threats?

The alpha-beta tree sees only a few plies, while a VCT (a win by threes and
fours) can be twenty plies long: this is how the engine defends against one
early. After each iteration of the search, the best root moves are checked
in turn (`_check_order`), each by a VCT search for the opponent in the
position after the move that deepens two threats at a time, until one move
is proven safe to the full depth. A check that runs out of its share of
the time keeps the depth it proved, so that the next iteration resumes it.
A move the opponent wins against is scored as lost, and is not searched
again. In the end a move proven safe deeper may beat a better scored one
that was checked less (see `_put_safest_first` for which): in a sharp
position, the move the tree likes best is often the one whose danger is
too deep to see at once.

A `RootSafety` belongs to one search and remembers, across iterations,
what the checks proved about each root move. The search asks it three
things: the score of a move already refuted (`refuted_score`), how close
to the best a move must come to be scored exactly (`scout_margin`), and,
after each iteration, to check the best moves and put the safest first
(`review`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.limits import Budget, OutOfBudget
from engine.search.position import WIN, WON, Position
from engine.search.threats import ThreatSolver

Scored = list[tuple[int, int]]
"""Root moves with their scores, best first."""


# Plain Python even when this module is compiled: a compiled frozen dataclass cannot be unpickled,
# and each level's settings crosses to the server's worker processes.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SafetySettings:
    """How a level checks its root moves for the opponent's threat wins."""

    vct_depth: int = 0
    """After each iteration, the best root moves are checked for an opponent's VCT this deep
    (0: no check); a move that allows one is scored as lost."""
    share: float = 0.5
    """Part of the remaining time one such check may use (its node limit usually ends it sooner)."""
    last_iteration_after: float = 0.4
    """Once this part of the time is used, another iteration will hardly finish (each takes
    several times longer than the last), so a check may use all the time left."""
    moves: int = 12
    """Most root moves checked per iteration."""
    nodes: int = 25_000
    """Most nodes one check may use."""
    margin: int = 500
    """A move proven safe deeper is preferred to a better scored one only within this margin."""
    switch_nodes: int = 0
    """Once a root move is proven safe, the most nodes of one more check, for a VCT that may
    switch place once (see `ThreatSolver.vct`; 0: no such check). Such wins, when short, are
    found in a few hundred nodes, while proving there is none would cost as much again as the
    first check: a check that runs out counts as safe."""


@dataclass(slots=True)
class MoveSafety:
    """What the safety checks know about one root move."""

    proven: int = 0
    """The opponent has no VCT of this many threats after the move."""
    refutation: list[int] | None = None
    """The opponent's VCT after the move, once found."""
    switch_checked: bool = False
    """Whether the check for a VCT that switches place has run (see `switch_nodes`)."""


class RootSafety:
    """The safety checks of one search's root moves, and what they have found so far."""

    def __init__(self, position: Position, settings: SafetySettings, budget: Budget, start: float) -> None:
        """Checks on `position` (the search's own, at the root between moves) within `budget`,
        whose clock read `start` when the search began."""
        self.position = position
        self.settings = settings
        self.budget = budget
        self._start = start
        self.natural = -1
        """The root move the move ordering puts first (set by the search once it has ordered them)."""
        self._previous_best = -1
        """The move the last reviewed iteration chose (-1 before the first)."""
        self._moves: dict[int, MoveSafety] = {}
        """Root move -> what the checks found about the opponent's VCT after it."""
        self._solver = ThreatSolver(position, budget)
        """One solver for every check, so that what a check that ran out of time proved (lines
        that do not win) is not searched again when the move is checked later."""

    # ------------------------------------------------------------ questions

    def refuted_score(self, move: int) -> int | None:
        """The score of a root move a check refuted (a loss as long as the opponent's VCT), or
        None if none did.

        Such a move is not searched again in later iterations: its score is
        known, the search's time is better spent on the others, and a tree
        score of a refuted move, often high (the tree cannot see the VCT),
        would only raise the bar the later moves are searched against.
        """
        known = self._moves.get(move)
        if known is None or known.refutation is None:
            return None
        return -(WIN - 1 - len(known.refutation))

    def scout_margin(self) -> int:
        """How far below the best a root move may score and still get a lower bound rather than
        an upper one (see `Searcher._scout`): the settings' margin once the position is sharp,
        0 before. `_put_safest_first` may prefer such a close move, and must know it is close."""
        return self.settings.margin if self._sharp() else 0

    def _sharp(self) -> bool:
        """Whether the checks have found the opponent's threats dangerous: a root move refuted,
        or a check that could not finish."""
        full = self.settings.vct_depth
        return any(safety.refutation is not None or safety.proven < full for safety in self._moves.values())

    # -------------------------------------------------------------- review

    def review(self, scored: Scored) -> Scored:
        """The root moves of a finished iteration (best first) re-scored and re-ordered by the
        checks: the moves the opponent wins against scored as lost, the move proven safest
        first. Unchanged when the settings ask for no checks or the best move wins."""
        if not self.settings.vct_depth:
            return scored
        scored = list(scored)
        if scored[0][1] <= WON:
            self._check_best(scored)
            for index, (move, score) in enumerate(scored):
                lost = self.refuted_score(move)
                if lost is not None and score > -WON:
                    scored[index] = (move, lost)
            scored.sort(key=lambda item: item[1], reverse=True)
            self._put_safest_first(scored)
        self._previous_best = scored[0][0]
        return scored

    def _check_best(self, scored: Scored) -> None:
        """Check the moves in `_check_order` until one is proven safe to the full depth, the
        moves left are lost anyway, or the checks allowed this iteration are used up."""
        checks_left = self.settings.moves
        for move, score in self._check_order(scored):
            if score < -WON or checks_left <= 0:
                break
            safety = self._moves.setdefault(move, MoveSafety())
            if safety.refutation is None and safety.proven < self.settings.vct_depth:
                checks_left = self._check(move, safety, checks_left)
            if safety.refutation is None and safety.proven >= self.settings.vct_depth:
                break

    def _check_order(self, scored: Scored) -> Scored:
        """The order of the checks: the tree's best move, then the move ordering's first (the
        natural move: the most own and opponent shapes), then the others by score."""
        natural = [item for item in scored[1:] if item[0] == self.natural]
        return scored[:1] + natural + [item for item in scored[1:] if item[0] != self.natural]

    def _check(self, move: int, safety: MoveSafety, checks_left: int) -> int:
        """Deepen the check of `move` as far as the time allows; return how many checks this
        iteration has left.

        A check that runs out of its share of the time or nodes leaves room
        for one more, so that the natural move, checked second, can still be
        proven safe against a tree favourite whose danger was too deep to
        settle (as in a game lost to `alphabeta`, where black's natural g8 was
        safe and the favourite g11 lost to a VCT of 11 plies that the check
        could not finish). Running out of the whole budget ends the checking
        for this iteration, whose result still stands.
        """
        checks_left -= 1
        try:
            self._deepen(move, safety)
        except OutOfBudget:
            return 0 if self.budget.exhausted() else min(checks_left, 1)
        return checks_left

    def _deepen(self, move: int, safety: MoveSafety) -> None:
        """Look for the opponent's VCT after `move`, two threats deeper at a time, recording in
        `safety` the depth proven to have none or the win found; once proven safe to the full
        depth, look for a VCT that switches place (`_switching_refutation`).

        Raises OutOfBudget when the check's share of the time or nodes runs out.
        """
        full = self.settings.vct_depth
        share = self.budget.sub_budget(self._share(), self.settings.nodes)
        solver = self._solver
        solver.budget = share
        solver.hints = {
            point for known in self._moves.values() if known.refutation is not None for point in known.refutation[::2]
        }
        self.position.play(move)
        try:
            depth = min(max(safety.proven + 2, 4), full)
            while safety.proven < full:
                line = solver.vct(depth)
                if line is not None:
                    safety.refutation = line
                    return
                safety.proven = depth
                depth = min(depth + 2, full)
            if not safety.switch_checked:
                safety.refutation = self._switching_refutation(share)
                safety.switch_checked = True
        finally:
            self.position.undo()
            self.budget.absorb(share)

    def _switching_refutation(self, share: Budget) -> list[int] | None:
        """The opponent's VCT that switches place once, in the position after a root move the
        ordinary check proved safe, if one is found within `switch_nodes` of `share`.

        As white in two games lost to `alphabeta` (openings `h8 i9 d7` and
        `h8 h9 g4`, which reached the same position mirrored), the 16th move
        let black win by threats that, against some defences, move elsewhere
        once: the ordinary check proves it safe (no VCT of 12 threats, in
        about 2,900 nodes), the check with a switch refutes it in about 320.
        """
        nodes = self.settings.switch_nodes
        if not nodes:
            return None
        solver = self._solver
        limited = share.sub_budget(1.0, nodes)
        solver.budget = limited
        try:
            return solver.vct_deepening(self.settings.vct_depth, switches=1)
        except OutOfBudget:
            return None
        finally:
            share.absorb(limited)
            solver.budget = share

    def _share(self) -> float:
        """The part of the time left that the next check may use."""
        deadline = self.budget.deadline
        if deadline is None or deadline <= self._start:
            return self.settings.share
        used = (self.budget.clock() - self._start) / (deadline - self._start)
        return 1.0 if used >= self.settings.last_iteration_after else self.settings.share

    def _put_safest_first(self, scored: Scored) -> None:
        """Move to the front, among the moves scoring within `margin` of the best, the previous
        iteration's choice and the natural move, the one proven safe deepest (the best scored
        among equals), preferring quiet moves to fours once the opponent is known to have
        threat wins.

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
        if abs(best_score) > WON or not self._moves:
            return
        threatened = any(safety.refutation is not None for safety in self._moves.values())
        fours = self.position.fours[self.position.side]

        def rank(index: int) -> tuple[int, bool, int]:
            move = scored[index][0]
            proven = self._moves[move].proven if move in self._moves else 0
            quiet = not (threatened and move in fours)
            return proven, quiet, -index

        close = [
            index
            for index, (move, score) in enumerate(scored)
            if score >= best_score - self.settings.margin
            or (move in (self._previous_best, self.natural) and score > -WON)
        ]
        best = max(close, key=rank)
        scored.insert(0, scored.pop(best))
