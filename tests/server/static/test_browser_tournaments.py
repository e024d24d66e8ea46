"""A tournament in the browser: the organiser creates it, adds a bot, plays, and everyone reads the standings."""

from __future__ import annotations

from browser_harness import BrowserFactory, ThreadedServer


def test_an_organiser_runs_a_swiss_with_a_person_and_a_bot_in_the_browser(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    ann = browser(bot_web_server, "ann")
    ann.sign_in("ann")
    ann.follow("Tournaments", within="header")
    ann.wait_text(".tournaments-screen", "No tournament yet")
    name = ann.wait(lambda: next(iter(ann.visible("input[name=tournament-name]")), None), "the name field")
    name.send_keys("Club night")
    ann.driver.execute_script(
        "const r = document.querySelector('input[name=tournament-rounds]'); r.value = '1';"
        "const m = document.querySelector('input[name=tournament-clock-minutes]'); m.value = '5';"
    )
    ann.click("Create a tournament")
    ann.wait_text(".tournament-screen h1", "Club night")
    ann.wait_text(".tournament-screen .summary", "Swiss · open for entries · Round 0 of 1")
    ann.driver.execute_script("const s = document.querySelector('select[name=tournament-bot]'); s.value = 'greedy';")
    ann.click("Add a bot")
    ann.wait_text(".standings", "greedy")
    ann.click("Join")
    ann.wait_text(".standings", "ann")
    tournament_url = ann.driver.current_url

    bob = browser(bot_web_server, "bob")
    bob.sign_in("bob")
    bob.open("#" + tournament_url.split("#", 1)[1])
    bob.click("Join")
    bob.wait_text(".tournament-screen .summary", "Players: 3")
    assert not bob.visible(".organiser"), "only the organiser has the controls"

    ann.click("Start")  # ann and bob play; greedy, rated lowest, has the bye
    for page in (ann, bob):  # each is taken to the game, which names its tournament and round
        page.wait(lambda page=page: "#room/" in page.driver.current_url, "the game to open")
        page.wait_text(".room-screen", "ann")
        page.wait_text(".room-head", "Tournament game, round 1. Back to the tournament")
        assert not page.visible(".notice"), "nothing covers the player's clock"
    ann.click("Resign")
    ann.click("Yes, resign")
    bob.wait_text(".room-status", "ann resigned: you won.")
    bob.follow("Back to the tournament")
    bob.wait_text(".tournament-screen .summary", "finished")
    final = [["1", "bob", "1"], ["1", "greedy", "1"], ["3", "ann", "0"]]
    # The standings redraw as the last changes arrive: read the rows until they hold still at the end.
    bob.wait(lambda: [row.text.split()[:3] for row in bob.visible(".standings tbody tr")] == final, "final standings")
    assert "greedy (bye)" in bob.text_of(".tournament-games")
    bob.follow("replay", within=".tournament-games")
    bob.wait(lambda: "#game/" in bob.driver.current_url, "the game's replay")
    bob.open("#" + tournament_url.split("#", 1)[1])
    link = bob.wait(lambda: next(iter(bob.visible("a.crosstable")), None), "the crosstable link")
    assert link.get_attribute("href").endswith(".csv")
    bob.screenshot("desktop-tournament-finished")
