"""bench.profile: py-spy's raw samples read into functions by self and total time."""

from __future__ import annotations

from bench.profile import function_of, profile_of


def test_every_line_of_a_function_counts_as_that_function_and_its_file_is_named_in_short() -> None:
    assert function_of("send (/x/.venv/lib/python3.11/site-packages/websockets/asyncio/connection.py:400)") == (
        "send (websockets/asyncio/connection.py)"
    )
    assert function_of("_run_once (/root/.pyenv/versions/3.11.7/lib/python3.11/asyncio/base_events.py:1)") == (
        "_run_once (asyncio/base_events.py)"
    )
    assert function_of("apply (/tmp/bench-base-0123456789ab/server/rooms/room.py:12)") == "apply (server/rooms/room.py)"


def test_self_time_is_the_top_of_the_stack_and_total_time_counts_a_recursive_function_once() -> None:
    raw = "main (m.py:1);play (p.py:2) 3\nmain (m.py:1) 1\nmain (m.py:1);play (p.py:3);main (m.py:9) 2\n"
    profile = profile_of(raw, 2.0)
    assert profile.samples == 6
    shares = {entry.function: (entry.self_share, entry.total_share) for entry in profile.entries}
    assert shares == {"play (p.py)": (3 / 6, 5 / 6), "main (m.py)": (3 / 6, 1.0)}
    assert profile.lines(1)[1:] == ["   50.0%  83.3%  play (p.py)"]
