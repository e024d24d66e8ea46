"""bench.compare: one benchmark against another checkout's server and this tree's, alternately, each
figure of both sides side by side with their ratio."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from printed_table import printed_rows

from bench.compare import main, table_cells
from bench.server_process import REPO, SERVER_TREE_VARIABLE, BenchError, server_tree

TINY = ["spectators", "--spectators", "3", "--moves", "4", "--rate", "10", "--procs", "1"]


@pytest.fixture
def other_checkout(tmp_path: Path) -> Iterator[Path]:
    """This repository's HEAD checked out elsewhere, sharing this tree's virtualenv."""
    tree = tmp_path / "base"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), "HEAD"], check=True)
    (tree / ".venv").symlink_to(REPO / ".venv")
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=True)


def test_both_servers_are_measured_in_turn_and_each_figure_compared(
    other_checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--base-tree", str(other_checkout), "--rounds", "2", "--", *TINY]) == 0
    captured = capsys.readouterr()
    assert re.findall(r"^## (\w+ \d)$", captured.out, re.MULTILINE) == ["base 1", "current 1", "base 2", "current 2"]
    assert f"(server from {other_checkout})" in captured.err and f"(server from {REPO})" in captured.err
    comparison = captured.out[captured.out.index("$ python -m bench.compare") :]
    assert re.search(rf"current: {REPO} at [0-9a-f]{{12}}\+?; load average \d+\.\d before, \d+\.\d after", comparison)
    rows = printed_rows(comparison)
    assert rows["figure"] == ["base 1", "current 1", "base 2", "current 2", "current/base"]
    assert rows["spectators joined"][:4] == ["3 of 3"] * 4
    assert rows["spectators joined"][4] == "x1.00"
    assert re.fullmatch(r"x\d+\.\d\d", rows["delivery p99"][4])
    assert rows["errors received"] == ["none"] * 4 + ["-"]


def test_the_current_side_may_be_another_checkout_too(other_checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = str(other_checkout)
    assert main(["--base-tree", tree, "--current-tree", tree, "--rounds", "1", "--", *TINY]) == 0
    captured = capsys.readouterr()
    assert f"(server from {REPO})" not in captured.err
    assert captured.err.count(f"(server from {other_checkout.resolve()})") == 2
    assert f"current: {other_checkout.resolve()} at " in captured.out


def test_a_table_with_several_value_columns_names_each_cell_by_its_column() -> None:
    printed = "$ python -m bench.lobby\nfigure  baseline  full  full/baseline  target\n------\n"
    printed += "delivery p99  10.0 ms  30.0 ms  x3.00  < 100 ms\nwatchers  10  1000\n"
    assert table_cells(printed) == {
        "delivery p99 [baseline]": "10.0 ms",
        "delivery p99 [full]": "30.0 ms",
        "watchers [baseline]": "10",
        "watchers [full]": "1000",
    }


def test_the_server_comes_from_the_tree_the_variable_names(
    other_checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SERVER_TREE_VARIABLE, raising=False)
    assert server_tree()[0] == REPO
    monkeypatch.setenv(SERVER_TREE_VARIABLE, str(other_checkout))
    tree, python = server_tree()
    assert tree == other_checkout.resolve() and python == str(other_checkout.resolve() / ".venv" / "bin" / "python")
    assert os.access(python, os.X_OK)


def test_a_tree_without_its_virtualenv_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SERVER_TREE_VARIABLE, str(tmp_path))
    with pytest.raises(BenchError, match="has no .venv/bin/python"):
        server_tree()
