"""`static`: one-ply whole-board evaluation with tunable weights.

After a trial move the bot counts the shapes of both sides over the whole
board (see `shapes`) and values the position as

    attack * sum(own weight * own count) - defence * sum(opponent weight * opponent count)

with one weight per shape for each side (14) and the two factors: 16
numbers, kept in a weight file that `gomoku-tune` improves by self-play.
The opponent has its own weights because it moves next: its four is a
loss, where our own four is only a threat. The bot plays the point whose
trial move gives the highest value.

That is evaluation alone. As in the course's programs, a player may add a
search tree: with a depth (plies) or a width (points kept per ply, the best
by attack plus defence), the same evaluation values the leaves of
`alphabeta`'s tree, within the same bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.bots import Decision
from engine.classic.alphabeta import CANDIDATES_PER_PLY, AlphaBetaBot, check_search_shape
from engine.classic.common import nearby_points, rank
from engine.classic.shapes import SHAPE_COUNT, Shape, added, board_shapes, shape_change
from engine.limits import SearchLimits

WEIGHT_COUNT = 2 * SHAPE_COUNT + 2
"""Numbers in a weight file: 7 own shape weights, 7 opponent shape weights, attack, defence."""


@dataclass(frozen=True, slots=True)
class StaticWeights:
    """The 16 numbers of the static evaluation."""

    own: tuple[float, ...]
    """Weight of each of the mover's shapes, in Shape order."""
    opponent: tuple[float, ...]
    """Weight of each of the opponent's shapes, in Shape order."""
    attack: float
    """Factor on the mover's total."""
    defence: float
    """Factor on the opponent's total."""

    def __post_init__(self) -> None:
        if len(self.own) != SHAPE_COUNT or len(self.opponent) != SHAPE_COUNT:
            raise ValueError(f"static weights need {SHAPE_COUNT} own and {SHAPE_COUNT} opponent shape weights")

    def numbers(self) -> tuple[float, ...]:
        """The weights in file order."""
        return (*self.own, *self.opponent, self.attack, self.defence)

    @classmethod
    def from_numbers(cls, numbers: Sequence[float]) -> StaticWeights:
        """Weights from 16 numbers in file order. Raises ValueError for another count."""
        if len(numbers) != WEIGHT_COUNT:
            raise ValueError(f"a static weight file holds {WEIGHT_COUNT} numbers, not {len(numbers)}")
        values = tuple(float(number) for number in numbers)
        return cls(values[:SHAPE_COUNT], values[SHAPE_COUNT : 2 * SHAPE_COUNT], values[-2], values[-1])


DEFAULT_WEIGHTS = StaticWeights(
    own=(1_000_000, 100_000, 30_000, 2_000, 200, 100, 10),
    opponent=(1_000_000, 400_000, 200_000, 20_000, 150, 120, 10),
    attack=1.0,
    defence=1.0,
)
"""The weights shipped in engine/classic/static_weights.txt, so the bot works without reading it."""


def parse_weights(text: str) -> StaticWeights:
    """Read a weight file: 16 numbers separated by white space; `#` starts a comment.

    Raises ValueError naming the first word that is not a number, or the wrong count.
    """
    numbers = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        for word in line.split("#", 1)[0].split():
            try:
                numbers.append(float(word))
            except ValueError:
                raise ValueError(f"line {line_number}: {word!r} is not a number") from None
    return StaticWeights.from_numbers(numbers)


def format_weights(weights: StaticWeights) -> str:
    """A weight file's text, with a comment naming each number."""
    lines = ["# static evaluation weights: own shapes, opponent shapes, attack, defence"]
    for side, values in (("own", weights.own), ("opponent", weights.opponent)):
        for shape, value in zip(Shape, values, strict=True):
            lines.append(f"{value:.6g}  # {side} {shape.name.lower().replace('_', ' ')}")
    lines.append(f"{weights.attack:.6g}  # attack")
    lines.append(f"{weights.defence:.6g}  # defence")
    return "\n".join(lines) + "\n"


def evaluate(weights: StaticWeights, own_counts: Sequence[int], opponent_counts: Sequence[int]) -> float:
    """The static value of a position for the side that has just moved."""
    own = sum(weight * count for weight, count in zip(weights.own, own_counts, strict=True))
    opponent = sum(weight * count for weight, count in zip(weights.opponent, opponent_counts, strict=True))
    return weights.attack * own - weights.defence * opponent


class StaticBot:
    """Plays the point whose trial move maximises the weighted whole-board evaluation."""

    level = "static"
    description = "Textbook static evaluation: weighs both sides' shapes over the whole board after each trial move."

    def __init__(self, weights: StaticWeights = DEFAULT_WEIGHTS, depth: int = 1, width: int | None = None) -> None:
        """A bot of these weights; with a `depth` above one ply or a `width` (None: every point near
        the stones, at one ply), it searches `alphabeta`'s tree with them (ValueError outside its
        bounds)."""
        self.weights = weights
        self.tree: AlphaBetaBot | None = None
        """The search tree over this evaluation, when a depth or width was given."""
        if depth != 1 or width is not None:
            chosen_width = CANDIDATES_PER_PLY if width is None else width
            check_search_shape(depth, chosen_width, self.level)
            self.tree = AlphaBetaBot(depth, chosen_width, self.value_for_side_to_move)

    def value_for_side_to_move(self, own: list[int], other: list[int]) -> int:
        """The evaluation as the tree reads it at a leaf: for the side to move, the opposite of its
        value for the side that has just moved (whose opponent, to move, has its own weights)."""
        return -round(evaluate(self.weights, other, own))

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Evaluate a trial move on every point near the stones and play a best one (or search
        the tree, when it has one)."""
        if self.tree is not None:
            return self.tree.choose(board, limits, seed)
        mover = int(board.to_move)
        counts = board_shapes(board)
        scored = []
        for point in nearby_points(board, 2):
            change = shape_change(board, point, mover)
            after = (added(counts[0], change[0]), added(counts[1], change[1]))
            own, opponent = (after[0], after[1]) if mover == 1 else (after[1], after[0])
            scored.append((point, round(evaluate(self.weights, own, opponent))))
        ranked = rank(scored, board, seed)
        best, score = ranked[0]
        return Decision(move=best, score=score, depth=1, nodes=len(ranked), pv=(best,), candidates=tuple(ranked))
