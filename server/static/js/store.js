// The page's whole state, and the one function that changes it.
//
// `reduce(state, action)` is pure: it never sends, stores or draws, and it
// returns a new object for whatever changed (so views can tell by
// reference). The server's messages are the only source of truth about
// rooms and games: input never changes a board here, it only sends an
// intent ("play h8"), and the board changes when `moved` comes back.
//
// Room events carry the room's `seq`. An event is applied only when it is
// the next number; one already seen is dropped; one that skips a number
// marks the room `resync: "needed"` and the events after it are dropped
// until a fresh snapshot (`room`) replaces everything. A lost connection
// marks the room the same way: the board is never shown as current when
// it might not be.
//
// What one room becomes from its snapshot and events is in roomstate.js;
// the lobby's seeks, online list and chat are in lobbystate.js.

import { accountAfter, initialAccount } from './accountstate.js';
import { initialLobby, lobbyReceived, lobbyRewatched, unwatched, withLine } from './lobbystate.js';
import { initialModeration, moderationReceived } from './moderationstate.js';
import { boardChoice, pickPoint } from './opening.js';
import { awayChanged, applyEvent, roomFromSnapshot } from './roomstate.js';
import { progressReceived, puzzleAsked, puzzleMovePlayed, puzzleReceived, puzzleRefused } from './puzzlestate.js';
import { lineStepped, markHidden, markShown, reviewReceived, reviewRefused, reviewRequested } from './reviewstate.js';
import { LOBBY } from './routes.js';
import { initialTournaments, tournamentsReceived } from './tournamentstate.js';

/**
 * A minimal observable holder for the state. An action dispatched by a
 * listener waits until every listener has seen the change before it, so
 * listeners always see the changes in order.
 */
export function createStore(reducer, state) {
  const listeners = new Set();
  const queue = [];
  let busy = false;
  return {
    getState: () => state,
    dispatch(action) {
      queue.push(action);
      if (busy) return;
      busy = true;
      try {
        while (queue.length > 0) {
          const previous = state;
          state = reducer(state, queue.shift());
          if (state !== previous) for (const listener of listeners) listener(state, previous);
        }
      } finally {
        busy = false;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The state of a page that has just opened at `route` (what it shows is loaded once signed in). */
export function initialState(prefs, route = LOBBY) {
  const blank = {
    prefs,
    connection: 'connecting', // 'connecting' | 'online' | 'reconnecting'
    session: 'none', // 'none' | 'pending' (hello sent) | 'ready' (welcome received on this connection)
    signInError: null, // {code, message, name, password}: password, whether the hello carried one
    me: null, // {name, rating, rd, games}: rd and games from a 1.1 server
    features: [], // the features `welcome` lists: paging, ratings, lobby, chat, claims, analysis_at_ply, lobby_batches...
    seatedRooms: [], // rooms where I hold a seat in an unfinished game
    backToGame: false, // the page has just opened on the lobby: signing in goes on to my unfinished game
    route: LOBBY,
    lobby: initialLobby(), // rooms, bots, and from a 1.1 server seeks, who is online, chat: see lobbystate.js
    room: null,
    roomError: null, // {code, message} when the routed room could not be joined
    games: { player: null, list: null },
    replay: null,
    puzzle: null, // the puzzle trainer: see puzzlestate.js
    leaderboard: { kind: null, players: null }, // kind: null (everyone) | 'human' | 'bot'
    profile: null, // {name, data (GET /api/players/NAME) | null, error: null | 'not_found' | 'unavailable'}
    notice: null, // {code, message, request, serial}: the last refusal, to show once
    chatRefused: null, // {roomId, text, serial}: a chat line the server refused, to give back to its field
    account: initialAccount(), // a password kept for the name, the devices signed in: see accountstate.js
    role: null, // my moderation role from `welcome`: null | 'moderator' | 'admin'
    moderation: initialModeration(), // the moderation page's reports, audit log and last action: see moderationstate.js
    tournaments: initialTournaments(), // the list, and the tournament shown: see tournamentstate.js
    tournamentGames: {}, // room id -> {tournamentId, round}: the tournament games this page was told of
  };
  return { ...navigated(blank, route), backToGame: route.name === 'lobby' };
}

export function reduce(state, action) {
  switch (action.type) {
    case 'connection':
      return connectionChanged(state, action.status);
    case 'hello_sent':
      return { ...state, session: 'pending', signInError: null, prefs: { ...state.prefs, name: action.name } };
    case 'signed_out':
      return { ...state, me: null, role: null, session: 'none', seatedRooms: [], room: null, signInError: null };
    case 'navigate':
      return navigated(state, action.route);
    case 'pref':
      return { ...state, prefs: { ...state.prefs, [action.key]: action.value } };
    case 'server':
      return accountAfter(state, fromServer(state, action.message, action.request ?? null, action.at ?? 0), action.message);
    case 'resync_sent':
      return state.room?.resync === 'needed' ? withRoom(state, { resync: 'sent' }) : state;
    case 'lobby_rewatched':
      return withLobby(state, lobbyRewatched(state.lobby));
    case 'analysis_requested':
      return state.room === null ? state : withRoom(state, { analysis: { pending: true, ply: state.room.moves.length } });
    case 'analysis_cleared':
      return state.room === null ? state : withRoom(state, { analysis: null });
    case 'opening_pick':
      return openingPicked(state, action.x, action.y);
    case 'opening_clear':
      return state.room === null || state.room.draft.length === 0 ? state : withRoom(state, { draft: [] });
    case 'dismiss_notice':
      return state.notice === null ? state : { ...state, notice: null };
    case 'replay_seek':
      return withReplay(state, (replay) => ({ ply: clampPly(replay, action.ply), playing: false }));
    case 'replay_play':
      return withReplay(state, (replay) => startOrStop(replay, action.playing));
    case 'replay_tick':
      return withReplay(state, advance);
    case 'replay_analysis_requested':
      return withReplay(state, (replay) => ({ analysis: { pending: true, ply: replay.ply } }));
    case 'replay_analysis_cleared':
      return withReplay(state, () => ({ analysis: null }));
    case 'puzzle_asked':
      return { ...state, puzzle: puzzleAsked() };
    case 'puzzle_move':
      return { ...state, puzzle: puzzleMovePlayed(state.puzzle, action.x, action.y) };
    case 'review_requested':
      return withReplay(state, reviewRequested);
    case 'review_mark_shown':
      return withReplay(state, (replay) => markShown(replay, action.index));
    case 'review_line_step':
      return withReplay(state, (replay) => lineStepped(replay, action.step));
    case 'review_mark_hidden':
      return withReplay(state, markHidden);
    case 'profile_loaded':
      return state.profile?.name === action.name ? { ...state, profile: { ...state.profile, data: action.profile, error: null } } : state;
    case 'profile_failed':
      return state.profile?.name === action.name ? { ...state, profile: { ...state.profile, error: action.error } } : state;
    default:
      return state;
  }
}

// ------------------------------------------------------------ connection, routes

function connectionChanged(state, status) {
  if (status === 'online') return { ...state, connection: 'online', session: 'none' };
  const room = state.room === null ? null : { ...state.room, resync: 'needed', analysis: null };
  // A room being created when the line dropped may or may not exist: start again from the lobby.
  const creating = state.route.name === 'room' && state.route.roomId === null;
  const lobby = unwatched(state.lobby); // the server forgets a closed connection's watching
  return { ...state, connection: status, session: 'none', room, lobby, route: creating ? LOBBY : state.route };
}

function navigated(state, route) {
  const next = { ...state, route, roomError: null, backToGame: false };
  if (route.name !== 'lobby') next.lobby = unwatched(state.lobby);
  const keepsRoom = route.name === 'room' && state.room !== null && route.roomId === state.room.id;
  if (!keepsRoom) next.room = null;
  if (route.name === 'games') next.games = { player: route.player, list: null };
  if (route.name === 'replay' && state.replay?.gameId !== route.gameId) {
    next.replay = { gameId: route.gameId, record: null, ply: 0, playing: false, error: null, analysis: null, review: null };
  }
  // A list or a profile shown again stays on screen until the fresh one replaces it.
  if (route.name === 'players' && state.leaderboard.kind !== route.kind) next.leaderboard = { kind: route.kind, players: null };
  if (route.name === 'profile' && state.profile?.name !== route.player) next.profile = { name: route.player, data: null, error: null };
  if (route.name === 'tournament' && state.tournaments.shown?.tournament_id !== route.tournamentId) {
    next.tournaments = { ...state.tournaments, shown: null, rewatch: null, missing: null };
  }
  return next;
}

// ---------------------------------------------------------------- server messages

function fromServer(state, message, request, at) {
  switch (message.type) {
    case 'welcome':
      return welcomed(state, message);
    case 'error':
      return errorReceived(state, message, request);
    case 'rooms':
      return { ...state, lobby: { ...state.lobby, rooms: message.rooms } };
    case 'bots':
      return { ...state, lobby: { ...state.lobby, bots: message.bots } };
    case 'room':
      return snapshotReceived(state, message, request, at);
    case 'spectators':
      return state.room?.id === message.room_id ? withRoom(state, { spectators: message.count }) : state;
    case 'games':
      return gamesReceived(state, message, request);
    case 'game':
      return gameReceived(state, message);
    case 'analysis':
      return analysisReceived(state, message);
    case 'game_review':
      return withReplay(state, (replay) => reviewReceived(replay, message));
    case 'puzzle':
      return { ...state, puzzle: puzzleReceived(message) };
    case 'puzzle_progress':
      return { ...state, puzzle: progressReceived(state.puzzle, message) };
    case 'leaderboard':
      return leaderboardReceived(state, message, request);
    case 'lobby':
    case 'lobby_changes':
    case 'seek_added':
    case 'seek_created':
    case 'seek_removed':
    case 'online':
    case 'online_players':
      return withLobby(state, lobbyReceived(state.lobby, message));
    case 'chat':
      return chatReceived(state, message);
    case 'opponent_away':
    case 'opponent_back':
      return awayReceived(state, message, at);
    case 'tournaments':
    case 'tournament':
    case 'tournament_changes':
      return tournamentReceived(state, message, request);
    case 'tournament_game':
      return tournamentGameStarted(state, message);
    case 'moved':
    case 'game_over':
    case 'draw_offered':
    case 'undo_requested':
    case 'rematch_offered':
    case 'undone':
    case 'declined':
      return roomEventReceived(state, message, at);
    default:
      return moderationReceived(state, message, notice) ?? state;
  }
}

/** A tournament's news; the answer to `create_tournament` goes to the new tournament's page. */
function tournamentReceived(state, message, request) {
  let next = state;
  if (message.type === 'tournament' && request?.type === 'create_tournament') {
    next = navigated(state, { name: 'tournament', tournamentId: message.tournament.tournament_id });
  }
  return { ...next, tournaments: tournamentsReceived(next.tournaments, message, next.route) };
}

/** My next tournament game has started: from a page of tournaments (or the lobby) the page goes to
 * it; anywhere else the notice says so. */
function tournamentGameStarted(state, message) {
  // The room remembers its tournament and round: its page names them and leads back.
  const game = { tournamentId: message.tournament_id, round: message.round };
  const known = { ...state, tournamentGames: { ...state.tournamentGames, [message.room_id]: game } };
  // Taken to the game, the page says it there (a notice would cover the player's own clock).
  if (state.route.name === 'room' && state.route.roomId === message.room_id) return known;
  if (['tournament', 'tournaments', 'lobby'].includes(state.route.name)) return navigated(known, { name: 'room', roomId: message.room_id, as: 'player' });
  return { ...known, notice: notice(state, { code: 'tournament_game', message: `${message.opponent}` }, null) };
}

/**
 * Signed in. A page opened on the lobby (the site's address) by a player
 * who holds a seat in an unfinished game goes straight to that game: a
 * player who comes back after a drop is seated again, not left away.
 */
function welcomed(state, message) {
  const seatedRooms = message.rooms ?? [];
  const next = { ...state, session: 'ready', signInError: null, me: message.player, features: message.features ?? [], seatedRooms, backToGame: false, role: message.role ?? null };
  if (!state.backToGame || state.route.name !== 'lobby' || seatedRooms.length === 0) return next;
  return navigated(next, { name: 'room', roomId: seatedRooms[0], as: 'player' });
}

function errorReceived(state, message, request) {
  const refusal = { code: message.code, message: message.message };
  const kind = request?.type;
  if (kind === 'hello') {
    // Refused for a reason of its own (a ban): the server's words say which.
    const code = message.code === 'not_allowed' ? 'signin_refused' : message.code;
    return { ...state, session: 'none', me: null, signInError: { ...refusal, code, name: request.name, password: request.password !== undefined, kept: message.password === true } };
  }
  if (kind === 'join_room' && state.route.name === 'room' && state.route.roomId === request.room_id) {
    return { ...state, room: null, roomError: refusal };
  }
  if (kind === 'create_room' && state.route.name === 'room' && state.route.roomId === null) {
    return { ...state, route: LOBBY, notice: notice(state, refusal, kind) };
  }
  if (kind === 'watch_tournament' && message.code === 'not_found' && state.route.tournamentId === request.tournament_id) {
    return { ...state, tournaments: { ...state.tournaments, shown: null, missing: request.tournament_id } };
  }
  if (kind === 'get_game' && state.replay?.gameId === request.game_id) {
    return { ...state, replay: { ...state.replay, error: refusal } };
  }
  if (kind === 'claim_win' && message.code === 'not_allowed') {
    return { ...state, notice: notice(state, { code: 'claim_not_yet', message: message.message }, kind) };
  }
  if (kind === 'chat') {
    const chatRefused = { roomId: request.room_id ?? null, text: request.text, serial: (state.chatRefused?.serial ?? 0) + 1 };
    // Not allowed to chat says why in the server's words (muted until when, or not in the room).
    const reason = message.code === 'not_allowed' ? { ...refusal, code: 'chat_refused' } : refusal;
    return { ...state, chatRefused, notice: notice(state, reason, kind) };
  }
  if (kind === 'analyze') return analysisRefused(state, refusal, request);
  if (kind === 'review_game' && state.replay?.gameId === request.game_id) return withReplay(state, () => reviewRefused(refusal));
  if (kind === 'next_puzzle' || kind === 'try_puzzle') return { ...state, puzzle: puzzleRefused(state.puzzle, refusal) };
  return { ...state, notice: notice(state, refusal, kind ?? null) };
}

/** No hint comes: the pending one goes, and the notice says why (fair play has a sentence of its own). */
function analysisRefused(state, refusal, request) {
  const reason = refusal.code === 'not_allowed' ? { ...refusal, code: 'analysis_not_allowed' } : refusal;
  const next = { ...state, notice: notice(state, reason, request.type) };
  if (request.game_id != null && state.replay?.gameId === request.game_id) return { ...next, replay: { ...state.replay, analysis: null } };
  if (state.room !== null) return { ...next, room: { ...state.room, analysis: null } };
  return next;
}

function notice(state, refusal, request) {
  return { ...refusal, request, serial: (state.notice?.serial ?? 0) + 1 };
}

/** The signed-in player as a snapshot's seats show them (their rating changes with each rated game). */
function meFromSeats(me, snapshot) {
  if (me === null) return me;
  const seat = [snapshot.black, snapshot.white].find((candidate) => candidate?.name === me.name && candidate.kind === 'human');
  if (seat === undefined || typeof seat.rating !== 'number') return me;
  if (seat.rating === me.rating && (seat.rd ?? me.rd) === me.rd) return me;
  return { ...me, rating: seat.rating, rd: seat.rd ?? me.rd, games: seat.games ?? me.games };
}

function snapshotReceived(state, message, request, at) {
  const id = message.room.room_id;
  const seatedRooms = updatedSeats(state.seatedRooms, id, message.you !== 'spectator' && message.room.status !== 'finished');
  const me = meFromSeats(state.me, message.room);
  const route = state.route;
  const wanted =
    (route.name === 'room' && (route.roomId === id || (route.roomId === null && request?.type === 'create_room'))) ||
    pairedFromLobby(state, message, request);
  if (!wanted) return { ...state, seatedRooms, me };
  return {
    ...state,
    me,
    seatedRooms,
    route: { name: 'room', roomId: id, as: message.you === 'spectator' ? 'spectator' : 'player' },
    room: roomFromSnapshot(message, at, state.room),
    roomError: null,
  };
}

/**
 * Whether a snapshot is a game the lobby has just started for me: the answer to
 * my `accept_seek` or `quick_pair`, or one of my seeks taken by someone else
 * (the server then sends the room unasked). The page goes to it, unless I am
 * playing another game on screen or creating a room (the lobby then offers
 * the way to it).
 */
function pairedFromLobby(state, message, request) {
  if (request?.type === 'accept_seek' || request?.type === 'quick_pair') return true;
  const snapshot = message.room;
  const creating = state.route.name === 'room' && state.route.roomId === null;
  const playingHere = state.room !== null && state.room.you !== 'spectator' && state.room.status === 'playing';
  return (
    request === null &&
    message.you !== 'spectator' &&
    (snapshot.status === 'playing' || snapshot.status === 'opening') &&
    snapshot.moves.length === 0 &&
    snapshot.room_id !== state.room?.id &&
    !state.seatedRooms.includes(snapshot.room_id) &&
    !playingHere &&
    !creating
  );
}

function updatedSeats(rooms, id, seated) {
  if (seated === rooms.includes(id)) return rooms;
  return seated ? [...rooms, id] : rooms.filter((room) => room !== id);
}

function roomEventReceived(state, message, at) {
  let next = state;
  if (message.type === 'game_over') {
    const seatedRooms = updatedSeats(state.seatedRooms, message.room_id, false);
    if (seatedRooms !== state.seatedRooms) next = { ...state, seatedRooms };
  }
  const room = next.room;
  if (room === null || room.id !== message.room_id || room.resync !== null || message.seq <= room.seq) return next;
  const applied = message.seq === room.seq + 1 ? applyEvent(room, message, at) : null;
  const changed = applied === null ? { ...room, resync: 'needed' } : { ...applied, seq: message.seq };
  return { ...next, room: changed, me: applied === null ? next.me : meAfterGame(next.me, changed, message) };
}

/** The signed-in player's new rating, from the `game_over` of a rated game they played. */
function meAfterGame(me, room, message) {
  const change = message.type === 'game_over' && room.you !== 'spectator' ? message.ratings?.[room.you] : undefined;
  if (me === null || change === undefined) return me;
  return { ...me, rating: change.after };
}

/** A seat's player gone or back, in the room on screen while its game is played. */
function awayReceived(state, message, at) {
  const room = state.room;
  if (room === null || room.id !== message.room_id || room.status !== 'playing') return state;
  return { ...state, room: awayChanged(room, message, at) };
}

/** A point picked on the board for the opening step I am to take (picked again, it is taken back). */
function openingPicked(state, x, y) {
  const room = state.room;
  if (room === null || room.status !== 'opening' || room.opening?.decider !== state.me?.name) return state;
  const draft = pickPoint(room.draft, boardChoice(room.opening), room.moves, x, y);
  return draft === room.draft ? state : withRoom(state, { draft });
}

function withRoom(state, changes) {
  return { ...state, room: { ...state.room, ...changes } };
}

function analysisReceived(state, message) {
  if (message.room_id == null && message.game_id != null) return replayAnalysisReceived(state, message);
  const room = state.room;
  if (room === null || room.id !== message.room_id || !room.analysis?.pending) return state;
  if (room.analysis.ply !== room.moves.length) return state;
  const { best, score, depth, nodes, pv } = message;
  return withRoom(state, { analysis: { pending: false, ply: room.moves.length, best, score, depth, nodes, pv } });
}

// ------------------------------------------------------------------ lobby, chat

function withLobby(state, lobby) {
  return lobby === state.lobby ? state : { ...state, lobby };
}

function chatReceived(state, message) {
  if (message.room_id === null) return withLobby(state, lobbyReceived(state.lobby, message));
  if (state.room?.id !== message.room_id) return state;
  return withRoom(state, { chat: withLine(state.room.chat, message) });
}

// ------------------------------------------------------------------ players

function leaderboardReceived(state, message, request) {
  if (request?.type !== 'leaderboard' || (request.kind ?? null) !== state.leaderboard.kind) return state;
  return { ...state, leaderboard: { ...state.leaderboard, players: message.players } };
}

// ------------------------------------------------------------------ records

function gamesReceived(state, message, request) {
  if (state.route.name !== 'games' || request?.type !== 'list_games') return state;
  const wanted = state.route.player ?? state.me?.name ?? null;
  if ((request.player ?? null) !== wanted) return state;
  return { ...state, games: { player: wanted, list: message.games } };
}

function gameReceived(state, message) {
  const replay = state.replay;
  if (replay === null || replay.gameId !== message.game_id || message.format !== 'json') return state;
  const record = message.record;
  return { ...state, replay: { ...replay, record, ply: record.moves.length, playing: false, error: null } };
}

/** The engine's answer about the position on screen (1.1 `analyze` with `game_id` and `ply`). */
function replayAnalysisReceived(state, message) {
  const analysis = state.replay?.analysis;
  if (!analysis?.pending || state.replay.gameId !== message.game_id || analysis.ply !== message.ply) return state;
  const { best, score, depth, nodes, pv } = message;
  return withReplay(state, () => ({ analysis: { pending: false, ply: message.ply, best, score, depth, nodes, pv } }));
}

/** The replay changed by `change(replay)`; a hint about another position than the one shown goes. */
function withReplay(state, change) {
  if (state.replay?.record == null) return state;
  const replay = { ...state.replay, ...change(state.replay) };
  if (replay.analysis !== null && replay.analysis.ply !== replay.ply) replay.analysis = null;
  return { ...state, replay };
}

function clampPly(replay, ply) {
  return Math.max(0, Math.min(replay.record.moves.length, Math.round(ply)));
}

function startOrStop(replay, playing) {
  if (!playing) return { playing: false };
  const atEnd = replay.ply >= replay.record.moves.length;
  return { playing: true, ply: atEnd ? 0 : replay.ply };
}

function advance(replay) {
  if (!replay.playing) return {};
  const ply = Math.min(replay.ply + 1, replay.record.moves.length);
  return { ply, playing: ply < replay.record.moves.length };
}
