"""The bots this server offers: which levels, how they are described, how long they think, and who
runs each one.

A `BotRoster` knows every level: our own (`engine.registry`) and the
outside engines the operator configured (`server.bots.engine_config`). It is the
one place where a bot's thinking time for a move is decided: the level's
own time, lowered by the server's cap, and in a timed game by the share of
the clock one move may use (`engine.limits.move_time_ms`, the formula the
Gomocup brain uses too). It also says which rooms an outside engine may sit
in (its rules, sizes and openings).

`BotPlayers` is what rooms ask for moves (the actors' `MoveChooser`) and
analyses ask for their searches: our levels go to a process pool
(`server.bots.pool`), outside engines to their own processes
(`server.bots.outside_engines`), both through the same slots; analyses have a
pool of their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bots import Decision
from engine.limits import most_move_time_ms, move_time_ms
from engine.openings import OpeningRule, Step
from engine.registry import bot_factories, check_search, default_time_ms, level_names, search_bounds
from engine.types import Rule
from server.bots.engine_config import EngineSpec
from server.bots.outside_engines import OutsideEngines
from server.bots.pool import DEFAULT_TIME_MS, BotPool, BotRequest, Priority, WaitWatcher
from server.domain import BotTurn, Refusal


@dataclass(frozen=True, slots=True)
class BotInfo:
    """One entry of the `bots` list a client chooses an opponent from."""

    level: str
    """The level name to put in a bot seat."""
    description: str
    """One sentence about how the bot plays."""
    rating: int | None
    """Arena rating (for an outside engine, the operator's), or None when unrated."""
    search: tuple[tuple[int, int], tuple[int, int]] | None = None
    """The (lowest, highest) depth and width a seat may set for this level, or None when its
    search is its own (`engine.registry.search_bounds`)."""


class BotRoster:
    """Every bot level this server offers: our own levels, then the configured outside engines."""

    def __init__(self, engines: Sequence[EngineSpec] = (), arena_ratings: dict[str, int] | None = None) -> None:
        """Our levels rated from `arena_ratings` (None: unrated), and the outside `engines`."""
        self._ratings = arena_ratings or {}
        self._engines = {spec.name: spec for spec in engines}

    @property
    def engines(self) -> tuple[EngineSpec, ...]:
        """The outside engines, in the configuration's order."""
        return tuple(self._engines.values())

    def catalogue(self) -> list[BotInfo]:
        """Every level with its description and rating (None when unrated)."""
        factories = bot_factories()
        ours = [
            BotInfo(level, factory().description, self._ratings.get(level), search_bounds(level))
            for level, factory in factories.items()
        ]
        return ours + [BotInfo(spec.name, spec.description, spec.rating) for spec in self._engines.values()]

    def is_level(self, name: str) -> bool:
        """Whether `name` is a bot level this server can seat (a name no person may take)."""
        return name in self._engines or name in level_names()

    def engine(self, name: str) -> EngineSpec | None:
        """The outside engine called `name`, if there is one."""
        return self._engines.get(name)

    def check_seat(self, level: str, rule: Rule, size: int, opening: OpeningRule) -> None:
        """Refuse a bot seat in a room it cannot play: an unknown level is `bad_request`; an outside
        engine's rule, size or opening it does not play is `not_allowed`."""
        if not self.is_level(level):
            known = ", ".join(info.level for info in self.catalogue())
            raise Refusal("bad_request", f"unknown bot level {level!r}: expected one of {known}")
        spec = self._engines.get(level)
        if spec is None:
            return
        if rule not in spec.rules:
            plays = ", ".join(sorted(rule.value for rule in spec.rules))
            raise Refusal("not_allowed", f"the engine {level!r} plays {plays}, not {rule.value}")
        if size not in spec.sizes:
            sizes = ", ".join(str(size) for size in sorted(spec.sizes))
            raise Refusal("not_allowed", f"the engine {level!r} plays on boards of size {sizes}, not {size}")
        if opening is OpeningRule.NONE or (opening is OpeningRule.SWAP2 and spec.swap2):
            return
        if opening is OpeningRule.SWAP2:
            raise Refusal("not_allowed", f"the engine {level!r} does not take swap2 decisions (SWAP2BOARD)")
        raise Refusal(
            "not_allowed",
            f"outside engines cannot play the {opening.value} opening: the Gomocup protocol has no command for it",
        )

    def check_search(self, level: str, depth: int | None, width: int | None, rated: bool) -> None:
        """Refuse a bot seat's search `depth` or `width` that its level does not take
        (`bad_request`, saying the bounds), and any in a rated game (`not_allowed`: a bot's rating
        is its level's, earned at the level's own settings). None is the level's own."""
        if depth is None and width is None:
            return
        if rated:
            raise Refusal("not_allowed", "a bot with its own depth or width plays unrated games only")
        if level in self._engines:
            raise Refusal("bad_request", f"the outside engine {level} takes no search depth or width")
        try:
            check_search(level, depth, width)
        except ValueError as error:
            raise Refusal("bad_request", str(error)) from None

    def analysis_level(self, rule: Rule, size: int, chosen: str | None = None) -> str:
        """The level that analyses a position of this rule and size: `chosen` (the server's setting)
        if given, else the outside engine the operator allowed to (if it plays this game), else our
        strongest level."""
        if chosen is not None:
            return chosen
        for spec in self._engines.values():
            if spec.analysis and rule in spec.rules and size in spec.sizes:
                return spec.name
        return level_names()[-1]

    def level_time_ms(self, level: str) -> int:
        """A level's own thinking time per move: an outside engine's configured time, our level's
        default, or the pool's default for a level this server no longer has (a restored game)."""
        spec = self._engines.get(level)
        if spec is not None:
            return spec.time_ms
        return default_time_ms(level) if level in level_names() else DEFAULT_TIME_MS

    def search_time_ms(self, turn: BotTurn, cap_ms: int | None) -> int:
        """How long the bot may think on this turn.

        Never more than its level's own time (a level is, among other things,
        how long it thinks: a long clock does not make `easy` think a minute)
        nor than `cap_ms`; in a timed game, never more than its share of its
        clock.
        """
        level_ms = self.level_time_ms(turn.level)
        limit_ms = level_ms if cap_ms is None else min(level_ms, cap_ms)
        if turn.clock_ms is None:
            return limit_ms
        left_ms, increment_ms = turn.clock_ms
        share = move_time_ms(left_ms, increment_ms, limit_ms)
        assert share is not None, "a clock always gives a share"
        return share

    def search_request(self, turn: BotTurn, cap_ms: int | None) -> BotRequest:
        """What to ask the bots for this turn. In a timed game the search may run on past its
        time while its best move keeps changing (`engine.limits.most_move_time_ms`: up to three
        times its time, never more than an eighth of its clock nor `cap_ms`), as the Gomocup
        brain does: the level's own time is what it plans for, not what it may never pass."""
        time_ms = self.search_time_ms(turn, cap_ms)
        left_ms = None if turn.clock_ms is None else turn.clock_ms[0]
        return BotRequest(
            turn.level,
            turn.rule,
            turn.size,
            turn.moves,
            time_ms,
            priority=Priority.BOT_GAME if turn.bots_only else Priority.PERSON,
            opening=turn.opening,
            game_id=turn.game_id,
            time_left_ms=left_ms,
            match_ms=turn.match_ms,
            most_time_ms=most_move_time_ms(time_ms, left_ms, cap_ms),
            depth=turn.depth,
            width=turn.width,
        )


class BotPlayers:
    """Chooses every bot's moves and answers analyses: our levels in process pools, outside engines
    in their own processes, each search in a slot of the pool its priority says.

    Games and analyses have pools of their own (`pool`, `analysis_pool`):
    an analysis, however long and however many are queued, never takes a
    worker a bot's move in a live game needs; it only competes for the CPU,
    and a bot's search is bounded by time, not by depth, so it answers on
    time all the same. (Preempting a running analysis instead would kill a
    worker, whose successor takes seconds to start: the very delay it is
    meant to avoid.)
    """

    def __init__(self, pool: BotPool, analysis_pool: BotPool, engines: OutsideEngines | None = None) -> None:
        self.pool = pool
        """Where bots' moves and opening steps are searched."""
        self.analysis_pool = analysis_pool
        """Where analyses are searched (requests of priority ANALYSIS)."""
        self.engines = engines
        """The outside engines' processes, if any are configured."""

    @property
    def saturated(self) -> bool:
        """Whether a bot's move against a person asked now would be refused as busy."""
        return self.pool.saturated

    def _slots(self, request: BotRequest) -> BotPool:
        return self.analysis_pool if request.priority is Priority.ANALYSIS else self.pool

    async def choose(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Decision:
        """The bot's decision for the request's position (raises as `BotPool.choose` does; an outside
        engine that failed twice raises BotGaveUp); `watcher` is told of a wait for a worker."""
        slots = self._slots(request)
        if self.engines is not None and request.level in self.engines:
            return await self.engines.choose(request, slots, watcher)
        return await slots.choose(request, watcher)

    async def decide_opening(self, request: BotRequest, watcher: WaitWatcher | None = None) -> Step:
        """The bot's step in the request's opening (raises as `choose` does)."""
        slots = self._slots(request)
        if self.engines is not None and request.level in self.engines:
            return await self.engines.decide_opening(request, slots, watcher)
        return await slots.decide_opening(request, watcher)

    async def close(self) -> None:
        """Stop the outside engines and the pools' workers."""
        if self.engines is not None:
            await self.engines.close()
        await asyncio.gather(self.pool.close(), self.analysis_pool.close())
