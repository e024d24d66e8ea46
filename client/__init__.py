"""The terminal client `gomoku`: plays, watches and replays games on a server over the wire protocol.

A pure core (`client.core`) turns the user's lines and the server's
messages into actions; `client.session` is the thin asyncio layer that
moves them between the terminal and the websocket.
"""
