"""Tournament benchmark: an arena of 200 players for a few minutes, watched by 1,000 connections.

    ./dev run python -m bench.tournament                      # the issue's sizes: 200 players, 1,000 watchers
    ./dev run python -m bench.tournament --players 40 --watchers 100 --duration 60

Starts `gomoku-server` as a process of its own on 127.0.0.1 (a scratch
database, one bot worker), creates an arena of `--duration` seconds with
the fast bot levels (`greedy`, `static`, `easy`) and `--players` minus
those scripted players, signed in from `--procs` player processes, and
`--watchers` connections watching it from `--watcher-procs` processes
(each generator a process of its own; traffic bounded by the options, on
the loopback interface only). A scripted player, told of its game
(`tournament_game`), lets a short game pass (0.2 to 2 s) and then resigns
or waits for its opponent to (the game's id decides which; against a bot
it resigns). Figures:

- pairing time per wave: the server's own histogram (`/metrics`,
  `gomoku_tournament_pairing_seconds`), the pairing alone;
- time from a game's end (its `game_over` reaching a player) to that
  player's next pairing (its `tournament_game`), the wave's gathering
  (`--arena-wave-s`) included;
- standings delivery: from a game's end to each watcher reading the
  `tournament_changes` batch that scores its board.

All processes share one monotonic clock (CLOCK_MONOTONIC).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import multiprocessing
import random
import re
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.figures import Spread, command_line, milliseconds, table
from bench.load import raise_file_limit, share
from bench.server_process import MachineTimes, ServerProcess
from bench.wire import BenchClient

BOTS = ("greedy", "static", "easy")
CLOCK = {"initial_ms": 120_000, "increment_ms": 0}
SETTING_UP_S = 60.0
"""The most the connections may take to come in before the arena starts."""
GRACE_S = 30.0
"""How long the generators stay after the arena's end, for the last games to end and be told."""
OPEN_IN_PARALLEL = 20


@dataclass(frozen=True, slots=True)
class Plan:
    url: str
    tournament_id: str
    names: list[str]
    until: float
    """time.monotonic() at which the process stops."""
    seed: int


@dataclass(slots=True)
class PlayerReport:
    ended: dict[str, float] = field(default_factory=dict)
    """Game id -> when its game_over reached a player of this process (the earliest)."""
    gaps: list[float] = field(default_factory=list)
    """From a game's end to the same player's next pairing, seconds."""
    games: int = 0


@dataclass(slots=True)
class WatcherReport:
    scored: list[tuple[str, float]] = field(default_factory=list)
    """(game id, when a watcher read the batch scoring it), one per watcher and game."""
    batches: int = 0


def resigns(game_id: str, color: str, opponent: str) -> bool:
    """Whether this side resigns its game (the other waits): against a bot always, else by the id."""
    if opponent in BOTS:
        return True
    black_resigns = hashlib.sha256(game_id.encode()).digest()[0] % 2 == 0
    return black_resigns == (color == "black")


async def open_clients(url: str, names: list[str]) -> list[BenchClient]:
    gate = asyncio.Semaphore(OPEN_IN_PARALLEL)

    async def one(name: str) -> BenchClient:
        async with gate:
            return await BenchClient.open(url, name, compression=False)

    return list(await asyncio.gather(*(one(name) for name in names)))


async def play(plan: Plan, ready: Connection) -> PlayerReport:
    report = PlayerReport()
    luck = random.Random(plan.seed)
    clients = await open_clients(plan.url, plan.names)
    for client in clients:
        await client.request({"type": "join_tournament", "tournament_id": plan.tournament_id}, expect="tournament")
    ready.send("ready")
    tasks: set[asyncio.Task[None]] = set()

    def listen(client: BenchClient) -> None:
        last_end: list[float] = []

        def heard(message: dict[str, Any], arrived: float) -> None:
            kind = message.get("type")
            if kind == "tournament_game":
                report.games += 1
                if last_end:
                    report.gaps.append(arrived - last_end.pop())
                if resigns(message["game_id"], message["color"], message["opponent"]):
                    task = asyncio.get_running_loop().create_task(resign_later(client, message["room_id"]))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
            elif kind == "game_over":
                game_id = message["game_id"]
                report.ended[game_id] = min(arrived, report.ended.get(game_id, arrived))
                last_end[:] = [arrived]

        client.listener = heard

    async def resign_later(client: BenchClient, room_id: str) -> None:
        await asyncio.sleep(luck.uniform(0.2, 2.0))
        await client.send_request({"type": "resign", "room_id": room_id})

    for client in clients:
        listen(client)
    await asyncio.sleep(max(0.0, plan.until - time.monotonic()))
    await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)
    return report


async def watch(plan: Plan, ready: Connection) -> WatcherReport:
    report = WatcherReport()
    clients = await open_clients(plan.url, plan.names)

    def listen(client: BenchClient) -> None:
        seen: set[str] = set()

        def heard(message: dict[str, Any], arrived: float) -> None:
            if message.get("type") != "tournament_changes":
                return
            report.batches += 1
            for board in message["pairings"]:
                game_id = board.get("game_id")
                if board.get("score") is not None and game_id and game_id not in seen:
                    seen.add(game_id)
                    report.scored.append((game_id, arrived))

        client.listener = heard

    for client in clients:
        listen(client)
        await client.request({"type": "watch_tournament", "tournament_id": plan.tournament_id}, expect="tournament")
    ready.send("ready")
    await asyncio.sleep(max(0.0, plan.until - time.monotonic()))
    await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)
    return report


def player_process(plan: Plan, pipe: Connection) -> None:
    pipe.send(asyncio.run(play(plan, pipe)))


def watcher_process(plan: Plan, pipe: Connection) -> None:
    pipe.send(asyncio.run(watch(plan, pipe)))


async def create_arena(url: str, duration_s: int) -> tuple[BenchClient, str]:
    organiser = await BenchClient.open(url, "organiser", compression=False)
    created = await organiser.request(
        {
            "type": "create_tournament",
            "name": "bench arena",
            "format": "arena",
            "duration_s": duration_s,
            "clock": CLOCK,
            "max_players": 256,
        },
        expect="tournament",
    )
    tournament_id = created.message["tournament"]["tournament_id"]
    for level in BOTS:
        await organiser.request({"type": "add_entrant", "tournament_id": tournament_id, "bot": level})
    return organiser, tournament_id


def pairing_histogram(url: str) -> tuple[int, float, float | None]:
    """Waves paired, their mean pairing time, and the least bucket bound holding 99% of them."""
    text = urllib.request.urlopen(url.replace("ws://", "http://").replace("/ws", "/metrics")).read().decode()
    name = "gomoku_tournament_pairing_seconds"
    count = float(re.search(rf"^{name}_count (\S+)$", text, re.M).group(1))  # type: ignore[union-attr]
    total = float(re.search(rf"^{name}_sum (\S+)$", text, re.M).group(1))  # type: ignore[union-attr]
    found = re.findall(rf'^{name}_bucket{{le="([^"+]+)"}} (\S+)$', text, re.M)
    buckets = [(float(bound), float(n)) for bound, n in found]
    p99 = next((bound for bound, n in buckets if count and n >= 0.99 * count), None)
    return int(count), (total / count if count else 0.0), p99


async def run_arena(url: str, options: argparse.Namespace) -> tuple[list[PlayerReport], list[WatcherReport]]:
    """Create the arena, bring in the players and the watchers (each process signals when its
    connections are in), start it, and gather the processes' reports once they stop."""
    organiser, tournament_id = await create_arena(url, options.duration)
    context = multiprocessing.get_context("spawn")
    until = time.monotonic() + SETTING_UP_S + options.duration + GRACE_S
    people = options.players - len(BOTS)
    pipes: list[tuple[str, Connection]] = []
    for kind, total, processes, target in (
        ("player", people, options.procs, player_process),
        ("watcher", options.watchers, options.watcher_procs, watcher_process),
    ):
        for index in range(processes):
            names = [f"{kind[0]}{index}x{n}" for n in range(share(total, processes, index))]
            mine, theirs = context.Pipe()
            plan = Plan(url, tournament_id, names, until, index)
            context.Process(target=target, args=(plan, theirs), daemon=True).start()
            pipes.append((kind, mine))
    for _, pipe in pipes:
        assert await asyncio.to_thread(pipe.recv) == "ready"
    started = {"type": "manage_tournament", "tournament_id": tournament_id, "action": "start"}
    await organiser.request(started, expect="tournament")
    reports = [(kind, await asyncio.to_thread(pipe.recv)) for kind, pipe in pipes]
    await organiser.close()
    players = [report for kind, report in reports if kind == "player"]
    watchers = [report for kind, report in reports if kind == "watcher"]
    return players, watchers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.tournament", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=1_000)
    parser.add_argument("--duration", type=int, default=180, help="the arena's length, seconds (60 or more)")
    parser.add_argument("--procs", type=int, default=2, help="player processes")
    parser.add_argument("--watcher-procs", type=int, default=2)
    parser.add_argument("--arena-wave-s", type=float, default=1.0)
    options = parser.parse_args(argv)
    raise_file_limit()
    with tempfile.TemporaryDirectory() as scratch:
        extra = ("--arena-wave-s", str(options.arena_wave_s), "--bot-pause-s", "0")
        with ServerProcess.start(Path(scratch) / "bench.sqlite3", 1, extra) as server:
            machine = MachineTimes.now()
            players, watchers = asyncio.run(run_arena(server.url, options))
            waves, mean_pairing, p99_pairing = pairing_histogram(server.url)
            busy = MachineTimes.now()
    ended: dict[str, float] = {}
    for report in players:
        for game_id, at in report.ended.items():
            ended[game_id] = min(at, ended.get(game_id, at))
    gaps = Spread.of([gap for report in players for gap in report.gaps])
    delivery = Spread.of([at - ended[game] for report in watchers for game, at in report.scored if game in ended])
    rows = [
        ["waves paired", str(waves)],
        ["pairing time per wave, mean", milliseconds(mean_pairing)],
        ["pairing time per wave, p99 (histogram bound)", milliseconds(p99_pairing)],
        ["games ended (seen by players)", str(len(ended))],
        ["game end to next pairing p50 / p99", _p50_p99(gaps)],
        ["standings delivery to the watchers p50 / p99", _p50_p99(delivery)],
        ["deliveries measured", str(0 if delivery is None else delivery.count)],
        ["machine CPU busy during the run", f"{100 * (busy.busy - machine.busy) / (busy.total - machine.total):.0f}%"],
    ]
    print(command_line(argv, "bench.tournament"))
    print(table(["figure", "value"], rows))
    return 0


def _p50_p99(spread: Spread | None) -> str:
    return "-" if spread is None else f"{milliseconds(spread.p50)} / {milliseconds(spread.p99)}"


if __name__ == "__main__":
    sys.exit(main())
