"""Compiles the engine's hot path to C extension modules with mypyc, when this machine can.

The packages are listed here too: the top-level `migrations/` folder ships
inside the package as `server.migrations` (package data, read with
importlib.resources), which needs a mapping pyproject.toml's `find` cannot
express. Everything else about the package is in pyproject.toml. The modules listed
in `engine/build.py` (`COMPILED_MODULES`) are compiled when mypyc, a C
compiler and Python's headers are all present; otherwise, or with
`GOMOKU_ENGINE=pure` in the environment, the package installs as pure
Python, which behaves identically at about a third of the speed. An
editable install (`pip install -e .`, as `./dev` does) builds the extension
modules next to their sources, where Python imports them first.
"""

from __future__ import annotations

import os
import runpy
import sys
import sysconfig
import tempfile

from setuptools import Extension, find_packages, setup

BUILD = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine", "build.py"))


def compiled_engine() -> list[Extension]:
    """The extension modules to build: the engine's hot path, or none when it cannot be compiled."""
    if BUILD["pure_python_requested"]():
        return _pure(f"{BUILD['PURE_VARIABLE']}=pure")
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _pure("mypyc (the mypy package) is not installed")
    problem = _compiler_problem()
    if problem:
        return _pure(problem)
    paths = [name.replace(".", "/") + ".py" for name in BUILD["COMPILED_MODULES"]]
    # One group, so that calls between the modules are direct C calls; its shared library is
    # engine/compiled__mypyc, inside the package.
    return mypycify(paths, group_name="engine.compiled", opt_level="3")


def _compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, no Python headers), or None."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CompileError, DistutilsExecError, DistutilsPlatformError
    from setuptools._distutils.sysconfig import customize_compiler

    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "Python's headers (Python.h) are not installed"
    with tempfile.TemporaryDirectory() as folder:
        probe = os.path.join(folder, "probe.c")
        with open(probe, "w") as file:
            file.write("#include <Python.h>\nint probe(void) { return Py_IsInitialized(); }\n")
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            compiler.compile([probe], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]])
        except (CompileError, DistutilsExecError, DistutilsPlatformError, OSError) as error:
            return f"no working C compiler ({error})"
    return None


def _pure(reason: str) -> list[Extension]:
    print(f"setup.py: the engine installs as pure Python: {reason}", file=sys.stderr)
    return []


CODE_PACKAGES = find_packages(include=["engine*", "wire*", "brains*", "server*", "client*", "tools*"])
MIGRATIONS_PACKAGE = "server.migrations"
"""The schema, `migrations/*.sql` (and PostgreSQL's baseline, `migrations/postgresql/`), as a package."""


def data_packages(top: str, folder: str) -> dict[str, str]:
    """Every folder under `folder` as the package that holds its files, named from `top`: setuptools
    ships a folder's files only as some package's data, and wants such folders named as packages."""
    found = {}
    for path, _, _ in os.walk(folder):
        relative = os.path.relpath(path, folder)
        name = top if relative == "." else f"{top}.{relative.replace(os.sep, '.')}"
        found[name] = path
    return found


# The browser client and the schema: files, not code, each folder a package of data.
DATA_PACKAGES = {**data_packages("server.static", "server/static"), **data_packages(MIGRATIONS_PACKAGE, "migrations")}

setup(
    packages=[*CODE_PACKAGES, *DATA_PACKAGES],
    package_dir={name: path for name, path in DATA_PACKAGES.items() if name.startswith(MIGRATIONS_PACKAGE)},
    package_data={
        # The bots' arena ratings and the starting puzzles, read from their packages; the data packages whole.
        "server.players": ["bot_ratings.json"],
        "server.review": ["starting_puzzles.json"],
        **dict.fromkeys(DATA_PACKAGES, ["*"]),
    },
    ext_modules=compiled_engine(),
)
