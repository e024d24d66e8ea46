"""The Dockerfile read as Docker reads the parts these tests replay: stages, ARG defaults, COPY, RUN and CMD.

Only what the image file uses is understood: one instruction a line, `\\` continuing it, `#` comments,
exec-form CMD. Enough to run the image's own commands where no Docker engine is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Stage:
    """One `FROM` and the instructions under it, in order, as (instruction, arguments)."""

    base: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, instruction: str) -> list[str]:
        return [arguments for name, arguments in self.instructions if name == instruction]


@dataclass
class Dockerfile:
    arg_defaults: dict[str, str]
    """The ARGs declared before the first FROM, with their default values."""
    stages: list[Stage]

    @classmethod
    def read(cls, path: Path) -> Dockerfile:
        arg_defaults: dict[str, str] = {}
        stages: list[Stage] = []
        for instruction, arguments in _instructions(path.read_text(encoding="utf-8")):
            if instruction == "FROM":
                stages.append(Stage(arguments))
            elif not stages and instruction == "ARG":
                name, _, default = arguments.partition("=")
                arg_defaults[name] = json.loads(default) if default.startswith('"') else default
            elif stages:
                stages[-1].instructions.append((instruction, arguments))
        return cls(arg_defaults, stages)

    @property
    def builder(self) -> Stage:
        return self.stages[0]

    @property
    def image(self) -> Stage:
        return self.stages[-1]

    def command(self) -> list[str]:
        """The image's CMD, in exec form."""
        (cmd,) = self.image.all("CMD")
        words: list[str] = json.loads(cmd)
        return words

    def copied_sources(self) -> list[str]:
        """What the builder copies from the build context (each COPY's sources)."""
        sources = []
        for arguments in self.builder.all("COPY"):
            *paths, _destination = arguments.split()
            sources += paths
        return sources


def _instructions(text: str) -> list[tuple[str, str]]:
    instructions = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        instruction, _, arguments = whole.partition(" ")
        instructions.append((instruction.upper(), arguments.strip()))
    return instructions
