"""A tournament's records written and read back: terms, entrants, pairings, and scores from the games."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.openings import OpeningRule
from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, GameResult, Rule
from server.domain import (
    Entrant,
    EntrantAdded,
    EntrantLeft,
    EntrantWithdrawn,
    GameFinished,
    GameId,
    GameStarted,
    Pairing,
    Refusal,
    RoomId,
    RoundPaired,
    SeatsDecided,
    TournamentCreated,
    TournamentGameOpened,
    TournamentProgress,
    TournamentTerms,
)
from server.moderation.actions import Moderation
from server.storage.database import Storage

AT = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
TERMS = TournamentTerms(
    name="Club night",
    format="swiss",
    organiser="ann",
    rule=Rule.FREESTYLE,
    size=15,
    clock=ClockSetting(300_000, 2_000),
    opening=OpeningRule.SWAP,
    rated=True,
    rounds=5,
    max_players=16,
)


def game(game_id: str, black: str, white: str) -> GameStarted:
    return GameStarted(
        GameId(game_id),
        RoomId(f"r-{game_id}"),
        Rule.FREESTYLE,
        15,
        PlayerInfo(black),
        PlayerInfo(white),
        None,
        AT,
        False,
    )


async def test_a_tournament_reads_back_as_stored_with_scores_from_its_games(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    try:
        entrants = [Entrant(PlayerInfo(name), seed, 1500.0 + seed) for seed, name in enumerate("abcde", 1)]
        await storage.apply([TournamentCreated("t1", TERMS, AT), *(EntrantAdded("t1", e, AT) for e in entrants)])
        await storage.apply([EntrantLeft("t1", "e")])
        await storage.apply([TournamentProgress("t1", "running", 1, AT, None, None)])
        round_one = (Pairing(1, 1, "a", "b"), Pairing(1, 2, "c", "d"), Pairing(1, 3, "x", None, score=0.0))
        await storage.apply([RoundPaired("t1", round_one)])
        for pairing, game_id in zip(round_one[:2], ("g1", "g2"), strict=True):
            assert pairing.white is not None
            opened = TournamentGameOpened("t1", 1, pairing.board, GameId(game_id), RoomId(f"r-{game_id}"))
            await storage.apply([game(game_id, pairing.black, pairing.white), opened])
        # The opening swapped g2's colours: d plays black, and black wins, so d (the pairing's white) won.
        await storage.apply([SeatsDecided(GameId("g2"), PlayerInfo("d"), PlayerInfo("c"))])
        await storage.apply([GameFinished(GameId("g2"), GameResult(Color.BLACK, EndReason.RESIGN), AT, None)])
        await storage.apply([EntrantWithdrawn("t1", "b", AT)])

        stored = await storage.tournament("t1")
        assert stored is not None
        assert stored.terms == TERMS and stored.status == "running" and stored.round == 1
        assert [(e.name, e.seed, e.rating, e.withdrawn) for e in stored.entrants] == [
            ("a", 1, 1501.0, False),
            ("b", 2, 1502.0, True),
            ("c", 3, 1503.0, False),
            ("d", 4, 1504.0, False),
        ]
        assert [(p.black, p.white, p.game_id, p.score) for p in stored.pairings] == [
            ("a", "b", "g1", None),
            ("c", "d", "g2", 0.0),
            ("x", None, None, 0.0),
        ]
        assert [t.tournament_id for t in await storage.unfinished_tournaments()] == ["t1"]
        assert await storage.tournament("nope") is None
    finally:
        await storage.close()


async def test_a_tournament_game_stays_even_for_an_admin_since_its_standings_count_it(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    try:
        await storage.apply([TournamentCreated("t1", TERMS, AT), RoundPaired("t1", (Pairing(1, 1, "a", "b"),))])
        opened = TournamentGameOpened("t1", 1, 1, GameId("g1"), RoomId("r-g1"))
        await storage.apply([game("g1", "a", "b"), opened])
        await storage.apply([GameFinished(GameId("g1"), GameResult(Color.BLACK, EndReason.RESIGN), AT, None)])

        with pytest.raises(Refusal) as refused:
            await Moderation(storage).delete_games("root", ["g1"], any_game=True, reason="test")

        assert refused.value.code == "not_allowed" and "'t1'" in refused.value.message
        assert await storage.game_record(GameId("g1"), None) is not None
    finally:
        await storage.close()
