"""Importing a player's game files (the `import` feature): `service.py` reads an upload with
`engine.game_import` and stores its games all or none.

It stands where the review does: it may import `domain` (storage's ports), the wire and the engine;
never the rooms, the hub or the edge.
"""
