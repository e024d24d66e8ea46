"""A tournament in the browser: the organiser creates it, adds a bot, plays, and reads the standings."""

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

    ann.click("Start")  # greedy and ann play; bob, the lowest ranked, has the bye
    ann.wait(lambda: "#room/" in ann.driver.current_url, "ann's game to open")
    ann.wait_text(".room-screen", "greedy")
    ann.click("Resign")
    ann.click("Yes, resign")
    bob.wait_text(".tournament-screen .summary", "finished")
    bob.wait_text(".standings tbody tr:first-child", "greedy")
    assert [row.text.split()[:3] for row in bob.visible(".standings tbody tr")] == [
        ["1", "greedy", "1"],
        ["1", "bob", "1"],
        ["3", "ann", "0"],
    ]
    assert "bye" in bob.text_of(".tournament-games")
    link = bob.visible("a.crosstable")[0]
    assert link.get_attribute("href").endswith(".csv")
    bob.screenshot("desktop-tournament-finished")
