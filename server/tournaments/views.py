"""A tournament as the wire shows it (`wire.tournaments`), and its crosstable as CSV.

One rendering for the websocket and for HTTP: the websocket's messages
carry the best STANDINGS_SHOWN rows and the boards still to watch, HTTP's
everything (`detail_json`).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.record import format_timestamp
from server.domain import Pairing
from server.rooms.views import clock_setting_model
from server.tournaments.standings import TIE_BREAKS, StandingRow, crosstable
from server.tournaments.tournament import Tournament
from wire.tournaments import (
    STANDINGS_SHOWN,
    PairingModel,
    StandingModel,
    TournamentModel,
    TournamentSummaryModel,
)


def summary(tournament: Tournament) -> TournamentSummaryModel:
    return TournamentSummaryModel.model_validate(_summary_fields(tournament))


def _summary_fields(tournament: Tournament) -> dict[str, Any]:
    terms = tournament.terms
    clock = clock_setting_model(terms.clock)
    return {
        "tournament_id": tournament.tournament_id,
        "name": terms.name,
        "format": terms.format,
        "status": tournament.status,
        "organiser": terms.organiser,
        "rule": terms.rule,
        "size": terms.size,
        "clock": clock,
        "opening": terms.opening.value,
        "rated": terms.rated,
        "players": len(tournament.active),
        "max_players": terms.max_players,
        "round": tournament.round,
        "rounds": tournament.total_rounds(),
        "starts_at": timestamp_or_none(terms.starts_at),
        "ends_at": timestamp_or_none(tournament.ends_at),
        "listed": terms.listed,
    }


def tournament_model(
    tournament: Tournament, next_round_at: datetime | None, everything: bool = False
) -> TournamentModel:
    """The whole tournament: on the websocket the best STANDINGS_SHOWN and the boards of the current
    round and of any game still going on; with `everything` (HTTP) all of them."""
    rows = tournament.standings()
    boards = list(tournament.pairings.values()) if everything else watchable_boards(tournament)
    return TournamentModel(
        **_summary_fields(tournament),
        tie_breaks=list(TIE_BREAKS[tournament.terms.format]),
        standings=standing_models(tournament, rows if everything else rows[:STANDINGS_SHOWN]),
        pairings=[pairing_model(board) for board in sorted(boards, key=lambda p: (p.round, p.board))],
        next_round_at=timestamp_or_none(next_round_at),
    )


def watchable_boards(tournament: Tournament) -> list[Pairing]:
    """The boards of the current round and those of any game still going on."""
    current = {(p.round, p.board): p for p in tournament.round_pairings()}
    current.update({(p.round, p.board): p for p in tournament.unfinished()})
    return list(current.values())


def standing_models(tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingModel]:
    return [
        StandingModel(
            rank=row.rank,
            name=row.name,
            kind=tournament.entrants[row.name.lower()].player.kind,
            points=row.points,
            games=row.games,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
            tie_breaks=[None if value == float("-inf") else value for value in row.tie_breaks],
            performance=row.performance,
            withdrawn=row.withdrawn,
        )
        for row in rows
    ]


def pairing_model(pairing: Pairing) -> PairingModel:
    return PairingModel(
        round=pairing.round,
        board=pairing.board,
        black=pairing.black,
        white=pairing.white,
        room_id=pairing.room_id,
        game_id=pairing.game_id,
        score=pairing.score,
    )


def detail_json(tournament: Tournament, next_round_at: datetime | None) -> dict[str, Any]:
    """What `GET /api/tournaments/{id}` answers: the whole tournament, and its crosstable (for each
    player in standings order, its scores against each player in that order, and its byes)."""
    body = tournament_model(tournament, next_round_at, everything=True).model_dump(mode="json")
    order = [row["name"] for row in body["standings"]]
    boards = list(tournament.pairings.values())
    body["crosstable"] = {"players": order, "scores": crosstable(order, boards), "byes": byes_of(order, boards)}
    return body


def byes_of(order: Sequence[str], boards: Sequence[Pairing]) -> list[int]:
    """How many byes each player (in `order`) had: a round it sat out, a Swiss's point without a game."""
    byes = Counter(board.black.lower() for board in boards if board.is_bye)
    return [byes[name.lower()] for name in order]


def crosstable_csv(tournament: Tournament) -> str:
    """The crosstable as CSV: rank, name, points, the tie-breaks, performance, byes, then one column
    per player in standings order, headed by its name (its scores against that player, `1`, `½`,
    `0`, several joined by a space; `x` against itself)."""
    rows = tournament.standings()
    order = [row.name for row in rows]
    boards = list(tournament.pairings.values())
    table = crosstable(order, boards)
    byes = byes_of(order, boards)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tie_breaks = list(TIE_BREAKS[tournament.terms.format])
    writer.writerow(["rank", "name", "points", *tie_breaks, "performance", "byes", *order])
    for index, row in enumerate(rows):
        scores = [
            "x" if other == index else " ".join(_score_text(score) for score in table[index][other])
            for other in range(len(order))
        ]
        values = [_number(value) for value in row.tie_breaks]
        performance = "" if row.performance is None else row.performance
        writer.writerow([row.rank, row.name, _number(row.points), *values, performance, byes[index], *scores])
    return out.getvalue()


def _score_text(score: float) -> str:
    return "½" if score == 0.5 else str(int(score))


def _number(value: float) -> str:
    if value == float("-inf"):
        return ""
    return str(int(value)) if value == int(value) else f"{value:g}"


def timestamp_or_none(moment: datetime | None) -> str | None:
    """A moment as the wire writes it, or None for none."""
    return None if moment is None else format_timestamp(moment)
