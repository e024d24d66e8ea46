"""Every page, finished on a phone (390x844, touch) and on a laptop (1366x900), in English (light) and
in Chinese (dark): nothing wider than the screen, every control big enough for a finger on the phone,
the menu on one row on the laptop, and no English left on a Chinese page. A picture of each page is
saved with the other screenshots (a temporary folder, never committed)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from browser_harness import BrowserFactory, Page, ThreadedServer
from selenium.webdriver.common.by import By
from test_browser_play import BLACK_WINS
from test_browser_records import play_by_script
from test_browser_review import UNIQUE_FOUR_THREE
from websockets.sync.client import ClientConnection, connect

from server.moderation.actions import Moderation
from server.review.service import ReviewSettings


@dataclass(frozen=True)
class Profile:
    name: str
    width: int
    height: int
    mobile: bool
    player: str
    opponents: tuple[str, str]


PHONE = Profile("phone", 390, 844, mobile=True, player="alice", opponents=("bob", "eve"))
LAPTOP = Profile("laptop", 1366, 900, mobile=False, player="carol", opponents=("kim", "lee"))

MIN_TARGET_PX = 32
"""The smallest control a finger hits reliably on a phone (the board's points excepted: a phone
taps twice to play, the first tap marking the point)."""

CHECKS = (Path(__file__).parent / "page_checks.js").read_text()
"""What the page is measured with, in the page itself: page_checks.js."""


def measure(page: Page, call: str, *arguments: object) -> Any:
    """Run one of page_checks.js's functions in the page and return its answer."""
    return page.driver.execute_script(f"{CHECKS}\nreturn {call};", *arguments)


NAMES = {"alice", "carol", "dave", "ann", "ben", "org", "bob", "eve", "kim", "lee"} | {
    "greedy",
    "static",
    "minimax",
    "astar",
    "alphabeta",
    "easy",
    "medium",
    "hard",
    "master",
}
"""The players' and the bots' names in these tests: names, not words to translate."""

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
KEPT_AS_IS = re.compile(r"^(?:[A-Z]{2,5}|swap|Soos|rv)$")
"""File formats (SGF, CSV, PSQ), and the openings' own names (swap, swap2, Soosõrv-8), which Chinese
players use as they are. Text marked with another language (`lang`: the languages' own names, an
engine's technical description) is left out too."""


def english_left(texts: list[str]) -> list[str]:
    """The texts that hold a Latin word which is neither a name here nor kept as is."""
    return [
        text
        for text in texts
        if any(word.lower() not in NAMES and not KEPT_AS_IS.match(word) for word in LATIN_WORD.findall(text))
    ]


AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, { resultTypes: ['violations'] }).then((results) => done(results.violations
  .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  .map((violation) => `${violation.id} (${violation.impact}): ${violation.help}: `
    + violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join('; '))));
"""
"""axe-core's serious and critical violations on the page, each with up to three elements."""


def accessibility_violations(page: Page, axe: str) -> list[str]:
    """What axe-core (run in the page) finds serious or critical."""
    if not page.driver.execute_script("return typeof window.axe === 'object'"):
        page.driver.execute_script(axe)
    found: list[str] = page.driver.execute_async_script(AXE_RUN)
    return found


def page_problems(page: Page, profile: Profile, name: str, language: str, axe: str) -> list[str]:
    """What the page shown falls short of on a phone or a laptop, for its readers too; its picture is
    saved."""
    page.screenshot(f"{profile.name}-{language}-{name}")
    where = f"{name} ({profile.name}, {language})"
    problems = [f"{where}: wider than the screen: {found}" for found in measure(page, "overflowing()")]
    problems += [f"{where}: accessibility: {found}" for found in accessibility_violations(page, axe)]
    if profile.mobile:
        small = measure(page, "smallControls(arguments[0])", MIN_TARGET_PX)
        problems += [f"{where}: smaller than {MIN_TARGET_PX}x{MIN_TARGET_PX} px: {found}" for found in small]
    elif not measure(page, "menuOnOneRow()"):
        problems.append(f"{where}: the menu takes more than one row")
    if language == "zh":
        english = english_left(measure(page, "textsShown()"))
        problems += [f"{where}: left in English: {text!r}" for text in english]
    return problems


@pytest.fixture
def full_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """A server with one bot worker (reviews, bots in the list) and one puzzle to solve."""
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
    server = ThreadedServer(tmp_path / "gomoku.sqlite3", bot_workers=1)
    server.settings = replace(server.settings, review=ReviewSettings(starting_set=path))
    server.start()
    yield server
    server.close()


def ask(socket: ClientConnection, **request: object) -> dict[str, object]:
    """Send a request and wait for its answer (events in between are skipped)."""
    socket.send(json.dumps({**request, "id": 7}))
    while True:
        reply: dict[str, object] = json.loads(socket.recv(timeout=20))
        if reply.get("id") == 7:
            return reply


def open_tournament(server: ThreadedServer) -> str:
    """A Swiss with a person and two bots entered, not started; its id."""
    with connect(f"ws://127.0.0.1:{server.port}/ws") as org:
        ask(org, type="hello", name="org")
        created = ask(
            org,
            type="create_tournament",
            name="周五俱乐部",
            format="swiss",
            rounds=2,
            clock={"initial_ms": 300_000, "increment_ms": 3_000},
        )
        tournament = created["tournament"]
        assert isinstance(tournament, dict), created
        tournament_id = str(tournament["tournament_id"])
        ask(org, type="join_tournament", tournament_id=tournament_id)
        for level in ("greedy", "easy"):
            ask(org, type="add_entrant", tournament_id=tournament_id, bot=level)
        return tournament_id


def tour(page: Page, profile: Profile, language: str, pages: dict[str, str], axe: str) -> list[str]:
    """Visit each page (name: hash), and once it has drawn what it waits for, say what it falls short of."""
    ready = {
        "lobby": ".lobby-screen .bots li",
        "games": ".games-list li",
        "replay": ".replay-screen .review-graph",
        "players": ".leaderboard tbody tr",
        "profile": ".profile-screen .big-rating",
        "tournaments": ".tournaments tbody tr",
        "tournament": ".standings tbody tr",
        "puzzles": ".trainer-screen .point",
        "account": ".account-screen form",
        "moderation": "#moderation-player",
    }
    problems = []
    for name, fragment in pages.items():
        page.open(fragment)
        page.wait(lambda css=ready[name]: page.visible(css), f"the {name} page")
        problems += page_problems(page, profile, name, language, axe)
    page.click("Menu" if language == "en" else "菜单", within="header")
    page.wait(lambda: page.visible("#language"), "the menu to open")
    problems += page_problems(page, profile, "menu", language, axe)
    page.click("Menu" if language == "en" else "菜单", within="header")
    page.wait_gone("#language")
    return problems


def room_problems(
    page: Page, server: ThreadedServer, profile: Profile, language: str, opponent: str, axe: str
) -> list[str]:
    """A game under way, seen by its black player: the board, the players, the actions, the chat. Then
    the opponent resigns: from then on the menu offers to keep the name with a password."""
    page.open("#lobby")
    page.wait(lambda: page.visible(".create-form"), "the new game form")
    page.driver.find_element(By.ID, "opponent-anyone").click()
    page.driver.find_element(By.CSS_SELECTOR, ".create-form button[type=submit]").click()
    page.wait(lambda: "#room/" in page.driver.current_url, "the new room")
    room_id = page.driver.current_url.split("#room/", 1)[1]
    with connect(f"ws://127.0.0.1:{server.port}/ws") as socket:
        ask(socket, type="hello", name=opponent)
        ask(socket, type="join_room", room_id=room_id)
        page.wait(lambda: page.visible(".room-screen .player-bar.to-move"), "the game to start")
        problems = page_problems(page, profile, "room", language, axe)
        ask(socket, type="resign", room_id=room_id)
        offered = "return !document.querySelector('header .keep-name').hidden"
        page.wait(lambda: page.driver.execute_script(offered), "the offer to keep the name")
        return problems


@pytest.mark.timeout(600)  # two dozen pages, twice, each measured and checked by axe-core
@pytest.mark.parametrize("profile", [PHONE, LAPTOP], ids=lambda profile: profile.name)
def test_every_page_fits_the_screen_in_english_and_chinese(
    profile: Profile, full_server: ThreadedServer, browser: BrowserFactory, axe: str
) -> None:
    assert full_server.app is not None
    moderation = Moderation(full_server.app.storage)
    game_id = play_by_script(full_server, "ann", "ben", BLACK_WINS)
    tournament_id = open_tournament(full_server)
    pages = {
        "lobby": "#lobby",
        "games": "#games/ann",
        "replay": f"#game/{game_id}",
        "players": "#players",
        "profile": "#player/ann",
        "tournaments": "#tournaments",
        "tournament": f"#tournament/{tournament_id}",
        "puzzles": "#puzzles",
        "account": "#account",
        "moderation": "#moderation",
    }
    reviewer = browser(full_server, "reviewer", f"#game/{game_id}")
    reviewer.sign_in("dave")
    reviewer.click("Review this game")
    reviewer.wait(lambda: reviewer.visible(".review-graph"), "the review", timeout=120)

    page = browser(full_server, profile.name, width=profile.width, height=profile.height, mobile=profile.mobile)
    page.wait(lambda: page.visible("#signin-name"), "the sign-in page")
    problems = page_problems(page, profile, "sign-in", "en", axe)
    page.sign_in(profile.player)
    provisional = page.driver.find_element(By.CSS_SELECTOR, "header .me").get_attribute("title")
    assert provisional == "Provisional rating: too few rated games yet", "the menu's 1500? says what ? means"
    full_server.run(moderation.grant("operator:test", profile.player, "moderator", "to see its page"))
    page.driver.refresh()
    moderation_link = "return !document.querySelector('nav a[href=\"#moderation\"]').hidden"
    page.wait(lambda: page.driver.execute_script(moderation_link), "the moderation link")
    problems += tour(page, profile, "en", pages, axe)
    problems += room_problems(page, full_server, profile, "en", profile.opponents[0], axe)

    page.set_value("language", "zh")
    page.set_value("theme", "dark")
    problems += tour(page, profile, "zh", pages, axe)
    problems += room_problems(page, full_server, profile, "zh", profile.opponents[1], axe)
    assert problems == [], "\n".join(["what falls short:", *problems])
