"""Rooms: a game's rules (`room.py`, no socket, database or timer), its clock, opening steps and
presence; the actor that runs one room under its lock, stores its records and asks its bot; and the
views that render room state as wire models.

It may import the players, bots and lobby parts beside it (ratings announced, a bot's search, a
seek's view), storage's `StorageUnavailable`, and what they stand on; never the hub or the edge.
"""
