"""Plain HTTP on the websocket's port: health check, metrics, game records and the web client's files.

websockets hands every request to `HttpApi.process_request` before the
handshake: a path of the HTTP API is answered here, `/ws` goes on to the
websocket handshake, a path of the web client is a file of `server/static`
(`server.edge.web`), and anything else is 404. Routes are a werkzeug URL
map (what websockets' own router is built on), so that each route is one
line and a path's parts arrive as arguments.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from http import HTTPStatus
from typing import Protocol
from urllib.parse import SplitResult, parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, RoutingException, Rule

from server.domain import ModerationReader, RecordReader, Refusal, TournamentReader
from server.edge.origins import OriginPolicy
from server.edge.web import static_response
from server.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from server.metrics import Metrics
from server.moderation.views import audit_entry_model
from server.players.sessions import hash_token
from server.review import views as review_views
from server.review.service import ReviewService
from server.rooms import views
from server.tournaments import views as tournament_views
from server.tournaments.tournament import Tournament
from server.version import server_version
from wire.messages import PAGE_LIMIT

WEBSOCKET_PATH = "/ws"
"""Where clients open the websocket; every other path is HTTP."""

ALLOWED_METHODS = ("GET", "HEAD")
"""The HTTP methods answered (nothing here changes anything); others are 405."""

DEFAULT_PAGE = 50
"""Games per page when a request names no limit."""

TEXT = "text/plain; charset=utf-8"
JSON = "application/json"
SGF = "application/x-go-sgf"
CSV = "text/csv; charset=utf-8"

BEARER = "Bearer"
"""The scheme of an `Authorization` header that says who sends a request: `Bearer TOKEN`."""

Query = dict[str, list[str]]
Viewer = str | None
"""The player a request comes from (its bearer token's), or None for a request without a token."""
Endpoint = Callable[..., Awaitable[Response]]


class HttpReader(RecordReader, ModerationReader, TournamentReader, Protocol):
    """What the HTTP API reads: records, the audit log with the roles that may read it, and
    tournaments."""


class HttpApi:
    """The HTTP routes of one server."""

    def __init__(
        self,
        storage: HttpReader,
        metrics: Metrics,
        review: ReviewService,
        origins: OriginPolicy,
        next_round_at: Callable[[str], datetime | None],
    ) -> None:
        self._storage = storage
        self._origins = origins
        """The pages whose websockets are let through (`server.edge.origins`)."""
        self._metrics = metrics
        self._review = review
        """Game reviews and puzzles."""
        self._next_round_at = next_round_at
        """When a tournament's next round is paired, as its director has set it (None: not set)."""
        self._routes = Map(
            [
                Rule("/healthz", endpoint=self._health),
                Rule("/metrics", endpoint=self._metrics_text),
                Rule("/api/games", endpoint=self._list_games),
                Rule("/api/games/<game_id>", endpoint=self._game_json),
                Rule("/api/games/<game_id>.<any(psq, sgf):format>", endpoint=self._game_text),
                Rule("/api/players", endpoint=self._leaderboard),
                Rule("/api/players/<name>", endpoint=self._profile),
                Rule("/api/audit", endpoint=self._audit_log),
                Rule("/api/tournaments", endpoint=self._list_tournaments),
                Rule("/api/tournaments/<tournament_id>", endpoint=self._tournament_json),
                Rule("/api/tournaments/<tournament_id>.csv", endpoint=self._crosstable_csv),
                Rule("/api/games/<game_id>/review", endpoint=self._game_review),
                Rule("/api/puzzles/next", endpoint=self._next_puzzle),
                Rule("/api/puzzles/<puzzle_id>", endpoint=self._puzzle),
            ],
            strict_slashes=False,
            merge_slashes=False,
        )

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer a request for an HTTP route; None lets a websocket request through to the handshake.

        Everything here is read-only: GET, and HEAD, which is GET's answer without its body
        (same status and headers, Content-Length included). Any other method is 405 with the
        methods allowed. websockets itself answers `/ws` with another method (405, `Allow: GET`)
        and reads no request body: a request that has one is closed unanswered.
        """
        url = urlsplit(request.path)
        if url.path == WEBSOCKET_PATH:
            if self._origins.allows(request.headers.get("Origin"), request.headers.get("Host")):
                return None
            return respond(connection, HTTPStatus.FORBIDDEN, "websockets from this page's origin are not let in", TEXT)
        if request.method not in ALLOWED_METHODS:
            refused = f"{request.method} is not answered here: only {' and '.join(ALLOWED_METHODS)}"
            response = respond(connection, HTTPStatus.METHOD_NOT_ALLOWED, refused, TEXT)
            response.headers["Allow"] = ", ".join(ALLOWED_METHODS)
            return response
        response = await self._get(connection, request, url)
        return dataclasses.replace(response, body=b"") if request.method == "HEAD" else response

    async def _get(self, connection: ServerConnection, request: Request, url: SplitResult) -> Response:
        """The answer to a GET of the request's `url`: a route's, a static file's, or 404."""
        try:
            endpoint, arguments = self._routes.bind("localhost").match(url.path, method="GET")
        except (HTTPException, RoutingException):  # no such route (werkzeug never redirects here)
            asset = static_response(request)
            return asset if asset is not None else respond(connection, HTTPStatus.NOT_FOUND, "not found", TEXT)
        authorization = request.headers.get("Authorization")
        viewer = None if authorization is None else await self._bearer(authorization)
        if authorization is not None and viewer is None:
            refusal = respond(connection, HTTPStatus.UNAUTHORIZED, "that is not a player's token", TEXT)
            refusal.headers["WWW-Authenticate"] = BEARER
            return refusal
        if viewer is not None and await self._storage.ban_of(viewer) is not None:
            # A ban bars signing in: a banned player's token opens nothing over HTTP either.
            return respond(connection, HTTPStatus.FORBIDDEN, f"{viewer!r} is banned from this server", TEXT)
        handler: Endpoint = endpoint
        return await handler(connection, parse_qs(url.query), viewer, **arguments)

    async def _bearer(self, authorization: str) -> str | None:
        """The name of the player whose token the `Authorization` header carries; None when it
        carries no bearer token, or one that is nobody's."""
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != BEARER.lower() or not token.strip():
            return None
        player = await self._storage.player_with_token(hash_token(token.strip()))
        return None if player is None else player.name

    async def _health(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        return respond(connection, HTTPStatus.OK, f"ok gomoku-server {server_version()}", TEXT)

    async def _metrics_text(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        return respond(connection, HTTPStatus.OK, self._metrics.render().decode("utf-8"), METRICS_CONTENT_TYPE)

    async def _list_games(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        player = _last(query, "player")
        before = _last(query, "before")
        limit = _page_limit(_last(query, "limit"))
        if limit is None:
            return respond(connection, HTTPStatus.BAD_REQUEST, f"limit must be 1 to {PAGE_LIMIT}", TEXT)
        page = await self._storage.list_games(player, limit, before, viewer)
        if page is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such game", TEXT)
        body = json.dumps([views.game_summary(game).model_dump(mode="json") for game in page.games])
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _leaderboard(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        limit = _page_limit(_last(query, "limit"))
        kind = _last(query, "kind")
        if limit is None:
            return respond(connection, HTTPStatus.BAD_REQUEST, f"limit must be 1 to {PAGE_LIMIT}", TEXT)
        if kind not in (None, "human", "bot"):
            return respond(connection, HTTPStatus.BAD_REQUEST, "kind must be human or bot", TEXT)
        standings = await self._storage.leaderboard(limit, "human" if kind == "human" else "bot" if kind else None)
        body = json.dumps([views.leaderboard_entry(standing).model_dump(mode="json") for standing in standings])
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _profile(self, connection: ServerConnection, query: Query, viewer: Viewer, name: str) -> Response:
        profile = await self._storage.profile(name, viewer)
        if profile is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such player", TEXT)
        return respond(connection, HTTPStatus.OK, views.profile_model(profile).model_dump_json(), JSON)

    async def _audit_log(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        """The latest moderation actions, newest first, for an admin's bearer token (`?player=` only
        those done to a player)."""
        if viewer is None:
            refusal = respond(connection, HTTPStatus.UNAUTHORIZED, "the audit log needs an admin's token", TEXT)
            refusal.headers["WWW-Authenticate"] = BEARER
            return refusal
        if await self._storage.role_of(viewer) != "admin":
            return respond(connection, HTTPStatus.FORBIDDEN, "only an admin may read the audit log", TEXT)
        limit = _page_limit(_last(query, "limit"))
        if limit is None:
            return respond(connection, HTTPStatus.BAD_REQUEST, f"limit must be 1 to {PAGE_LIMIT}", TEXT)
        entries = await self._storage.audit_log(limit, _last(query, "player"))
        body = json.dumps([audit_entry_model(entry).model_dump(mode="json") for entry in entries])
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _game_json(self, connection: ServerConnection, query: Query, viewer: Viewer, game_id: str) -> Response:
        record = await self._storage.game_record(game_id, viewer)
        if record is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such game", TEXT)
        return respond(connection, HTTPStatus.OK, json.dumps(views.render_record(record, "json")), JSON)

    async def _game_text(
        self, connection: ServerConnection, query: Query, viewer: Viewer, game_id: str, format: str
    ) -> Response:
        record = await self._storage.game_record(game_id, viewer)
        if record is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such game", TEXT)
        if format == "sgf":
            return respond(connection, HTTPStatus.OK, str(views.render_record(record, "sgf")), SGF)
        return respond(connection, HTTPStatus.OK, str(views.render_record(record, "psq")), TEXT)

    async def _list_tournaments(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        limit = _page_limit(_last(query, "limit"))
        if limit is None:
            return respond(connection, HTTPStatus.BAD_REQUEST, f"limit must be 1 to {PAGE_LIMIT}", TEXT)
        listed = [Tournament.from_stored(stored) for stored in await self._storage.tournaments(limit)]
        body = json.dumps([tournament_views.summary(tournament).model_dump(mode="json") for tournament in listed])
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _tournament_json(
        self, connection: ServerConnection, query: Query, viewer: Viewer, tournament_id: str
    ) -> Response:
        tournament = await self._tournament(tournament_id)
        if tournament is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such tournament", TEXT)
        body = json.dumps(tournament_views.detail_json(tournament, self._next_round_at(tournament_id)))
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _crosstable_csv(
        self, connection: ServerConnection, query: Query, viewer: Viewer, tournament_id: str
    ) -> Response:
        tournament = await self._tournament(tournament_id)
        if tournament is None:
            return respond(connection, HTTPStatus.NOT_FOUND, "no such tournament", TEXT)
        response = respond(connection, HTTPStatus.OK, tournament_views.crosstable_csv(tournament), CSV)
        response.headers["Content-Disposition"] = f'attachment; filename="{tournament_id}.csv"'
        return response

    async def _tournament(self, tournament_id: str) -> Tournament | None:
        stored = await self._storage.tournament(tournament_id)
        return None if stored is None else Tournament.from_stored(stored)

    async def _game_review(self, connection: ServerConnection, query: Query, viewer: Viewer, game_id: str) -> Response:
        """A game's review, computed first if it has none yet (the answer waits for it)."""
        try:
            body = await self._review.review_json(game_id, viewer)
        except Refusal as refusal:
            return refused(connection, refusal)
        return respond(connection, HTTPStatus.OK, body, JSON)

    async def _next_puzzle(self, connection: ServerConnection, query: Query, viewer: Viewer) -> Response:
        """The puzzle of the day with `?daily=1`, else one for the viewer (near their puzzle rating)."""
        try:
            puzzle = await self._review.trainer.next(viewer, _last(query, "daily") in ("1", "true"))
        except Refusal as refusal:
            return refused(connection, refusal)
        return respond(connection, HTTPStatus.OK, review_views.puzzle_model(puzzle).model_dump_json(), JSON)

    async def _puzzle(self, connection: ServerConnection, query: Query, viewer: Viewer, puzzle_id: str) -> Response:
        try:
            puzzle = await self._review.trainer.get(puzzle_id)
        except Refusal as refusal:
            return refused(connection, refusal)
        return respond(connection, HTTPStatus.OK, review_views.puzzle_model(puzzle).model_dump_json(), JSON)


REFUSAL_STATUS = {"not_found": HTTPStatus.NOT_FOUND, "busy": HTTPStatus.SERVICE_UNAVAILABLE}
"""The HTTP status of a refusal's code; any other refusal is 403 (not allowed)."""


def refused(connection: ServerConnection, refusal: Refusal) -> Response:
    """The answer to a refused request: its status, and its message as text."""
    return respond(connection, REFUSAL_STATUS.get(refusal.code, HTTPStatus.FORBIDDEN), refusal.message, TEXT)


def _last(query: Query, name: str) -> str | None:
    """The last value given for a query parameter; None when missing or empty."""
    return query.get(name, [""])[-1] or None


def _page_limit(text: str | None) -> int | None:
    """A page length from the query: 1 to PAGE_LIMIT, DEFAULT_PAGE when absent; None when invalid.

    Only ASCII digits count: `str.isdigit` also accepts digits such as
    `²` that `int` cannot read.
    """
    if text is None:
        return DEFAULT_PAGE
    if not (text.isascii() and text.isdecimal()) or len(text) > 4:
        return None
    limit = int(text)
    return limit if 1 <= limit <= PAGE_LIMIT else None


def respond(connection: ServerConnection, status: HTTPStatus, body: str, content_type: str) -> Response:
    """A response with `body` as UTF-8 and the given content type."""
    response = connection.respond(status, body)
    del response.headers["Content-Type"]
    response.headers["Content-Type"] = content_type
    return response
