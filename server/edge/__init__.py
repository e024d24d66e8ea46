"""The edge: websocket connections, the book of who is in which room, HTTP routes and static files.

It turns each event into text once and sends it to every connection that should have it, and serves
`/api`, `/healthz`, `/metrics` and the browser client. It may import the hub and every part below it;
nothing below imports it, except that the hub's handlers are handed the `Connection` a request came
in on and `Services` holds the `Edge`.
"""
