"""The client's behaviour without sockets: lines and server messages in, actions out."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from core_harness import finished_record, moved, sent, shown, signed_in_core, welcome

from client.actions import Quit, RememberToken, SaveFile, Status
from client.core import QUIT_WAIT_S, ClientCore
from client.state import TURN_WAIT_S
from engine.record import record_to_dict
from engine.types import EndReason, Rule
from wire.messages import (
    AnswerDraw,
    BotInfoModel,
    Bots,
    BotSeatSpec,
    ClockModel,
    ClockSettingModel,
    CreateRoom,
    DrawOffered,
    ErrorMessage,
    GameMessage,
    GameOver,
    Games,
    GameSummaryModel,
    GetGame,
    Hello,
    JoinRoom,
    LeaveRoom,
    ListGames,
    ListRooms,
    Move,
    PlayerInfoModel,
    Rematch,
    RematchOffered,
    Resign,
    ResultModel,
    RoomMessage,
    Rooms,
    RoomSummaryModel,
    SeatModel,
)

SnapshotFactory = Callable[..., RoomMessage]


@pytest.fixture
def core() -> ClientCore:
    return signed_in_core()


def test_hello_carries_the_saved_token() -> None:
    (hello,) = sent(ClientCore("alice", token="saved").connected())
    assert isinstance(hello, Hello) and (hello.name, hello.token) == ("alice", "saved")


def test_the_token_of_the_welcome_is_remembered() -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    assert RememberToken("fresh") in client.handle_message(welcome("fresh"))


def test_a_refused_name_ends_the_client_with_an_explanation() -> None:
    client = ClientCore("alice", token="stale")
    (hello,) = sent(client.connected())
    actions = client.handle_message(ErrorMessage(code="name_taken", message="taken", id=hello.id))
    assert Quit(status=1) in actions
    assert "pick another name" in shown(actions)


def test_typing_a_move_outside_a_room_says_what_to_do(core: ClientCore) -> None:
    assert "'create' one or 'join' one" in shown(core.handle_line("h8"))


def test_create_against_a_bot(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("create vs hard clock 5+0"))
    assert isinstance(request, CreateRoom)
    assert (request.black, request.white) == ("me", BotSeatSpec(bot="hard"))
    assert request.clock is not None and request.clock.initial_ms == 300_000


def test_create_against_a_bot_with_its_own_depth_and_width(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("create vs alphabeta as white depth 2 width 5"))
    assert isinstance(request, CreateRoom)
    assert (request.black, request.white) == (BotSeatSpec(bot="alphabeta", depth=2, width=5), "me")


def test_a_room_is_drawn_with_the_last_move_marked_and_the_turn(core: ClientCore, snapshot: SnapshotFactory) -> None:
    text = shown(core.handle_message(snapshot("h8 j9")))
    assert "room r1: you are playing black" in text
    assert "[O]" in text
    assert "move 3, your move" in text


def test_a_move_typed_in_a_room_is_sent_as_coordinates(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    (request,) = sent(core.handle_line("h9"))
    assert isinstance(request, Move) and (request.room_id, request.x, request.y) == ("r1", 7, 6)


def test_each_move_redraws_the_board(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8", seq=5))
    text = shown(core.handle_message(moved(9, 6, ply=2, seq=6)))
    assert text.startswith("2. white (bob) ?")
    assert "[O]" in text and "your move" in text


def test_a_gap_in_events_rejoins_the_room_and_ignores_events_until_the_snapshot(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    core.handle_message(snapshot("h8", seq=5))
    (rejoin,) = sent(core.handle_message(moved(1, 1, ply=3, seq=7)))
    assert isinstance(rejoin, JoinRoom) and (rejoin.room_id, rejoin.as_) == ("r1", "player")
    assert core.handle_message(moved(2, 2, ply=4, seq=8)) == []
    core.handle_message(snapshot("h8 j9 b14 c13", seq=8))
    assert core.room is not None and core.room.board.ply == 4
    assert shown(core.handle_message(moved(3, 3, ply=5, seq=9))).startswith("5. black")


def test_after_a_reconnection_the_client_rejoins_its_room_in_the_same_role(snapshot: SnapshotFactory) -> None:
    client = ClientCore("carol", token=None)
    client.connected()
    client.handle_message(welcome())
    client.handle_message(snapshot("h8", you="spectator"))
    client.disconnected()
    (hello,) = sent(client.connected())
    assert isinstance(hello, Hello) and hello.token == "t0k3n"
    (rejoin,) = sent(client.handle_message(welcome()))
    assert isinstance(rejoin, JoinRoom) and rejoin.as_ == "spectator"


def test_resigning_asks_first(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    assert sent(core.handle_line("resign")) == []
    assert sent(core.handle_line("no")) == []
    core.handle_line("resign")
    (request,) = sent(core.handle_line("yes"))
    assert isinstance(request, Resign)


def test_an_unrelated_line_cancels_the_resign_question(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    core.handle_line("resign")
    core.handle_line("board")
    assert "no question" in shown(core.handle_line("yes"))


def test_a_draw_offer_is_a_question_answered_with_yes_or_no(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9", seq=5))
    text = shown(core.handle_message(DrawOffered(room_id="r1", by="white", seq=6)))
    assert "white (bob) offers a draw. Accept? (yes/no)" in text
    (answer,) = sent(core.handle_line("y"))
    assert isinstance(answer, AnswerDraw) and answer.accept


def test_game_over_names_the_winner_and_the_five(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 a1 h9 a2 h10 a3 h11 a4 h12", seq=9, status="finished"))
    result = ResultModel(winner="black", reason=EndReason.FIVE, line=[(7, 7), (7, 3)])
    text = shown(core.handle_message(GameOver(room_id="r1", game_id="g1", seq=10, result=result)))
    assert text == "game over: black (alice) wins with five in a row: h8 h12"


def test_errors_are_shown_with_their_code(core: ClientCore) -> None:
    assert shown(core.handle_message(ErrorMessage(code="occupied", message="h8 is taken"))) == "h8 is taken (occupied)"


def test_export_saves_the_text_the_server_sends(core: ClientCore, tmp_path: Path) -> None:
    (request,) = sent(core.handle_line(f"export g1 {tmp_path / 'game.psq'}"))
    assert isinstance(request, GetGame) and request.format == "psq"
    reply = GameMessage(game_id="g1", format="psq", record="Piskvork\n", id=request.id)
    assert core.handle_message(reply) == [SaveFile(tmp_path / "game.psq", "Piskvork\n")]


def test_export_as_json_writes_the_record_readably(core: ClientCore, tmp_path: Path) -> None:
    (request,) = sent(core.handle_line(f"export g1 {tmp_path / 'game.json'}"))
    (action,) = core.handle_message(GameMessage(game_id="g1", format="json", record={"size": 15}, id=request.id))
    assert isinstance(action, SaveFile) and json.loads(action.content) == {"size": 15}


def test_replay_steps_through_a_game_and_stops_on_q(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("replay g7"))
    text = shown(
        core.handle_message(
            GameMessage(game_id="g7", format="json", record=record_to_dict(finished_record()), id=request.id)
        )
    )
    assert "alice (black) vs easy (bot easy) (white)" in text
    assert "start of the game, 7 moves" in text
    assert "move 1/7: black h8" in shown(core.handle_line(""))
    assert "move 3/7: black h9" in shown(core.handle_line("3"))
    assert "move 2/7: white a15" in shown(core.handle_line("p"))
    last = shown(core.handle_line("last"))
    assert "move 7/7" in last and "white (easy) wins by resignation" in last
    assert shown(core.handle_line("q")) == "replay closed"
    assert core.replay is None


def test_a_record_that_is_not_a_game_is_not_replayed(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("replay g7"))
    text = shown(core.handle_message(GameMessage(game_id="g7", format="json", record={"size": 15}, id=request.id)))
    assert "cannot be replayed" in text and core.replay is None


def test_lines_typed_before_the_welcome_are_handled_after_it() -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    assert client.handle_line("rooms") == []
    actions = client.handle_message(welcome())
    assert [type(message).__name__ for message in sent(actions)] == ["ListRooms"]


def test_quit_waits_for_the_answers_to_the_lines_before_it() -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    client.handle_line("bots")
    assert client.handle_line("quit") == []
    actions = client.handle_message(welcome())
    (request,) = sent(actions)
    assert Quit() not in actions
    bots = Bots(bots=[BotInfoModel(level="easy", description="plays fast", rating=1200)], id=request.id)
    actions = client.handle_message(bots)
    assert "easy" in shown(actions)
    assert actions[-1] == Quit()


def test_the_end_of_input_is_a_quit_after_the_answers() -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    client.handle_line("bots")
    assert client.end_of_input() == []
    (request,) = sent(client.handle_message(welcome()))
    assert client.handle_message(Bots(bots=[], id=request.id))[-1] == Quit()


def test_quit_gives_up_waiting_for_answers_after_a_few_seconds(core: ClientCore) -> None:
    now = [0.0]
    client = ClientCore("alice", token=None, clock=lambda: now[0])
    client.connected()
    client.handle_message(welcome())
    client.handle_line("bots")
    assert client.handle_line("quit") == []
    assert client.tick() == []
    now[0] = QUIT_WAIT_S + 0.1
    assert Quit() in client.tick()


def test_quit_with_nothing_awaited_quits_at_once(core: ClientCore) -> None:
    assert core.handle_line("quit") == [Quit()]


def test_quit_while_the_connection_is_lost_quits_at_once(core: ClientCore) -> None:
    core.handle_line("bots")
    core.disconnected()
    assert core.handle_line("quit") == [Quit()]


def test_a_move_typed_right_after_create_waits_for_the_room(core: ClientCore, snapshot: SnapshotFactory) -> None:
    (create,) = sent(core.handle_line("create"))
    assert core.handle_line("h8") == []
    answer = snapshot("", seq=0).model_copy(update={"id": create.id})
    (move,) = sent(core.handle_message(answer))
    assert isinstance(move, Move) and (move.x, move.y) == (7, 7)


def test_a_rematch_accepted_at_the_prompt_starts_a_new_game(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9", seq=5, status="finished"))
    text = shown(core.handle_message(RematchOffered(room_id="r1", by="white", seq=6)))
    assert "white (bob) asks for a rematch. Accept? (yes/no)" in text
    (request,) = sent(core.handle_line("yes"))
    assert isinstance(request, Rematch)
    rematch = snapshot("", you="white", seq=7)
    new_game = rematch.model_copy(update={"room": rematch.room.model_copy(update={"game_id": "g2"})})
    assert "new game in room r1: you are playing white" in shown(core.handle_message(new_game))


def test_the_clock_command_shows_the_running_clocks(snapshot: SnapshotFactory) -> None:
    now = [100.0]
    client = ClientCore("alice", token=None, clock=lambda: now[0])
    client.connected()
    client.handle_message(welcome())
    client.handle_message(snapshot("h8", clock=ClockModel(black_ms=300_000, white_ms=300_000, increment_ms=0)))
    now[0] = 112.0
    assert shown(client.handle_line("clock")) == "black 5:00 | white 4:48 -- move 2, white to move"


def scripted_core(now: list[float]) -> ClientCore:
    client = ClientCore("alice", token=None, clock=lambda: now[0], scripted_input=True)
    client.connected()
    client.handle_message(welcome())
    return client


def test_a_scripted_move_waits_for_the_opponents_reply_before_the_next_line(snapshot: SnapshotFactory) -> None:
    client = scripted_core([0.0])
    client.handle_message(snapshot("", seq=0))
    (first,) = sent(client.handle_line("h8"))
    assert sent(client.handle_line("h9")) == []
    assert sent(client.handle_message(moved(7, 7, ply=1, seq=1).model_copy(update={"id": first.id}))) == []
    (second,) = sent(client.handle_message(moved(8, 8, ply=2, seq=2)))
    assert isinstance(second, Move) and (second.x, second.y) == (7, 6)


def test_a_refused_scripted_move_lets_the_next_line_go(snapshot: SnapshotFactory) -> None:
    client = scripted_core([0.0])
    client.handle_message(snapshot("h8 j9", seq=2))
    (first,) = sent(client.handle_line("h8"))
    client.handle_line("h9")
    (second,) = sent(client.handle_message(ErrorMessage(code="occupied", message="taken", id=first.id)))
    assert isinstance(second, Move) and (second.x, second.y) == (7, 6)


def test_the_end_of_the_game_ends_the_wait_for_a_reply(snapshot: SnapshotFactory) -> None:
    client = scripted_core([0.0])
    client.handle_message(snapshot("h8 j9", seq=2))
    (move,) = sent(client.handle_line("h9"))
    client.handle_line("games")
    assert sent(client.handle_message(moved(7, 6, ply=3, seq=3).model_copy(update={"id": move.id}))) == []
    result = ResultModel(winner="black", reason=EndReason.RESIGN)
    (listing,) = sent(client.handle_message(GameOver(room_id="r1", game_id="g1", seq=4, result=result)))
    assert type(listing).__name__ == "ListGames"


def test_a_scripted_move_stops_waiting_for_a_silent_opponent(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = scripted_core(now)
    client.handle_message(snapshot("", seq=0))
    (first,) = sent(client.handle_line("h8"))
    client.handle_line("h9")
    client.handle_message(moved(7, 7, ply=1, seq=1).model_copy(update={"id": first.id}))
    now[0] = TURN_WAIT_S - 1
    assert client.tick() == []
    now[0] = TURN_WAIT_S + 1
    actions = client.tick()
    assert "no reply from white" in shown(actions)
    (second,) = sent(actions)
    assert isinstance(second, Move)


def test_typed_moves_do_not_wait(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("", seq=0))
    assert len(sent(core.handle_line("h8"))) == 1
    assert len(sent(core.handle_line("h9"))) == 1


def test_leaving_a_running_game_asks_first_and_says_it_resigns(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    actions = core.handle_line("leave")
    assert sent(actions) == [] and "leaving resigns" in shown(actions)
    assert sent(core.handle_line("no")) == []
    core.handle_line("leave")
    (request,) = sent(core.handle_line("yes"))
    assert isinstance(request, LeaveRoom)


def test_leaving_a_room_without_a_running_game_does_not_ask(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("", status="waiting"))
    (request,) = sent(core.handle_line("leave"))
    assert isinstance(request, LeaveRoom)


def test_spectators_leave_without_a_question(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8", you="spectator"))
    (request,) = sent(core.handle_line("leave"))
    assert isinstance(request, LeaveRoom)


def test_quitting_during_a_game_asks_first(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    actions = core.handle_line("quit")
    assert Quit() not in actions and "Quit? (yes/no)" in shown(actions)
    assert Quit() not in core.handle_line("no")
    core.handle_line("quit")
    assert core.handle_line("yes") == [Quit()]


def test_the_end_of_input_quits_a_game_without_asking(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 j9"))
    assert core.end_of_input() == [Quit()]


def timed_snapshot(snapshot: SnapshotFactory, moves: str = "", seq: int = 0) -> RoomMessage:
    return snapshot(
        moves,
        seq=seq,
        clock=ClockModel(black_ms=60_000, white_ms=60_000, increment_ms=2_000),
        time_control=ClockSettingModel(initial_ms=60_000, increment_ms=2_000),
    )


def test_the_room_header_shows_the_time_control_as_minutes_plus_seconds(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    (join,) = sent(core.handle_line("join r1"))
    actions = core.handle_message(timed_snapshot(snapshot, "h8", seq=1).model_copy(update={"id": join.id}))
    assert sent(actions) == []  # the snapshot says it all: nothing more to ask
    assert "freestyle 15x15, clock 1+2: black alice" in shown(actions)


def room_summary(room_id: str) -> RoomSummaryModel:
    seat = SeatModel(name="bob", kind="human", connected=True)
    return RoomSummaryModel(
        room_id=room_id, rule=Rule.FREESTYLE, size=15, status="waiting", black=seat, white=None, spectators=0
    )


def test_rooms_walks_every_page_then_shows_them_all(core: ClientCore) -> None:
    (first,) = sent(core.handle_line("rooms"))
    actions = core.handle_message(Rooms(rooms=[room_summary("r1"), room_summary("r2")], next="r2", id=first.id))
    (second,) = sent(actions)
    assert isinstance(second, ListRooms) and second.after == "r2"
    assert shown(actions) == ""
    text = shown(core.handle_message(Rooms(rooms=[room_summary("r3")], next=None, id=second.id)))
    assert [line.split()[0] for line in text.splitlines()] == ["room", "r1", "r2", "r3"]


def game_summary(game_id: str) -> GameSummaryModel:
    player = PlayerInfoModel(name="alice")
    return GameSummaryModel(
        game_id=game_id,
        room_id=None,
        rule=Rule.FREESTYLE,
        size=15,
        black=player,
        white=PlayerInfoModel(name="easy", kind="bot", level="easy"),
        status="playing",
        moves=3,
        result=None,
        started_at=None,
        ended_at=None,
    )


def test_games_shows_a_page_and_games_more_the_next(core: ClientCore) -> None:
    (first,) = sent(core.handle_line("games bob 2"))
    assert isinstance(first, ListGames) and (first.player, first.limit, first.before) == ("bob", 2, None)
    text = shown(core.handle_message(Games(games=[game_summary("g9"), game_summary("g8")], next="g8", id=first.id)))
    assert text.splitlines()[0].startswith("g9") and "'games more'" in text.splitlines()[-1]
    (second,) = sent(core.handle_line("games more"))
    assert isinstance(second, ListGames) and (second.player, second.limit, second.before) == ("bob", 2, "g8")
    text = shown(core.handle_message(Games(games=[game_summary("g7")], next=None, id=second.id)))
    assert "games more" not in text
    assert "no more games" in shown(core.handle_line("games more"))


def test_a_first_welcome_listing_an_unfinished_game_takes_the_player_back_to_it() -> None:
    client = ClientCore("alice", token="saved")
    client.connected()
    actions = client.handle_message(welcome().model_copy(update={"rooms": ["r1", "r4"]}))
    (rejoin,) = sent(actions)
    assert isinstance(rejoin, JoinRoom) and (rejoin.room_id, rejoin.as_) == ("r1", "player")
    assert "back to your unfinished game in room r1" in shown(actions)
    assert "r4" in shown(actions)


def test_after_a_server_restart_the_room_is_followed_from_seq_0(snapshot: SnapshotFactory) -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    client.handle_message(welcome())
    client.handle_message(snapshot("h8 j9", seq=12))
    client.disconnected()
    client.connected()
    (rejoin,) = sent(client.handle_message(welcome()))
    assert client.handle_line("k10") == []  # waits for the fresh room
    (move,) = sent(client.handle_message(snapshot("h8 j9", seq=0).model_copy(update={"id": rejoin.id})))
    assert isinstance(move, Move) and (move.x, move.y) == (10, 5)
    text = shown(client.handle_message(moved(10, 5, ply=3, seq=1).model_copy(update={"id": move.id})))
    assert text.startswith("3. black")
    assert client.room is not None and client.room.seq == 1 and client.room.board.ply == 3


def test_a_running_clock_ticks_on_the_status_line(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = ClientCore("alice", token=None, clock=lambda: now[0])
    client.connected()
    client.handle_message(welcome())
    clock = ClockModel(black_ms=60_000, white_ms=60_000, increment_ms=0, running="white")
    client.handle_message(snapshot("h8", seq=1, clock=clock))
    assert client.tick() == [Status("black 1:00 | white 1:00 -- move 2, white to move")]
    now[0] = 0.5
    assert client.tick() == [Status("black 1:00 | white 0:59 -- move 2, white to move")]
    now[0] = 0.9
    assert client.tick() == []
    now[0] = 1.5
    assert client.tick() == [Status("black 1:00 | white 0:58 -- move 2, white to move")]
    result = ResultModel(winner="black", reason=EndReason.RESIGN)
    client.handle_message(GameOver(room_id="r1", game_id="g1", seq=2, result=result))
    assert client.tick() == [Status(None)]
    assert client.tick() == []


def test_an_untimed_game_has_no_status_line(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8"))
    assert core.tick() == []


def test_a_request_the_protocol_would_refuse_is_explained_not_sent(core: ClientCore) -> None:
    actions = core.handle_line("create vs " + "x" * 65)
    assert sent(actions) == []
    assert "cannot be sent" in shown(actions)


def test_the_status_line_goes_while_the_connection_is_down(snapshot: SnapshotFactory) -> None:
    client = ClientCore("alice", token=None, clock=lambda: 0.0)
    client.connected()
    client.handle_message(welcome())
    clock = ClockModel(black_ms=60_000, white_ms=60_000, increment_ms=0, running="white")
    client.handle_message(snapshot("h8", seq=1, clock=clock))
    assert client.tick() == [Status("black 1:00 | white 1:00 -- move 2, white to move")]
    client.disconnected()
    assert client.tick() == [Status(None)]


def test_a_scripted_move_waits_for_the_opponents_first_move(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = scripted_core(now)
    client.handle_message(snapshot("", you="white", seq=0))
    assert client.handle_line("h9") == []
    (move,) = sent(client.handle_message(moved(7, 7, ply=1, seq=1)))
    assert isinstance(move, Move) and (move.x, move.y) == (7, 6)


def test_a_scripted_move_held_for_the_opponent_goes_after_the_wait(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = scripted_core(now)
    client.handle_message(snapshot("", you="white", seq=0))
    client.handle_line("h9")
    now[0] = TURN_WAIT_S + 1
    actions = client.tick()
    assert "no reply from black" in shown(actions)
    (move,) = sent(actions)
    assert isinstance(move, Move)
