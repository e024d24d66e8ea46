"""Several nodes behind one address: the bus between them, and who owns each room.

`bus.py` carries values between nodes over Redis (the only module that imports redis-py, the
`cluster` extra, and only when the server runs with `--bus`); `bus_messages.py` says what goes
over it; `bus_hub.py` is the hub with the bus behind it (a room command to the room's owner, the
owner's events to the nodes whose sockets are in the room); `directory.py` says which node owns a
room; `bus_lobby.py` is the lobby one node runs for all; `room_list.py` the rooms of every node;
`node.py` builds and starts these for the server. It may import every part of the server below
it, edge included: it sits between the connections of one node and the rooms of another.
"""
