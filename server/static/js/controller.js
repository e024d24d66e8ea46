// Between the store and the world: what a person's input sends, and what a
// change of state makes happen (requests, timers, sounds, the address bar,
// what the browser remembers).
//
// Intents never change the game state themselves: they send a request,
// and the server's answer comes back through the store. Effects look at
// each change of state (previous -> next) and do what it calls for:
//
// * once signed in on a connection, or when the route changes, load what
//   the route shows (join the room, list rooms and watch the lobby, fetch a
//   game, the leaderboard or a profile), and stop watching the lobby when
//   the page leaves it;
// * a room marked `resync: "needed"` is joined again, which answers with a
//   fresh snapshot; so is the lobby once a batch of its changes was missed
//   (`rewatch: "needed"`);
// * leaving a room's page leaves the room, except for a player of a game
//   still being played (the game goes on; the lobby offers the way back);
// * the tab's title says "(Your move)" while it is my move;
// * the page is light or dark as the player chose, or as the system is.
//
// Requests to the HTTP API (a profile, a record's download) carry the
// player's token, so that the player's own private games are served to them.

import { browserDeviceLabel, endsMySession } from './accountstate.js';
import { translate } from './i18n.js';
import { forgetToken, saveToken, savePrefs, tokenFor } from './prefs.js';
import { attackerMoves } from './puzzlestate.js';
import { createRoomRequest, quickPairRequest, seekRequest } from './requests.js';
import { tournamentIntents } from './tournamentrequests.js';
import { watchLobbyRequest } from './lobbystate.js';
import { LOBBY, formatRoute, parseHash, sameRoute } from './routes.js';
import { shownTheme } from './theme.js';
import { pageTitle } from './title.js';

const LOBBY_REFRESH_MS = 5000;
const ANALYSIS_TIME_MS = 1000;
const LEADERBOARD_LENGTH = 100;

export function createController({ store, connection, storage, sound, location, history, document, fetch, darkScheme }) {
  const state = () => store.getState();
  const send = (message) => connection.send(message);
  const roomId = () => state().room?.id;
  let lobbyTimer = null;
  let replayTimer = null;
  let replaySpeed = null;

  // ------------------------------------------------------------ from the socket

  function statusChanged(status) {
    store.dispatch({ type: 'connection', status });
    if (status === 'online') signInAgain();
  }

  function signInAgain() {
    const name = state().prefs.name;
    const token = name ? tokenFor(storage, name) : null;
    if (token !== null) hello(name, token);
  }

  function hello(name, token) {
    // The device's name goes along: it labels this device in the list once the name has a password.
    const device = browserDeviceLabel(globalThis.navigator);
    const id = send(token === null ? { type: 'hello', name, device } : { type: 'hello', name, token, device });
    if (id !== null) store.dispatch({ type: 'hello_sent', name });
  }

  /** Sign this browser in to a name kept with a password: it becomes one of the account's devices. */
  function helloWithPassword(name, password) {
    const id = send({ type: 'hello', name, password, device: browserDeviceLabel(globalThis.navigator) });
    if (id !== null) store.dispatch({ type: 'hello_sent', name });
  }

  /** This browser's sign-in is gone (signed out, or the account deleted): its token is forgotten. */
  function sessionEnded(message) {
    const name = state().me?.name;
    if (name) forgetToken(storage, name);
    if (message.type === 'account_deleted') store.dispatch({ type: 'pref', key: 'name', value: '' });
    store.dispatch({ type: 'signed_out' });
  }

  function received(message, request) {
    if (message.type === 'welcome') saveToken(storage, message.player.name, message.token);
    if (endsMySession(message, request, state().account)) {
      store.dispatch({ type: 'server', message, request, at: performance.now() });
      sessionEnded(message);
      return;
    }
    if (message.type === 'password_set') send({ type: 'list_devices' });
    if (message.type === 'renamed') keepTokenForNewName(message.name);
    if (message.type === 'error' && request?.type === 'hello' && message.code === 'unauthorized') {
      forgetToken(storage, request.name);
    }
    if (message.type === 'error' && request?.type === 'join_room' && request.as === 'player' && message.code === 'room_full') {
      // The link was for a game that has both its players: watch it instead.
      navigate({ name: 'room', roomId: request.room_id, as: 'spectator' });
      return;
    }
    store.dispatch({ type: 'server', message, request, at: performance.now() });
  }

  /** A moderator renamed me: my token now goes with the new name, which the next hello (once the
   * server has closed this connection) signs in with. */
  function keepTokenForNewName(name) {
    const old = state().me?.name;
    const token = old ? tokenFor(storage, old) : null;
    if (token === null) return;
    saveToken(storage, name, token);
    forgetToken(storage, old);
    store.dispatch({ type: 'pref', key: 'name', value: name });
  }

  // ------------------------------------------------------------------- intents

  function navigate(route) {
    const hash = formatRoute(route);
    if (hash !== null && hash !== location.hash) location.hash = hash;
    else if (!sameRoute(route, state().route)) store.dispatch({ type: 'navigate', route });
  }

  function hashChanged() {
    const route = parseHash(location.hash);
    if (!sameRoute(route, state().route)) store.dispatch({ type: 'navigate', route });
  }

  function roomRequest(type, fields = {}) {
    const id = roomId();
    if (id !== undefined) send({ type, room_id: id, ...fields });
  }

  const intents = {
    t: (key, params) => translate(state().prefs.language, key, params),
    signIn: (name, password = '') => (password === '' ? hello(name, tokenFor(storage, name)) : helloWithPassword(name, password)),
    setPassword: (password, oldPassword) => send(oldPassword === null ? { type: 'set_password', password } : { type: 'set_password', password, old_password: oldPassword }),
    signOutDevice: (deviceId) => send({ type: 'sign_out', device_id: deviceId }),
    signOutEverywhere: () => send({ type: 'sign_out', all: true }),
    deleteAccount: (password) => send(password === null ? { type: 'delete_account' } : { type: 'delete_account', password }),
    signOut() {
      store.dispatch({ type: 'pref', key: 'name', value: '' });
      store.dispatch({ type: 'signed_out' });
      connection.restart();
    },
    setPref: (key, value) => store.dispatch({ type: 'pref', key, value }),
    dismissNotice: () => store.dispatch({ type: 'dismiss_notice' }),
    navigate,
    openRoom: (id, as) => navigate({ name: 'room', roomId: id, as }),
    leaveRoom: () => navigate(LOBBY),
    createRoom(options) {
      if (state().session !== 'ready') return;
      store.dispatch({ type: 'navigate', route: { name: 'room', roomId: null, as: 'player' } });
      send(createRoomRequest(options));
    },
    play: (x, y) => roomRequest('move', { x, y }),
    resign: () => roomRequest('resign'),
    offerDraw: () => roomRequest('offer_draw'),
    requestUndo: () => roomRequest('request_undo'),
    rematch: () => roomRequest('rematch'),
    claimWin: () => roomRequest('claim_win'),
    openingPick: (x, y) => store.dispatch({ type: 'opening_pick', x, y }),
    openingClear: () => store.dispatch({ type: 'opening_clear' }),
    openingStep: (step) => roomRequest('opening_step', { step }),
    answer(what, accept) {
      if (what === 'draw') roomRequest('answer_draw', { accept });
      else if (what === 'undo') roomRequest('answer_undo', { accept });
      else if (accept) roomRequest('rematch');
    },
    analyze() {
      store.dispatch({ type: 'analysis_requested' });
      roomRequest('analyze', { time_ms: ANALYSIS_TIME_MS });
    },
    clearAnalysis: () => store.dispatch({ type: 'analysis_cleared' }),
    analyzeReplay() {
      const replay = state().replay;
      if (replay?.record == null) return;
      store.dispatch({ type: 'replay_analysis_requested' });
      send({ type: 'analyze', game_id: replay.gameId, ply: replay.ply, time_ms: ANALYSIS_TIME_MS });
    },
    clearReplayAnalysis: () => store.dispatch({ type: 'replay_analysis_cleared' }),
    /** From a finished game, its review in one click: the replay opens and asks for the review as
     * soon as the record is there. */
    reviewFinishedGame(gameId) {
      reviewOnArrival = gameId;
      navigate({ name: 'replay', gameId });
    },
    reviewGame() {
      const replay = state().replay;
      if (replay?.record == null) return;
      store.dispatch({ type: 'review_requested' });
      send({ type: 'review_game', game_id: replay.gameId });
    },
    showMark: (index) => store.dispatch({ type: 'review_mark_shown', index }),
    nextPuzzle(daily) {
      store.dispatch({ type: 'puzzle_asked' });
      send({ type: 'next_puzzle', daily });
    },
    puzzleMove(x, y) {
      store.dispatch({ type: 'puzzle_move', x, y });
      const trainer = state().puzzle;
      if (trainer?.status === 'waiting') send({ type: 'try_puzzle', puzzle_id: trainer.data.puzzle_id, moves: attackerMoves(trainer) });
    },
    stepLine: (step) => store.dispatch({ type: 'review_line_step', step }),
    hideMark: () => store.dispatch({ type: 'review_mark_hidden' }),
    postSeek: (options) => send(seekRequest(options)),
    quickPair: (terms) => send(quickPairRequest(terms)),
    cancelSeek: (seekId) => send({ type: 'cancel_seek', seek_id: seekId }),
    acceptSeek: (seekId) => send({ type: 'accept_seek', seek_id: seekId }),
    say: (roomId, text) => send({ type: 'chat', room_id: roomId, text }),
    showGames: (player) => navigate({ name: 'games', player }),
    moderate: (request) => send(request),
    deleteGames: (gameIds) => send({ type: 'delete_games', game_ids: gameIds }),
    ...tournamentIntents(send, () => state().route),
    seek: (ply) => store.dispatch({ type: 'replay_seek', ply }),
    autoplay: (playing) => store.dispatch({ type: 'replay_play', playing }),
  };

  // ------------------------------------------------------------------- effects

  /** Ask for what the route shows. */
  function load(next) {
    const route = next.route;
    if (route.name === 'lobby') {
      send({ type: 'list_rooms' });
      if (next.features.includes('lobby')) {
        send(watchLobbyRequest(next.features));
        send({ type: 'who_is_online' });
      }
    } else if (route.name === 'room' && route.roomId !== null && next.room === null) {
      send({ type: 'join_room', room_id: route.roomId, as: route.as });
    } else if (route.name === 'games') {
      const player = route.player ?? next.me.name;
      send({ type: 'list_games', player, limit: 50 });
    } else if (route.name === 'replay' && next.replay?.record === null) {
      send({ type: 'get_game', game_id: route.gameId, format: 'json' });
    } else if (route.name === 'players') {
      send(route.kind === null ? { type: 'leaderboard', limit: LEADERBOARD_LENGTH } : { type: 'leaderboard', limit: LEADERBOARD_LENGTH, kind: route.kind });
    } else if (route.name === 'profile') {
      loadProfile(route.player);
    } else if (route.name === 'account') {
      // The account as it stands now: a role an operator granted since `welcome` shows its link.
      if (next.features.includes('accounts')) send({ type: 'get_account' });
      if (next.account.password === true) send({ type: 'list_devices' });
    } else if (route.name === 'moderation') {
      loadModeration(next);
    } else if (route.name === 'tournaments') {
      send({ type: 'list_tournaments' });
    } else if (route.name === 'tournament') {
      send({ type: 'watch_tournament', tournament_id: route.tournamentId });
    } else if (route.name === 'puzzles' && next.puzzle === null) {
      intents.nextPuzzle(false);
    }
  }

  /** The open reports, and for an admin the audit log (each answer says what the page shows). */
  function loadModeration(next) {
    if (next.role === null) return;
    send({ type: 'list_reports' });
    if (next.role === 'admin') send({ type: 'get_audit_log' });
  }

  /** The player's token as the HTTP API takes it (`Authorization: Bearer`), or none when this browser has none. */
  function credentials() {
    const name = state().me?.name;
    const token = name ? tokenFor(storage, name) : null;
    return token === null ? {} : { Authorization: `Bearer ${token}` };
  }

  /** A profile is served over HTTP only (GET /api/players/NAME); its answer comes back as an action. */
  async function loadProfile(name) {
    let action;
    try {
      const response = await fetch(`/api/players/${encodeURIComponent(name)}`, { headers: { Accept: 'application/json', ...credentials() } });
      if (response.ok) action = { type: 'profile_loaded', name, profile: await response.json() };
      else action = { type: 'profile_failed', name, error: response.status === 404 ? 'not_found' : 'unavailable' };
    } catch {
      action = { type: 'profile_failed', name, error: 'unavailable' };
    }
    store.dispatch(action);
  }

  /**
   * A record's download link (`a.download`) followed with the player's token, since a private game's
   * record is served to its players only and a plain link carries no token; the file is saved under the
   * link's name. A refusal is shown like the server's other refusals.
   */
  async function downloadClicked(event) {
    const link = event.target.closest?.('a.download');
    const headers = credentials();
    if (!link || headers.Authorization === undefined) return;
    event.preventDefault();
    let refusal;
    try {
      const response = await fetch(link.href, { headers });
      if (response.ok) {
        save(await response.blob(), link.download);
        return;
      }
      refusal = { code: response.status === 404 ? 'not_found' : 'unavailable', message: await response.text() };
    } catch (error) {
      refusal = { code: 'unavailable', message: String(error) };
    }
    store.dispatch({ type: 'server', message: { type: 'error', ...refusal }, request: null, at: performance.now() });
  }

  function save(blob, fileName) {
    const url = URL.createObjectURL(blob);
    const saver = document.createElement('a');
    saver.href = url;
    saver.download = fileName;
    saver.click();
    setTimeout(() => URL.revokeObjectURL(url));
  }

  function leaveIfDone(room) {
    if (room.you === 'spectator' || room.status !== 'playing') send({ type: 'leave_room', room_id: room.id });
  }

  let reviewOnArrival = null; // a game whose review the replay asks for once its record is there

  function changed(next, previous) {
    const ready = next.session === 'ready';
    if (reviewOnArrival !== null && next.replay?.gameId === reviewOnArrival && next.replay.record != null) {
      reviewOnArrival = null;
      intents.reviewGame();
    }
    const routeChanged = !sameRoute(next.route, previous.route);
    if (routeChanged && previous.room !== null && next.room?.id !== previous.room.id && ready) leaveIfDone(previous.room);
    if (routeChanged && previous.route.name === 'lobby' && ready && next.features.includes('lobby')) send({ type: 'unwatch_lobby' });
    if (ready && previous.session !== 'ready') send({ type: 'list_bots' });
    if (routeChanged && previous.route.name === 'tournament' && ready) send({ type: 'unwatch_tournament', tournament_id: previous.route.tournamentId });
    if (ready && (previous.session !== 'ready' || routeChanged)) load(next);
    if (ready && next.route.name === 'moderation' && next.moderation.done !== previous.moderation.done) loadModeration(next);
    if (ready && next.tournaments.rewatch !== null && next.tournaments.rewatch !== previous.tournaments.rewatch) {
      send({ type: 'watch_tournament', tournament_id: next.tournaments.rewatch });
    }
    if (ready && next.lobby.rewatch === 'needed') {
      send(watchLobbyRequest(next.features));
      store.dispatch({ type: 'lobby_rewatched' });
    }
    if (ready && next.room?.resync === 'needed') {
      send({ type: 'join_room', room_id: next.room.id, as: next.room.you === 'spectator' ? 'spectator' : 'player' });
      store.dispatch({ type: 'resync_sent' });
    }
    // The address bar follows the page's own moves only: a link just clicked changes the hash
    // before its hashchange event comes, and any other change of state meanwhile must not undo it.
    if (routeChanged) showAddress(next.route);
    if (next.prefs !== previous.prefs) savePrefs(storage, next.prefs);
    if (next.prefs.language !== previous.prefs.language) showLanguage();
    if (next.prefs.theme !== previous.prefs.theme) showTheme();
    showTitle();
    playSounds(next, previous);
    keepLobbyFresh(ready && next.route.name === 'lobby');
    keepReplayMoving(next.replay?.playing === true ? next.prefs.replaySpeedMs : null);
  }

  function playSounds(next, previous) {
    const [room, before] = [next.room, previous.room];
    if (next.prefs.muted || room === null || before === null || room.gameId !== before.gameId) return;
    if (room.moves.length === before.moves.length + 1) sound.stone(room.moves.at(-1).color === room.you);
    if (room.status === 'finished' && before.status === 'playing') sound.end();
  }

  function keepLobbyFresh(wanted) {
    if (wanted && lobbyTimer === null) {
      lobbyTimer = setInterval(() => {
        if (document.hidden) return;
        send({ type: 'list_rooms' });
        if (state().features.includes('lobby')) send({ type: 'who_is_online' });
      }, LOBBY_REFRESH_MS);
    } else if (!wanted && lobbyTimer !== null) {
      clearInterval(lobbyTimer);
      lobbyTimer = null;
    }
  }

  function keepReplayMoving(speedMs) {
    if (speedMs === replaySpeed) return;
    clearInterval(replayTimer);
    replayTimer = speedMs === null ? null : setInterval(() => store.dispatch({ type: 'replay_tick' }), speedMs);
    replaySpeed = speedMs;
  }

  function showLanguage() {
    document.documentElement.lang = state().prefs.language === 'zh' ? 'zh-CN' : 'en';
    showTitle();
  }

  /** Light or dark, as the player chose or else as the system is (which may change while the page is open). */
  function showTheme() {
    document.documentElement.dataset.theme = shownTheme(state().prefs.theme, darkScheme.matches);
  }

  /** The tab's title says when it is my move, for a player looking at another tab. */
  function showTitle() {
    const title = pageTitle(state(), intents.t);
    if (document.title !== title) document.title = title;
  }

  function showAddress(route) {
    const hash = formatRoute(route);
    if (hash !== null && hash !== location.hash) history.replaceState(null, '', hash);
  }

  /** Begin: the page's language and address (an unreadable one reads as the lobby), then the connection. */
  function start() {
    document.addEventListener('click', downloadClicked);
    showLanguage();
    showTheme();
    darkScheme.addEventListener('change', showTheme);
    showAddress(state().route);
    connection.start();
  }

  store.subscribe(changed);
  return { intents, received, statusChanged, hashChanged, start };
}
