"""Reading the commands about other players and stored positions: seek, pair, cancel, accept, say, top,
profile, claim and analyze."""

from __future__ import annotations

import pytest

from client.commands import (
    AnalyzeGameCommand,
    Answer,
    BotSeat,
    ClaimWinCommand,
    CommandError,
    CreateRoomCommand,
    parse_command,
)
from client.player_commands import (
    AcceptSeekCommand,
    CancelSeekCommand,
    LeaderboardCommand,
    OnlineCommand,
    ProfileCommand,
    QuickPairCommand,
    SayCommand,
    SeekCommand,
    UnwatchLobbyCommand,
    WatchLobbyCommand,
)
from client.values import GameTerms
from engine.types import Rule


def test_a_seek_defaults_to_a_casual_untimed_freestyle_game_either_colour_anyone() -> None:
    assert parse_command("seek") == SeekCommand(GameTerms(), "random", None, None)


def test_a_seek_takes_the_terms_of_create_a_colour_and_a_rating_range() -> None:
    command = parse_command("seek rule standard size 19 clock 10+5 rated as black rating 1400-1700")
    assert command == SeekCommand(GameTerms(Rule.STANDARD, 19, (600_000, 5_000), True), "black", 1400, 1700)


@pytest.mark.parametrize(("text", "bounds"), [("1400-", (1400, None)), ("-1700", (None, 1700)), ("0-5000", (0, 5000))])
def test_a_rating_range_may_be_open_at_either_end(text: str, bounds: tuple[int | None, int | None]) -> None:
    command = parse_command(f"seek rating {text}")
    assert isinstance(command, SeekCommand) and (command.rating_min, command.rating_max) == bounds


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("seek rating 1600-1400", "lower rating comes first"),
        ("seek rating 1500", "range like 1400-1600"),
        ("seek rating -", "range like 1400-1600"),
        ("seek rating 1400-9000", "up to 5000"),
        ("seek as green", "unknown colour"),
        ("seek rule renju size 19", "15x15 only"),
        ("seek private", "unknown seek option"),
        ("pair as black", "pair takes rule, size, clock and rated"),
        ("pair clock", "needs a value"),
    ],
)
def test_seek_and_pair_explain_what_is_wrong(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_pair_takes_the_terms_of_a_game() -> None:
    assert parse_command("pair") == QuickPairCommand(GameTerms())
    assert parse_command("pair size 9 rated") == QuickPairCommand(GameTerms(size=9, rated=True))


def test_create_may_be_rated() -> None:
    command = parse_command("create vs easy rated")
    assert command == CreateRoomCommand(Rule.FREESTYLE, 15, "me", BotSeat("easy"), None, False, rated=True)


def test_watching_the_lobby_and_cancelling_seeks() -> None:
    assert parse_command("seeks") == WatchLobbyCommand()
    assert parse_command("unwatch") == UnwatchLobbyCommand()
    assert parse_command("cancel") == CancelSeekCommand(None)
    assert parse_command("cancel sAb3") == CancelSeekCommand("sAb3")
    with pytest.raises(CommandError, match="one seek id"):
        parse_command("cancel s1 s2")


def test_accept_with_a_seek_takes_it_and_alone_answers_the_question() -> None:
    assert parse_command("accept sAb3") == AcceptSeekCommand("sAb3")
    assert parse_command("accept") == Answer(True)
    with pytest.raises(CommandError, match="one seek id"):
        parse_command("accept s1 s2")


def test_say_keeps_the_text_as_typed() -> None:
    assert parse_command("say  hello,   World! ") == SayCommand("hello,   World!")
    assert parse_command("SAY gg") == SayCommand("gg")


@pytest.mark.parametrize(
    ("line", "complaint"),
    [("say", "say what"), ("say " + "x" * 501, "500 characters"), ("say tab\there", "control characters")],
)
def test_say_refuses_what_the_server_would(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_top_takes_a_kind_and_a_limit_in_any_order() -> None:
    assert parse_command("top") == LeaderboardCommand(None, 20)
    assert parse_command("top humans") == LeaderboardCommand("human", 20)
    assert parse_command("top 5 bots") == LeaderboardCommand("bot", 5)
    for line in ("top 0", "top 101", "top wizards"):
        with pytest.raises(CommandError):
            parse_command(line)


def test_profile_names_a_player_or_none_for_ones_own() -> None:
    assert parse_command("profile") == ProfileCommand(None)
    assert parse_command("profile bob") == ProfileCommand("bob")
    with pytest.raises(CommandError, match="not a player name"):
        parse_command("profile bob!")


def test_online_and_claim_take_no_arguments() -> None:
    assert parse_command("online") == OnlineCommand()
    assert parse_command("claim") == ClaimWinCommand()
    with pytest.raises(CommandError, match="takes no arguments"):
        parse_command("claim now")


def test_analyze_names_a_game_and_a_move_number() -> None:
    assert parse_command("analyze g7 12") == AnalyzeGameCommand("g7", 12, 1000)
    assert parse_command("analyze g7 0 2.5") == AnalyzeGameCommand("g7", 0, 2500)
    for line, complaint in (("analyze g7", "game id and a move number"), ("analyze g7 x", "move number is 0")):
        with pytest.raises(CommandError, match=complaint):
            parse_command(line)
