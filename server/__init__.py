"""The game server: websocket connections, rooms, storage, bots (see PROTOCOL.md).

One sub-package per part, layered: `edge` (connections, HTTP, static files) stands on `hub` (a
request to a command or an answer), which stands on `rooms`, `lobby`, `players` and `bots`, which
stand on `storage`; all of them on `domain.py` (the vocabulary) and `metrics.py` (the counters),
and those on `wire/` and `engine/`. `app.py` puts the parts together and `main.py` starts it.
"""
