"""The JSON Schema of every wire message, generated from the pydantic models of `wire.messages`.

    python -m wire.schema            print it
    python -m wire.schema --write    rewrite docs/protocol.schema.json

The file in docs/ is for people and other languages' clients; a test fails
when it no longer matches the models, so that it is regenerated with every
change to the wire.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from wire.messages import PROTOCOL_VERSION, ClientRequest, ServerEvent

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"


def protocol_schema() -> dict[str, Any]:
    """One schema document: `client` is any request, `server` any message the server sends."""
    client = TypeAdapter(ClientRequest).json_schema(ref_template="#/$defs/{model}")
    server = TypeAdapter(ServerEvent).json_schema(ref_template="#/$defs/{model}")
    definitions = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Gomoku server wire protocol, version {PROTOCOL_VERSION}",
        "description": "One JSON object per websocket text frame; see docs/protocol.md.",
        "client": client,
        "server": server,
        "$defs": dict(sorted(definitions.items())),
    }


def render() -> str:
    """The schema as the file holds it: indented, keys in a stable order, a final newline."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the schema, or write it to docs/protocol.schema.json with --write."""
    parser = argparse.ArgumentParser(prog="python -m wire.schema", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {SCHEMA_PATH.name} in docs/")
    arguments = parser.parse_args(argv)
    if arguments.write:
        SCHEMA_PATH.write_text(render(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
    else:
        sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
