"""The game server: websocket connections, rooms, storage, bots (see PROTOCOL.md)."""
