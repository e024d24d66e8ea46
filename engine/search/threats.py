"""Threat-space search: wins by continuous fours (VCF) and by threes and fours (VCT).

A VCF is a sequence of fours, each answered by the only block, ending in a
five (or a four the defender cannot block: two completions, or, in renju,
a completion that is forbidden for black). A VCT also uses open threes;
after a three the defender may block at any point that spoils it or
counter with a four of its own, and the attacker must win against every
such defence. Both solvers work on a `Position` in place (play and undo),
count nodes on a shared Budget, and remember positions already proved
to win or not to win so that transpositions are not searched twice.

The solvers return the winning line as point indices, attacker first,
defender replies included, or None when no win was found within the
depth.
"""

from __future__ import annotations

from engine.limits import Budget
from engine.rules import BLACK, WHITE
from engine.search.patterns import FOUR, OPEN_FOUR
from engine.search.position import PACK, Position, shape_count

WinningLine = list[int]


def other(color: int) -> int:
    """The opponent's colour."""
    return WHITE if color == BLACK else BLACK


def unstoppable_fours(position: Position, color: int) -> list[int]:
    """Points where `color` would make an open four or two fours at once (a threat to win next)."""
    found = []
    for point in position.fours[color]:
        code = position.code(color, point)
        if code >= PACK[OPEN_FOUR] or shape_count(code, FOUR) >= 2:
            found.append(point)
    return found


def legal_for(position: Position, point: int) -> bool:
    """Whether the side to move may play the empty `point` (renju forbids some to black)."""
    return not position.is_forbidden(point)


class ThreatSolver:
    """VCF and VCT solvers over one position, sharing a budget and a memory of failures."""

    def __init__(self, position: Position, budget: Budget) -> None:
        self.position = position
        self.budget = budget
        self.hints: set[int] = set()
        """Points the attacker tries first at every step: where wins found in similar positions
        threatened (the safety checks of one search refute root moves with much the same lines)."""
        self._vcf_failed: dict[tuple[int, int], int] = {}
        self._vct_failed: dict[tuple[int, int, int], int] = {}
        self._vct_won: dict[tuple[int, int, int], tuple[int, WinningLine]] = {}
        """(position hash, last threat, switches left) -> (threats allowed, winning line) of the
        VCT wins found (`_vct_failed` keeps the depths that found none, by the same key): the
        defender's counter-fours in different orders reach the same positions again."""

    # ------------------------------------------------------------------ VCF

    def vcf(self, max_fours: int = 30) -> WinningLine | None:
        """A win for the side to move by continuous fours, or None.

        The first four may be any; each later four must lie on a line through
        the attacker's previous four (within reach of it), as in most VCF
        solvers: fours that have nothing to do with the previous one could
        have been played before it. This keeps the branching small at the
        cost of a few rare wins. Raises OutOfBudget if the budget runs out.
        """
        return self._vcf(max_fours, -1)

    def _vcf(self, depth: int, last_four: int) -> WinningLine | None:
        position = self.position
        me = position.side
        if position.fives[me]:
            return [min(position.fives[me])]
        if depth <= 0:
            return None
        key = (position.hash, last_four)
        if self._vcf_failed.get(key, -1) >= depth:
            return None
        enemy_fives = position.fives[other(me)]
        fours = position.fours[me]
        if len(enemy_fives) > 1:
            candidates: list[int] = []
        elif enemy_fives:
            block = next(iter(enemy_fives))
            candidates = [block] if block in fours else []
        else:
            if last_four >= 0:
                near = [point for point in position.line_neighbours(last_four) if point in fours]
            else:
                near = list(fours)
            candidates = self._hinted_first(sorted(near, key=position.move_value, reverse=True))
        for four in candidates:
            if not legal_for(position, four):
                continue
            line = self._after_four(four, depth)
            if line is not None:
                return line
        self._vcf_failed[key] = depth
        return None

    def _after_four(self, four: int, depth: int) -> WinningLine | None:
        """Play the attacker's `four`, the forced block, and go on; None if that does not win."""
        position = self.position
        self.budget.tick()
        position.play(four)
        try:
            forced = self._forced_block()
            if forced is None:
                return [four]
            if forced < 0:
                return None
            position.play(forced)
            try:
                rest = self._vcf(depth - 1, four)
            finally:
                position.undo()
            return None if rest is None else [four, forced, *rest]
        finally:
            position.undo()

    def _forced_block(self) -> int | None:
        """With the defender to move after the attacker's four: the one block, None if the
        defender cannot stop a five, or -1 if the defender wins first or was not forced."""
        position = self.position
        defender = position.side
        attacker = other(defender)
        if position.fives[defender]:
            return -1
        completions = position.fives[attacker]
        if not completions:
            return -1
        if len(completions) > 1:
            return None
        block = next(iter(completions))
        return block if legal_for(position, block) else None

    def _hinted_first(self, ordered: list[int]) -> list[int]:
        """`ordered` with the hinted points moved to the front, in order otherwise."""
        hints = self.hints
        if not hints:
            return ordered
        return [point for point in ordered if point in hints] + [point for point in ordered if point not in hints]

    # ------------------------------------------------------------------ VCT

    def vct(self, max_threats: int = 6, switches: int = 0) -> WinningLine | None:
        """A win for the side to move by threes and fours, or None.

        As in the VCF, the first threat may be anywhere and each later one
        (and the first four of a closing VCF) must lie on a line through the
        attacker's previous threat: the attacker builds on its last stone.
        Up to `switches` times the attacker may instead play a threat
        anywhere (each later threat follows that one). Some wins need it:
        a threat that spoils the defender's counterplay, then an attack
        elsewhere, as in games lost to `alphabeta` (see tests). A switch
        finds such a win quickly but makes a search that finds no win cost
        about twice the nodes. Raises OutOfBudget if the budget runs out first.
        """
        return self._attack(max_threats, -1, switches)

    def vct_deepening(self, max_threats: int, first: int = 4, step: int = 2, switches: int = 0) -> WinningLine | None:
        """`vct` at growing depths up to `max_threats`: the first win found, or None.

        A deep VCT search goes down long lines before it tries other threats,
        so a short win can cost it many times the nodes a shallow search
        needs (refutations of ten plies found in a thousand nodes at depth 4
        took ten thousand at depth 12). Deepening finds short wins first and
        cheaply; shallow searches that fail cost little next to the deepest.
        Raises OutOfBudget if the budget runs out first. `switches` as in `vct`.
        """
        depth = min(first, max_threats)
        while True:
            line = self.vct(depth, switches)
            if line is not None or depth >= max_threats:
                return line
            depth = min(depth + step, max_threats)

    def _attack(self, depth: int, last_threat: int, switches: int) -> WinningLine | None:
        """Attacker to move: some threat must win against every defence (`switches`: the threats
        off the lines of `last_threat` it may still play)."""
        position = self.position
        me = position.side
        if position.fives[me]:
            return [min(position.fives[me])]
        enemy_fives = position.fives[other(me)]
        if len(enemy_fives) > 1:
            return None
        if enemy_fives:
            block = next(iter(enemy_fives))
            if not legal_for(position, block):
                return None
            return self._then_defend(block, depth, last_threat, switches)
        line = self._vcf(min(depth * 2, 12), last_threat)
        if line is not None or depth <= 1:
            return line
        key = (position.hash, last_threat, switches)
        if self._vct_failed.get(key, -1) >= depth:
            return None
        won = self._vct_won.get(key)
        if won is not None and won[0] <= depth:
            return won[1]
        threats, following = self._threats_to_try(last_threat, switches)
        for index, threat in enumerate(threats):
            if not legal_for(position, threat):
                continue
            line = self._then_defend(threat, depth - 1, threat, switches - (index >= following))
            if line is not None:
                self._vct_won[key] = (depth, line)
                return line
        self._vct_failed[key] = depth
        return None

    def _threats_to_try(self, last_threat: int, switches: int) -> tuple[list[int], int]:
        """The attacker's threats in the order to try them, and how many of the first ones follow
        `last_threat` (lie on its lines; all of them before the first threat): those, best
        first with the hinted points ahead, then, if a switch is left, every other threat."""
        position = self.position
        threats = position.threats[position.side]
        if last_threat < 0:
            near = list(threats)
        else:
            near = [point for point in position.line_neighbours(last_threat) if point in threats]
        ordered = self._hinted_first(sorted(near, key=position.move_value, reverse=True))
        following = len(ordered)
        if switches and last_threat >= 0:
            ordered += sorted(threats.difference(near), key=position.move_value, reverse=True)
        return ordered, following

    def _then_defend(self, move: int, depth: int, threat: int, switches: int) -> WinningLine | None:
        """Play the attacker's `move`, then require a win against every defence of `threat`
        (the attacker's latest threat: `move` itself, or an earlier one when `move` is a block)."""
        position = self.position
        self.budget.tick()
        position.play(move)
        try:
            rest = self._defend(threat, depth, switches)
        finally:
            position.undo()
        return None if rest is None else [move, *rest]

    def _defend(self, last: int, depth: int, switches: int) -> WinningLine | None:
        """Defender to move: the attacker's line through every defence, or None if one holds."""
        position = self.position
        defender = position.side
        attacker = other(defender)
        if position.fives[defender]:
            return None
        if position.fives[attacker]:
            forced = self._forced_block()
            if forced is None:
                return []
            if forced < 0:
                return None
            return self._answer(forced, depth, last, switches)
        pending = [point for point in unstoppable_fours(position, attacker) if not self._forbidden_for(point, attacker)]
        if not pending:
            return None
        defences = set(pending) | self._spoilers(last, attacker) | position.fours[defender]
        first: WinningLine | None = None
        for defence in sorted(defences, key=position.move_value, reverse=True):
            if not legal_for(position, defence):
                continue
            line = self._answer(defence, depth, last, switches)
            if line is None:
                return None
            if first is None:
                first = line
        return first

    def _answer(self, defence: int, depth: int, threat: int, switches: int) -> WinningLine | None:
        """Play the defender's `defence` and look for the attacker's win after it."""
        position = self.position
        self.budget.tick()
        position.play(defence)
        try:
            rest = self._attack(depth, threat, switches)
        finally:
            position.undo()
        return None if rest is None else [defence, *rest]

    def _spoilers(self, last: int, attacker: int) -> set[int]:
        """Empty points near the attacker's last move where the attacker could make a four:
        the ends and gaps of the three, where a defender's stone spoils it."""
        position = self.position
        fours = position.fours[attacker]
        return {point for point in position.line_neighbours(last) if point in fours}

    def _forbidden_for(self, point: int, color: int) -> bool:
        """Whether `point` is forbidden for `color` (only black under renju has such points)."""
        return color == BLACK and self.position.forbidden_for_black(point)
