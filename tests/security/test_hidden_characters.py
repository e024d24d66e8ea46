"""Text that other people are shown carries no control character, no direction override and no
zero-width character: the server refuses them in tournament names, chat, reasons and device labels,
and the terminal client writes none it receives (from a record stored before the rule, or another
server) as raw bytes (issue 40, finding 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.openings import OpeningRule
from engine.record import ClockSetting
from engine.types import Rule
from server.domain import TournamentCreated, TournamentTerms, utc_now
from tests.client.client_harness import gomoku_command, run_command
from tests.server.server_harness import ClientFactory, RunningServer

CLOCK = {"initial_ms": 60_000, "increment_ms": 0}
HOSTILE = "Cup\u001b]0;PWNED\u0007\u001b[2J\u202e"
"""A terminal title, a bell, a screen wipe and a right-to-left override: the issue's tournament name."""


@pytest.mark.parametrize(
    "text",
    [HOSTILE, "evil\u202etxt.exe", "ad\u200bmin", "bell\u0007", "isolate\u2066x\u2069", "line\u2028break", "\ufeffbom"],
)
async def test_hidden_characters_are_refused_wherever_others_read_the_text(
    game_server: RunningServer, client: ClientFactory, text: str
) -> None:
    alice = await client("alice")
    await client("bob")
    created = await alice.request(type="create_tournament", name=text, format="swiss", rounds=2, clock=CLOCK)
    assert created["code"] == "bad_request"
    assert (await alice.request(type="chat", text=text))["code"] == "bad_request"
    reporting = await alice.request(type="report", player="bob", reason=text)
    assert reporting["code"] == "bad_request"
    stranger = await client()
    signing_in = await stranger.request(type="hello", name="carol", device=text)
    assert signing_in["code"] == "bad_request"


async def test_plain_words_in_any_script_pass(game_server: RunningServer, client: ClientFactory) -> None:
    alice = await client("alice")
    said = await alice.request(type="chat", text="Grüße, 你好, مرحبا, e\u0301")
    assert said["type"] == "chat"
    created = await alice.request(type="create_tournament", name="Coupe d'été", format="swiss", rounds=2, clock=CLOCK)
    assert created["type"] == "tournament"


async def test_the_terminal_client_writes_no_control_byte_of_a_stored_name(
    game_server: RunningServer, client: ClientFactory, tmp_path: Path
) -> None:
    await client("ann")
    terms = TournamentTerms(
        HOSTILE, "swiss", "ann", Rule.FREESTYLE, 15, ClockSetting(60_000, 0), OpeningRule.NONE, False, rounds=2
    )
    await game_server.app.storage.apply([TournamentCreated("t-hostile", terms, utc_now())])

    listed = await run_command(gomoku_command(game_server.port, tmp_path, "sam", "tournaments"))

    assert listed.status == 0, listed.stderr
    assert "t-hostile" in listed.stdout
    for raw in ("\u001b", "\u0007", "\u202e"):
        assert raw not in listed.stdout
    assert "Cup\\x1b]0;PWNED\\x07\\x1b[2J\\u202e" in listed.stdout
