"""The book builder at a tiny budget: it appraises every candidate and writes a module that reads back."""

from pathlib import Path

import pytest

from engine.opening_book import candidate_openings
from tools.opening_book import main


def test_a_tiny_build_writes_every_candidate_most_balanced_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "book.py"
    argv = ["--rules", "standard", "--nodes", "60", "--jobs", "1", "--out", str(out)]
    assert main(argv) == 0
    text = out.read_text()
    assert "./dev run python -m tools.opening_book --rules standard --nodes 60" in text
    namespace: dict[str, object] = {}
    exec(compile(text, str(out), "exec"), namespace)
    data = namespace["BOOK_DATA"]
    entries = data["standard"]  # type: ignore[index]
    assert len(entries) == len(candidate_openings())
    balance = [abs(value) for _, value, _ in entries]
    assert balance == sorted(balance)
    assert f"[{len(entries)}/{len(entries)}]" in capsys.readouterr().out


def test_a_bad_level_is_refused(tmp_path: Path) -> None:
    assert main(["--level", "grandmaster", "--out", str(tmp_path / "book.py")]) == 2
    assert not (tmp_path / "book.py").exists()
