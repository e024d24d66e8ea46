"""Ctrl-C in the middle of a benchmark stops the server it started, bot workers included."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def processes_in_group(group: int) -> list[int]:
    """Living processes of a process group (a killed one may stay a zombie a moment: not counted)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            state, _, group_id = text[text.rindex(")") + 2 :].split()[:3]
            if int(group_id) == group and state != "Z":
                found.append(int(entry.name))
    return found


def interruptible() -> None:
    """Give the benchmark the Ctrl-C a terminal gives: SIGINT neither ignored nor blocked. A process
    inherits an ignored or blocked signal from whoever starts it (here a test worker that other tests
    have run in), and Python turns SIGINT into KeyboardInterrupt only when it starts with the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.parametrize(
    "command",
    [
        ["bench.load", "-C", "5", "-G", "1", "-S", "1", "--duration", "300"],
        ["bench.bots", "--bot-games", "1", "--human-games", "1", "--duration", "300"],
        ["bench.lobby", "--watchers", "4", "--baseline-watchers", "2", "--rate", "2", "--duration", "300"],
        ["bench.spectators", "--spectators", "3", "--moves", "180", "--rate", "1"],
    ],
    ids=["load", "bots", "lobby", "spectators"],
)
def test_ctrl_c_stops_the_server_and_every_process_it_started(command: list[str]) -> None:
    benchmark = subprocess.Popen(
        [sys.executable, "-m", *command],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        assert benchmark.stderr is not None
        started = re.match(r"server pid (\d+) listening on ws://", benchmark.stderr.readline())
        assert started is not None
        server = int(started.group(1))
        benchmark.stderr.readline()  # the next step has begun
        assert processes_in_group(server)

        benchmark.send_signal(signal.SIGINT)
        assert benchmark.wait(60) == 130
        assert "interrupted" in benchmark.stderr.read()
        assert not Path(f"/proc/{server}").exists()
        assert processes_in_group(server) == []
    finally:
        if benchmark.poll() is None:
            benchmark.kill()
            benchmark.wait()
