"""Players and ratings: sign-in and tokens (`sessions.py`), the Glicko-2 rating pool and the
standings shown (`ratings.py`), and the bots' arena ratings (`bot_ratings.py`, `bot_ratings.json`).

It may import the rooms, lobby and bots parts beside it (a room's outcome, the pace of sign-ins, an
engine's spec) and what they stand on; never the hub or the edge.
"""
