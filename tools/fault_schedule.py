"""Run a cluster under a seeded schedule of faults while clients on every node play, chat and watch, then
check every client's history against what is stored (`tools.fault_history`).

    python -m tools.fault_schedule --minutes 10 --seed 7

starts on loopback a PostgreSQL, a Redis, `--nodes` server nodes (short
leases: renewed every 0.25 s, lost after 2 s) and, in front of PostgreSQL and
of Redis for each node, a fault proxy of its own (`tools.fault_proxy`). Pairs
of players, each player on its own node, play game after game (rated or not,
timed or not), each move chosen at random, resigning after MOVES_PER_GAME;
spectators watch the rooms listed. Meanwhile the nemesis, drawn from the
seed, takes the six faults in a shuffled round, again and again, a quiet
pause before each: a node SIGKILLed and started again, a node SIGSTOPped past
its lease and resumed, Redis restarted, PostgreSQL restarted, a node cut from
PostgreSQL and one cut from Redis for a while (their proxies closed, then
opened again). Then it heals for `--heal-s`, the clients stop, and the checker
prints the seed, the faults, the counts (acknowledged moves; lost,
duplicated, forked: all must be 0), the longest unavailability per room and
the moves a second; it exits 1 if the history broke a property.
`tests/cluster/test_fault_schedule.py` runs a 90-second one.

Nothing is downloaded: PostgreSQL and Redis must be installed (`tools.local_services`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from tools.fault_history import History, RecordingClient, Verdict, check
from tools.fault_proxy import FaultProxy
from tools.local_services import LocalPostgres, LocalRedis, NodeDidNotStop, ServerNode, free_port

LEASE_S = 2.0
NODE_ARGUMENTS = ["--heartbeat-s", "0.25", "--lease-s", str(LEASE_S), "--bot-workers", "0"]
"""Short leases, so that a take-over takes seconds; no bot workers (the machine's cores are for nodes)."""
FAULTS = ("kill", "pause", "restart_redis", "restart_postgres", "cut_database", "cut_bus")
NODE_FAULTS = ("kill", "pause", "cut_database", "cut_bus")
"""The faults done to one node (the others restart a service that every node uses)."""
MOVES_PER_GAME = 24
"""Moves after which the player to move resigns (a game of random moves rarely ends by itself)."""
GIVE_UP_S = 45.0
"""How long a player keeps asking a room refused `unavailable` before it gives the game up."""
RETRY_PAUSE_S = 0.2
TIMED = {"initial_ms": 600_000, "increment_ms": 0}
"""A timed game's clock: long enough that no flag falls, no increment, so a clock never goes up."""


@dataclass
class Fault:
    """One fault of the schedule: what, on which node (or service), when, and for how long."""

    kind: str
    target: str
    at_s: float
    lasted_s: float = 0.0

    def __str__(self) -> str:
        return f"{self.at_s:7.1f} s  {self.kind:<17} {self.target:<8} {self.lasted_s:5.1f} s"


@dataclass
class NodeSlot:
    """One node's place: its name, its fixed port, its proxies, and its process while it runs."""

    name: str
    port: int
    database: FaultProxy
    bus: FaultProxy
    log: Path
    process: ServerNode | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


@dataclass
class Cluster:
    """PostgreSQL, Redis, the nodes and their proxies, and what the faults do to them."""

    folder: Path
    postgres: LocalPostgres
    redis: LocalRedis
    database_name: str
    slots: list[NodeSlot] = field(default_factory=list)

    @classmethod
    async def start(cls, folder: Path, nodes: int) -> Cluster:
        postgres = await asyncio.to_thread(LocalPostgres.start)
        connection = await asyncpg.connect(postgres.url)
        await connection.execute('CREATE DATABASE "gomoku"')
        await connection.close()
        redis = await asyncio.to_thread(LocalRedis.start, folder / "redis.log")
        cluster = cls(folder, postgres, redis, "gomoku")
        try:
            for number in range(1, nodes + 1):
                database = await FaultProxy.start("127.0.0.1", postgres.port)
                bus = await FaultProxy.start("127.0.0.1", redis.port)
                slot = NodeSlot(f"n{number}", free_port(), database, bus, folder / f"n{number}.log")
                cluster.slots.append(slot)
                await cluster.start_node(slot)
        except BaseException:
            await cluster.stop()
            raise
        return cluster

    @property
    def database_url(self) -> str:
        """The database, reached directly (the checker's way)."""
        return self.postgres.database_url(self.database_name)

    async def start_node(self, slot: NodeSlot) -> None:
        database = f"postgresql://postgres@127.0.0.1:{slot.database.port}/{self.database_name}"
        bus = f"redis://127.0.0.1:{slot.bus.port}/0"
        arguments = [*NODE_ARGUMENTS, "--bus", bus, "--port", str(slot.port)]
        for attempt in range(5):
            try:
                slot.process = await asyncio.to_thread(ServerNode.start, database, slot.name, slot.log, arguments)
                return
            except RuntimeError:
                if attempt == 4:
                    raise
                await asyncio.sleep(1.0)

    async def kill(self, slot: NodeSlot) -> None:
        """SIGKILL the node, then start it again under its name and port."""
        assert slot.process is not None
        os.kill(slot.process.pid, signal.SIGKILL)
        await asyncio.to_thread(slot.process.process.wait)
        await self.start_node(slot)

    async def pause(self, slot: NodeSlot) -> None:
        """SIGSTOP the node past its lease, then resume it."""
        assert slot.process is not None
        os.kill(slot.process.pid, signal.SIGSTOP)
        await asyncio.sleep(LEASE_S + 1.5)
        os.kill(slot.process.pid, signal.SIGCONT)

    async def restart_redis(self) -> None:
        await asyncio.to_thread(self.redis.stop)
        await asyncio.sleep(1.0)
        self.redis = await asyncio.to_thread(LocalRedis.start, self.folder / "redis.log", self.redis.port)

    async def restart_postgres(self) -> None:
        await asyncio.to_thread(self.postgres.stop)
        await asyncio.sleep(1.0)
        await asyncio.to_thread(self.postgres.start_again)

    @staticmethod
    async def cut(proxy: FaultProxy, seconds: float) -> None:
        proxy.cut()
        await asyncio.sleep(seconds)
        proxy.reopen()

    async def inflict(self, kind: str, slot: NodeSlot, cut_s: float) -> None:
        """One fault of FAULTS, until it is over: on `slot`'s node if it is one of NODE_FAULTS, a cut
        lasting `cut_s`."""
        match kind:
            case "kill":
                await self.kill(slot)
            case "pause":
                await self.pause(slot)
            case "restart_redis":
                await self.restart_redis()
            case "restart_postgres":
                await self.restart_postgres()
            case "cut_database":
                await self.cut(slot.database, cut_s)
            case "cut_bus":
                await self.cut(slot.bus, cut_s)
            case _:
                raise ValueError(f"no fault {kind!r}")

    async def stop(self) -> list[str]:
        """Stop the nodes (their proxies still forwarding, for a clean stop), then everything else;
        what each node that did not stop cleanly logged last."""
        for slot in self.slots:
            slot.database.reopen()
            slot.bus.reopen()
        hung = []
        try:
            for slot in self.slots:
                if slot.process is None:
                    continue
                try:
                    await asyncio.to_thread(slot.process.stop)
                except NodeDidNotStop as error:
                    hung.append(f"{slot.name}: {error}; its log ends: {slot.log.read_text(errors='replace')[-3000:]}")
            for slot in self.slots:
                await slot.database.close()
                await slot.bus.close()
        finally:
            await asyncio.to_thread(self.redis.stop)
            await asyncio.to_thread(self.postgres.remove)
        return hung


async def nemesis(cluster: Cluster, rng: random.Random, seconds: float, started: float) -> list[Fault]:
    """Run the faults in shuffled rounds of all six, a quiet pause of 2-5 s before each, until
    `seconds` have passed; the faults as they happened."""
    done: list[Fault] = []
    loop = asyncio.get_running_loop()
    ends_at = loop.time() + seconds
    round_: list[str] = []
    while True:
        await asyncio.sleep(rng.uniform(2.0, 5.0))
        if loop.time() >= ends_at:
            return done
        if not round_:
            round_ = rng.sample(FAULTS, len(FAULTS))
        kind = round_.pop()
        slot = rng.choice(cluster.slots)
        cut_s = rng.uniform(1.0, 2.0 * LEASE_S)
        target = slot.name if kind in NODE_FAULTS else kind.removeprefix("restart_")
        fault = Fault(kind, target, time.monotonic() - started)
        began = loop.time()
        await cluster.inflict(kind, slot, cut_s)
        fault.lasted_s = loop.time() - began
        done.append(fault)
        print(fault, flush=True)


async def served(client: RecordingClient, game_id: str | None, **request: object) -> dict[str, object] | None:
    """Ask until the answer is something else than `unavailable` or nothing; None after GIVE_UP_S."""
    give_up_at = time.monotonic() + GIVE_UP_S
    while time.monotonic() < give_up_at:
        answer = await client.request(game_id, **request)
        if answer is not None and answer.get("code") != "unavailable":
            return answer
        await asyncio.sleep(RETRY_PAUSE_S)
    return None


async def play_games(black: RecordingClient, white: RecordingClient, rng: random.Random, stop: asyncio.Event) -> None:
    """Game after game between the two, until told to stop."""
    while not stop.is_set():
        await play_one_game(black, white, rng, stop)


async def play_one_game(
    black: RecordingClient, white: RecordingClient, rng: random.Random, stop: asyncio.Event
) -> None:
    """Open a room, seat both, play random moves (reading the board again from a fresh snapshot after
    any refusal or lost answer), chat once, and resign after MOVES_PER_GAME."""
    terms: dict[str, object] = {"rated": rng.random() < 0.5}
    if rng.random() < 0.35:
        terms["clock"] = TIMED
    created = await served(black, None, type="create_room", **terms)
    if created is None or created.get("type") != "room":
        return
    room_id = created["room"]["room_id"]  # type: ignore[index]
    joined = await served(white, None, type="join_room", room_id=room_id, **{"as": "player"})
    if joined is None or joined.get("you") != "white":
        return
    game_id: str = joined["room"]["game_id"]  # type: ignore[index]
    board: list[tuple[int, int]] = []
    seats = (black, white)
    chatted = False
    while len(board) < MOVES_PER_GAME and not stop.is_set():
        mover = seats[len(board) % 2]
        x, y = rng.choice([(x, y) for x in range(15) for y in range(15) if (x, y) not in board])
        answer = await mover.request(game_id, type="move", room_id=room_id, x=x, y=y)
        if answer is not None and answer.get("type") == "moved":
            board.append((x, y))
            if not chatted and len(board) == MOVES_PER_GAME // 2:
                chatted = True
                await mover.request(game_id, type="chat", room_id=room_id, text=f"move {len(board)}")
            continue
        await asyncio.sleep(RETRY_PAUSE_S)
        snapshot = await served(mover, game_id, type="join_room", room_id=room_id, **{"as": "player"})
        room = None if snapshot is None else snapshot.get("room")
        if not isinstance(room, dict) or room.get("game_id") != game_id or room.get("status") != "playing":
            return
        board = [(stone["x"], stone["y"]) for stone in room["moves"]]
    if not stop.is_set():
        await served(seats[len(board) % 2], game_id, type="resign", room_id=room_id)


async def watch_rooms(spectator: RecordingClient, rng: random.Random, stop: asyncio.Event) -> None:
    """Watch a listed room for a few seconds, then another, until told to stop."""
    while not stop.is_set():
        listed = await spectator.request(None, type="list_rooms")
        rooms = [] if listed is None else listed.get("rooms") or []
        if rooms:
            room_id = rng.choice(rooms)["room_id"]
            await spectator.request(None, type="join_room", room_id=room_id, **{"as": "spectator"})
            await asyncio.sleep(rng.uniform(2.0, 6.0))
            await spectator.request(None, type="leave_room", room_id=room_id)
        else:
            await asyncio.sleep(1.0)


@dataclass
class Report:
    """A run's seed, faults, verdict and pace."""

    seed: int
    faults: list[Fault]
    verdict: Verdict
    played_s: float
    hung: list[str]
    """What each node that did not stop cleanly at the end (SIGTERM) logged last."""

    @property
    def passed(self) -> bool:
        """Whether the history is safe and every node stopped cleanly."""
        return self.verdict.safe and not self.hung

    def lines(self) -> list[str]:
        verdict = self.verdict
        worst = sorted(verdict.longest_unavailable_s.items(), key=lambda item: -item[1])[:3]
        kinds = {kind: sum(fault.kind == kind for fault in self.faults) for kind in FAULTS}
        return [
            f"seed {self.seed}: {len(self.faults)} faults ({', '.join(f'{k} {n}' for k, n in kinds.items())})",
            *(f"  {fault}" for fault in self.faults),
            f"games {verdict.games}, finished {verdict.finished} ({verdict.rated_finished} rated)",
            f"acknowledged moves {verdict.acknowledged}, unanswered move requests {verdict.unanswered}",
            f"lost {len(verdict.lost)}, duplicated {len(verdict.duplicated)}, forked {len(verdict.forked)}",
            f"refused but stored {len(verdict.refused_but_stored)}, results wrong {len(verdict.results_wrong)}, "
            f"ratings wrong {len(verdict.ratings_wrong)}, clocks backwards {len(verdict.clocks_backwards)}, "
            f"answered internal {len(verdict.internal)}",
            f"stale seq told {len(verdict.stale)}",
            f"rooms ever unavailable {len(verdict.longest_unavailable_s)}; longest:",
            *(f"  {room} {seconds:.1f} s ({verdict.unavailable_because[room]})" for room, seconds in worst),
            f"moves/s {verdict.acknowledged / self.played_s:.1f} over {self.played_s:.0f} s",
            f"nodes that did not stop cleanly: {len(self.hung)}",
            *self.hung,
            *(f"  {example}" for examples in self._violations() for example in examples[:5]),
        ]

    def _violations(self) -> list[list[str]]:
        verdict = self.verdict
        return [
            verdict.lost,
            verdict.duplicated,
            verdict.forked,
            verdict.refused_but_stored,
            verdict.results_wrong,
            verdict.ratings_wrong,
            verdict.clocks_backwards,
            verdict.internal,
            verdict.stale,
        ]


async def run(
    seed: int, fault_s: float, heal_s: float, nodes: int, pairs: int, spectators: int, folder: Path
) -> Report:
    """Start the cluster, play under faults for `fault_s`, heal for `heal_s`, stop, check."""
    rng = random.Random(seed)
    cluster = await Cluster.start(folder, nodes)
    history = History()
    stop = asyncio.Event()
    urls = [slot.url for slot in cluster.slots]
    try:
        players = [
            play_games(
                RecordingClient(f"p{pair}b", urls, pair, history),
                RecordingClient(f"p{pair}w", urls, pair + 1, history),
                random.Random(rng.random()),
                stop,
            )
            for pair in range(pairs)
        ]
        watchers = [
            watch_rooms(RecordingClient(f"s{number}", urls, number, history), random.Random(rng.random()), stop)
            for number in range(spectators)
        ]
        started = time.monotonic()
        clients = [asyncio.ensure_future(work) for work in [*players, *watchers]]
        faults = await nemesis(cluster, random.Random(rng.random()), fault_s, started)
        await asyncio.sleep(heal_s)
        stop.set()
        await asyncio.wait(clients, timeout=GIVE_UP_S + 5.0)
        played_s = time.monotonic() - started
        for client in clients:
            client.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
        verdict = await check(history, cluster.database_url)
    finally:
        hung = await cluster.stop()
    return Report(seed, faults, verdict, played_s, hung)


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.fault_schedule", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long the faults go on (default 10)")
    parser.add_argument("--seed", type=int, default=None, help="the schedule's seed (default: drawn, and printed)")
    parser.add_argument("--heal-s", type=float, default=15.0, help="quiet time after the faults (default 15)")
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=6, help="pairs of players, each game on two nodes")
    parser.add_argument("--spectators", type=int, default=3)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 31)
    folder = Path(tempfile.mkdtemp(prefix="gomoku-faults-"))
    print(f"seed {seed}; logs in {folder}", flush=True)
    report = asyncio.run(
        run(
            seed,
            arguments.minutes * 60.0,
            arguments.heal_s,
            arguments.nodes,
            arguments.pairs,
            arguments.spectators,
            folder,
        )
    )
    print("\n".join(report.lines()))
    if not report.passed:
        print(f"the nodes' logs are kept in {folder}")
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
