"""Review and puzzles in the browser: where a finished game turned, the graph over it and the
opponent's winning line played out stone by stone; a puzzle solved move by move on the board."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from browser_harness import BrowserFactory, ThreadedServer
from selenium.webdriver.common.by import By
from test_browser_play import BLACK_WINS, board_after, open_friend_game
from test_browser_records import play_by_script, replay_stones

from server.review.service import ReviewSettings

BOT_GAME = "h8 h9 d7 g10 f11 i10 g8 i8 i7 j9 g9 f10 h10 k8 h11 i11 k6 k10 h7 i9 i12 k9 l9 k11 k12 k7".split()
"""easy - medium (tests/engine/test_game_review.py): black's h10, move 13, lets white win by threes and fours
starting at j7."""


def test_a_lost_game_is_reviewed_and_the_refutation_played_out_on_the_board(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    game_id = play_by_script(bot_web_server, "ann", "ben", BOT_GAME)
    coach = browser(bot_web_server, "coach", f"#game/{game_id}")
    coach.sign_in("coach")
    coach.wait_text(".replay-screen h1", "ann vs ben")
    coach.click("Review this game")
    coach.wait_text(".review-status", "The game turned at move 13.", timeout=120)
    coach.wait_text(".review-marks", "Move 13 (Black): blunder, the opponent wins by threes and fours, starting at j7")
    assert coach.visible(".review-graph"), "the evaluation graph is shown"
    coach.screenshot("desktop-review")

    coach.driver.find_element(By.CSS_SELECTOR, ".review-mark").click()
    coach.wait(lambda: replay_stones(coach) == board_after(BOT_GAME[:13]), "the position after the blunder")
    coach.wait_text(".review-here", "Here: White wins by force in 6.")
    coach.driver.find_element(By.CSS_SELECTOR, ".review-line-controls button:nth-child(2)").click()
    after_one = {**board_after(BOT_GAME[:13]), "j7": "white"}
    coach.wait(lambda: replay_stones(coach) == after_one, "white's first stone of the line")
    coach.wait_text(".review-line", "Winning line, 1 of 11 stones: j7")
    coach.driver.find_element(By.CSS_SELECTOR, ".review-line-controls button:nth-child(2)").click()
    coach.wait(lambda: len(replay_stones(coach)) == 15, "the second stone of the line")
    coach.screenshot("desktop-review-line")
    coach.click("Back to the game")
    coach.wait(lambda: replay_stones(coach) == board_after(BOT_GAME[:13]), "the game again")


def test_a_finished_game_is_reviewed_in_one_click_from_its_room(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(bot_web_server, browser)
    for ply, move in enumerate(BLACK_WINS, start=1):
        (alice if ply % 2 else bob).play(move)
    bob.wait_text(".room-status", "You lost: alice made five in a row.")
    bob.click("Review the game")
    bob.wait(lambda: "#game/" in bob.driver.current_url, "the game's replay")
    bob.wait(lambda: bob.visible(".review-graph"), "the review, asked for by the same click", timeout=120)
    assert not bob.visible(".review-panel button.primary"), "nothing more to ask"


UNIQUE_FOUR_THREE = "d5 c5 e5 e6 f5 f6 g6 e4 g7 f4".split()
"""A 9x9 position, black to move: only g5 wins (then h5, the only block, and g4)."""


@pytest.fixture
def puzzle_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """A server without bots whose starting set is one puzzle: UNIQUE_FOUR_THREE."""
    path = tmp_path / "puzzles.json"
    puzzle = {
        "rule": "freestyle",
        "size": 9,
        "moves": " ".join(UNIQUE_FOUR_THREE),
        "solution": "g5 h5 g4",
        "theme": "vcf",
        "forbidden": False,
        "source": "a test's bots",
    }
    path.write_text(json.dumps({"made_by": "a test", "puzzles": [puzzle]}))
    server = ThreadedServer(tmp_path / "gomoku.sqlite3")
    server.settings = replace(server.settings, review=ReviewSettings(starting_set=path))
    server.start()
    yield server
    server.close()


def test_a_puzzle_is_solved_on_the_board_move_by_move_and_the_rating_shown(
    puzzle_server: ThreadedServer, browser: BrowserFactory
) -> None:
    solver = browser(puzzle_server, "solver")
    solver.sign_in("solver")
    solver.driver.find_element(By.LINK_TEXT, "Puzzles").click()
    solver.wait_text(".puzzle-about", "Black to play and win in 2 moves. Rating 1200.")
    position = board_after(UNIQUE_FOUR_THREE)
    solver.wait(lambda: solver.stones(".trainer-screen") == position, "the puzzle's position")
    solver.wait_text(".puzzle-status", "Find the winning move.")
    point = '.trainer-screen [data-point="{}"]'
    solver.driver.find_element(By.CSS_SELECTOR, point.format("g5")).click()
    solver.wait(lambda: solver.stones(".trainer-screen").get("h5") == "white", "the defender's answer")
    solver.wait_text(".puzzle-status", "Right. Go on.")
    solver.driver.find_element(By.CSS_SELECTOR, point.format("g4")).click()
    solver.wait_text(".puzzle-status", "Solved: g5 h5 g4. Your puzzle rating: 1500 → ")
    solver.screenshot("desktop-puzzle-solved")
    solver.click("Next puzzle")
    solver.wait_text(".puzzle-status", "No puzzle left to try here yet.")
