"""A tournament on the wire fits in one frame, however full; the CSV crosstable reads as a table."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from datetime import UTC, datetime

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerInfo
from engine.types import Rule
from server.domain import ConnectionId, GameId, RoomId, TournamentFormat, TournamentTerms
from server.tournaments import views
from server.tournaments.tournament import Tournament
from server.tournaments.watchers import TournamentWatchers
from wire.messages import MAX_FRAME_BYTES
from wire.tournaments import MAX_PLAYERS, TournamentMessage

AT = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)


def terms(format_: TournamentFormat = "swiss") -> TournamentTerms:
    return TournamentTerms(
        "A" * 64, format_, "o" * 32, Rule.FREESTYLE, 15, ClockSetting(300_000, 0), OpeningRule.NONE, False,
        rounds=9, max_players=MAX_PLAYERS,
    )  # fmt: skip


def full_round() -> Tournament:
    """The largest tournament, longest names, its first round paired and every game opened."""
    tournament, _ = Tournament.create("t-" + "x" * 62, terms(), AT)
    for number in range(MAX_PLAYERS):
        tournament.enter(PlayerInfo(f"{number:03d}" + "n" * 29), 1500.0 + number, AT)
    tournament.start(AT)
    boards, _ = tournament.pair_next(AT)
    for index, board in enumerate(boards):
        tournament.game_opened(board, GameId(f"g{index:015d}"), RoomId(f"r{index:011d}"))
    return tournament


def test_the_fullest_tournament_and_its_batch_fit_in_a_frame() -> None:
    tournament = full_round()
    snapshot = TournamentMessage(tournament=views.tournament_model(tournament, AT), seq=12, id="x" * 64)
    assert len(snapshot.to_wire().encode()) <= MAX_FRAME_BYTES
    assert len(snapshot.tournament.pairings) == MAX_PLAYERS // 2
    watchers = TournamentWatchers()
    watchers.watch(tournament.tournament_id, ConnectionId(1))
    watchers.changed(tournament.tournament_id, list(tournament.pairings.values()))
    ((_, batch),) = watchers.batches(lambda _: tournament, lambda _: AT)
    assert len(batch.to_wire().encode()) <= MAX_FRAME_BYTES


def test_the_crosstable_csv_has_a_line_per_player_in_standings_order() -> None:
    tournament, _ = Tournament.create("t1", replace(terms("round_robin"), max_players=3), AT)
    for name in ("x", "y", "z"):
        tournament.enter(PlayerInfo(name), 1500.0, AT)
    tournament.start(AT)
    for _ in range(3):
        boards, _ = tournament.pair_next(AT)
        for board in boards:
            if board.white is not None:
                game = GameId(f"{board.black}{board.white}")
                opened = tournament.game_opened(board, game, RoomId("r"))
                tournament.pairings[(opened.round, opened.board)] = replace(opened, score=1.0)
    table = list(csv.reader(io.StringIO(views.crosstable_csv(tournament))))
    order = [row.name for row in tournament.standings()]
    assert table[0] == ["rank", "name", "points", "sonneborn_berger", "performance", "byes", *order]
    assert [line[1] for line in table[1:]] == order
    assert [line[5] for line in table[1:]] == ["1", "1", "1"], "three players: each rests one round"
    assert [line[6 + index] for index, line in enumerate(table[1:])] == ["x", "x", "x"]
    assert sorted(cell for line in table[1:] for cell in line[6:] if cell != "x") == ["0", "0", "0", "1", "1", "1"]


def test_a_swiss_bye_shows_in_the_crosstable_and_its_csv_beside_the_point_it_gives() -> None:
    tournament, _ = Tournament.create("t2", replace(terms("swiss"), rounds=1), AT)
    for name in ("ann", "bob", "cal"):
        tournament.enter(PlayerInfo(name), 1500.0, AT)
    tournament.start(AT)
    boards, _ = tournament.pair_next(AT)
    (game,) = [board for board in boards if board.white is not None]
    opened = tournament.game_opened(game, GameId("g1"), RoomId("r1"))
    tournament.pairings[(opened.round, opened.board)] = replace(opened, score=1.0)

    detail = views.detail_json(tournament, None)
    byes = dict(zip(detail["crosstable"]["players"], detail["crosstable"]["byes"], strict=True))
    assert byes == {"ann": 1, "bob": 0, "cal": 0} or byes == {"ann": 0, "bob": 0, "cal": 1}
    resting = next(name for name, count in byes.items() if count == 1)
    table = {line[1]: line for line in csv.reader(io.StringIO(views.crosstable_csv(tournament)))}
    assert table[resting][2] == "1" and table[resting][6] == "1", "a point, and the bye that gave it"


def test_a_swiss_plays_no_more_rounds_than_its_entrants_less_one() -> None:
    tournament, _ = Tournament.create("t3", replace(terms("swiss"), rounds=5), AT)
    assert tournament.total_rounds() == 5, "the rounds asked for, until two have entered"
    for name in ("ann", "bob", "cal", "dee"):
        tournament.enter(PlayerInfo(name), 1500.0, AT)
    assert tournament.total_rounds() == 3, "four players meet each other in three rounds"
    for name in ("eve", "fay"):
        tournament.enter(PlayerInfo(name), 1500.0, AT)
    assert tournament.total_rounds() == 5, "six players can play the five rounds asked for"
