"""Fixtures of the security tests: the server tests' own (a real server on 127.0.0.1 on a free port,
a real SQLite file, real websocket clients), so that each case here is tried as from outside."""

from tests.server.conftest import client, db_path, game_server, start_server

__all__ = ["client", "db_path", "game_server", "start_server"]
