"""Tournaments: round robin, Swiss and arena, people and bots together.

The pairing rules are pure modules with no I/O, like the engine:
`round_robin.py` (Berger tables), `swiss.py` (score groups), `arena.py`
(pair whoever is free), all over the values of `pairings.py`;
`standings.py` ranks the entrants with each format's tie-breaks and draws
the crosstable; `tournament.py` is one tournament's state and rules (who
may join, when a round is due, what a result changes), a plain object like
a `Room`. `director.py` is the asyncio side: it stores each change, opens
the games through the rooms' registry, hears their results and tells the
watchers (`watchers.py`, batched like the lobby).

It stands beside the hub, as a part of it: it serves its own requests
(`requests.py`) and opens games through the hub's `Services` as the lobby
does. It may import the hub and what the hub stands on (rooms, lobby,
players, bots, storage, the domain); of the edge only the `Connection` a
request came on, as the hub's handlers do.
"""
