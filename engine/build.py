"""Which build of the engine is running: compiled to C by mypyc, or pure Python.

The search's hot modules (`COMPILED_MODULES`) are ordinary, fully typed
Python that mypyc compiles to C extension modules at install time when a C
compiler and Python's headers are present (see `setup.py`); the compiled
search visits about three times as many positions per second. Both builds
behave identically, move for move and node for node: tests and benchmarks
run the same code both ways.

An extension module sits next to its source and Python imports it first.
Setting the environment variable `GOMOKU_ENGINE=pure` makes this package
import the sources instead, even when compiled modules are present, so that
the pure build can be tested and measured on a machine that has both. It
is read once, when `engine` is first imported (`use_pure_python_if_asked`),
and applies to the whole process; `build_info()` says which build is in
use, for the server's log and `gomoku-engine --version`, and `build_kind()` for `list_bots`.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

COMPILED_MODULES = (
    "engine.board",
    "engine.limits",
    "engine.rules",
    "engine.search.patterns",
    "engine.search.position",
    "engine.search.threats",
    "engine.search.movegen",
    "engine.search.safety",
    "engine.search.search",
)
"""The modules setup.py compiles: the board and rules, the search and everything it calls per node."""

PURE_VARIABLE = "GOMOKU_ENGINE"
"""The environment variable that asks for the pure build when set to `pure` (at install time too:
setup.py then compiles nothing)."""


def pure_python_requested() -> bool:
    """Whether the environment asks for the pure-Python engine (`GOMOKU_ENGINE=pure`)."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() == "pure"


class _SourcesFirst(MetaPathFinder):
    """Finds the compiled modules' Python sources, ahead of the extension modules beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        for entry in path or ():
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def use_pure_python_if_asked() -> None:
    """Import the compiled modules from their sources from now on, if the environment asks for it.

    Called by `engine/__init__.py` before any compiled module is imported.
    """
    if pure_python_requested() and not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def compiled_modules() -> list[str]:
    """The modules of `COMPILED_MODULES` that this process runs compiled (imports them)."""
    return [name for name in COMPILED_MODULES if _is_extension(importlib.import_module(name))]


def is_compiled() -> bool:
    """Whether the engine's hot path runs compiled (every module of `COMPILED_MODULES`)."""
    return len(compiled_modules()) == len(COMPILED_MODULES)


def build_kind() -> str:
    """Which build of the engine this process runs, in a word or two: `compiled`, `pure` or
    `partly compiled` (an install whose extension modules are incomplete), as `list_bots` tells it."""
    compiled = compiled_modules()
    if len(compiled) == len(COMPILED_MODULES):
        return "compiled"
    return "partly compiled" if compiled else "pure"


def build_info() -> str:
    """One line saying which build of the engine this process runs, and why."""
    compiled = compiled_modules()
    if len(compiled) == len(COMPILED_MODULES):
        return "engine: compiled (mypyc)"
    if compiled:
        missing = ", ".join(name for name in COMPILED_MODULES if name not in compiled)
        return f"engine: partly compiled (mypyc): pure Python for {missing}"
    if pure_python_requested():
        return f"engine: pure Python ({PURE_VARIABLE}=pure)"
    return "engine: pure Python (not compiled: no C compiler at install, or a build without it)"


def _is_extension(module: ModuleType) -> bool:
    filename = getattr(module, "__file__", None) or ""
    return not filename.endswith(tuple(SOURCE_SUFFIXES))


def stale_sources() -> list[str]:
    """The sources of `COMPILED_MODULES` changed since they were compiled: while there are any,
    the compiled modules run older code than the sources show, and a rebuild is due (`./dev`
    does it, and the test suite refuses to run without it). Empty for a pure build.

    Reads only file times, without importing the modules, so that setup tools can call it.
    """
    package = os.path.dirname(os.path.abspath(__file__))
    libraries = [name for name in os.listdir(package) if name.startswith("compiled__mypyc.")]
    if not libraries:
        return []
    built = min(os.path.getmtime(os.path.join(package, name)) for name in libraries)
    root = os.path.dirname(package)
    sources = [os.path.join(root, *name.split(".")) + ".py" for name in COMPILED_MODULES]
    return [source for source in sources if os.path.getmtime(source) > built]
