"""`gomoku-arena`: matches between bots and external engines, with a crosstable and Elo.

    gomoku-arena greedy static minimax --time-ms 500
    gomoku-arena --gauntlet master greedy alphabeta --engine "rapfi=pbrain-rapfi"
    gomoku-arena greedy "self=gomoku-engine --level hard" --update-ratings
    gomoku-arena static --weights tuned=static_weights.tuned.txt --openings 8
    gomoku-arena alphabeta static --gauntlet master --colour white

Players are bot levels (engine.registry), external Gomocup brains written
NAME=COMMAND, and `static` bots with a weight file of their own
(--weights). Every pairing (all pairs, or the gauntlet player against each
other one) plays every opening with both colours (or, with --colour, a
gauntlet player only with one). Games run in parallel
worker processes; each finished game is printed and saved as a
JSON record (and PSQ with --psq) in the output folder. At the end come
the crosstable and the Elo ratings with their 95% intervals;
--update-ratings writes the ratings of the bot levels into
server/players/bot_ratings.json, where `list_bots` reads them.

    gomoku-arena --from-games ladder-games --from-games anchor-games --update-ratings

plays nothing: it rates the games saved in those folders by earlier runs,
all together, so that the ratings can be fitted from a few chosen pairings
(a ladder and its anchors) instead of a whole round robin. With `--anchor
LEVEL` (repeatable), those levels keep the ratings the file gives them and
the others are placed around them. A player whose
name is a level's is rated as that level, brains included: the ladder is
played by `NAME=gomoku-engine --level NAME --nodes N`, so that the
machine's load does not decide.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import shlex
import sys
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path

from engine.psq import write_psq
from engine.record import GameRecord, record_from_dict, record_to_dict
from engine.registry import level_names
from engine.types import Rule
from server.players.bot_ratings import RATINGS_FILE, read_ratings, write_ratings_file
from tools.elo import Rating, compute_ratings
from tools.match import OPENING_SETS, GameTask, PlayerSpec, black_points, parse_player, play_game, weights_player

COLOURS = ("both", "black", "white")
"""The colours a gauntlet player can be restricted to (--colour)."""


def schedule(
    players: Sequence[PlayerSpec],
    gauntlet: PlayerSpec | None,
    openings: Sequence[str],
    time_ms: int,
    rule: Rule,
    seed: int,
    colour: str = "both",
    level_times: bool = False,
) -> list[GameTask]:
    """Every game of the match: each pairing, each opening, each colour (or, in a gauntlet, only
    the games where the gauntlet player has `colour`: black's first-move advantage makes the
    two colours very different tests)."""
    if gauntlet is not None:
        pairings = [(gauntlet, other) for other in players]
    else:
        pairings = list(itertools.combinations(players, 2))
    first_plays_black = {"both": (True, False), "black": (True,), "white": (False,)}[colour]
    tasks: list[GameTask] = []
    for first, second in pairings:
        for opening in openings:
            for first_is_black in first_plays_black:
                black, white = (first, second) if first_is_black else (second, first)
                task = GameTask(black, white, opening, time_ms, rule, seed=seed + len(tasks), level_times=level_times)
                tasks.append(task)
    return tasks


def run_games(tasks: Sequence[GameTask], jobs: int) -> Iterator[tuple[int, GameRecord]]:
    """(index in `tasks`, record) for each game as it finishes; in this process when `jobs` is 1."""
    if jobs == 1:
        for index, task in enumerate(tasks):
            yield index, play_game(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures: dict[Future[GameRecord], int] = {pool.submit(play_game, task): i for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def describe_game(record: GameRecord) -> str:
    """One progress line: the players, the score and how the game ended."""
    points = black_points(record)
    score = {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[points]
    reason = record.result.reason.value if record.result is not None else "unfinished"
    return f"{record.black.name} - {record.white.name}  {score}  ({reason}, {len(record.moves)} stones)"


def save_game(record: GameRecord, index: int, folder: Path, psq: bool) -> None:
    """Write the record as NNN-black-white.json (and .psq)."""
    stem = folder / f"{index + 1:03d}-{record.black.name}-{record.white.name}"
    stem.with_suffix(".json").write_text(json.dumps(record_to_dict(record), indent=1) + "\n")
    if psq:
        stem.with_suffix(".psq").write_text(write_psq(record))


def crosstable(names: Sequence[str], results: Sequence[tuple[str, str, float]]) -> str:
    """Points scored by each row player against each column player, and the total."""
    points: dict[tuple[str, str], float] = defaultdict(float)
    games: dict[tuple[str, str], int] = defaultdict(int)
    for player, opponent, score in results:
        points[player, opponent] += score
        points[opponent, player] += 1 - score
        games[player, opponent] += 1
        games[opponent, player] += 1
    width = max(9, *(len(name) + 1 for name in names))
    lines = ["".ljust(width) + "".join(name[: width - 1].rjust(width) for name in names) + "    total"]
    for row in names:
        cells = []
        for column in names:
            count = games[row, column]
            cells.append(("-" if row == column or not count else f"{points[row, column]:g}/{count}").rjust(width))
        total = sum(points[row, other] for other in names)
        played = sum(games[row, other] for other in names)
        share = f"{100 * total / played:5.1f}%" if played else ""
        lines.append(row.ljust(width) + "".join(cells) + f"  {total:g}/{played} {share}")
    return "\n".join(lines)


def rating_table(ratings: Sequence[Rating]) -> str:
    """The Elo ratings, best first, with 95% intervals."""
    lines = [f"{'player':<14}{'elo':>7}{'±95%':>8}{'games':>7}{'points':>8}"]
    for rating in ratings:
        lines.append(f"{rating.name:<14}{rating.elo:>7.0f}{rating.error:>8.0f}{rating.games:>7}{rating.points:>8g}")
    return "\n".join(lines)


def update_ratings(
    ratings: Sequence[Rating], players: Sequence[PlayerSpec], path: Path, measured: Mapping[str, object]
) -> dict[str, int]:
    """Merge the new ratings of bot levels into the ratings file at `path` (see
    server.players.bot_ratings), with `measured` saying how; return the table written.

    Levels this run did not rate keep their earlier ratings; `measured`
    names the levels this run rated.
    """
    levels = {player.name for player in players if player.level is not None}
    new = {rating.name: round(rating.elo) for rating in ratings if rating.name in levels}
    table = read_ratings(path) if path.exists() else {}
    table.update(new)
    ordered = dict(sorted(table.items(), key=lambda item: item[1]))
    write_ratings_file(path, ordered, {**measured, "levels": sorted(new, key=ordered.__getitem__)})
    return ordered


def saved_results(folders: Sequence[Path]) -> tuple[list[tuple[str, str, float]], set[Rule]]:
    """(black, white, black's points) of every finished game saved in `folders`, and their rules.
    Raises ValueError naming a record that cannot be read."""
    results = []
    rules = set()
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            try:
                record = record_from_dict(json.loads(path.read_text()))
            except ValueError as error:
                raise ValueError(f"{path}: {error}") from None
            if record.result is not None:
                results.append((record.black.name, record.white.name, black_points(record)))
                rules.add(record.rule)
    return results, rules


def measurement(argv: Sequence[str], games: int, time_ms: int | None, rule: Rule) -> dict[str, object]:
    """How a run measured its ratings, for the ratings file: today's date, the command, the games,
    the time per move (None: each level its own)."""
    return {
        "date": datetime.date.today().isoformat(),
        "command": shlex.join(["gomoku-arena", *argv]),
        "games": games,
        "time_ms": time_ms,
        "rule": str(rule),
    }


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gomoku-arena", description="Matches between bots, with Elo ratings.")
    parser.add_argument("players", nargs="*", help="bot levels, or external brains as NAME=COMMAND")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND", help="an external brain")
    parser.add_argument(
        "--weights", action="append", default=[], metavar="NAME=FILE", help="a static bot with the weights in FILE"
    )
    parser.add_argument("--gauntlet", metavar="PLAYER", help="play this player against each other one only")
    parser.add_argument("--colour", choices=COLOURS, default="both", help="the gauntlet player's colour (default both)")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move in milliseconds (default 1000)")
    parser.add_argument(
        "--level-times",
        action="store_true",
        help="each of our levels thinks its own default time per move, as players meet it on the server "
        "(--time-ms is then the outside brains' time)",
    )
    parser.add_argument(
        "--opening-set",
        choices=sorted(OPENING_SETS),
        default="balanced",
        help="the arena's 24 balanced openings (default), or the 26 standard renju openings, played in any rule",
    )
    parser.add_argument("--openings", type=int, help="how many of the set's openings to use (default all)")
    parser.add_argument("--rule", type=Rule.parse, default=Rule.FREESTYLE, help="freestyle, standard or renju")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at once")
    parser.add_argument("--seed", type=int, default=0, help="base seed handed to the bots")
    parser.add_argument("--out", type=Path, default=Path("arena-games"), help="folder for the game records")
    parser.add_argument("--psq", action="store_true", help="save each game as .psq as well")
    parser.add_argument(
        "--anchor",
        action="append",
        default=[],
        metavar="LEVEL",
        help="with --from-games: this level keeps its rating from the ratings file, and the others "
        "are fitted around the anchors (repeatable)",
    )
    parser.add_argument(
        "--from-games",
        action="append",
        default=[],
        type=Path,
        metavar="FOLDER",
        help="play nothing: rate the games saved in FOLDER by earlier runs (repeatable)",
    )
    parser.add_argument(
        "--update-ratings", action="store_true", help="write the bot levels' ratings to the ratings file"
    )
    parser.add_argument(
        "--ratings-file",
        type=Path,
        default=RATINGS_FILE,
        help="the ratings file (default: the server's, read by list_bots)",
    )
    return parser.parse_args(argv)


def rate_saved_games(arguments: argparse.Namespace, argv: Sequence[str]) -> int:
    """`--from-games`: the tables of the saved games, and with --update-ratings the levels' ratings."""
    try:
        results, rules = saved_results(arguments.from_games)
    except (OSError, ValueError) as error:
        print(f"gomoku-arena: {error}", file=sys.stderr)
        return 2
    if not results or len(rules) != 1:
        found = "no finished games" if not results else f"games of several rules ({', '.join(map(str, rules))})"
        print(f"gomoku-arena: {found} in {', '.join(map(str, arguments.from_games))}", file=sys.stderr)
        return 2
    try:
        known = read_ratings(arguments.ratings_file) if arguments.anchor else {}
        anchors = {level: known[level] for level in arguments.anchor}
    except (OSError, ValueError) as error:
        print(f"gomoku-arena: {error}", file=sys.stderr)
        return 2
    except KeyError as error:
        print(f"gomoku-arena: the anchor {error} has no rating in {arguments.ratings_file}", file=sys.stderr)
        return 2
    ratings = compute_ratings(results, anchors=anchors)
    print(f"{len(results)} saved games")
    print(crosstable([rating.name for rating in ratings], results))
    print()
    print(rating_table(ratings))
    if arguments.update_ratings:
        fitted = [rating.name for rating in ratings if rating.name in level_names() and rating.name not in anchors]
        levels = [PlayerSpec(name, level=name) for name in fitted]
        measured = measurement(argv, len(results), None, rules.pop())
        written = update_ratings(ratings, levels, arguments.ratings_file, measured)
        print(f"\nratings written to {arguments.ratings_file}: {written}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    arguments = parse_arguments(argv)
    if arguments.from_games:
        return rate_saved_games(arguments, argv)
    try:
        players = [parse_player(text) for text in [*arguments.players, *arguments.engine]]
        players += [weights_player(text) for text in arguments.weights]
        gauntlet = parse_player(arguments.gauntlet) if arguments.gauntlet else None
    except (OSError, ValueError) as error:
        print(f"gomoku-arena: {error}", file=sys.stderr)
        return 2
    names = [player.name for player in ([gauntlet] if gauntlet else []) + players]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if len(names) < 2 or repeated:
        named_twice = f" ({', '.join(repeated)} given twice)" if repeated else ""
        print(f"gomoku-arena: give at least two players, each with its own name{named_twice}", file=sys.stderr)
        return 2
    opening_set = OPENING_SETS[arguments.opening_set]
    count = len(opening_set) if arguments.openings is None else arguments.openings
    if not 1 <= count <= len(opening_set) or arguments.time_ms < 1 or arguments.jobs < 1:
        limits = f"--openings must be 1..{len(opening_set)} for {arguments.opening_set}"
        print(f"gomoku-arena: {limits}, --time-ms and --jobs at least 1", file=sys.stderr)
        return 2
    if arguments.colour != "both" and gauntlet is None:
        print("gomoku-arena: --colour needs --gauntlet (a round robin plays both colours)", file=sys.stderr)
        return 2
    openings = opening_set[:count]
    tasks = schedule(
        players,
        gauntlet,
        openings,
        arguments.time_ms,
        arguments.rule,
        arguments.seed,
        arguments.colour,
        arguments.level_times,
    )
    arguments.out.mkdir(parents=True, exist_ok=True)
    per_move = "each level its own time" if arguments.level_times else f"{arguments.time_ms} ms"
    print(f"{len(tasks)} games, {per_move} per move, {arguments.rule}, {arguments.jobs} at a time")
    results: list[tuple[str, str, float]] = []
    for done, (index, record) in enumerate(run_games(tasks, arguments.jobs), start=1):
        save_game(record, index, arguments.out, arguments.psq)
        results.append((record.black.name, record.white.name, black_points(record)))
        print(f"[{done}/{len(tasks)}] {describe_game(record)}", flush=True)
    ratings = compute_ratings(results)
    print()
    print(crosstable([rating.name for rating in ratings], results))
    print()
    print(rating_table(ratings))
    if arguments.update_ratings:
        rated = [*players, *([gauntlet] if gauntlet else [])]
        measured = measurement(argv, len(results), None if arguments.level_times else arguments.time_ms, arguments.rule)
        written = update_ratings(ratings, rated, arguments.ratings_file, measured)
        print(f"\nratings written to {arguments.ratings_file}: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
