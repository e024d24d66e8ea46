"""The wire contract (PROTOCOL.md) as Python: message models, ids and error codes.

The server, the terminal client and `gomoku-bot` all speak through this
package, so it stands alone: it imports only the engine, pydantic and the
standard library (a test checks it), never the server. `wire.messages`
holds every message of both directions, `wire.ids` the ids rooms and games
go by, `wire.errors` the error codes and the refusal that carries one, and
`wire.schema` writes the JSON Schema that docs/ publishes.
"""

import wire.messages  # noqa: E402, F401 (first: `wire.tournaments` stands on its parts, and it imports that module)
