"""The client's behaviour with other players, without sockets: the lobby, quick pairing, who is online,
chat, claims, ratings, the leaderboard, profiles and the analysis of stored positions."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from core_harness import finished_record, sent, shown, signed_in_core, welcome

from client.actions import Fetch, Quit
from client.core import ClientCore
from client.web_api import HttpAnswer
from engine.record import record_to_dict
from engine.types import EndReason, Rule
from wire.messages import (
    AcceptSeek,
    Analysis,
    AnalysisMoveModel,
    Analyze,
    AnswerDraw,
    CancelSeek,
    ChatMessage,
    ChatRequest,
    ClaimWin,
    ClockSettingModel,
    CreateRoom,
    ErrorMessage,
    GameMessage,
    GameOver,
    Leaderboard,
    LeaderboardEntryModel,
    LeaderboardMessage,
    Lobby,
    LobbyChanges,
    Move,
    OffersModel,
    OnlineCount,
    OnlinePlayerModel,
    OnlinePlayers,
    OpponentAway,
    OpponentBack,
    ProfileModel,
    QuickPair,
    RatingChangeModel,
    RatingsModel,
    ResultModel,
    RoomMessage,
    SeekAdded,
    SeekCreated,
    SeekerModel,
    SeekModel,
    SeekRemoved,
    SeekRequest,
    UnwatchLobby,
    WatchLobby,
    WhoIsOnline,
)

SnapshotFactory = Callable[..., RoomMessage]


@pytest.fixture
def core() -> ClientCore:
    return signed_in_core()


def seek(seek_id: str, by: str = "bob", rating: int = 1540, **terms: object) -> SeekModel:
    fields: dict[str, object] = {
        "rule": Rule.FREESTYLE,
        "size": 15,
        "clock": None,
        "rated": False,
        "color": "random",
        "rating_min": None,
        "rating_max": None,
        "created_at": "2026-11-24T10:00:00Z",
    }
    return SeekModel(seek_id=seek_id, by=SeekerModel(name=by, rating=rating), **(fields | terms))


# ------------------------------------------------------------------ seeking


def test_a_seek_is_sent_with_its_terms(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("seek rule renju clock 5+3 rated as white rating 1400-1600"))
    assert isinstance(request, SeekRequest)
    assert (request.rule, request.size, request.rated, request.color) == (Rule.RENJU, 15, True, "white")
    assert request.clock == ClockSettingModel(initial_ms=300_000, increment_ms=3_000)
    assert (request.rating_min, request.rating_max) == (1400, 1600)


def test_a_seek_waiting_says_how_to_withdraw_it_and_cancel_withdraws_it(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("seek clock 5+3"))
    mine = seek("s1", by="alice", rating=1500, clock=ClockSettingModel(initial_ms=300_000, increment_ms=3_000))
    text = shown(core.handle_message(SeekCreated(seek=mine, id=request.id)))
    assert text == (
        "your seek is in the lobby: s1: alice (1500), freestyle 15x15, clock 5+3, casual; 'cancel' withdraws it"
    )
    (cancel,) = sent(core.handle_line("cancel"))
    assert isinstance(cancel, CancelSeek) and cancel.seek_id == "s1"
    assert shown(core.handle_message(SeekRemoved(seek_id="s1", id=cancel.id))) == "seek s1 cancelled"
    assert shown(core.handle_line("cancel")) == "you have no seek waiting"


def test_the_game_of_an_accepted_seek_starts_without_being_asked_for(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    (request,) = sent(core.handle_line("seek"))
    core.handle_message(SeekCreated(seek=seek("s1", by="alice"), id=request.id))
    assert shown(core.handle_message(SeekRemoved(seek_id="s1"))) == "your seek s1 has left the lobby"
    text = shown(core.handle_message(snapshot("", you="white", room_id="r9", seq=0)))
    assert "room r9: you are playing white" in text and "move 1, black to move" in text


def test_watching_the_lobby_lists_the_seeks_then_follows_them(core: ClientCore) -> None:
    (watch,) = sent(core.handle_line("seeks"))
    assert isinstance(watch, WatchLobby)
    text = shown(core.handle_message(Lobby(online=3, seeks=[seek("s1", rating_min=1400)], id=watch.id)))
    assert text.splitlines() == [
        "lobby: 3 players online, 1 seek waiting ('accept SEEK' takes one):",
        "  s1: bob (1540), freestyle 15x15, casual, for ratings 1400 and up",
    ]
    added = shown(core.handle_message(SeekAdded(seek=seek("s2", by="carol", rated=True, color="black"))))
    assert added == "new seek s2: carol (1540), freestyle 15x15, rated, carol plays black"
    assert shown(core.handle_message(SeekRemoved(seek_id="s1"))) == "seek s1 (bob) is gone"
    assert shown(core.handle_message(OnlineCount(count=4))) == "4 players online"


def test_a_server_with_batches_is_watched_in_batches_and_followed_from_them() -> None:
    core = ClientCore("alice", token=None, clock=lambda: 0.0)
    core.connected()
    core.handle_message(welcome(features=["lobby_batches"]))
    (watch,) = sent(core.handle_line("seeks"))
    assert isinstance(watch, WatchLobby) and watch.batches
    core.handle_message(Lobby(online=3, seeks=[seek("s1")], seq=4, id=watch.id))
    batch = LobbyChanges(added=[seek("s2", by="carol")], removed=["s1"], online=4, seq=5)
    assert shown(core.handle_message(batch)).splitlines() == [
        "new seek s2: carol (1540), freestyle 15x15, casual",
        "seek s1 (bob) is gone",
        "4 players online",
    ]
    carol_gone = LobbyChanges(added=[], removed=["s2"], online=None, seq=6)
    assert shown(core.handle_message(carol_gone)) == "seek s2 (carol) is gone"

    (again,) = sent(core.handle_message(LobbyChanges(added=[seek("s3")], removed=[], online=None, seq=8)))
    assert isinstance(again, WatchLobby) and again.batches, "a batch was missed: start again from a snapshot"
    assert core.lobby.seeks == {}, "nothing is followed until the new snapshot"


def test_a_server_without_batches_is_watched_a_message_per_change(core: ClientCore) -> None:
    (watch,) = sent(core.handle_line("seeks"))
    assert isinstance(watch, WatchLobby) and not watch.batches


def test_ones_own_seek_is_told_once_even_while_watching(core: ClientCore) -> None:
    core.handle_message(Lobby(online=1, seeks=[]))
    assert shown(core.handle_message(SeekAdded(seek=seek("s1", by="alice")))) == ""


def test_unwatching_expects_no_answer(core: ClientCore) -> None:
    core.handle_message(Lobby(online=1, seeks=[]))
    actions = core.handle_line("unwatch")
    (request,) = sent(actions)
    assert isinstance(request, UnwatchLobby)
    assert core.handle_message(SeekAdded(seek=seek("s1"))) == []
    assert core.handle_line("quit") == [Quit()]  # nothing is waiting for an answer


def test_a_seek_is_accepted_by_its_id_or_by_who_seeks(core: ClientCore) -> None:
    core.handle_message(Lobby(online=2, seeks=[seek("s1", by="bob"), seek("s2", by="carol")]))
    (by_name,) = sent(core.handle_line("accept Bob"))
    assert isinstance(by_name, AcceptSeek) and by_name.seek_id == "s1"
    core.handle_message(ErrorMessage(code="not_found", message="gone", id=by_name.id))
    (by_id,) = sent(core.handle_line("accept s2"))
    assert isinstance(by_id, AcceptSeek) and by_id.seek_id == "s2"


def test_a_player_with_two_seeks_is_not_guessed_at(core: ClientCore) -> None:
    core.handle_message(Lobby(online=2, seeks=[seek("s1"), seek("s2")]))
    actions = core.handle_line("accept bob")
    assert sent(actions) == [] and "bob has 2 seeks" in shown(actions)


def test_lines_after_accept_wait_for_the_room(core: ClientCore, snapshot: SnapshotFactory) -> None:
    (accept,) = sent(core.handle_line("accept s1"))
    assert core.handle_line("h8") == []
    (move,) = sent(core.handle_message(snapshot("", seq=0).model_copy(update={"id": accept.id})))
    assert isinstance(move, Move)


def test_accept_alone_still_answers_the_question_on_screen(core: ClientCore, snapshot: SnapshotFactory) -> None:
    offers = OffersModel(draw="white")
    core.handle_message(snapshot("h8 j9", offers=offers))
    (answer,) = sent(core.handle_line("accept"))
    assert isinstance(answer, AnswerDraw) and answer.accept


def test_quick_pairing_asks_for_the_game_and_waits(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("pair size 9 clock 3+2 rated"))
    assert isinstance(request, QuickPair)
    assert (request.size, request.rated) == (9, True)
    assert request.clock == ClockSettingModel(initial_ms=180_000, increment_ms=2_000)
    waiting = seek("s1", by="alice", rating=1500, size=9, quick=True)
    text = shown(core.handle_message(SeekCreated(seek=waiting, id=request.id)))
    assert text.startswith("looking for an opponent (s1: alice (1500), freestyle 9x9") and "'cancel' stops" in text


def test_a_script_waits_for_its_pairing_before_its_moves(snapshot: SnapshotFactory) -> None:
    client = signed_in_core(scripted_input=True)
    (request,) = sent(client.handle_line("pair"))
    assert client.handle_line("h8") == []
    assert sent(client.handle_message(SeekCreated(seek=seek("s1", by="alice", quick=True), id=request.id))) == []
    assert sent(client.handle_message(SeekRemoved(seek_id="s1"))) == []  # paired: the room comes next
    (move,) = sent(client.handle_message(snapshot("", seq=0)))
    assert isinstance(move, Move) and (move.x, move.y) == (7, 7)


def test_a_scripts_seek_refused_lets_the_next_lines_go() -> None:
    client = signed_in_core(scripted_input=True)
    (request,) = sent(client.handle_line("seek"))
    assert client.handle_line("online") == []
    (online,) = sent(client.handle_message(ErrorMessage(code="limit_reached", message="too many", id=request.id)))
    assert isinstance(online, WhoIsOnline)


def test_a_dropped_connection_withdraws_ones_seeks_and_the_lobby_is_watched_again(core: ClientCore) -> None:
    core.handle_message(Lobby(online=1, seeks=[]))
    core.handle_message(SeekCreated(seek=seek("s1", by="alice")))
    assert "your seeks were withdrawn" in shown(core.disconnected())
    core.connected()
    assert any(isinstance(message, WatchLobby) for message in sent(core.handle_message(welcome())))
    assert shown(core.handle_line("cancel")) == "you have no seek waiting"


# ------------------------------------------------------------------ people


def test_who_is_online(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("online"))
    assert isinstance(request, WhoIsOnline)
    players = [
        OnlinePlayerModel(name="alice", rating=1500, status="idle"),
        OnlinePlayerModel(name="bob", rating=1623, status="playing"),
    ]
    text = shown(core.handle_message(OnlinePlayers(count=3, players=players, id=request.id)))
    assert text.splitlines() == ["3 online:", "  alice   1500  idle", "  bob     1623  playing", "  (and 1 more)"]


def test_the_leaderboard_marks_provisional_ratings(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("top bots 5"))
    assert isinstance(request, Leaderboard) and (request.kind, request.limit) == ("bot", 5)
    players = [
        LeaderboardEntryModel(name="master", kind="bot", rating=1941, rd=100, games=12),
        LeaderboardEntryModel(name="bob", kind="human", rating=1662, rd=250, games=1),
    ]
    text = shown(core.handle_message(LeaderboardMessage(players=players, id=request.id)))
    assert [line.split() for line in text.splitlines()] == [
        ["#", "player", "rating", "games"],
        ["1", "master", "(bot)", "1941", "12"],
        ["2", "bob", "1662?", "1"],
    ]


def test_a_profile_is_fetched_over_http_and_shown(core: ClientCore) -> None:
    (fetch,) = core.handle_line("profile bob")
    assert isinstance(fetch, Fetch) and fetch.path == "/api/players/bob"
    profile = ProfileModel(
        name="bob",
        kind="human",
        rating=1662,
        rd=250,
        games=1,
        wins=1,
        losses=0,
        draws=0,
        played=1,
        recent=[],
        history=[],
    )
    text = shown(core.fetched(HttpAnswer(fetch.request, 200, profile.model_dump_json())))
    assert text == "bob: rating 1662? (deviation 250), 1 rated game; 1 won, 0 lost, 0 drawn"


def test_a_profile_that_cannot_be_had_says_why(core: ClientCore) -> None:
    (own,) = core.handle_line("profile")
    assert isinstance(own, Fetch) and own.path == "/api/players/alice"
    assert shown(core.fetched(HttpAnswer(own.request, 404, "no such player"))) == "there is no player named 'alice'"
    (again,) = core.handle_line("profile")
    assert isinstance(again, Fetch)
    failed = HttpAnswer(again.request, None, "cannot reach http://127.0.0.1:9/api/players/alice: refused")
    assert shown(core.fetched(failed)) == "no profile: cannot reach http://127.0.0.1:9/api/players/alice: refused"


def test_quit_waits_for_a_profile_on_its_way(core: ClientCore) -> None:
    (fetch,) = core.handle_line("profile bob")
    assert isinstance(fetch, Fetch)
    assert core.handle_line("quit") == []
    assert core.fetched(HttpAnswer(fetch.request, 404, ""))[-1] == Quit()


# -------------------------------------------------------------------- chat


def test_saying_something_goes_to_the_room_or_to_the_lobby(core: ClientCore, snapshot: SnapshotFactory) -> None:
    (lobby,) = sent(core.handle_line("say  hello,   everyone "))
    assert isinstance(lobby, ChatRequest) and (lobby.room_id, lobby.text) == (None, "hello,   everyone")
    core.handle_message(snapshot("h8"))
    (room,) = sent(core.handle_line("say good luck"))
    assert isinstance(room, ChatRequest) and room.room_id == "r1"


def test_chat_is_shown_as_name_and_text_and_the_lobbys_is_marked_in_a_room(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    said = ChatMessage(room_id=None, from_="bob", text="anyone for a game?", at="2026-11-24T10:00:00Z")
    assert shown(core.handle_message(said)) == "bob: anyone for a game?"
    core.handle_message(snapshot("h8"))
    assert shown(core.handle_message(said)) == "[lobby] bob: anyone for a game?"
    in_room = said.model_copy(update={"room_id": "r1", "text": "nice move"})
    assert shown(core.handle_message(in_room)) == "bob: nice move"


def test_chat_never_carries_control_sequences_to_the_terminal(core: ClientCore) -> None:
    said = ChatMessage(room_id=None, from_="bob", text="\x1b]0;pwned\x07\u202eevil", at="2026-11-24T10:00:00Z")
    assert shown(core.handle_message(said)) == "bob: \\x1b]0;pwned\\x07\\u202eevil"


# ------------------------------------------------------------------ claims


def test_an_absent_opponent_can_be_claimed_from_when_the_time_comes(snapshot: SnapshotFactory) -> None:
    now = [100.0]
    client = signed_in_core(lambda: now[0])
    client.handle_message(snapshot("h8 j9", connected=(True, False)))
    away = OpponentAway(room_id="r1", color="white", claim_at_ms=30_000)
    assert shown(client.handle_message(away)) == "white (bob) is away: you may claim the win in 30 s ('claim')"
    now[0] = 129.0
    assert client.tick() == []
    client.handle_message(snapshot("h8 j9", connected=(True, False)))  # a fresh snapshot keeps the notice
    now[0] = 130.5
    assert "'claim' wins the game" in shown(client.tick())
    assert client.tick() == []  # told once
    (claim,) = sent(client.handle_line("claim"))
    assert isinstance(claim, ClaimWin) and claim.room_id == "r1"


def test_a_repeated_absence_notice_is_not_shown_twice(snapshot: SnapshotFactory) -> None:
    now = [100.0]
    client = signed_in_core(lambda: now[0])
    client.handle_message(snapshot("h8 j9", connected=(True, False)))
    client.handle_message(OpponentAway(room_id="r1", color="white", claim_at_ms=30_000))
    now[0] = 110.0
    assert client.handle_message(OpponentAway(room_id="r1", color="white", claim_at_ms=20_000)) == []
    now[0] = 130.5
    assert "'claim' wins the game" in shown(client.tick())


def test_a_claim_already_open_is_said_at_once(snapshot: SnapshotFactory) -> None:
    client = signed_in_core(lambda: 50.0)
    client.handle_message(snapshot("h8 j9", connected=(True, False)))
    opened = client.handle_message(OpponentAway(room_id="r1", color="white", claim_at_ms=0))
    assert shown(opened) == "white (bob) has been away long enough: 'claim' wins the game, or wait for them"
    assert client.tick() == []  # told once
    (claim,) = sent(client.handle_line("claim"))
    assert isinstance(claim, ClaimWin)


def test_an_opponent_back_can_no_longer_be_claimed_from(snapshot: SnapshotFactory) -> None:
    now = [0.0]
    client = signed_in_core(lambda: now[0])
    client.handle_message(snapshot("h8 j9"))
    client.handle_message(OpponentAway(room_id="r1", color="white", claim_at_ms=30_000))
    assert shown(client.handle_message(OpponentBack(room_id="r1", color="white"))) == "white (bob) is back"
    now[0] = 60.0
    assert client.tick() == []


def test_a_spectator_hears_of_an_absence_but_is_not_offered_the_claim(snapshot: SnapshotFactory) -> None:
    client = signed_in_core()
    client.handle_message(snapshot("h8 j9", you="spectator"))
    assert shown(client.handle_message(OpponentAway(room_id="r1", color="white", claim_at_ms=30_000))) == (
        "white (bob) is away"
    )


def test_claim_outside_a_room_says_what_to_do(core: ClientCore) -> None:
    assert "'create' one or 'join' one" in shown(core.handle_line("claim"))


# ----------------------------------------------------------------- ratings


def test_the_room_header_shows_ratings_and_whether_the_game_is_rated(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    text = shown(core.handle_message(snapshot("h8", rated=True, ratings=(1500, 1623))))
    assert "room r1, freestyle 15x15, rated: black alice (1500), white bob (1623), 0 watching" in text


def test_a_rated_game_over_shows_both_rating_changes(core: ClientCore, snapshot: SnapshotFactory) -> None:
    core.handle_message(snapshot("h8 a1 h9 a2 h10 a3 h11 a4 h12", seq=9, rated=True, ratings=(1500, 1500)))
    ratings = RatingsModel(
        black=RatingChangeModel(before=1500, after=1662), white=RatingChangeModel(before=1500, after=1338)
    )
    result = ResultModel(winner="black", reason=EndReason.FIVE)
    text = shown(core.handle_message(GameOver(room_id="r1", game_id="g1", seq=10, result=result, ratings=ratings)))
    assert text.splitlines()[-1] == "ratings: alice 1500 -> 1662 (+162), bob 1500 -> 1338 (-162)"
    assert "black alice (1662), white bob (1338)" in shown(core.handle_line("board"))


def test_create_rated(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("create vs hard rated"))
    assert isinstance(request, CreateRoom) and request.rated


def test_the_welcome_shows_a_provisional_rating(core: ClientCore) -> None:
    client = ClientCore("alice", token=None)
    client.connected()
    assert "signed in as alice (rating 1500?)" in shown(client.handle_message(welcome()))


# ------------------------------------------------------------------ offers


def test_an_offer_waiting_in_a_snapshot_is_shown_and_can_be_answered(
    core: ClientCore, snapshot: SnapshotFactory
) -> None:
    text = shown(core.handle_message(snapshot("h8 j9", offers=OffersModel(undo="white"))))
    assert text.splitlines()[-1] == "white (bob) asks to take back a move. Accept? (yes/no)"
    (answer,) = sent(core.handle_line("no"))
    assert answer.type == "answer_undo"


def test_ones_own_offer_in_a_snapshot_is_not_a_question(core: ClientCore, snapshot: SnapshotFactory) -> None:
    rematch = OffersModel(rematch=["black"])
    text = shown(core.handle_message(snapshot("h8 j9", status="finished", offers=rematch)))
    assert text.splitlines()[-1] == "you ask for a rematch"
    assert "no question" in shown(core.handle_line("yes"))


# ---------------------------------------------------------------- analysis


def test_any_position_of_a_stored_game_can_be_analysed(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("analyze g7 12 0.5"))
    assert isinstance(request, Analyze) and (request.game_id, request.ply, request.time_ms) == ("g7", 12, 500)
    answer = Analysis(
        game_id="g7", ply=12, best=AnalysisMoveModel(x=7, y=7, move="h8"), score=40, depth=6, nodes=900, pv=["h8"]
    )
    assert shown(core.handle_message(answer)).startswith("engine (game g7 after 12 moves): best h8, score 40")


def test_a_hint_during_a_replay_analyses_the_position_shown(core: ClientCore) -> None:
    (request,) = sent(core.handle_line("replay g7"))
    record = record_to_dict(finished_record())
    core.handle_message(GameMessage(game_id="g7", format="json", record=record, id=request.id))
    core.handle_line("3")
    (analyze,) = sent(core.handle_line("hint"))
    assert isinstance(analyze, Analyze) and (analyze.game_id, analyze.ply, analyze.room_id) == ("g7", 3, None)
