"""The lobby: who is online, seeks waiting for an opponent, quick pairing, and who watches.

`Lobby` (`hall.py`) is a plain object with no socket, database or timer; `seeks.py` holds the seek
values, `quick_pairing.py` finds the nearest fair opponent, and `pacing.py` counts what a player or
an address did lately. It may import the room views and what the middle layer stands on; never the
hub or the edge.
"""
