"""Accounts in the browser: a player who has played is offered to keep the name with a password, and
then signs in with it from another browser profile (another device), where the devices are listed."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import BLACK_WINS, open_friend_game

from server.moderation.actions import Moderation

PASSWORD = "a garden of stones"


def open_account(page: Page) -> None:
    page.follow("Account", within="header")
    page.wait_text(".account-screen h1", "Your account")


def devices_shown(page: Page) -> list[str]:
    """Each device as the list shows it: "Chrome on Linux, this device, Signed in since ..."."""
    labels: list[str] = page.driver.execute_script(
        "return [...document.querySelectorAll('.account-screen .devices .device-text')].map((item) => ["
        "  item.querySelector('.device-label').firstChild.textContent, item.querySelector('.this-device')?.textContent,"
        "  item.querySelector('.detail').textContent].filter(Boolean).join(', '))"
    )
    return labels


def test_a_password_set_in_one_profile_signs_in_from_another(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(web_server, browser)
    assert not alice.visible("header .keep-name"), "nothing is offered before a game is played"
    for ply, move in enumerate(BLACK_WINS, start=1):
        (alice if ply % 2 else bob).play(move)
    alice.wait_text(".room-status", "You won")

    alice.follow("Keep this name: set a password", within="header")
    alice.wait_text(".account-screen .intro", "Keep this name")
    alice.set_value("account-new-password", PASSWORD)
    alice.set_value("account-repeat-password", PASSWORD)
    alice.click("Set password")
    alice.wait_text(".account-status", "Password saved.")
    alice.wait(lambda: devices_shown(alice), "the device list")
    assert devices_shown(alice)[0].startswith("Chrome on Linux, this device, Signed in since "), "named, not 'a device'"
    alice.wait_gone("header .keep-name")
    rating = alice.text_of("header .me")

    phone = browser(web_server, "alice-elsewhere")
    phone.wait(lambda: phone.visible("#signin-name"), "the sign-in form")
    phone.set_value("signin-name", "alice")
    phone.click("Play")
    phone.wait_text("#signin-error", "The name “alice” is kept with a password: type it below to sign in.")
    assert phone.driver.switch_to.active_element.get_attribute("id") == "signin-password", "asked for it"
    phone.set_value("signin-password", PASSWORD)
    phone.click("Play")
    phone.wait(lambda: "alice" in phone.text_of("header .me"), "signed in as alice on the other profile")
    assert phone.text_of("header .me") == rating, "the same player, with the same rating"
    open_account(phone)
    phone.wait(lambda: len(devices_shown(phone)) == 2, "both devices listed")
    phone.screenshot("desktop-account-devices")

    alice.follow("Lobby", within="header")
    open_account(alice)
    alice.wait(lambda: len(devices_shown(alice)) == 2, "both devices listed on the first")

    def sign_out_the_other() -> bool:
        """Found again if the list redrew meanwhile (another `devices` came)."""
        other = alice.driver.find_element("css selector", ".account-screen .devices li:not(.current) button")
        assert other.accessible_name.startswith("Sign out Chrome on Linux, Signed in since "), "told apart by time"
        other.click()
        return True

    alice.wait(sign_out_the_other, "to sign the other device out")
    phone.wait(lambda: phone.visible("#signin-name"), "the other profile back at the sign-in form")


def test_a_wrong_password_is_refused_on_the_sign_in_form(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    page = browser(web_server, "guesser")
    page.wait(lambda: page.visible("#signin-name"), "the sign-in form")
    page.set_value("signin-name", "nobody")
    page.set_value("signin-password", "not a password at all")
    page.click("Play")
    page.wait_text("#signin-error", "Wrong name or password.")


def test_deleting_the_account_asks_first_and_then_gives_the_name_up(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    page = browser(web_server, "leaver")
    page.sign_in("leaver")
    open_account(page)
    page.click("Delete my account")
    assert "leaver" in page.text_of("header .me"), "nothing happens before the box is ticked"

    page.driver.find_element("id", "account-delete-understood").click()
    page.click("Delete my account")

    field = page.wait(lambda: next(iter(page.visible("#signin-name")), None), "the sign-in form")
    field.clear()
    field.send_keys("leaver")
    page.click("Play")
    page.wait_text("#signin-error", "belongs to someone else")


def test_an_open_account_page_lists_a_device_signed_in_elsewhere_and_drops_one_signed_out(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    laptop = browser(web_server, "owner-laptop")
    laptop.sign_in("owner")
    open_account(laptop)
    laptop.set_value("account-new-password", PASSWORD)
    laptop.set_value("account-repeat-password", PASSWORD)
    laptop.click("Set password")
    laptop.wait(lambda: len(devices_shown(laptop)) == 1, "the laptop listed")

    phone = browser(web_server, "owner-phone")
    phone.wait(lambda: phone.visible("#signin-name"), "the sign-in form")
    phone.set_value("signin-name", "owner")
    phone.set_value("signin-password", PASSWORD)
    phone.click("Play")
    laptop.wait(lambda: len(devices_shown(laptop)) == 2, "the phone listed on the open page, unasked")

    open_account(phone)
    phone.wait(lambda: len(devices_shown(phone)) == 2, "both devices listed on the phone")
    own = phone.driver.find_element("css selector", ".account-screen .devices li:nth-child(2) button")
    assert ", this device, " in devices_shown(phone)[1]
    own.click()
    phone.wait(lambda: phone.visible("#signin-name"), "the phone back at the sign-in form")
    laptop.wait(lambda: len(devices_shown(laptop)) == 1, "the phone gone from the open page")
    assert ", this device, " in devices_shown(laptop)[0]


def test_a_role_granted_while_signed_in_shows_its_page_once_the_account_page_opens(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    page = browser(web_server, "new-moderator")
    page.sign_in("carol")
    assert not page.visible("header a[href='#moderation']"), "no role, no link"
    assert web_server.app is not None
    web_server.run(Moderation(web_server.app.storage).grant("operator:test", "carol", "moderator", "for the test"))

    open_account(page)
    page.follow("Moderation", within="header")
    page.wait(lambda: page.visible(".moderation-screen"), "the moderation page")
