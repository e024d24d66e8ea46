"""What the terminal client does when a moderator acts on its player: a new name, a kick."""

from __future__ import annotations

from core_harness import shown, signed_in_core

from client.actions import RememberToken
from wire.messages import RoomId
from wire.moderation_events import Kicked, Renamed


def test_a_renamed_player_keeps_their_token_under_the_new_name_and_signs_in_with_it() -> None:
    core = signed_in_core()
    actions = core.handle_message(Renamed(name="Nice", reason="offensive"))
    assert RememberToken("t0k3n") in actions
    assert shown(actions) == "a moderator renamed you to Nice: offensive"
    assert core.name == "Nice"


def test_a_kicked_spectator_is_told_why() -> None:
    core = signed_in_core()
    assert shown(core.handle_message(Kicked(room_id=RoomId("r1"), reason="heckling"))) == (
        "a moderator sent you out of room r1: heckling"
    )
