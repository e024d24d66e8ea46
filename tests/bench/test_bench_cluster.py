"""bench.cluster at a tiny size: every setup plays its plies, every component's CPU is charged where
it runs, and the fail-over loses and duplicates nothing. Real PostgreSQL, Redis, HAProxy and nodes on
loopback; skipped where they are not installed, unless GOMOKU_CLUSTER_TESTS=required."""

from __future__ import annotations

import re

import pytest
from printed_table import last_line, milliseconds, printed_rows

from bench.cluster import SETUPS, main
from tests.cluster.services import require_postgres
from tools.local_services import missing_programs

TINY = ["--games", "7", "--plies", "2", "--kills", "1", "--seeks", "2"]
"""Seven games seat 21 players on one node: more than the new names one address may sign up in an
hour by default, which the bench's one address must not be held to."""


def test_a_tiny_run_measures_every_setup_the_lobby_and_a_fail_over_with_nothing_lost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    require_postgres()
    if missing_programs():
        pytest.skip(f"missing: {' '.join(missing_programs())}")
    main(TINY)
    output = capsys.readouterr().out
    assert output.startswith("python -m bench.cluster " + " ".join(TINY) + "\n")
    rows = printed_rows(output)
    for setup, node_count, through_proxy in SETUPS:
        plies, per_second, p50, p99, to_spectator, nodes, postgres, redis, proxy = rows[setup]
        assert plies == "14" and float(per_second) > 0
        assert 0 < milliseconds(p50) <= milliseconds(p99) and milliseconds(to_spectator) > 0
        assert re.fullmatch(r"\d+ us", nodes)
        assert (postgres == "-") == (setup == "1 node, SQLite")
        assert (redis == "-") == (node_count == 1)
        assert (proxy == "-") == (not through_proxy)
    assert re.fullmatch(
        r" \(4 deliveries\): p50 \d+\.\d ms, p99 \d+\.\d ms", last_line(output, "lobby delivery across nodes")
    )
    fail_over = last_line(output, "fail-over over 1 kills, kill to next accepted move: ")
    assert re.fullmatch(r"p50 \d+\.\d\d s, max \d+\.\d\d s; moves lost 0, duplicated 0", fail_over)
