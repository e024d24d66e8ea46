"""bench.load at a tiny size: every figure is printed, and the counts are what was asked."""

from __future__ import annotations

import re

import pytest
from printed_table import last_line, milliseconds, printed_rows

from bench.load import main
from bench.profile import PY_SPY
from server.hub.services import Limits

TINY = ["--connections", "20", "--games", "2", "--rate", "2", "--spectators", "5", "--duration", "3"]


def test_a_tiny_run_holds_the_connections_plays_the_games_and_reaches_the_spectators(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(TINY) == 0
    output = capsys.readouterr().out
    assert output.startswith("$ python -m bench.load " + " ".join(TINY) + "\n")
    rows = printed_rows(output)

    assert rows["idle connections held"][0] == "20 of 20"
    assert re.fullmatch(r"-?\d+\.\d KB", rows["memory per idle connection"][0])
    achieved, asked = re.fullmatch(r"(\d+\.\d) \((\d+\.\d)\)", rows["moves/s achieved (asked)"][0]).groups()
    assert float(asked) == 6.0  # two games and the spectated one, 2 plies a second each
    assert float(achieved) > 0
    measured, unanswered = map(int, rows["moves measured / unanswered"][0].split(" / "))
    assert measured > 0 and unanswered == 0
    trip = [milliseconds(rows[f"move round trip {name}"][0]) for name in ("p50", "p99", "max")]
    assert 0 < trip[0] <= trip[1] <= trip[2]

    assert rows["spectators joined (in s)"][0].startswith("5 (")
    deliveries, spectated = map(int, re.fullmatch(r"(\d+) \((\d+) moves\)", rows["spectator deliveries"][0]).groups())
    assert spectated > 0 and deliveries == 5 * spectated
    delivery = [milliseconds(rows[f"spectator delivery {name}"][0]) for name in ("p50", "p99", "max")]
    assert delivery[0] <= delivery[1] <= delivery[2] and delivery[2] > 0

    assert float(rows["server CPU per move"][0].removesuffix(" ms")) >= 0
    started, failed = map(int, rows["games started / failed"][0].split(" / "))
    assert started >= 3 and failed == 0
    assert rows["errors received"][0] == "none"


def test_only_the_parts_asked_for_are_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--parts", "idle", "--connections", "10", "--duration", "1"]) == 0
    rows = printed_rows(capsys.readouterr().out)
    assert rows["idle connections held"][0] == "10 of 10"
    assert rows["moves measured / unanswered"][0] == "0 / 0"
    assert rows["move round trip p99"][0] == "-"
    assert rows["spectators joined (in s)"][0].startswith("0 (")


def test_more_idle_connections_than_the_servers_default_per_address_limit_are_held(
    capsys: pytest.CaptureFixture[str],
) -> None:
    past_the_default = Limits().connections_per_address + 20
    assert main(["--parts", "idle", "--connections", str(past_the_default), "--duration", "1"]) == 0
    rows = printed_rows(capsys.readouterr().out)
    assert rows["idle connections held"][0] == f"{past_the_default} of {past_the_default}"


def test_a_server_that_cannot_start_is_reported_not_waited_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--connections", "1", "--duration", "1", "--server-arg=--no-such-option"]) == 1
    error = capsys.readouterr().err
    assert "the server did not start" in error and "--no-such-option" in error


@pytest.mark.skipif(not PY_SPY.exists(), reason="py-spy is not installed beside this Python")
def test_a_profiled_run_names_where_the_servers_cpu_went(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--connections", "0", "--games", "4", "--rate", "5", "--spectators", "0", "--duration", "3", "--profile"])
        == 0
    )
    output = capsys.readouterr().out
    heading = last_line(output, "server profile (py-spy, ")
    assert re.fullmatch(
        r"[\d,]+ samples over 3 s\): top 12 functions by self time, share of the samples self / total", heading
    )
    entries = output[output.index("server profile") :].splitlines()[1:]
    assert 0 < len(entries) <= 12
    shares = [tuple(float(share) for share in re.findall(r"(\d+\.\d)%", entry)) for entry in entries]
    assert all(own <= total for own, total in shares)
    assert [own for own, _ in shares] == sorted((own for own, _ in shares), reverse=True)
    assert sum(own for own, _ in shares) <= 100 + 0.05 * len(shares), "each share is rounded to 0.1%"
