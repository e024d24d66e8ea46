"""Gomocup brains as asyncio processes: the I/O side of the engine's `engine.gomocup_manager`.

The engine stays pure (no asyncio, no I/O), so the driver that starts a
brain, feeds it lines and reads its answers with a deadline lives here,
beside it. The server's outside engines (`server.bots.outside_engines`) and
`gomoku-bot` (`client.bot`) both use it; it imports only the engine and
the standard library.
"""
