"""Outside engines as bot levels: Gomocup brains the operator configured, each in a small pool of
live processes.

An engine's processes (`EngineStable`) are started when first needed and
kept alive between games, up to the engine's `processes`. A process plays
one game at a time: the game it holds is asked again in the same process,
which then only hears the opponent's last move (`TURN`); another game takes
an idle process, which starts that game afresh (`RESTART` or `START`, then
the whole position with `BOARD`). What to say and what the answers mean is
`engine.gomocup_manager`; moving the lines is `brains.process`.

Faults: a process that fails while asked something (it cannot be started,
hangs at START, overruns its time plus `tolerance_ms`, crashes, prints
garbage, answers an illegal or occupied point) is killed and logged with
the end of its stderr, and the question is asked once more of a fresh
process; if that fails too, `BotGaveUp` says both reasons, and the bot
resigns with them in the game's record. A process that died between two
questions is replaced without a word. Nothing here blocks the event loop.

Every question runs in one of a bot pool's slots (`BotPool.run_outside`):
outside engines count against the server's bot capacity, a person's game
goes ahead of a game between two bots, and an analysis takes a slot of the
analysis pool, never a game's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from brains.process import BrainFailure, BrainProcess
from engine.bots import Decision
from engine.errors import OpeningError
from engine.gomocup_manager import TimeLimits
from engine.openings import OpeningRule, Step, apply
from engine.types import Point
from server.bots.engine_config import EngineSpec
from server.bots.pool import BotError, BotGaveUp, BotPool, BotRequest, WaitWatcher
from server.metrics import Metrics

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

ATTEMPTS = 2
"""How many processes one question may fail in (the second a fresh one) before the bot gives up."""


@dataclass(slots=True)
class _Stall:
    """One process of an engine: free, or leased to one question."""

    brain: BrainProcess | None = None
    """The running process, or None while it is being started."""
    busy: bool = True
    last_used: float = 0.0


class EngineStable:
    """The live processes of one outside engine, and the questions put to them."""

    def __init__(self, spec: EngineSpec, metrics: Metrics | None = None) -> None:
        self.spec = spec
        self._metrics = metrics
        self._stalls: list[_Stall] = []
        self._changed = asyncio.Condition()
        self._closed = False

    @property
    def processes(self) -> list[BrainProcess]:
        """The engine's running processes."""
        return [stall.brain for stall in self._stalls if stall.brain is not None and stall.brain.running]

    async def move(self, request: BotRequest) -> Point:
        """The engine's move for the request's position."""
        limits = self._limits(request)
        timeout_s = self._answer_timeout_s(request)
        return await self._ask(request, lambda brain: brain.move(request.moves, limits, timeout_s))

    async def opening_step(self, request: BotRequest) -> Step:
        """The engine's swap2 decision (the roster seats it only in rooms it can play)."""
        state = request.opening
        assert state is not None, "an opening decision needs the opening"
        if state.rule is not OpeningRule.SWAP2 or not self.spec.swap2:
            raise BotGaveUp(f"the engine {self.spec.name} cannot take a decision of the {state.rule.value} opening")
        limits = self._limits(request)
        timeout_s = self._answer_timeout_s(request)

        async def decide(brain: BrainProcess) -> Step:
            decided = await brain.swap2(state.moves, limits, timeout_s)
            try:
                apply(state, state.to_decide or state.black, decided.step)
            except OpeningError as error:
                await brain.kill()
                refused = f"{brain.name} took a swap2 step the rules refuse ({error}); it was killed"
                raise BrainFailure(refused) from None
            return decided.step

        return await self._ask(request, decide)

    def _limits(self, request: BotRequest) -> TimeLimits:
        """What the engine is told: the longest this move may take (in a timed game, the most our
        own levels may take on a move whose search is unsettled; else its time) as
        `timeout_turn`, and the clock, so that it plans its moves within them as our levels do."""
        return TimeLimits(request.longest_ms, request.match_ms or 0, request.time_left_ms)

    def _answer_timeout_s(self, request: BotRequest) -> float:
        return (request.longest_ms + self.spec.tolerance_ms) / 1000

    # ------------------------------------------------------------ faults

    async def _ask(self, request: BotRequest, question: Callable[[BrainProcess], Awaitable[_T]]) -> _T:
        """Put the question to a process that holds the request's game (or is set up for it); on a
        failure, once more to a fresh process; then give up."""
        failures: list[str] = []
        for _ in range(ATTEMPTS):
            stall = await self._lease(request)
            try:
                brain = await self._ready(stall, request)
                answer = await question(brain)
            except BrainFailure as failure:
                self._report(failure, stall, request)
                failures.append(str(failure))
                await self._drop(stall)
                continue
            except BaseException:
                await self._drop(stall)
                raise
            await self._release(stall)
            return answer
        raise BotGaveUp(f"the engine {self.spec.name} failed: {failures[0]}; then, in a fresh process: {failures[-1]}")

    def _report(self, failure: BrainFailure, stall: _Stall, request: BotRequest) -> None:
        brain = stall.brain
        tail = "" if brain is None else brain.stderr_tail()
        pid = "?" if brain is None else brain.pid
        logger.warning(
            "outside engine %s (pid %s) failed in game %s: %s%s",
            self.spec.name,
            pid,
            request.game_id or "(analysis)",
            failure,
            f"; its stderr ends: {tail}" if tail else "",
        )

    # ----------------------------------------------------------- processes

    async def _ready(self, stall: _Stall, request: BotRequest) -> BrainProcess:
        """The stall's process, started if need be, holding the request's game."""
        spec = self.spec
        if stall.brain is None:
            stall.brain = await BrainProcess.start(spec.command, spec.name, spec.working_dir, self._count_dropped)
        brain = stall.brain
        if brain.game is None or brain.game != request.game_id:
            memory = None if spec.memory_mb is None else spec.memory_mb * 1024 * 1024
            await brain.new_game(request.size, request.rule, spec.start_timeout_s, memory)
            brain.game = request.game_id
        return brain

    def _count_dropped(self, size: int) -> None:
        """Count stderr the log could not take (`gomoku_engine_stderr_dropped_bytes_total`)."""
        if self._metrics is not None:
            self._metrics.engine_stderr_dropped.labels(self.spec.name).inc(size)

    async def _lease(self, request: BotRequest) -> _Stall:
        """A process for the request, leased until released: the one holding its game, a new one
        while there are fewer than `processes`, or the one idle longest."""
        async with self._changed:
            while True:
                if self._closed:
                    raise BotError(f"the engine {self.spec.name} is stopped")
                await self._forget_dead()
                stall = self._idle_for(request)
                if stall is None and len(self._stalls) < self.spec.processes:
                    stall = _Stall()
                    self._stalls.append(stall)
                if stall is not None:
                    stall.busy = True
                    return stall
                await self._changed.wait()

    def _idle_for(self, request: BotRequest) -> _Stall | None:
        idle = [(stall, stall.brain) for stall in self._stalls if not stall.busy and stall.brain is not None]
        same_game = [(stall, brain) for stall, brain in idle if request.game_id and brain.game == request.game_id]
        following = [stall for stall, brain in same_game if brain.holds(request.moves)]
        if following:
            return following[0]
        if same_game:
            return same_game[0][0]
        if len(self._stalls) < self.spec.processes:
            return None
        return min((stall for stall, _ in idle), key=lambda stall: stall.last_used, default=None)

    async def _forget_dead(self) -> None:
        """Drop idle processes that died since their last question (they are replaced when needed)."""
        for stall in list(self._stalls):
            if not stall.busy and stall.brain is not None and not stall.brain.running:
                logger.info("outside engine %s (pid %d) exited between questions", self.spec.name, stall.brain.pid)
                self._stalls.remove(stall)
                await stall.brain.kill()

    async def _release(self, stall: _Stall) -> None:
        async with self._changed:
            stall.busy = False
            stall.last_used = asyncio.get_running_loop().time()
            self._changed.notify_all()

    async def _drop(self, stall: _Stall) -> None:
        """Kill a stall's process and forget it (a fresh one takes its place when needed)."""
        if stall.brain is not None:
            await stall.brain.kill()
        async with self._changed:
            if stall in self._stalls:
                self._stalls.remove(stall)
            self._changed.notify_all()

    async def close(self) -> None:
        """Tell every process END (killing those that do not leave); later questions fail."""
        async with self._changed:
            self._closed = True
            stalls, self._stalls = self._stalls, []
            self._changed.notify_all()
        brains = [stall.brain for stall in stalls if stall.brain is not None]
        await asyncio.gather(*(brain.close() for brain in brains), return_exceptions=True)


class OutsideEngines:
    """Every configured outside engine, answering the questions a bot pool's slots let through
    (which pool is the caller's: `server.bots.players.BotPlayers` keeps analyses apart from games)."""

    def __init__(self, specs: Sequence[EngineSpec], metrics: Metrics | None = None) -> None:
        self._stables = {spec.name: EngineStable(spec, metrics) for spec in specs}

    def __contains__(self, level: object) -> bool:
        return level in self._stables

    def stable(self, level: str) -> EngineStable:
        """The processes of the engine called `level`."""
        return self._stables[level]

    async def choose(self, request: BotRequest, slots: BotPool, watcher: WaitWatcher | None = None) -> Decision:
        """The engine's move, as a Decision (an engine says nothing else the server can use), asked
        in one of `slots`' slots (`watcher` is told of a wait for one). Raises BotBusyError when the
        pool's capacity is exhausted, BotGaveUp after two failures."""
        stable = self._stables[request.level]
        move = await slots.run_outside(request.priority, lambda: stable.move(request), watcher)
        return Decision(move=move, score=0, pv=(move,))

    async def decide_opening(self, request: BotRequest, slots: BotPool, watcher: WaitWatcher | None = None) -> Step:
        """The engine's swap2 decision; asked and raising as `choose`."""
        stable = self._stables[request.level]
        return await slots.run_outside(request.priority, lambda: stable.opening_step(request), watcher)

    async def close(self) -> None:
        """Stop every engine's processes."""
        await asyncio.gather(*(stable.close() for stable in self._stables.values()))
