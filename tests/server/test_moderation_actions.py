"""Moderation's actions on a real SQLite file: each is logged, bans and mutes bar what they should,
renames reach every stored name, and games are deleted only by those who may."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from engine.glicko2 import Rating
from engine.record import PlayerInfo
from engine.review import GameReview, PlyEvaluation, WinKind
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import (
    DeviceSignedIn,
    GameFinished,
    GameId,
    GameReviewed,
    GameStarted,
    PasswordSet,
    Puzzle,
    PuzzlesMined,
    Refusal,
    new_game_id,
    new_room_id,
)
from server.moderation.actions import Moderation, new_name_of
from server.moderation.gate import check_may_chat, check_may_sign_in
from server.storage.database import Storage

START = datetime(2026, 11, 27, 13, 0, tzinfo=UTC)
BOT = PlayerInfo("easy", "bot", "easy")


class Clock:
    """A wall clock the test moves on by hand, or by `step` at each reading."""

    def __init__(self) -> None:
        self.now = START
        self.step = timedelta(0)

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    """A new database with three players and a bot, on SQLite and on PostgreSQL."""
    opened = await Storage.open(database)
    for name in ("alice", "bob", "carol"):
        await opened.add_player(name, name.encode())
    await opened.add_player("easy", b"", "bot")  # a bot level: a bot without a token
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def moderation(storage: Storage, clock: Clock) -> Moderation:
    return Moderation(storage, is_level=lambda name: name.lower() == "easy", clock=clock)


async def finished_game(
    storage: Storage, black: PlayerInfo, white: PlayerInfo, rated: bool = False, over: bool = True
) -> GameId:
    game_id = new_game_id()
    started = GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, black, white, None, START, False, rated=rated)
    records: list[GameStarted | GameFinished] = [started]
    if over:
        records.append(GameFinished(game_id, GameResult(Color.BLACK, EndReason.RESIGN), START, None, rated=rated))
    await storage.apply(list(records))
    return game_id


async def test_every_action_is_in_the_audit_log_with_who_what_whom_why_and_when(
    storage: Storage, moderation: Moderation, clock: Clock
) -> None:
    game = await finished_game(storage, PlayerInfo("alice"), PlayerInfo("bob"), rated=True)
    clock.step = timedelta(seconds=1)
    await moderation.grant("root", "bob", "moderator", "runs the club")
    await moderation.mute("bob", "alice", timedelta(minutes=10), "spam")
    await moderation.unmute("bob", "alice", "said sorry")
    await moderation.ban("bob", "carol", "abuse")
    await moderation.unban("root", "carol", "appeal heard")
    await moderation.log("bob", "kick", "carol", "heckling", "room r1")
    report = await moderation.file_report("alice", "carol", "rude")
    await moderation.close_report("bob", report.report_id, "warned")
    await moderation.delete_games("root", [game], any_game=True, reason="test game")
    await moderation.revoke("root", "bob", "left the club")
    await moderation.rename("root", "carol", "Caroline", "offensive")

    entries = await storage.audit_log(50)
    assert [(entry.actor, entry.action, entry.target, entry.reason) for entry in reversed(entries)] == [
        ("root", "grant", "bob", "runs the club"),
        ("bob", "mute", "alice", "spam"),
        ("bob", "unmute", "alice", "said sorry"),
        ("bob", "ban", "carol", "abuse"),
        ("root", "unban", "carol", "appeal heard"),
        ("bob", "kick", "carol", "heckling"),
        ("bob", "close_report", "carol", "warned"),
        ("root", "delete_games", game, "test game"),
        ("root", "revoke", "bob", "left the club"),
        ("root", "rename", "carol", "offensive"),
    ]
    assert entries[0].at == clock.now and entries[-1].at > START
    assert entries[0].detail == "to Caroline"
    assert [entry.action for entry in await storage.audit_log(50, target="ALICE")] == ["unmute", "mute"]


async def test_a_banned_player_cannot_sign_in_until_unbanned(storage: Storage, moderation: Moderation) -> None:
    await moderation.ban("root", "carol", "abuse")
    with pytest.raises(Refusal) as refused:
        await check_may_sign_in(storage, "CAROL")
    assert refused.value.code == "not_allowed"
    assert "banned" in refused.value.message and "abuse" in refused.value.message
    await moderation.unban("root", "carol", "appeal heard")
    await check_may_sign_in(storage, "carol")


async def test_a_muted_player_may_not_chat_until_the_mute_ends(
    storage: Storage, moderation: Moderation, clock: Clock
) -> None:
    player, until = await moderation.mute("bob", "ALICE", timedelta(minutes=10), "spam")
    assert (player.name, until) == ("alice", START + timedelta(minutes=10))
    clock.now = until - timedelta(seconds=1)
    with pytest.raises(Refusal) as refused:
        await check_may_chat(storage, "alice", clock.now)
    assert refused.value.message == "you are muted until 2026-11-27T13:10:00Z: spam"
    await check_may_chat(storage, "alice", until)
    await check_may_chat(storage, "bob", START)


async def test_a_rename_reaches_every_stored_name_and_retires_the_old_one(
    storage: Storage, moderation: Moderation
) -> None:
    game = await finished_game(storage, PlayerInfo("carol"), BOT)
    await moderation.grant("root", "carol", "moderator", "helps")
    renamed = await moderation.rename("root", "CAROL", "Caroline", "offensive")
    assert (renamed.target, new_name_of(renamed)) == ("carol", "Caroline")

    assert await storage.find_player("carol") is None
    assert (await storage.find_player("caroline")) is not None
    record = await storage.game_record(game, None)
    assert record is not None and record.black.name == "Caroline"
    assert await storage.role_of("Caroline") == "moderator"
    with pytest.raises(Refusal) as refused:
        await check_may_sign_in(storage, "carol")
    assert refused.value.code == "name_taken" and "'Caroline'" in refused.value.message
    await check_may_sign_in(storage, "Caroline")


async def test_a_rename_is_refused_to_a_taken_or_invalid_name_and_during_a_game(
    storage: Storage, moderation: Moderation
) -> None:
    for new_name, code in (("BOB", "name_taken"), ("easy", "name_taken"), ("no spaces", "bad_request")):
        with pytest.raises(Refusal) as refused:
            await moderation.rename("root", "carol", new_name, "why")
        assert refused.value.code == code
    await moderation.rename("root", "alice", "Alicia", "why")
    with pytest.raises(Refusal, match="retired"):
        await moderation.rename("root", "carol", "alice", "why")
    await moderation.rename("root", "Alicia", "alice", "changed our minds")  # a player may have their old name back

    await finished_game(storage, PlayerInfo("carol"), PlayerInfo("bob"), over=False)
    with pytest.raises(Refusal, match="playing"):
        await moderation.rename("root", "carol", "Caroline", "why")
    assert await storage.find_player("carol") is not None


async def test_a_player_deletes_only_their_own_finished_casual_games_against_bots(
    storage: Storage, moderation: Moderation
) -> None:
    mine = [
        await finished_game(storage, PlayerInfo("alice"), BOT),
        await finished_game(storage, BOT, PlayerInfo("alice")),
    ]
    rated = await finished_game(storage, PlayerInfo("alice"), BOT, rated=True)
    against_a_person = await finished_game(storage, PlayerInfo("alice"), PlayerInfo("bob"))
    someone_elses = await finished_game(storage, PlayerInfo("bob"), BOT)
    unfinished = await finished_game(storage, PlayerInfo("alice"), BOT, over=False)

    for game, why in (
        (rated, "rated"),
        (against_a_person, "not yours against a bot"),
        (someone_elses, "not yours against a bot"),
        (unfinished, "not over"),
    ):
        with pytest.raises(Refusal, match=why):
            await moderation.delete_games("alice", [mine[0], game], any_game=False, reason="")
    with pytest.raises(Refusal) as refused:
        await moderation.delete_games("alice", ["nothing"], any_game=False, reason="")
    assert refused.value.code == "not_found"
    assert all([await storage.game_record(game, None) is not None for game in mine])  # all or none

    assert await moderation.delete_games("ALICE", mine, any_game=False, reason="") == mine
    assert all([await storage.game_record(game, None) is None for game in mine])
    assert await storage.audit_log(10) == []  # a player's own games are no moderation


async def test_a_deleted_game_is_gone_from_lists_records_and_profiles_and_ratings_stay(
    storage: Storage, moderation: Moderation
) -> None:
    """The ratings a deleted game changed stay; its count goes with it, so that a profile's wins,
    losses and draws still add up to its rated games."""
    await finished_game(storage, PlayerInfo("alice"), PlayerInfo("carol"), rated=True)
    rated = await finished_game(storage, PlayerInfo("alice"), PlayerInfo("bob"), rated=True)
    alice_rated, bob_rated = await storage.standing("alice"), await storage.standing("bob")
    assert alice_rated is not None and alice_rated.games == 2
    assert bob_rated is not None and bob_rated.games == 1
    kept = await finished_game(storage, PlayerInfo("alice"), BOT)
    await moderation.delete_games("root", [rated], any_game=True, reason="cheating")

    page = await storage.list_games("alice", 50, None)
    assert page is not None and kept in [game.game_id for game in page.games]
    assert rated not in [game.game_id for game in page.games]
    assert await storage.game_record(rated, "alice") is None
    profile = await storage.profile("alice", "alice")
    assert profile is not None and rated not in [game.game_id for game in profile.recent]
    assert (profile.wins, profile.losses, profile.draws) == (1, 0, 0)
    assert profile.standing == replace(alice_rated, games=1)
    assert await storage.standing("bob") == replace(bob_rated, games=0)


async def test_a_renamed_account_keeps_its_password_and_its_devices(storage: Storage, moderation: Moderation) -> None:
    await storage.add_player("carol", b"carol's token hash")
    device = DeviceSignedIn("device-1", "carol", "ab" * 32, "phone", datetime.now(UTC))
    await storage.apply([PasswordSet("carol", "argon2id hash", datetime.now(UTC), device)])

    await moderation.rename("root", "carol", "Caroline", "offensive")

    assert await storage.password_hash("Caroline") == "argon2id hash"
    assert [signed_in.device_id for signed_in in await storage.devices("Caroline")] == ["device-1"]


async def test_a_reviewed_and_mined_game_is_deleted_with_its_review_and_its_puzzle_stays_unlinked(
    storage: Storage, moderation: Moderation
) -> None:
    game = await finished_game(storage, PlayerInfo("alice"), BOT)
    review = GameReview((PlyEvaluation(0, 0, None),), (), None)
    puzzle = Puzzle(
        "p1", game, "a game", 0, Rule.FREESTYLE, 15, (), (Point(7, 7),), WinKind.VCF, False, Rating(1500, 350, 0.06), 0
    )
    await storage.apply([GameReviewed(game, review, 100, START), PuzzlesMined((puzzle,), (game,), START)])

    assert await moderation.delete_games("alice", [game], any_game=False, reason="mine") == [game]

    assert await storage.review(game) is None
    kept = await storage.puzzle("p1")
    assert kept is not None and kept.game_id is None
