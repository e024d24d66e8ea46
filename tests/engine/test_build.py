"""The engine's two builds: compiled by mypyc, or the same sources as pure Python.

They must behave identically, node for node. CI compiles the engine and
sets GOMOKU_ENGINE_COMPILED=required, which turns the skip of a test that
needs the compiled build into a failure, so that the comparison cannot
silently stop running there.
"""

import json
import os
import subprocess
import sys

import pytest

from bench.engine import search_fingerprints
from engine import build_info
from engine.build import COMPILED_MODULES, PURE_VARIABLE, compiled_modules, is_compiled, pure_python_requested

REQUIRED = os.environ.get("GOMOKU_ENGINE_COMPILED") == "required"
FINGERPRINT_DEPTH = 3


def run_python(code: str, pure: bool) -> str:
    """What `code` prints in a fresh interpreter running the pure or the installed build."""
    environment = {key: value for key, value in os.environ.items() if key != PURE_VARIABLE}
    if pure:
        environment[PURE_VARIABLE] = "pure"
    finished = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=300, check=True
    )
    return finished.stdout


def needs_compiled_build() -> None:
    """Skip unless this process runs the compiled build (fail instead where CI requires it, except
    in the suite's second run, on the pure build, which asks for pure Python on purpose)."""
    if pure_python_requested():
        pytest.skip("this run asks for the pure-Python engine")
    if not is_compiled():
        message = f"the engine is not compiled here ({build_info()})"
        if REQUIRED:
            pytest.fail(message + ", and GOMOKU_ENGINE_COMPILED=required")
        pytest.skip(message)


def test_the_build_in_use_is_named() -> None:
    if is_compiled():
        assert build_info() == "engine: compiled (mypyc)"
        assert compiled_modules() == list(COMPILED_MODULES)
    elif pure_python_requested():
        assert build_info() == "engine: pure Python (GOMOKU_ENGINE=pure)"
        assert compiled_modules() == []
    else:
        assert build_info().startswith("engine: pure Python (not compiled")


def test_asking_for_pure_python_imports_the_sources_even_beside_compiled_modules() -> None:
    needs_compiled_build()
    code = (
        "import json, engine, importlib\n"
        "from engine.build import COMPILED_MODULES\n"
        "files = [importlib.import_module(name).__file__ for name in COMPILED_MODULES]\n"
        "print(json.dumps([engine.build_info(), files]))\n"
    )
    info, files = json.loads(run_python(code, pure=True))
    assert info == "engine: pure Python (GOMOKU_ENGINE=pure)"
    assert all(file.endswith(".py") for file in files)


def test_both_builds_search_alike_move_for_move_and_node_for_node() -> None:
    needs_compiled_build()
    code = (
        "import json\nfrom bench.engine import search_fingerprints\n"
        f"print(json.dumps(search_fingerprints({FINGERPRINT_DEPTH})))\n"
    )
    pure = [tuple(found) for found in json.loads(run_python(code, pure=True))]
    assert pure == search_fingerprints(FINGERPRINT_DEPTH)
