"""Reading back the table a benchmark prints: its rows by figure name."""

from __future__ import annotations

import re


def printed_rows(output: str) -> dict[str, list[str]]:
    """Each table row's cells after the figure's name, by that name (columns are two spaces apart)."""
    rows: dict[str, list[str]] = {}
    for line in output.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 2:
            rows[cells[0]] = cells[1:]
    return rows


def milliseconds(cell: str) -> float:
    """The number of `12.3 ms`."""
    match = re.fullmatch(r"(-?\d+(?:\.\d+)?) ms", cell)
    assert match is not None, f"not a duration: {cell!r}"
    return float(match.group(1))


def last_line(output: str, prefix: str) -> str:
    """The text after `prefix` on the line that starts with it."""
    for line in output.splitlines():
        if line.startswith(prefix):
            return line[len(prefix) :]
    raise AssertionError(f"no line starts with {prefix!r} in:\n{output}")
