"""The package as users get it: the image's own commands replayed in fresh virtualenvs, no Docker needed.

`Dockerfile`'s builder stage is replayed as written (its COPY sources copied to a folder of the test's,
its RUN lines run there by bash with a fresh virtualenv's `pip` and `python` first on PATH), with its
paths moved under the test's temporary folder: `/wheels` and `/opt/gomoku`. What is not replayed: the
final stage's `useradd` and `chown` (a user of the image's own), and Docker's layers themselves.

The build takes a minute or two (mypyc compiles the engine), so it is made once per run and shared by
the test workers (under a lock in the run's common temporary folder).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from dockerfile import Dockerfile

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = Dockerfile.read(REPO / "Dockerfile")
BUILD_TIMEOUT_S = 900


@pytest.fixture(scope="session")
def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every test worker of this run sees (a worker's own one without xdist)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        return tmp_path_factory.getbasetemp()
    folder = tmp_path_factory.getbasetemp().parent / f"install-{run}"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def only_one_worker(folder: Path, name: str) -> Iterator[bool]:
    """Hold `name`'s lock; say whether its work is still to do (no other worker finished it)."""
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / f"{name}.done"
        to_do = not done.exists()
        yield to_do
        if to_do:
            done.touch()


def clean_environment() -> dict[str, str]:
    """This process's environment less what a Docker build would not have: this checkout's virtualenv,
    and pip's settings of this machine (its configuration files and extra places to find packages)."""
    dropped = ("VIRTUAL_ENV", "PYTHONPATH", "PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONSTRAINT")
    environment = {key: value for key, value in os.environ.items() if key not in dropped}
    environment["PIP_CONFIG_FILE"] = os.devnull
    return environment


def replay(run: str, *, source: Path, builder: Path, wheels: Path, venv: Path, extras: str) -> None:
    """One RUN line of the builder, with the image's paths moved under the test's folder."""
    command = run.replace("/wheels", str(wheels)).replace("/opt/gomoku", str(venv)).replace("${EXTRAS}", extras)
    environment = clean_environment()
    environment["PATH"] = f"{builder / 'bin'}{os.pathsep}{os.environ['PATH']}"
    finished = subprocess.run(
        ["bash", "-c", command],
        cwd=source,
        env=environment,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    assert finished.returncode == 0, f"{command}\n{finished.stdout[-3000:]}\n{finished.stderr[-3000:]}"


@pytest.fixture(scope="session")
def builder_stage(shared_folder: Path) -> dict[str, Path]:
    """The builder's context, its own virtualenv, and the wheels made by the builder's first RUN."""
    paths = {name: shared_folder / name for name in ("source", "builder", "wheels")}
    with only_one_worker(shared_folder, "builder") as to_do:
        if to_do:
            paths["source"].mkdir()
            for copied in DOCKERFILE.copied_sources():
                origin = REPO / copied
                if origin.is_dir():
                    left_out = shutil.ignore_patterns("__pycache__", "*.so")  # as .dockerignore leaves them
                    shutil.copytree(origin, paths["source"] / copied, ignore=left_out)
                else:
                    shutil.copy2(origin, paths["source"] / copied)
            subprocess.run([sys.executable, "-m", "venv", str(paths["builder"])], check=True)
            first_run = DOCKERFILE.builder.all("RUN")[0]
            replay(first_run, **paths, venv=shared_folder / "unused", extras="")
    return paths


@pytest.fixture(scope="session")
def image_venv(shared_folder: Path, builder_stage: dict[str, Path]) -> Callable[[str], Path]:
    """The image's virtualenv (`/opt/gomoku`) as the builder's second RUN makes it, for these EXTRAS."""

    def made(extras: str) -> Path:
        venv = shared_folder / f"gomoku{extras.strip('[]') or '-default'}"
        with only_one_worker(shared_folder, venv.name) as to_do:
            if to_do:
                second_run = DOCKERFILE.builder.all("RUN")[1]
                replay(second_run, **builder_stage, venv=venv, extras=extras)
        return venv

    return made
