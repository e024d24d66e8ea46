"""Importing games on a real server: a player's Piskvork, SGF and move-list files become games that
are fetched, listed, reviewed and mined for puzzles like any other; a bad, too big or repeated
upload is refused with its reason and leaves nothing behind.

The files are written here by hand from the formats' descriptions (engine.psq, engine.sgf).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory, WireClient, refused

from engine.game_import import MAX_UPLOAD_BYTES, UNKNOWN_END
from server.review.service import ReviewSettings

PSQ = (
    "Piskvorky 15x15, 0:11, 0\n"
    "8,8,1500\n9,9,300\n9,8,700\n10,10,280\n10,8,900\n11,11,310\n11,8,650\n12,12,290\n12,8,400\n"
    "homo-ann\npbrain-lazy.exe\n0\n"
)
"""Ann (black, a person) beats the brain `lazy` with a five on row 8: nine moves with their times."""
SGF = (
    "(;GM[4]FF[4]CA[UTF-8]SZ[15]RU[renju]PB[Carol]PW[Dave]DT[2025-06-01]RE[W+R]\n"
    ";B[hh];W[ih];B[ii];W[jg])\n"
    "(;GM[4]FF[4]SZ[15]PB[Eve]PW[Finn]\n;B[hh];W[ii];B[hg];W[hi])\n"
)
"""A renju game white won by resignation, and a freestyle one without a result."""
MOVES = "# Tuesday night\nh8 i9 h9 i10\n7,7 8,8 7,6 8,9 7,5\n"
"""Two games, one in each notation of a move list."""
DOUBLE_THREE = "h8 a15 g8 a1 i7 o15 i6 o1 i8"
"""Black's last stone, i8, makes two open threes (g8-h8-i8 and i6-i7-i8): forbidden under renju."""

QUIET = ReviewSettings(mine_puzzles=False, starting_set=None)


@pytest.fixture
async def game_server(start_server: ServerFactory) -> RunningServer:
    """A server with a bot worker, which reviews games."""
    return await start_server(bot_workers=1, review=QUIET)


def upload(*files: tuple[str, str], **terms: Any) -> dict[str, Any]:
    return {"type": "import_games", "files": [{"name": name, "text": text} for name, text in files], **terms}


def stored_imports(db_path: Path) -> int:
    with sqlite3.connect(db_path) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM imported_games").fetchone()
        (games,) = connection.execute("SELECT COUNT(*) FROM games").fetchone()
    assert count == games, "every game of this test is an imported one"
    return int(count)


async def imported(player: WireClient, *files: tuple[str, str], **terms: Any) -> list[dict[str, Any]]:
    answer = await player.request(**upload(*files, **terms))
    assert answer["type"] == "games_imported", answer
    games: list[dict[str, Any]] = answer["games"]
    return games


async def test_welcome_lists_import(game_server: RunningServer, client: ClientFactory) -> None:
    welcome = await (await client()).hello("ann")
    assert "import" in welcome["features"]


async def test_psq_sgf_and_move_lists_are_stored_as_games_read_back_over_the_wire_and_http(
    game_server: RunningServer, client: ClientFactory
) -> None:
    ann = await client("ann")
    games = await imported(
        ann, ("final.psq", PSQ), ("club.sgf", SGF), ("tuesday.txt", MOVES), black="gina", white="hal"
    )
    described = [(g["file"], g["index"], g["source"], g["rule"], g["black"], g["white"], g["moves"]) for g in games]
    assert described == [
        ("final.psq", 1, "psq", "freestyle", "ann", "lazy", 9),
        ("club.sgf", 1, "sgf", "renju", "Carol", "Dave", 4),
        ("club.sgf", 2, "sgf", "freestyle", "Eve", "Finn", 4),
        ("tuesday.txt", 1, "moves", "freestyle", "gina", "hal", 4),
        ("tuesday.txt", 2, "moves", "freestyle", "gina", "hal", 5),
    ]
    psq_game = (await ann.request(type="get_game", game_id=games[0]["game_id"]))["record"]
    assert [(m["move"], m["time_ms"]) for m in psq_game["moves"][:3]] == [("h8", 1500), ("i7", 300), ("i8", 700)]
    assert (psq_game["result"]["winner"], psq_game["result"]["reason"]) == ("black", "five")
    assert (psq_game["black"], psq_game["white"]["name"]) == ({"name": "ann", "kind": "human", "level": None}, "lazy")

    status, _, body = await game_server.get(f"/api/games/{games[1]['game_id']}")
    renju = json.loads(body)
    assert status == 200 and renju["rule"] == "renju"
    assert (renju["result"]["winner"], renju["result"]["reason"], renju["started_at"]) == (
        "white",
        "resign",
        "2025-06-01T00:00:00Z",
    )
    status, _, body = await game_server.get(f"/api/games/{games[3]['game_id']}")
    unended = json.loads(body)
    assert [m["time_ms"] for m in unended["moves"]] == [None] * 4
    assert (unended["result"]["winner"], unended["result"]["detail"]) == (None, UNKNOWN_END)

    listed = await ann.request(type="list_games", player="ann")
    assert {game["game_id"] for game in listed["games"]} == {game["game_id"] for game in games}
    assert not any(game["rated"] for game in listed["games"])
    assert {game["status"] for game in listed["games"]} == {"finished"}


async def test_an_imported_game_is_reviewed_like_a_game_played_here(
    game_server: RunningServer, client: ClientFactory
) -> None:
    ann = await client("ann")
    (game,) = await imported(ann, ("final.psq", PSQ))
    answer = await ann.request(type="review_game", game_id=game["game_id"])
    assert answer["type"] == "game_review", answer
    assert len(answer["review"]["evaluations"]) == 10, "the empty board and each of the nine moves"
    status, _, body = await game_server.get(f"/api/games/{game['game_id']}/review")
    assert status == 200 and json.loads(body)["evaluations"] == answer["review"]["evaluations"]


async def test_an_upload_with_a_bad_move_is_refused_naming_file_game_and_move_and_nothing_is_kept(
    game_server: RunningServer, client: ClientFactory, db_path: Path
) -> None:
    ann = await client("ann")
    answer = await ann.request(**upload(("good.psq", PSQ), ("bad.txt", "h8 i9\nh8 i9 i9")))
    assert refused(answer, "bad_request") == (
        "bad.txt, game 2: line 2: move 3 (i9) is illegal: i9 is already taken: nothing of this upload was stored"
    )
    assert stored_imports(db_path) == 0
    assert (await ann.request(type="list_games", player="ann"))["games"] == []


async def test_a_renju_games_forbidden_point_is_refused_but_the_same_moves_import_in_freestyle(
    game_server: RunningServer, client: ClientFactory, db_path: Path
) -> None:
    ann = await client("ann")
    answer = await ann.request(**upload(("lesson.txt", DOUBLE_THREE), rule="renju"))
    assert refused(answer, "bad_request") == (
        "lesson.txt, game 1: line 1: move 9 (i8) is illegal: i8 is forbidden for black under renju (double-three): "
        "nothing of this upload was stored"
    )
    assert stored_imports(db_path) == 0
    (game,) = await imported(ann, ("lesson.txt", DOUBLE_THREE), rule="freestyle")
    assert game["moves"] == 9 and stored_imports(db_path) == 1


async def test_a_too_big_upload_is_refused_with_the_bound(
    game_server: RunningServer, client: ClientFactory, db_path: Path
) -> None:
    ann = await client("ann")
    padding = "# " + "x" * (MAX_UPLOAD_BYTES - len(MOVES)) + "\n"
    answer = await ann.request(**upload(("big.txt", padding + MOVES)))
    assert refused(answer, "limit_reached").startswith(f"the upload is {len(padding + MOVES)} bytes; at most")
    assert stored_imports(db_path) == 0


async def test_a_game_imported_before_is_recognised_and_the_whole_upload_refused(
    game_server: RunningServer, client: ClientFactory, db_path: Path
) -> None:
    ann, bob = await client("ann"), await client("bob")
    (first,) = await imported(ann, ("final.psq", PSQ))
    answer = await bob.request(**upload(("new.txt", "h8 h9"), ("copy.psq", PSQ.replace("1500", "1000"))))
    assert refused(answer, "bad_request") == (
        f"copy.psq, game 1 is already imported, as game {first['game_id']}: nothing of this upload was stored"
    )
    assert stored_imports(db_path) == 1
    twice = await ann.request(**upload(("a.txt", "h8 h9"), ("b.txt", "h8 h9")))
    assert refused(twice, "bad_request").startswith("b.txt, game 1 is the same game as a.txt, game 1")


async def test_only_a_signed_in_player_imports(
    game_server: RunningServer, client: ClientFactory, db_path: Path
) -> None:
    stranger = await client()
    answer = await stranger.request(**upload(("final.psq", PSQ)))
    assert refused(answer, "unauthorized") == "say hello first"
    assert stored_imports(db_path) == 0


async def test_a_private_import_is_the_uploaders_alone_and_imports_never_come_back_as_rooms(
    start_server: ServerFactory, client: ClientFactory, game_server: RunningServer, db_path: Path
) -> None:
    ann, bob = await client("ann"), await client("bob")
    (game,) = await imported(ann, ("final.psq", PSQ), private=True)
    assert (await ann.request(type="get_game", game_id=game["game_id"]))["type"] == "game"
    assert refused(await bob.request(type="get_game", game_id=game["game_id"]), "not_found")
    with sqlite3.connect(db_path) as connection:
        (room_id,) = connection.execute("SELECT room_id FROM games WHERE game_id = ?", (game["game_id"],)).fetchone()
    await game_server.stop()
    again = await start_server()
    ann = await client("ann", again)
    assert refused(await ann.request(type="join_room", room_id=room_id), "not_found")


async def test_an_imported_game_is_its_uploaders_and_no_named_players(
    game_server: RunningServer, client: ClientFactory
) -> None:
    ann, bob = await client("ann"), await client("bob")
    (public,) = await imported(bob, ("fake.txt", "h8 i9 h9"), black="ann", white="bob")
    (private,) = await imported(bob, ("secret.txt", "h8 i9 h9 i10"), black="ann", white="bob", private=True)
    bobs = await bob.request(type="list_games", player="bob")
    assert [game["game_id"] for game in bobs["games"]] == [private["game_id"], public["game_id"]]
    assert (await ann.request(type="list_games", player="ann"))["games"] == []
    status, _, body = await game_server.get("/api/players/ann")
    assert status == 200 and (json.loads(body)["played"], json.loads(body)["recent"]) == (0, [])
    assert (await ann.request(type="get_game", game_id=public["game_id"]))["type"] == "game"
    assert refused(await ann.request(type="get_game", game_id=private["game_id"]), "not_found")


async def test_the_miner_finds_a_puzzle_in_an_imported_game(game_server: RunningServer, client: ClientFactory) -> None:
    """The 9x9 game of tests/server/test_reviews_and_puzzles.py whose g5 (a four and an open three) is
    the only winning move at ply 10, typed in as a move list."""
    ann = await client("ann")
    (game,) = await imported(ann, ("nine.txt", "d5 c5 e5 e6 f5 f6 g6 e4 g7 f4 g5 h5 g4 a1 g8"), size=9)
    miner = game_server.app.review.miner
    assert miner is not None
    assert await miner.mine_waiting_games() == 1
    status, _, body = await game_server.get("/api/puzzles/next")
    puzzle = json.loads(body)
    assert status == 200 and (puzzle["game_id"], puzzle["ply"], puzzle["size"]) == (game["game_id"], 10, 9)
