"""The engines file: a TOML table per outside engine, every mistake named with its place."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.types import Rule
from server.bots.engine_config import EngineConfigError, EngineSpec, read_engines
from server.main import main, parse_arguments

EXAMPLE = """
[engines.rapfi]
command = "/opt/rapfi/pbrain-rapfi --config 'my config.toml'"
description = "Rapfi, the Gomocup champion"
rules = ["freestyle", "renju"]
sizes = [15, 20]
time_ms = 2000
tolerance_ms = 500
start_timeout_s = 20
memory_mb = 256
processes = 2
analysis = true
swap2 = true
rating = 2400
working_dir = "/opt/rapfi"

[engines.embryo]
command = ["/opt/embryo/pbrain-embryo"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "engines.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_field_is_read_and_every_field_but_the_command_has_a_default(tmp_path: Path) -> None:
    rapfi, embryo = read_engines(write(tmp_path, EXAMPLE))
    assert rapfi == EngineSpec(
        name="rapfi",
        command=("/opt/rapfi/pbrain-rapfi", "--config", "my config.toml"),
        description="Rapfi, the Gomocup champion",
        rules=frozenset({Rule.FREESTYLE, Rule.RENJU}),
        sizes=frozenset({15, 20}),
        time_ms=2000,
        tolerance_ms=500,
        start_timeout_s=20.0,
        memory_mb=256,
        processes=2,
        analysis=True,
        swap2=True,
        rating=2400,
        working_dir="/opt/rapfi",
    )
    assert embryo == EngineSpec("embryo", ("/opt/embryo/pbrain-embryo",))
    assert embryo.rules == {Rule.FREESTYLE} and embryo.sizes == {15} and embryo.time_ms == 1000


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[engines.x]\ndescription = 'no command'", "engine 'x': 'command' is missing"),
        ("[engines.x]\ncommand = ''", "engine 'x': 'command' is empty"),
        ("[engines.x]\ncommand = 'a'\ntime_ms = '2s'", "'time_ms' must be a whole number of at least 1, not '2s'"),
        ("[engines.x]\ncommand = 'a'\ntime_ms = 0", "'time_ms' must be a whole number of at least 1"),
        ("[engines.x]\ncommand = 'a'\nrules = ['caro']", "unknown rule 'caro'"),
        ("[engines.x]\ncommand = 'a'\nsizes = [4]", "'sizes' must be a list of board sizes from 5 to 26"),
        ("[engines.x]\ncommand = 'a'\nswap2 = 'yes'", "'swap2' must be true or false"),
        ("[engines.x]\ncommand = 'a'\nthreads = 4", "unknown field 'threads'"),
        ("[engines.master]\ncommand = 'a'", "'master' is one of the server's own levels"),
        ("[engines.Big]\ncommand = 'a'", "a name is 1 to 32 lower-case letters"),
        ("[engine.x]\ncommand = 'a'", "unknown table or key 'engine'"),
        (
            "[engines.a]\ncommand = 'a'\nanalysis = true\n[engines.b]\ncommand = 'b'\nanalysis = true",
            "only one engine may answer analyze, not a, b",
        ),
        ("[engines.x\ncommand = 'a'", "is not a TOML file"),
    ],
)
def test_a_mistake_is_refused_with_where_and_why(tmp_path: Path, text: str, complaint: str) -> None:
    with pytest.raises(EngineConfigError, match="engines.toml") as refused:
        read_engines(write(tmp_path, text))
    assert complaint in str(refused.value)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EngineConfigError, match="cannot read the engines file"):
        read_engines(tmp_path / "nowhere.toml")


def test_the_server_will_not_start_with_a_wrong_engines_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "[engines.x]\ncommand = 'a'\nprocesses = 0")
    with pytest.raises(SystemExit) as stopped:
        main(["--engines", str(path)])
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("gomoku-server: ") and "engine 'x': 'processes' must be a whole number of at least 1" in line
    assert parse_arguments(["--engines", str(write(tmp_path, EXAMPLE))]).engines[0].name == "rapfi"
