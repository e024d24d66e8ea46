"""Game reviews and puzzles on a real server: over the wire and HTTP, computed once, in the analysis
pool behind every hint, and puzzles mined, solved and rated.

The games are those of `tests/engine/test_game_review.py`, whose marks are known: here they are played
over the wire between two people, and the server's answers are checked against what the engine
says of them.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from server_harness import FIVE_FOR_BLACK, ClientFactory, RunningServer, ServerFactory, WireClient, win_rated_game

from engine.board import Board
from engine.notation import parse_point
from engine.review import GameReview, Mark, MarkKind, PlyEvaluation, ReviewBudget, WinKind
from engine.search.position import Position
from engine.types import Color, Rule
from server.bots.pool import BotPool, BotRequest, Priority
from server.domain import GameId, GameReviewed, utc_now
from server.review.reviewer import position_request
from server.review.service import ReviewSettings
from server.review.starting_set import STARTING_SET, load_starting_set
from server.review.work import judge_in_worker

BOT_GAME = "h8 h9 d7 g10 f11 i10 g8 i8 i7 j9 g9 f10 h10 k8 h11 i11 k6 k10 h7 i9 i12 k9 l9 k11 k12 k7"
"""easy - medium, white's five at k7; black's h10 (ply 12) lets white win by threes and fours."""

UNIQUE_FOUR_THREE = "d5 c5 e5 e6 f5 f6 g6 e4 g7 f4"
"""A 9x9 position, black to move: g5 (a four and an open three) is the only winning move; then h5
(the only block), and g4 or g8 makes an open four."""

QUIET = ReviewSettings(mine_puzzles=False, starting_set=None)
"""No background work and no starting set: each test says what it needs."""


async def play(black: WireClient, white: WireClient, moves: str, size: int = 15) -> str:
    """Play the moves in a new unrated room of `black`'s, which `white` joins; the game's id."""
    created = await black.request(type="create_room", size=size)
    room_id = created["room"]["room_id"]
    joined = await white.request(type="join_room", room_id=room_id)
    game_id: str = joined["room"]["game_id"]
    for ply, word in enumerate(moves.split()):
        point = parse_point(word, size)
        answer = await (black if ply % 2 == 0 else white).request(type="move", room_id=room_id, x=point.x, y=point.y)
        assert answer["type"] == "moved", answer
    return game_id


def marks_of(review: dict[str, Any]) -> list[tuple[int, str, str, str]]:
    return [(mark["ply"], mark["kind"], mark["player"], mark["win"]) for mark in review["marks"]]


@pytest.fixture
async def game_server(start_server: ServerFactory) -> RunningServer:
    """The server the `client` fixture's clients reach: with a bot worker (and an analysis one)."""
    return await start_server(bot_workers=1, review=QUIET)


async def test_welcome_lists_review_and_puzzles(game_server: RunningServer, client: ClientFactory) -> None:
    wire = await client()
    welcome = await wire.hello("ann")
    assert {"review", "puzzles"} <= set(welcome["features"])


async def test_a_finished_game_is_reviewed_with_its_blunder_over_the_wire_and_http_alike(
    game_server: RunningServer, client: ClientFactory
) -> None:
    black, white = await client("ann"), await client("bob")
    game_id = await play(black, white, BOT_GAME)
    answer = await black.request(type="review_game", game_id=game_id)
    assert answer["type"] == "game_review", answer
    review = answer["review"]
    assert marks_of(review) == [(12, "blunder", "black", "vct")]
    assert review["marks"][0]["line"][0]["move"] == "j7"
    assert review["turning_point"] == 12
    assert [evaluation["ply"] for evaluation in review["evaluations"]] == list(range(27))
    assert review["evaluations"][19]["win_in"] == -3
    status, content_type, body = await game_server.get(f"/api/games/{game_id}/review")
    assert (status, content_type) == (200, "application/json")
    assert json.loads(body) == review


async def test_reviewing_a_game_twice_computes_it_once(game_server: RunningServer, client: ClientFactory) -> None:
    black, white, watcher = await client("ann"), await client("bob"), await client("cid")
    game_id = await play(black, white, BOT_GAME)
    reviewer = game_server.app.review.reviewer
    first, second = await asyncio.gather(
        black.request(type="review_game", game_id=game_id), watcher.request(type="review_game", game_id=game_id)
    )
    third = await white.request(type="review_game", game_id=game_id)
    assert first["review"] == second["review"] == third["review"]
    assert reviewer.positions_judged == len(BOT_GAME.split()) + 1


async def test_only_a_finished_game_someone_may_read_is_reviewed(
    game_server: RunningServer, client: ClientFactory
) -> None:
    black, white = await client("ann"), await client("bob")
    game_id = await play(black, white, "h8 h9 i8")
    unfinished = await black.request(type="review_game", game_id=game_id)
    assert (unfinished["type"], unfinished["code"]) == ("error", "not_allowed")
    unknown = await black.request(type="review_game", game_id="no-such-game")
    assert (unknown["type"], unknown["code"]) == ("error", "not_found")
    status, _, _ = await game_server.get("/api/games/no-such-game/review")
    assert status == 404
    assert game_server.app.review.reviewer.positions_judged == 0


async def test_a_server_without_bots_refuses_reviews(start_server: ServerFactory, client: ClientFactory) -> None:
    server = await start_server(bot_workers=0, review=QUIET)
    black, white = await client("ann", server), await client("bob", server)
    game_id = await play(black, white, BOT_GAME)
    refused = await black.request(type="review_game", game_id=game_id)
    assert (refused["type"], refused["code"]) == ("error", "not_allowed")


async def test_a_review_runs_in_the_analysis_pool_and_never_in_the_bots(
    game_server: RunningServer, client: ClientFactory
) -> None:
    """The bots' pool (the one with metrics) sees no search of a review: a bot's move in a live game
    never waits for one."""
    black, white = await client("ann"), await client("bob")
    game_id = await play(black, white, BOT_GAME)
    await black.request(type="review_game", game_id=game_id)
    assert game_server.app.metrics.bot_search._sum.get() == 0  # noqa: SLF001 - prometheus keeps no public sum
    status, _, metrics = await game_server.get("/metrics")
    assert "gomoku_bot_search_seconds_count 0.0" in metrics


def judge() -> tuple[functools.partial[Any], BotRequest]:
    """A review's work on BOT_GAME's position at ply 12, where a hint may be asked too."""
    points = tuple(parse_point(word, 15) for word in BOT_GAME.split()[:12])
    return functools.partial(judge_in_worker, ReviewBudget()), position_request(Rule.FREESTYLE, 15, points)


async def test_a_hint_goes_ahead_of_every_waiting_review_position() -> None:
    pool = BotPool(workers=1)
    finished: list[str] = []
    try:

        async def run(name: str, work: Any) -> None:
            await work
            finished.append(name)

        work, position = judge()
        hint = BotRequest("greedy", Rule.FREESTYLE, 15, position.moves, 100, priority=Priority.ANALYSIS)
        tasks = [
            asyncio.create_task(run("review 1", pool.run(work, position))),
            asyncio.create_task(run("review 2", pool.run(work, position))),
            asyncio.create_task(run("review 3", pool.run(work, position))),
            asyncio.create_task(run("hint", pool.choose(hint))),
        ]
        await asyncio.gather(*tasks)
    finally:
        await pool.close()
    assert finished == ["review 1", "hint", "review 2", "review 3"]


async def test_reviews_leave_one_worker_free_for_hints() -> None:
    pool = BotPool(workers=2)
    try:
        work, position = judge()
        reviews = [asyncio.create_task(pool.run(work, position)) for _ in range(2)]
        await asyncio.sleep(0)  # one turn of the loop: each review has asked for its slot
        assert pool.waiting == 1, "a second review took the last free worker"
        hint = BotRequest("greedy", Rule.FREESTYLE, 15, position.moves, 100, priority=Priority.ANALYSIS)
        hint_search = asyncio.create_task(pool.choose(hint))
        await asyncio.sleep(0)
        assert pool.waiting == 1, "the hint waited although a worker was free"
        await asyncio.gather(hint_search, *reviews)
    finally:
        await pool.close()


# ------------------------------------------------------------------ puzzles


def with_puzzle(
    tmp_path: Path, size: int = 9, moves: str = UNIQUE_FOUR_THREE, solution: str = "g5 h5 g4"
) -> ReviewSettings:
    """A starting set of one puzzle (UNIQUE_FOUR_THREE unless told), and no mining."""
    path = tmp_path / "puzzles.json"
    puzzle = {
        "rule": "freestyle",
        "size": size,
        "moves": moves,
        "solution": solution,
        "theme": "vcf",
        "forbidden": False,
        "source": "a test's",
    }
    path.write_text(json.dumps({"made_by": "a test", "puzzles": [puzzle]}))
    return ReviewSettings(mine_puzzles=False, starting_set=path)


def tried(words: str, size: int = 9) -> list[dict[str, int]]:
    """The attacker's moves of a try, as `try_puzzle` sends them."""
    return [{"x": point.x, "y": point.y} for point in (parse_point(word, size) for word in words.split())]


async def test_another_move_that_wins_by_force_after_the_first_solves_the_puzzle(
    start_server: ServerFactory, client: ClientFactory, tmp_path: Path
) -> None:
    """After g5 and h5, the solution's g4 and g8 both make an open four."""
    server = await start_server(bot_workers=1, review=with_puzzle(tmp_path))
    solver = await client("ann", server)
    puzzle_id = (await solver.request(type="next_puzzle"))["puzzle"]["puzzle_id"]
    solved = await solver.request(type="try_puzzle", puzzle_id=puzzle_id, moves=tried("g5 g8"))
    assert (solved["status"], solved["rated"]) == ("solved", True)
    assert solved["player_rating"]["after"] > solved["player_rating"]["before"]


async def test_a_try_goes_on_along_another_winning_move_with_the_defences_of_its_own_win(
    start_server: ServerFactory, client: ClientFactory, tmp_path: Path
) -> None:
    """White to move wins by f9, i12 (the only block), then e9; e12 first wins as well, and the try
    goes on with the defender's replies to that win; only the first move is unique, and a move that
    wins nothing fails."""
    position = "h8 h9 f12 g8 i10 g10 g11 i9 j9 h11 d14 h10 h12"
    review = with_puzzle(tmp_path, 15, position, "f9 i12 e9 g9 e12 f11 e8 d7 e10 e11 d11")
    server = await start_server(bot_workers=1, review=review)
    solver, wanderer = await client("ann", server), await client("bob", server)
    puzzle_id = (await solver.request(type="next_puzzle"))["puzzle"]["puzzle_id"]
    answers = [
        await solver.request(type="try_puzzle", puzzle_id=puzzle_id, moves=tried(moves, 15))
        for moves in ("f9 e12", "f9 e12 e9", "f9 e12 e9 e8", "f9 e12 e9 e8 e10", "f9 e12 e9 e8 e10 d11")
    ]
    replies = [answer["reply"]["move"] for answer in answers[:-1]]
    assert [answer["status"] for answer in answers[:-1]] == ["continue"] * 4
    assert replies == ["f11", "g9", "d7", "e11"]
    assert (answers[-1]["status"], answers[-1]["rated"]) == ("solved", True)

    first_elsewhere = await wanderer.request(type="try_puzzle", puzzle_id=puzzle_id, moves=tried("e12", 15))
    assert first_elsewhere["status"] == "failed"
    quiet = await wanderer.request(type="try_puzzle", puzzle_id=puzzle_id, moves=tried("f9 a1", 15))
    assert quiet["status"] == "failed"


async def test_a_solved_puzzle_moves_both_ratings_and_a_failed_one_back(
    start_server: ServerFactory, client: ClientFactory, tmp_path: Path
) -> None:
    server = await start_server(bot_workers=0, review=with_puzzle(tmp_path))
    solver, loser = await client("ann", server), await client("bob", server)
    offered = await solver.request(type="next_puzzle")
    assert offered["type"] == "puzzle", offered
    puzzle = offered["puzzle"]
    assert (puzzle["to_move"], puzzle["win_in"], puzzle["themes"]) == ("black", 2, ["vcf", "win_in_2"])
    assert (offered["rating"], puzzle["rating"]) == (1500, 1200)
    puzzle_id = puzzle["puzzle_id"]

    first = await solver.request(type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 6, "y": 4}])
    assert (first["status"], first["reply"]["move"]) == ("continue", "h5")
    solved = await solver.request(type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 6, "y": 4}, {"x": 6, "y": 5}])
    assert (solved["status"], solved["rated"]) == ("solved", True)
    assert solved["player_rating"]["after"] > solved["player_rating"]["before"] == 1500
    assert solved["puzzle_rating"]["after"] < solved["puzzle_rating"]["before"] == 1200
    assert [move["move"] for move in solved["solution"]] == ["g5", "h5", "g4"]

    failed = await loser.request(type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 0, "y": 4}])
    assert (failed["status"], failed["rated"]) == ("failed", True)
    assert failed["player_rating"]["after"] < 1500
    assert failed["puzzle_rating"]["after"] > failed["puzzle_rating"]["before"]
    again = await loser.request(type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 6, "y": 4}, {"x": 6, "y": 5}])
    assert (again["status"], again["rated"], again["player_rating"]) == ("solved", False, None)

    status, _, body = await server.get(f"/api/puzzles/{puzzle_id}")
    assert status == 200 and json.loads(body)["rating"] == failed["puzzle_rating"]["after"]
    nothing_left = await solver.request(type="next_puzzle")
    assert (nothing_left["type"], nothing_left["code"]) == ("error", "not_found")
    daily = await solver.request(type="next_puzzle", daily=True)
    assert (daily["puzzle"]["puzzle_id"], daily["daily"]) == (puzzle_id, True)


async def test_a_try_with_moves_that_cannot_be_played_is_refused(
    start_server: ServerFactory, client: ClientFactory, tmp_path: Path
) -> None:
    server = await start_server(bot_workers=0, review=with_puzzle(tmp_path))
    solver = await client("ann", server)
    puzzle_id = (await solver.request(type="next_puzzle"))["puzzle"]["puzzle_id"]
    occupied = await solver.request(type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 3, "y": 4}])
    assert (occupied["type"], occupied["code"]) == ("error", "bad_request")
    past_the_end = await solver.request(
        type="try_puzzle", puzzle_id=puzzle_id, moves=[{"x": 0, "y": 0}, {"x": 6, "y": 4}]
    )
    assert (past_the_end["type"], past_the_end["code"]) == ("error", "bad_request")
    unknown = await solver.request(type="get_puzzle", puzzle_id="abc")
    assert (unknown["type"], unknown["code"]) == ("error", "not_found")


async def test_the_miner_finds_a_puzzle_in_a_finished_game_and_links_it_back(
    game_server: RunningServer, client: ClientFactory
) -> None:
    black, white = await client("ann"), await client("bob")
    game_id = await play(black, white, UNIQUE_FOUR_THREE + " g5 h5 g4 a1 g8", size=9)
    miner = game_server.app.review.miner
    assert miner is not None
    assert await miner.mine_waiting_games() == 1
    assert await miner.mine_waiting_games() == 0, "a game is mined once"
    status, _, body = await game_server.get("/api/puzzles/next")
    puzzle = json.loads(body)
    assert status == 200
    assert (puzzle["game_id"], puzzle["ply"], puzzle["size"]) == (game_id, 10, 9)
    offered = await black.request(type="get_puzzle", puzzle_id=puzzle["puzzle_id"])
    assert offered["puzzle"] == puzzle


def test_the_shipped_starting_set_holds_puzzles_whose_solutions_win() -> None:
    document = json.loads(STARTING_SET.read_text())
    assert all(command.startswith("python -m tools.make_puzzles ") for command in document["made_by"])
    mined = load_starting_set(STARTING_SET, utc_now())
    assert len(mined.puzzles) == len(document["puzzles"]) > 0
    assert len({puzzle.puzzle_id for puzzle in mined.puzzles}) == len(mined.puzzles)
    for puzzle in mined.puzzles:
        assert puzzle.win_in >= 2 and puzzle.game_id is None
        board = Board.from_moves(puzzle.moves, puzzle.size, puzzle.rule)
        attacker = board.to_move
        for point in puzzle.solution:
            board.play(point)
        won = board.result is not None and board.result.winner is attacker
        assert won or len(Position.from_board(board).fives[attacker]) >= 2, puzzle.puzzle_id


def test_a_starting_set_that_is_not_one_is_refused_with_its_file_and_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.json"
    path.write_text(json.dumps({"made_by": "hand", "puzzles": [{"rule": "freestyle", "size": 15, "moves": "h8 z99"}]}))
    with pytest.raises(ValueError, match=r"puzzles.json: puzzle 1 is not a puzzle"):
        load_starting_set(path, utc_now())


async def test_a_second_review_of_a_game_stored_by_another_node_leaves_the_first_whole(
    game_server: RunningServer, client: ClientFactory
) -> None:
    """Two nodes may review one game at once: the first stored stays, with none of the second's rows."""
    black, white = await client("ann"), await client("bob")
    game_id = await play(black, white, "h8 h9 i8 i9 j8 j9 k8 k9 l8")
    evaluations = tuple(PlyEvaluation(ply, 0, None) for ply in range(10))
    line = (parse_point("a1", 15),)
    first = GameReview(evaluations, (Mark(2, MarkKind.BLUNDER, Color.BLACK, line, WinKind.VCF),), 2)
    second = GameReview(evaluations, (Mark(5, MarkKind.MISSED_WIN, Color.WHITE, line, WinKind.VCT),), 5)
    storage = game_server.app.storage
    await storage.apply([GameReviewed(GameId(game_id), first, 100, utc_now())])
    await storage.apply([GameReviewed(GameId(game_id), second, 200, utc_now())])
    stored = await storage.review(game_id)
    assert stored is not None
    assert (stored.review, stored.budget_nodes) == (first, 100)


async def test_a_server_that_reviews_rated_games_does_so_as_each_one_ends(
    start_server: ServerFactory, client: ClientFactory
) -> None:
    server = await start_server(bot_workers=1, review=ReviewSettings(review_rated=True, starting_set=None))
    winner, loser = await client("ann", server), await client("bob", server)
    await win_rated_game(winner, loser)
    game_id = (await winner.request(type="list_games", player="ann"))["games"][0]["game_id"]
    await server.app.review.rated_games_reviewed()  # nobody asked for the review
    stored = await server.app.storage.review(game_id)
    assert stored is not None and len(stored.review.evaluations) == len(FIVE_FOR_BLACK) + 1
    assert server.app.review.reviewer.positions_judged == len(FIVE_FOR_BLACK) + 1
