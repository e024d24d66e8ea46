"""Cluster: the server as several nodes behind one address (docs/architecture.md, "Several nodes").

On one PostgreSQL: `leases.py`, each node's lease in `cluster_nodes`, renewed about every second by
the database's clock; `ownership.py`, which node owns which room (`room_owners`), the fence every
group commit of a node passes, claiming the rooms of nodes whose lease expired.

Between the nodes: `bus.py` carries values over Redis (the only module that imports redis-py, the
`cluster` extra, and only when the server runs with `--bus`); `bus_messages.py` says what goes
over it; `bus_hub.py` is the hub with the bus behind it (a room command to the room's owner, the
owner's events to the nodes whose sockets are in the room); `directory.py` says which node owns a
room; `bus_lobby.py` is the lobby one node runs for all; `tournament_lease.py` makes that node the
one director of the tournaments, under a lease fenced in PostgreSQL; `room_list.py` the rooms of every node;
`node.py` builds and starts these for the server. It may import every part of the server below
it, edge and storage included (and asyncpg): it sits between the connections of one node and the
rooms of another; `app` puts it together with the rooms.
"""
