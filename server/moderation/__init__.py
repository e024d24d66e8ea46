"""Operators and moderators: roles, bans, chat mutes, renames, kicks, reports, deleting games, the audit log.

`actions` holds what a moderation action does to what is stored, with its
audit entry in the same transaction, for the server and `gomoku-admin`
(`admin_cli`) alike; `gate` says whether a player may sign in or chat
(the seams `hello`, sign-in and chat call); `chat_lines` remembers the last
chat lines, for removing or reporting one; `requests` serves the wire's
moderation requests and carries their effects to connections and rooms;
`sanctions` carries out each ban and rename on every node, once.
It stands beside the hub (layer 1): it may import the hub's services,
rooms, lobby, players, storage, domain and metrics; like the hub's
handlers, `requests` is handed the edge's `Connection` a request came on
(an import that goes up, which `tests/test_layers.py` lists).
"""
