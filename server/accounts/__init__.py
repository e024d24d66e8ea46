"""Accounts (issue 30): a password for a name, signing in with it from any device, the devices signed
in, and deleting one's account.

`passwords.py` hashes and checks passwords (argon2id through `argon2-cffi`, in threads), `attempts.py`
limits failed attempts per name and per address, `service.py` is what the requests do, through the
`AccountStore` port (the server's `Storage`). A name without a password signs in with its token as
before (`server.players.sessions`); once it has one, each device signed in has a token of its own,
stored only as a hash, and a device signed out finds its token refused.

It may import the players part beside it (sessions, tokens, ratings) and what it stands on (`domain`,
`storage` through the port); never the hub or the edge, which call it (`server.hub.account_requests`).
"""
