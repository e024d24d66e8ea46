"""The hub: each request from a connection to an answer, or to a command for the room it names.

`RequestHandlers` (`handlers.py`) is one `match` over the requests; `LobbyRequests` serves seeks,
pairing and chat; `AccountRequests` (`account_requests.py`) passwords, devices and deleting an
account; `commands.py` carries room commands to the room's actor; `Services` gathers what
they share, and `RoomCaps` the caps on rooms. It may import moderation (beside it: its requests,
the checks of sign-in and chat, the latest chat lines), rooms, lobby, players, accounts, bots and
what they stand on; of the edge, only the `Connection` a request came on and the `Edge` it reports to.
"""
