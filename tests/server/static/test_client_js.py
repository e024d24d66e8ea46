"""The browser client's JavaScript without a browser.

Its unit tests (`*.test.mjs` beside this file) run under Node's own test
runner; its renju rule gives the engine's answers on positions drawn at
random; and its source neither builds markup from strings nor loads
anything from another server.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

from browser_harness import node_path

from engine.rules import BLACK, EMPTY, WHITE, forbidden_reason
from server.edge.web import STATIC_ROOT

HERE = Path(__file__).resolve().parent
NODE_TIMEOUT_S = 120


def test_the_javascript_unit_tests_pass() -> None:
    node = node_path()
    files = sorted(str(path) for path in HERE.glob("*.test.mjs"))
    assert files, "no JavaScript tests found"
    result = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=NODE_TIMEOUT_S)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]


def random_position(rng: random.Random) -> list[int]:
    """A crowded 15x15 middle: about a third black, an eighth white, so forbidden shapes of every kind occur."""
    cells = [EMPTY] * 225
    for y in range(4, 11):
        for x in range(4, 11):
            draw = rng.random()
            cells[y * 15 + x] = BLACK if draw < 0.32 else WHITE if draw < 0.45 else EMPTY
    return cells


ASK_THE_CLIENT = """
import { forbiddenPoints } from %s;
let input = '';
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const points = (moves) => forbiddenPoints(moves, 15).map(({ x, y, reason }) => [x, y, reason]);
  const answers = JSON.parse(input).map(points);
  process.stdout.write(JSON.stringify(answers));
});
"""


def test_the_forbidden_points_are_the_engines() -> None:
    node = node_path()
    rng = random.Random(20261123)
    positions = [random_position(rng) for _ in range(40)]
    expected = []
    for cells in positions:
        found = []
        for index, cell in enumerate(cells):
            if cell == EMPTY and (reason := forbidden_reason(cells, 15, index % 15, index // 15)) is not None:
                found.append([index % 15, index // 15, str(reason)])
        expected.append(found)
    assert sum(len(found) for found in expected) > 100, "the positions should be rich in forbidden points"
    assert {reason for found in expected for _, _, reason in found} == {"overline", "double-four", "double-three"}

    moves = [
        [{"x": i % 15, "y": i // 15, "color": "black" if c == BLACK else "white"} for i, c in enumerate(cells) if c]
        for cells in positions
    ]
    module = json.dumps((STATIC_ROOT / "js" / "renju.js").as_uri())
    result = subprocess.run(
        [node, "--input-type=module", "-e", ASK_THE_CLIENT % module],
        input=json.dumps(moves),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = json.loads(result.stdout)
    for number, (mine, engines) in enumerate(zip(answers, expected, strict=True)):
        assert mine == engines, f"position {number}"


def client_sources() -> list[Path]:
    return sorted(path for path in STATIC_ROOT.rglob("*") if path.suffix in {".js", ".html", ".css", ".svg"})


def test_no_markup_is_built_from_strings() -> None:
    """Text reaches the page as text nodes only, so a name or a chat line is never read as HTML."""
    forbidden = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(")
    offenders = [
        f"{path.relative_to(STATIC_ROOT)}:{number}: {line.strip()}"
        for path in client_sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if forbidden.search(line)
    ]
    assert offenders == []


def test_nothing_is_loaded_from_another_server() -> None:
    """Every address in the client is relative; the only absolute URL is SVG's namespace name, which loads nothing."""
    absolute = re.compile(r"""(?:https?:|wss?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}|@import|url\((?!#)""")
    allowed = {"http://www.w3.org/2000/svg"}
    offenders = []
    for path in client_sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in absolute.finditer(line):
                if not any(line[match.start() :].startswith(name) for name in allowed):
                    offenders.append(f"{path.relative_to(STATIC_ROOT)}:{number}: {line.strip()}")
    assert offenders == []
