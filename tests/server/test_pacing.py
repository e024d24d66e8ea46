"""Counting what each key did lately, with nothing kept for a key gone quiet."""

from __future__ import annotations

from server.lobby.pacing import RecentCounts


def test_counts_cover_the_window_and_a_quiet_key_is_forgotten() -> None:
    said: RecentCounts[str] = RecentCounts(10.0)
    said.add("alice", 0.0)
    said.add("alice", 4.0)
    said.add("bob", 5.0)
    assert (said.count("alice", 9.0), said.count("bob", 9.0)) == (2, 1)
    assert said.count("alice", 10.0) == 1, "a line exactly one window old has left it"
    assert said.count("alice", 14.0) == 0 and said.count("bob", 14.0) == 1
    assert len(said) == 1, "alice is forgotten"
    assert said.count("bob", 15.0) == 0 and len(said) == 0
