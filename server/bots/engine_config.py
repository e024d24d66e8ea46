"""The outside engines an operator offers as bot levels, read from a TOML file (`--engines FILE`).

    [engines.rapfi]
    command = "/opt/rapfi/pbrain-rapfi"        # or a list: ["/opt/rapfi/pbrain-rapfi", "--config", "x.toml"]
    description = "Rapfi, the Gomocup champion"
    rules = ["freestyle", "standard", "renju"]
    sizes = [15, 20]
    time_ms = 2000

Each table under `engines` is one engine; its key is the level name
people pick. Every field but `command` has a default (see `EngineSpec`).
Reading checks everything and says where a mistake is (`EngineConfigError`
names the file, the engine and the field), so that a server never starts
with an engine it would fail to run. docs/engines.md describes the format
for operators.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.notation import MAX_SIZE, MIN_SIZE
from engine.registry import level_names
from engine.types import Rule

LEVEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
"""An engine's level name: lower-case letters, digits, `_` and `-` (a valid player name)."""


class EngineConfigError(ValueError):
    """The engines file cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """One outside engine as the operator configured it."""

    name: str
    """The level name people pick in `create_room` and see in `list_bots`."""
    command: tuple[str, ...]
    """The brain's command line (a string in the file is split as a shell would)."""
    description: str = "An outside engine speaking the Gomocup protocol."
    """One sentence for people choosing an opponent."""
    rules: frozenset[Rule] = frozenset({Rule.FREESTYLE})
    """The rules it plays (`INFO rule` tells it which)."""
    sizes: frozenset[int] = frozenset({15})
    """The board sizes it plays."""
    time_ms: int = 1000
    """Its thinking time per move; a room's clock or the server's `--bot-time-ms` may lower it."""
    tolerance_ms: int = 1000
    """How long past its thinking time it may take to answer before it counts as hung and is killed."""
    start_timeout_s: float = 10.0
    """How long it may take to answer START."""
    memory_mb: int | None = None
    """The memory it may use (`INFO max_memory`), or None to say nothing."""
    processes: int = 1
    """Live processes kept: each plays one game at a time; more games than this take turns."""
    analysis: bool = False
    """Whether it answers `analyze` (at most one engine may)."""
    swap2: bool = False
    """Whether it understands SWAP2BOARD, so that it may sit in rooms with the swap2 opening."""
    rating: int | None = None
    """Its starting rating in the pool, if known (then with the deviation of our own levels)."""
    working_dir: str | None = None
    """The folder it runs in (brains often read their weights from it); None: the server's."""


_FIELDS = {
    "command",
    "description",
    "rules",
    "sizes",
    "time_ms",
    "tolerance_ms",
    "start_timeout_s",
    "memory_mb",
    "processes",
    "analysis",
    "swap2",
    "rating",
    "working_dir",
}


def read_engines(path: str | Path) -> tuple[EngineSpec, ...]:
    """The engines configured in the TOML file at `path`, in the file's order.

    Raises EngineConfigError for a file that cannot be read, is not TOML, or
    configures an engine wrongly (an unknown field, a wrong type or value, a
    name taken by one of our levels, two engines answering `analyze`).
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise EngineConfigError(f"cannot read the engines file {path}: {error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise EngineConfigError(f"{path} is not a TOML file: {error}") from None
    return parse_engines(data, str(path))


def parse_engines(data: Mapping[str, Any], where: str = "the engines file") -> tuple[EngineSpec, ...]:
    """The engines of an already parsed TOML document (see `read_engines`)."""
    unknown = set(data) - {"engines"}
    if unknown:
        first = sorted(unknown)[0]
        raise EngineConfigError(f"{where}: unknown table or key {first!r}; engines go under [engines.NAME]")
    tables = data.get("engines", {})
    if not isinstance(tables, Mapping):
        raise EngineConfigError(f"{where}: 'engines' must be a table of [engines.NAME] tables")
    specs = tuple(_engine(name, table, f"{where}, engine {name!r}") for name, table in tables.items())
    analysts = [spec.name for spec in specs if spec.analysis]
    if len(analysts) > 1:
        raise EngineConfigError(f"{where}: only one engine may answer analyze, not {', '.join(analysts)}")
    return specs


def _engine(name: str, table: object, where: str) -> EngineSpec:
    if not LEVEL_NAME.match(name):
        raise EngineConfigError(f"{where}: a name is 1 to 32 lower-case letters, digits, '_' or '-'")
    if name in level_names():
        raise EngineConfigError(f"{where}: {name!r} is one of the server's own levels; choose another name")
    if not isinstance(table, Mapping):
        raise EngineConfigError(f"{where}: must be a table of fields")
    unknown = set(table) - _FIELDS
    if unknown:
        fields = ", ".join(sorted(_FIELDS))
        raise EngineConfigError(f"{where}: unknown field {sorted(unknown)[0]!r}; the fields are {fields}")
    if "command" not in table:
        raise EngineConfigError(f"{where}: 'command' is missing")
    read = _Reader(table, where)
    defaults = EngineSpec(name, ())
    return EngineSpec(
        name=name,
        command=read.command(),
        description=read.text("description", defaults.description),
        rules=read.rules(defaults.rules),
        sizes=read.sizes(defaults.sizes),
        time_ms=read.whole("time_ms", defaults.time_ms, least=1),
        tolerance_ms=read.whole("tolerance_ms", defaults.tolerance_ms, least=0),
        start_timeout_s=read.seconds("start_timeout_s", defaults.start_timeout_s, least=0.1),
        memory_mb=read.optional_whole("memory_mb", least=1),
        processes=read.whole("processes", defaults.processes, least=1),
        analysis=read.flag("analysis", defaults.analysis),
        swap2=read.flag("swap2", defaults.swap2),
        rating=read.optional_whole("rating", least=0),
        working_dir=read.optional_text("working_dir"),
    )


class _Reader:
    """One engine's table, read field by field with errors that name the field."""

    def __init__(self, table: Mapping[str, Any], where: str) -> None:
        self._table = table
        self._where = where

    def _fail(self, key: str, wanted: str) -> EngineConfigError:
        return EngineConfigError(f"{self._where}: {key!r} must be {wanted}, not {self._table[key]!r}")

    def command(self) -> tuple[str, ...]:
        value = self._table["command"]
        if isinstance(value, str):
            try:
                words = shlex.split(value)
            except ValueError as error:
                raise EngineConfigError(f"{self._where}: 'command' cannot be split into words: {error}") from None
        elif isinstance(value, list) and all(isinstance(word, str) for word in value):
            words = list(value)
        else:
            raise self._fail("command", "a string or a list of strings")
        if not words or not words[0]:
            raise EngineConfigError(f"{self._where}: 'command' is empty")
        return tuple(words)

    def text(self, key: str, default: str) -> str:
        value = self._table.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self._fail(key, "a string with some text")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key, "") if key in self._table else None

    def flag(self, key: str, default: bool) -> bool:
        value = self._table.get(key, default)
        if not isinstance(value, bool):
            raise self._fail(key, "true or false")
        return value

    def whole(self, key: str, default: int, least: int) -> int:
        value = self._table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise self._fail(key, f"a whole number of at least {least}")
        return value

    def optional_whole(self, key: str, least: int) -> int | None:
        return self.whole(key, least, least) if key in self._table else None

    def seconds(self, key: str, default: float, least: float) -> float:
        value = self._table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < least:
            raise self._fail(key, f"a number of seconds of at least {least}")
        return float(value)

    def rules(self, default: frozenset[Rule]) -> frozenset[Rule]:
        value = self._table.get("rules", sorted(default))
        if not isinstance(value, list) or not value or not all(isinstance(rule, str) for rule in value):
            raise self._fail("rules", "a list of rule names")
        try:
            return frozenset(Rule.parse(rule) for rule in value)
        except ValueError as error:
            raise EngineConfigError(f"{self._where}: {error}") from None

    def sizes(self, default: frozenset[int]) -> frozenset[int]:
        value = self._table.get("sizes", sorted(default))
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(size, int) and not isinstance(size, bool) for size in value)
            or not all(MIN_SIZE <= size <= MAX_SIZE for size in value)
        ):
            raise self._fail("sizes", f"a list of board sizes from {MIN_SIZE} to {MAX_SIZE}")
        return frozenset(value)
