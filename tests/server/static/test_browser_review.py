"""A finished game reviewed in the browser: where it turned, the graph over the game, and
the opponent's winning line played out on the board stone by stone."""

from __future__ import annotations

from browser_harness import BrowserFactory, ThreadedServer
from selenium.webdriver.common.by import By
from test_browser_play import board_after
from test_browser_records import play_by_script, replay_stones

BOT_GAME = "h8 h9 d7 g10 f11 i10 g8 i8 i7 j9 g9 f10 h10 k8 h11 i11 k6 k10 h7 i9 i12 k9 l9 k11 k12 k7".split()
"""easy - medium (tests/engine/test_review.py): black's h10, move 13, lets white win by threes and fours
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
    coach.driver.find_element(By.CSS_SELECTOR, ".review-line-controls button:nth-child(2)").click()
    after_one = {**board_after(BOT_GAME[:13]), "j7": "white"}
    coach.wait(lambda: replay_stones(coach) == after_one, "white's first stone of the line")
    coach.wait_text(".review-line", "Winning line, 1 of 11 stones: j7")
    coach.driver.find_element(By.CSS_SELECTOR, ".review-line-controls button:nth-child(2)").click()
    coach.wait(lambda: len(replay_stones(coach)) == 15, "the second stone of the line")
    coach.screenshot("desktop-review-line")
    coach.click("Back to the game")
    coach.wait(lambda: replay_stones(coach) == board_after(BOT_GAME[:13]), "the game again")
