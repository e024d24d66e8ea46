"""The protocol in the repository says what the server's models say, message by message."""

from __future__ import annotations

import json
import re
from pathlib import Path

from wire.schema import SCHEMA_PATH, protocol_schema, render

PROTOCOL_DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def message_types(direction: str) -> set[str]:
    return set(protocol_schema()[direction]["discriminator"]["mapping"])


def test_the_schema_file_is_what_the_models_generate() -> None:
    written = SCHEMA_PATH.read_text(encoding="utf-8")
    assert json.loads(written) == json.loads(render()), (
        "docs/protocol.schema.json is out of date: run `./dev run python -m wire.schema --write`"
    )


def test_the_schema_knows_every_message_of_each_direction() -> None:
    assert {"hello", "create_room", "move", "analyze"} <= message_types("client")
    assert {"welcome", "error", "room", "moved", "game_over"} <= message_types("server")


def test_the_document_describes_every_message_and_no_other() -> None:
    text = PROTOCOL_DOCUMENT.read_text(encoding="utf-8")
    documented = set(re.findall(r'"type": "([a-z_]+)"', text))
    known = message_types("client") | message_types("server")
    assert known - documented == set(), "messages the server has but docs/protocol.md does not show"
    assert documented - known == set(), "messages docs/protocol.md shows but the server does not have"
