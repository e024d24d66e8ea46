"""The engine's bot levels: one search, four settings of width and threat depth.

`easy` and `medium` search shallow and narrow and pick at random (seeded)
among moves whose scores are close to the best, so that they make
human-looking mistakes; `hard` and `master` search as well as they can,
with a VCT at the root. Every level is deterministic for a given seed
when its limits are in nodes or depth rather than time. Each level's
default thinking time is in `engine.registry`, with every other level's.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.board import Board
from engine.bots import Bot, Decision
from engine.limits import Budget, Clock, SearchLimits
from engine.search.position import WON
from engine.search.safety import SafetySettings
from engine.search.search import Searcher, SearchResult, SearchSettings


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """Everything that distinguishes one engine level from another."""

    name: str
    """The level name, as bot seats and `gomoku-engine --level` know it."""
    description: str
    """One sentence for people choosing an opponent."""
    search: SearchSettings
    """How the search runs at this level."""
    tolerance: int = 0
    """Choose at random among root moves scoring within this of the best (0: always the best).
    In the fitted evaluation's units: `easy`'s 1,000 and `medium`'s 150 leave about as many moves
    to choose from (2.0 and 1.2 on average, in positions of real games) as 150 and 30 did on the
    hand-set scale before it."""


class EngineBot:
    """A Bot that runs the engine's search with one level's settings."""

    def __init__(self, settings: LevelSettings, clock: Clock = time.monotonic) -> None:
        """A bot of the level `settings` describes; deadlines are read from `clock` (tests inject one)."""
        self.settings = settings
        self.level = settings.name
        self.description = settings.description
        self._clock = clock

    def think(self, board: Board, limits: SearchLimits) -> Iterator[SearchResult]:
        """The search's result after each finished depth, within `limits`.

        A limit left out is no limit: without a time, a depth or a node
        limit the search deepens to `max_depth`, which takes hours; callers
        with no time to give use the level's `engine.registry.default_time_ms`.
        """
        budget = Budget.from_limits(limits, self._clock)
        search = self.settings.search
        if limits.depth is not None:
            search = dataclasses.replace(search, max_depth=max(1, limits.depth))
        searcher = Searcher(board, search, budget, full_root_window=self.settings.tolerance > 0)
        yield from searcher.iterate()

    def choose(self, board: Board, limits: SearchLimits, seed: int | None = None) -> Decision:
        """Search within `limits` and decide; see the Bot protocol."""
        last: SearchResult | None = None
        for result in self.think(board, limits):
            last = result
        return self.decide(board, last, seed)

    def decide(self, board: Board, last: SearchResult | None, seed: int | None) -> Decision:
        """Turn the last finished result (None if none finished in time) into a Decision."""
        if last is None:
            move = Searcher(board, self.settings.search, Budget()).fallback()
            return Decision(move=move, score=0, pv=(move,), candidates=((move, 0),))
        move = last.move
        score = last.score
        if self.settings.tolerance and last.root_scores and abs(last.score) < WON:
            near = [
                (point, value) for point, value in last.root_scores if value >= last.score - self.settings.tolerance
            ]
            move, score = random.Random(seed).choice(near)
        pv = last.pv if move == last.move else (move,)
        candidates = last.root_scores or ((last.move, last.score),)
        return Decision(move=move, score=score, depth=last.depth, nodes=last.nodes, pv=pv, candidates=candidates)


LEVELS: tuple[LevelSettings, ...] = (
    LevelSettings(
        name="easy",
        description="Looks two moves ahead, sees only short forcing lines, and often picks a lesser move.",
        search=SearchSettings(width=6, root_width=10, max_depth=2, vcf_depth=4, leaf_vcf_depth=0),
        tolerance=1000,
    ),
    LevelSettings(
        name="medium",
        description="A careful club player: four moves ahead, finds wins by fours, sometimes varies.",
        search=SearchSettings(width=9, root_width=14, max_depth=4, vcf_depth=12, leaf_vcf_depth=3),
        tolerance=150,
    ),
    LevelSettings(
        name="hard",
        description="Deep alpha-beta with threat-space search: wins by fours and threes, defends precisely.",
        search=SearchSettings(
            width=14,
            root_width=22,
            vcf_depth=20,
            leaf_vcf_depth=6,
            vct_depth=10,
            safety=SafetySettings(vct_depth=10, switch_nodes=2_000),
        ),
    ),
    LevelSettings(
        name="master",
        description="The full engine with the most time: deeper threat search and wider alpha-beta.",
        search=SearchSettings(
            width=15,
            root_width=24,
            reduction=0.6,
            prune_after=3,
            vcf_depth=30,
            leaf_vcf_depth=8,
            vct_depth=12,
            safety=SafetySettings(vct_depth=12, switch_nodes=2_000),
        ),
    ),
)


ENGINE_LEVELS: dict[str, Callable[[], Bot]] = {
    settings.name: functools.partial(EngineBot, settings) for settings in LEVELS
}
"""The engine levels by name, weakest first, as the registry in engine.registry expects.
The factories are partials, so they can be pickled for a process pool."""
