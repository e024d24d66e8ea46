"""Sign-in hygiene (issue 40, finding 8, the parts done): wrong passwords for names nobody tries again
are not kept for ever; someone else's private game is "no such game" to a player deleting games, as
everywhere; a profile's count of games played shows another player none of someone's private games."""

from __future__ import annotations

import asyncio

import pytest

from server.accounts.attempts import SignInAttempts
from server.domain import Refusal
from tests.server.server_harness import ClientFactory, RunningServer, refused

WINDOW_S = 900.0


def test_wrong_passwords_for_names_nobody_tries_again_are_forgotten_once_out_of_the_window() -> None:
    attempts = SignInAttempts(per_name=5, per_address=20, window_s=WINDOW_S)
    for number in range(1000):
        attempts.failed(f"guess-{number}", f"198.51.100.{number % 250}", now=0.0)
    assert attempts.held == 1000 + 250

    attempts.failed("someone", "203.0.113.1", now=WINDOW_S + 1)

    assert attempts.held == 2


def test_the_limits_still_hold_within_the_window() -> None:
    attempts = SignInAttempts(per_name=2, per_address=20, window_s=WINDOW_S)
    for now in (0.0, 1.0):
        attempts.failed("alice", "198.51.100.1", now)
    with pytest.raises(Refusal) as refused_guess:
        attempts.check("ALICE", "198.51.100.2", now=3.0)
    assert refused_guess.value.code == "rate_limited"
    attempts.check("alice", "198.51.100.2", now=WINDOW_S + 1.5)


async def private_game_of_alice_and_bob(client: ClientFactory) -> str:
    alice, bob = await client("alice"), await client("bob")
    room = (await alice.request(type="create_room", private=True))["room"]
    await bob.request(type="join_room", room_id=room["room_id"])
    assert (await bob.request(type="resign", room_id=room["room_id"]))["type"] == "game_over"
    return str(room["game_id"])


async def test_someone_elses_private_game_is_no_such_game_to_a_player_deleting_games(client: ClientFactory) -> None:
    game_id = await private_game_of_alice_and_bob(client)
    eve = await client("eve")

    message = refused(await eve.request(type="delete_games", game_ids=[game_id]), "not_found")

    assert message == f"there is no game {game_id!r}"


async def test_a_profile_counts_private_games_played_only_for_those_who_may_see_them(
    game_server: RunningServer, client: ClientFactory
) -> None:
    await private_game_of_alice_and_bob(client)
    eve = await client("eve")

    status, seen_by_eve = await asyncio.to_thread(game_server.get_with_token, "/api/players/alice", eve.token)
    assert (status, seen_by_eve["played"]) == (200, 0)
    alice_again = await client("alice")
    status, seen_by_alice = await asyncio.to_thread(game_server.get_with_token, "/api/players/alice", alice_again.token)
    assert (status, seen_by_alice["played"]) == (200, 1)


def test_a_guessed_name_is_throttled_not_locked_so_its_owner_waits_a_minute_at_most() -> None:
    attempts = SignInAttempts(per_name=5, per_address=1000, window_s=WINDOW_S, longest_pause_s=60.0)
    for second in range(5):
        attempts.failed("alice", f"198.51.100.{second}", float(second))
    with pytest.raises(Refusal, match="try again in 5 s"):
        attempts.check("alice", "203.0.113.1", now=4.0)
    attempts.check("alice", "203.0.113.1", now=9.0)  # one more guess, 5 s after the last, is let in
    attempts.failed("alice", "198.51.100.9", now=9.0)
    with pytest.raises(Refusal, match="try again in 10 s"):
        attempts.check("alice", "203.0.113.1", now=9.0)
    for guess in range(20):  # a guesser who keeps going makes the pause grow to its cap, no further
        attempts.failed("alice", "198.51.100.9", now=10.0 + guess)

    with pytest.raises(Refusal, match="try again in 60 s"):
        attempts.check("alice", "203.0.113.1", now=29.0)
    attempts.check("alice", "203.0.113.1", now=29.0 + 60.0)  # the owner, a minute later: let in
