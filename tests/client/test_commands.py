"""Reading what the player types."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.commands import (
    Answer,
    BotSeat,
    CommandError,
    CreateRoomCommand,
    ExportGameCommand,
    HintCommand,
    JoinRoomCommand,
    ListGamesCommand,
    MoreGamesCommand,
    PlayMove,
    QuitClient,
    ReplayCommand,
    ResignCommand,
    parse_command,
)
from client.render import format_clock_setting
from client.values import parse_clock
from engine.record import ClockSetting
from engine.types import Point, Rule


def test_a_blank_line_is_no_command() -> None:
    assert parse_command("   ") is None


@pytest.mark.parametrize(
    ("line", "size", "point"), [("h8", 15, Point(7, 7)), ("A1", 15, Point(0, 14)), ("s19", 19, Point(18, 0))]
)
def test_moves_in_human_notation_are_read_on_the_board_size(line: str, size: int, point: Point) -> None:
    command = parse_command(line)
    assert isinstance(command, PlayMove)
    assert command.resolve(size) == point


def test_moves_as_x_comma_y_are_wire_coordinates() -> None:
    command = parse_command("7, 3")
    assert isinstance(command, PlayMove)
    assert command.resolve(15) == Point(7, 3)
    assert parse_command("move j10") == parse_command("j10")


@pytest.mark.parametrize("line", ["p8", "15,0", "a16"])
def test_a_move_off_the_board_is_refused_with_the_size(line: str) -> None:
    command = parse_command(line)
    assert isinstance(command, PlayMove)
    with pytest.raises(CommandError, match="15x15"):
        command.resolve(15)


def test_create_defaults_to_me_black_against_an_open_seat() -> None:
    assert parse_command("create") == CreateRoomCommand(Rule.FREESTYLE, 15, "me", "open", None, False)


def test_create_against_a_bot_as_white_with_a_clock() -> None:
    command = parse_command("create vs hard as white rule renju clock 5+3 private")
    assert command == CreateRoomCommand(Rule.RENJU, 15, BotSeat("hard"), "me", (300_000, 3_000), True)


def test_create_a_bot_against_bot_room() -> None:
    command = parse_command("create bots easy master size 19 clock 1")
    assert command == CreateRoomCommand(Rule.FREESTYLE, 19, BotSeat("easy"), BotSeat("master"), (60_000, 0), False)


def test_create_sets_the_search_of_the_bot_or_of_the_first_of_two() -> None:
    command = parse_command("create vs alphabeta depth 6 width 12")
    assert command == CreateRoomCommand(Rule.FREESTYLE, 15, "me", BotSeat("alphabeta", 6, 12), None, False)
    two = parse_command("create bots alphabeta hard width 3")
    assert two == CreateRoomCommand(Rule.FREESTYLE, 15, BotSeat("alphabeta", width=3), BotSeat("hard"), None, False)


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("create depth 3", "add 'vs LEVEL'"),
        ("create vs alphabeta depth 0", "depth must be a whole number of at least 1"),
        ("create vs alphabeta width many", "width must be a whole number"),
        ("create rule renju size 19", "15x15 only"),
        ("create size 4", "5 to 26"),
        ("create rule gomoku", "unknown rule"),
        ("create clock fast", "MINUTES\\+SECONDS"),
        ("create bots easy", "two levels"),
        ("create bots easy hard vs medium", "no seat for you"),
        ("create as green", "unknown colour"),
        ("create vs", "needs a value"),
        ("create quickly", "unknown create option"),
    ],
)
def test_create_explains_what_is_wrong(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_join_and_watch_name_a_room() -> None:
    assert parse_command("join r7") == JoinRoomCommand("r7", spectator=False)
    assert parse_command("watch r7") == JoinRoomCommand("r7", spectator=True)
    with pytest.raises(CommandError, match="one room id"):
        parse_command("join")


def test_answers_have_short_and_long_forms() -> None:
    for line in ("y", "yes", "accept", "YES"):
        assert parse_command(line) == Answer(True)
    for line in ("n", "no", "decline"):
        assert parse_command(line) == Answer(False)


def test_words_without_arguments_refuse_arguments() -> None:
    assert parse_command("resign") == ResignCommand()
    assert parse_command("quit") == QuitClient()
    with pytest.raises(CommandError, match="takes no arguments"):
        parse_command("resign now")


def test_export_takes_the_format_from_the_file_name_or_an_argument() -> None:
    assert parse_command("export g1 out/game.sgf") == ExportGameCommand("g1", Path("out/game.sgf"), "sgf")
    assert parse_command("export g1 game.txt psq") == ExportGameCommand("g1", Path("game.txt"), "psq")
    with pytest.raises(CommandError, match="which format"):
        parse_command("export g1 game.txt")


def test_games_takes_an_optional_player_and_limit() -> None:
    assert parse_command("games") == ListGamesCommand(None, 20)
    assert parse_command("games bob 5") == ListGamesCommand("bob", 5)
    assert parse_command("games 100") == ListGamesCommand(None, 100)
    for line in ("games 0", "games 101", "games bob 500"):
        with pytest.raises(CommandError, match="1 to 100"):
            parse_command(line)


def test_games_more_pages_on() -> None:
    assert parse_command("games more") == MoreGamesCommand()


def test_hint_time_is_in_seconds() -> None:
    assert parse_command("hint") == HintCommand(1000)
    assert parse_command("hint 2.5") == HintCommand(2500)
    with pytest.raises(CommandError, match="number"):
        parse_command("hint soon")


def test_replay_names_a_game() -> None:
    assert parse_command("replay g42") == ReplayCommand("g42")


def test_an_unknown_word_points_to_help() -> None:
    with pytest.raises(CommandError, match="help"):
        parse_command("castle kingside")


@pytest.mark.parametrize(
    ("text", "clock"),
    [("5+3", (300_000, 3_000)), ("10", (600_000, 0)), ("0:30+1", (30_000, 1_000)), ("1:30+0.5", (90_000, 500))],
)
def test_a_clock_is_minutes_or_minutes_and_seconds_plus_an_increment(text: str, clock: tuple[int, int]) -> None:
    assert parse_clock(text) == clock


@pytest.mark.parametrize("setting", [(60_000, 2_000), (30_000, 1_000), (90_000, 500), (1_500, 0), (86_400_000, 0)])
def test_a_clock_reads_back_as_it_is_shown(setting: tuple[int, int]) -> None:
    assert parse_clock(format_clock_setting(ClockSetting(*setting))) == setting


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("create clock 2000", "24 hours"),
        ("create clock 5+4000", "an hour"),
        ("create clock 0", "some time"),
        ("create clock 1:75", "MINUTES"),
        ("games bob! 5", "not a player name"),
    ],
)
def test_values_the_server_would_refuse_are_explained_before_sending(line: str, complaint: str) -> None:
    with pytest.raises(CommandError, match=complaint):
        parse_command(line)


def test_a_hint_takes_a_minute_at_most() -> None:
    with pytest.raises(CommandError, match="60 seconds"):
        parse_command("hint 100")
