"""A room's presence: counts of connections, absences that count, and the pacing of spectator counts."""

from __future__ import annotations

from engine.types import Color
from server.rooms.presence import SPECTATOR_COUNT_EVERY_S, Presence


def test_a_room_is_empty_from_its_last_departure_and_remembers_whether_it_was_on_purpose() -> None:
    presence = Presence()
    presence.count("alice", 2, 1.0, on_purpose=False)
    presence.count("alice", 1, 5.0, on_purpose=False)
    assert presence.is_here("alice") and presence.empty_since is None and presence.total == 1
    presence.count("alice", 0, 6.0, on_purpose=True)
    assert not presence.is_here("alice") and presence.empty_since == 6.0 and presence.left_on_purpose
    assert not presence.empty_for(10.0, 15.9) and presence.empty_for(10.0, 16.0)
    presence.count("bob", 1, 7.0, on_purpose=False)
    assert presence.empty_since is None and not presence.left_on_purpose


def test_an_absence_counts_again_from_when_the_opponent_comes_back() -> None:
    presence = Presence()
    presence.seat_away(Color.BLACK, 10.0)
    presence.seat_away(Color.WHITE, 12.0)
    presence.seat_back(Color.WHITE, 20.0)
    assert presence.away_since == {Color.BLACK: 20.0}


def test_the_spectator_count_is_told_at_most_once_a_second() -> None:
    presence = Presence()
    assert presence.count_to_tell(1, 100.0)
    assert not presence.count_to_tell(2, 100.5) and presence.count_due == 100.0 + SPECTATOR_COUNT_EVERY_S
    assert presence.count_to_tell(3, 101.0) and presence.count_due is None
    assert not presence.count_to_tell(3, 105.0), "an unchanged count is not told again"


def test_a_copy_is_independent() -> None:
    presence = Presence()
    presence.count("alice", 1, 0.0, on_purpose=False)
    twin = presence.copy()
    twin.count("bob", 1, 0.0, on_purpose=False)
    twin.seat_away(Color.BLACK, 1.0)
    assert presence.connections == {"alice": 1} and presence.total == 1 and presence.away_since == {}
