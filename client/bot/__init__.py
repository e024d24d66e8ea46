"""`gomoku-bot`: a Gomocup brain as a player on any server, the way lichess-bot brings an engine to
lichess.

    gomoku-bot --server ws://HOST:PORT/ws --name NAME --engine "COMMAND"

It signs in as a bot account (`hello` with `kind: "bot"`, so that people
see they play a program), then accepts the seeks (and, if asked, the open
rooms) that its filters allow, or seeks games itself, and plays each game
with one engine process of its own, as the room's clock allows. It talks
only the wire protocol, like any outside client.

* `settings`: what it plays and how it answers offers (pure);
* `game`: one room's game as the bot follows it, and what to answer to
  each message (pure: messages in, requests out);
* `runner`: the connection, reconnecting and resuming its games, and the
  engine processes (`brains.process`, over the Gomocup manager of
  `engine.gomocup_manager`);
* `main`: the command line.
"""
