"""Standings and tie-breaks, checked against values worked out by hand."""

from __future__ import annotations

from engine.record import PlayerInfo
from server.domain import Entrant, Pairing
from server.tournaments.standings import crosstable, standings


def entrants(ratings: dict[str, float]) -> list[Entrant]:
    return [Entrant(PlayerInfo(name), seed, rating) for seed, (name, rating) in enumerate(ratings.items(), 1)]


def test_swiss_points_buchholz_median_buchholz_and_performance() -> None:
    """a 2.5 (opponents b 1, e 1, c 2: Buchholz 4, median 1), d 2.5 (c 2, e 1: 3, 3), c 2
    (d 2.5, b 1, a 2.5: 6, median 2.5), e 1 (a, d: 5), b 1 (a, c: 4.5)."""
    played = [
        Pairing(1, 1, "a", "b", score=1.0),
        Pairing(1, 2, "c", "d", score=0.5),
        Pairing(1, 3, "e", None, score=1.0),
        Pairing(2, 1, "e", "a", score=0.0),
        Pairing(2, 2, "c", "b", score=1.0),
        Pairing(2, 3, "d", None, score=1.0),
        Pairing(3, 1, "a", "c", score=0.5),
        Pairing(3, 2, "d", "e", score=1.0),
        Pairing(3, 3, "b", None, score=1.0),
    ]
    ratings = {"a": 1600.0, "b": 1500.0, "c": 1400.0, "d": 1500.0, "e": 1300.0}
    rows = standings("swiss", entrants(ratings), played)
    assert [(row.rank, row.name, row.points, row.tie_breaks) for row in rows] == [
        (1, "a", 2.5, (4.0, 1.0)),
        (2, "d", 2.5, (3.0, 3.0)),
        (3, "c", 2.0, (6.0, 2.5)),
        (4, "e", 1.0, (5.0, 5.0)),
        (5, "b", 1.0, (4.5, 4.5)),
    ]
    a = rows[0]
    assert (a.games, a.wins, a.draws, a.losses) == (3, 2, 1, 0)
    assert a.performance == 1667, "opponents 1500, 1300, 1400 average 1400; +400 x (2 - 0) / 3"
    assert rows[1].performance == 1550, "d: c 1400 drawn, e 1300 won: 1350 + 400 x 1 / 2"


def test_round_robin_sonneborn_berger_and_the_crosstable() -> None:
    """x beats y, y draws z, z beats x: z 1.5 (SB 1 + 0.25), x 1 (SB 0.5), y 0.5 (SB 0.75)."""
    played = [
        Pairing(1, 1, "x", "y", score=1.0),
        Pairing(2, 1, "y", "z", score=0.5),
        Pairing(3, 1, "z", "x", score=1.0),
    ]
    rows = standings("round_robin", entrants({"x": 1500.0, "y": 1500.0, "z": 1500.0}), played)
    assert [(row.name, row.points, row.tie_breaks) for row in rows] == [
        ("z", 1.5, (1.25,)),
        ("x", 1.0, (0.5,)),
        ("y", 0.5, (0.75,)),
    ]
    assert crosstable(["z", "x", "y"], played) == [[[], [1.0], [0.5]], [[0.0], [], [1.0]], [[0.5], [0.0], []]]


def test_equal_players_share_a_rank_and_keep_seed_order() -> None:
    rows = standings("arena", entrants({"p": 1500.0, "q": 1500.0}), [])
    assert [(row.rank, row.name, row.performance) for row in rows] == [(1, "p", None), (1, "q", None)]
