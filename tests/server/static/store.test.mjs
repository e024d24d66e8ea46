// The reducer: the server's messages are the only source of truth, applied
// in `seq` order; anything that might leave the board out of date marks the
// room for a fresh snapshot.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LOBBY } from '../../../server/static/js/routes.js';
import { initialState, reduce, createStore } from '../../../server/static/js/store.js';

const PREFS = { name: 'alice', language: 'en', muted: false, moveNumbers: false, confirmTaps: false, replaySpeedMs: 1000 };
const ROOM_ROUTE = { name: 'room', roomId: 'r1', as: 'player' };

function server(state, message, request = null, at = 0) {
  return reduce(state, { type: 'server', message, request, at });
}

function snapshot({ moves = [], seq = 0, status = 'playing', roomId = 'r1', gameId = 'g1', you = 'black', clock = null, extra = {} } = {}) {
  return {
    type: 'room',
    you,
    room: {
      room_id: roomId,
      game_id: gameId,
      rule: 'freestyle',
      size: 15,
      status,
      black: { name: 'alice', kind: 'human', level: null, connected: true },
      white: { name: 'bob', kind: 'human', level: null, connected: true },
      to_move: status === 'playing' ? (moves.length % 2 === 0 ? 'black' : 'white') : null,
      moves,
      clock,
      result: null,
      seq,
      private: false,
      spectators: 0,
      ...extra,
    },
  };
}

function moved(ply, x, y, seq, clock = null) {
  return { type: 'moved', room_id: 'r1', game_id: 'g1', ply, color: ply % 2 ? 'black' : 'white', x, y, move: '', clock, seq };
}

/** Signed in, looking at room r1 after its snapshot. */
function inRoom(options) {
  let state = initialState(PREFS, ROOM_ROUTE);
  state = reduce(state, { type: 'connection', status: 'online' });
  state = server(state, { type: 'welcome', protocol: 1, player: { name: 'alice', rating: 1500 }, token: 't', rooms: [] });
  return server(state, snapshot(options));
}

test('welcome signs in and lists no 1.1 features when the server names none', () => {
  const state = inRoom();
  assert.equal(state.session, 'ready');
  assert.deepEqual(state.me, { name: 'alice', rating: 1500 });
  assert.deepEqual(state.features, []);
});

test('a snapshot of the routed room is the whole room', () => {
  const state = inRoom({ moves: [{ x: 7, y: 7, color: 'black' }], seq: 4 });
  assert.equal(state.room.id, 'r1');
  assert.equal(state.room.seq, 4);
  assert.equal(state.room.toMove, 'white');
  assert.equal(state.room.resync, null);
});

test('moves are applied in seq order and only then', () => {
  let state = inRoom({ seq: 2 });
  state = server(state, moved(1, 7, 7, 3));
  state = server(state, moved(2, 8, 8, 4));
  assert.deepEqual(state.room.moves.map(({ x, y }) => [x, y]), [[7, 7], [8, 8]]);
  assert.equal(state.room.seq, 4);
  assert.equal(state.room.toMove, 'black');
});

test('an event already in the snapshot is dropped', () => {
  const before = inRoom({ moves: [{ x: 7, y: 7, color: 'black' }], seq: 3 });
  assert.equal(server(before, moved(1, 7, 7, 3)), before);
});

test('a skipped seq marks the room for a resync, and events wait for the snapshot', () => {
  let state = inRoom({ seq: 2 });
  state = server(state, moved(2, 8, 8, 4));
  assert.equal(state.room.resync, 'needed');
  assert.deepEqual(state.room.moves, []);
  state = reduce(state, { type: 'resync_sent' });
  assert.equal(state.room.resync, 'sent');
  const waiting = server(state, moved(3, 9, 9, 5));
  assert.deepEqual(waiting.room.moves, []);
  state = server(state, snapshot({ moves: [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }], seq: 4 }));
  assert.equal(state.room.resync, null);
  state = server(state, moved(3, 9, 9, 5));
  assert.equal(state.room.moves.length, 3);
});

test('a move that does not follow the board asks for a resync too', () => {
  const state = server(inRoom({ seq: 2 }), moved(5, 1, 1, 3));
  assert.equal(state.room.resync, 'needed');
});

test('a lost connection marks the room out of date until a snapshot arrives', () => {
  let state = reduce(inRoom({ seq: 2 }), { type: 'connection', status: 'reconnecting' });
  assert.equal(state.room.resync, 'needed');
  assert.equal(state.session, 'none');
  state = reduce(state, { type: 'connection', status: 'online' });
  state = server(state, { type: 'welcome', protocol: 1, player: { name: 'alice', rating: 1500 }, token: 't', rooms: ['r1'] });
  assert.equal(state.room.resync, 'needed');
  // A restarted server numbers the room's events from 0 again: the snapshot still replaces everything.
  state = server(state, snapshot({ moves: [{ x: 7, y: 7, color: 'black' }], seq: 0 }));
  assert.equal(state.room.resync, null);
  assert.equal(state.room.seq, 0);
  assert.equal(state.room.moves.length, 1);
});

function welcome(rooms) {
  return { type: 'welcome', protocol: 1, player: { name: 'alice', rating: 1500 }, token: 't', rooms };
}

test('a page opened on the lobby goes straight to my unfinished game once signed in', () => {
  let state = reduce(initialState(PREFS, LOBBY), { type: 'connection', status: 'online' });
  state = server(state, welcome(['r1', 'r2']));
  assert.deepEqual(state.route, { name: 'room', roomId: 'r1', as: 'player' });
  assert.equal(state.room, null, 'joined by the controller, shown when the snapshot comes');
});

test('a page opened on another screen, or a lobby chosen by the player, stays where it is', () => {
  const opened = reduce(initialState(PREFS, { name: 'players', kind: null }), { type: 'connection', status: 'online' });
  assert.equal(server(opened, welcome(['r1'])).route.name, 'players');

  const chosen = reduce(reduce(initialState(PREFS, LOBBY), { type: 'navigate', route: LOBBY }), { type: 'connection', status: 'online' });
  assert.equal(server(chosen, welcome(['r1'])).route, LOBBY);

  // Signed in again after a drop, in the lobby: the lobby stays.
  let state = server(reduce(initialState(PREFS, LOBBY), { type: 'connection', status: 'online' }), welcome([]));
  state = reduce(state, { type: 'connection', status: 'reconnecting' });
  state = server(reduce(state, { type: 'connection', status: 'online' }), welcome(['r1']));
  assert.equal(state.route, LOBBY);
});

test('events and snapshots of other rooms do not touch the room shown', () => {
  const before = inRoom({ seq: 2 });
  assert.equal(server(before, { ...moved(1, 7, 7, 3), room_id: 'elsewhere' }).room, before.room);
  assert.equal(server(before, snapshot({ roomId: 'elsewhere' })).room, before.room);
});

test('a created room is shown once the server answers the create request', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: { name: 'room', roomId: null, as: 'player' } });
  assert.equal(state.room, null);
  assert.equal(server(state, snapshot({ roomId: 'new' })).room, null, 'not an answer to create_room');
  state = server(state, snapshot({ roomId: 'new', status: 'waiting' }), { type: 'create_room' });
  assert.equal(state.room.id, 'new');
  assert.deepEqual(state.route, { name: 'room', roomId: 'new', as: 'player' });
});

test('offers come and go with their events; declined says what was declined', () => {
  let state = server(inRoom({ seq: 1 }), { type: 'draw_offered', room_id: 'r1', by: 'white', seq: 2 });
  assert.deepEqual(state.room.offer, { what: 'draw', by: 'white' });
  state = server(state, { type: 'declined', room_id: 'r1', what: 'draw', seq: 3 });
  assert.equal(state.room.offer, null);
  assert.equal(state.room.declined, 'draw');
  state = server(state, { type: 'rematch_offered', room_id: 'r1', by: 'black', seq: 4 });
  assert.deepEqual(state.room.offer, { what: 'rematch', by: 'black' });
});

test('a snapshot shows the offers waiting for an answer, so a page coming back sees them', () => {
  const offers = (draw, undo, rematch) => ({ extra: { offers: { draw, undo, rematch } } });
  assert.deepEqual(inRoom(offers('white', null, [])).room.offer, { what: 'draw', by: 'white' });
  assert.deepEqual(inRoom(offers(null, 'black', [])).room.offer, { what: 'undo', by: 'black' });
  assert.deepEqual(inRoom({ status: 'finished', ...offers(null, null, ['white']) }).room.offer, { what: 'rematch', by: 'white' });
  let state = server(inRoom({ seq: 1 }), { type: 'draw_offered', room_id: 'r1', by: 'white', seq: 2 });
  state = server(state, snapshot({ seq: 3, ...offers(null, null, []) }));
  assert.equal(state.room.offer, null, 'the snapshot says the offer is gone');
});

test('a snapshot brings the time control and whether the game is rated', () => {
  const state = inRoom({ extra: { rated: true, time_control: { initial_ms: 300_000, increment_ms: 3000 } } });
  assert.equal(state.room.rated, true);
  assert.deepEqual(state.room.timeControl, { initial_ms: 300_000, increment_ms: 3000 });
  assert.deepEqual([inRoom().room.rated, inRoom().room.timeControl], [false, null]);
});

test("a rated game's end brings both rating changes and the player's new rating", () => {
  const ratings = { black: { before: 1500, after: 1662 }, white: { before: 1500, after: 1338 } };
  const over = { type: 'game_over', room_id: 'r1', game_id: 'g1', seq: 1, result: { winner: 'black', reason: 'five', line: [] }, ratings };
  let state = server(inRoom({ extra: { rated: true } }), over);
  assert.deepEqual(state.room.ratings, ratings);
  assert.equal(state.me.rating, 1662);
  state = server(state, snapshot({ status: 'finished', seq: 1 }));
  assert.deepEqual(state.room.ratings, ratings, 'a snapshot of the same finished game keeps them');
  state = server(state, snapshot({ gameId: 'g2', seq: 2 }));
  assert.equal(state.room.ratings, null, 'a rematch starts without');
});

test("the signed-in player's rating follows their seat in any snapshot", () => {
  const seats = { black: { name: 'alice', kind: 'human', level: null, connected: true, rating: 1620, rd: 200, games: 3 } };
  const state = server(inRoom(), snapshot({ roomId: 'elsewhere', extra: seats }));
  assert.deepEqual(state.me, { name: 'alice', rating: 1620, rd: 200, games: 3 });
});

test('undone takes the stones back and hands the turn over', () => {
  const moves = [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }];
  let state = inRoom({ moves, seq: 5 });
  state = server(state, { type: 'undone', room_id: 'r1', removed: moves.slice().reverse(), to_move: 'black', seq: 6 });
  assert.deepEqual(state.room.moves, []);
  assert.equal(state.room.toMove, 'black');
});

test('game_over finishes the game and stops the clock where it stood', () => {
  const clock = { black_ms: 10_000, white_ms: 8000, increment_ms: 0, running: 'black' };
  let state = inRoom({ seq: 1, clock });
  state = reduce(state, { type: 'server', message: { type: 'game_over', room_id: 'r1', game_id: 'g1', seq: 2, result: { winner: 'white', reason: 'timeout', line: null } }, request: null, at: 4000 });
  assert.equal(state.room.status, 'finished');
  assert.equal(state.room.toMove, null);
  assert.deepEqual([state.room.clock.black_ms, state.room.clock.running], [6000, null]);
});

test('a clock arrives stamped with the moment it was received', () => {
  const state = reduce(inRoom({ seq: 0 }), { type: 'server', message: moved(1, 7, 7, 1, { black_ms: 5000, white_ms: 5000, increment_ms: 0, running: 'white' }), request: null, at: 1234 });
  assert.equal(state.room.clock.at, 1234);
});

test('a hint refused for fair play says so in a sentence of its own, and the pending hint goes', () => {
  const state = reduce(inRoom({ seq: 0 }), { type: 'analysis_requested' });
  const refused = server(state, { type: 'error', code: 'not_allowed', message: 'no analysis now' }, { type: 'analyze', room_id: 'r1', time_ms: 1000 });
  assert.equal(refused.room.analysis, null);
  assert.deepEqual([refused.notice.code, refused.notice.request], ['analysis_not_allowed', 'analyze']);
});

test('an analysis answers only the position it was asked about', () => {
  const analysis = { type: 'analysis', room_id: 'r1', best: { x: 7, y: 7, move: 'h8' }, score: 10, depth: 3, nodes: 99, pv: ['h8', 'i9'] };
  let state = reduce(inRoom({ seq: 0 }), { type: 'analysis_requested' });
  assert.equal(state.room.analysis.pending, true);
  const answered = server(state, analysis);
  assert.equal(answered.room.analysis.best.move, 'h8');
  state = server(state, moved(1, 7, 7, 1));
  assert.equal(state.room.analysis, null);
  assert.equal(server(state, analysis), state);
});

test('a refused sign-in keeps the refusal and the name it was for', () => {
  let state = reduce(initialState(PREFS), { type: 'connection', status: 'online' });
  state = reduce(state, { type: 'hello_sent', name: 'bob' });
  assert.equal(state.session, 'pending');
  state = server(state, { type: 'error', code: 'name_taken', message: 'taken' }, { type: 'hello', name: 'bob' });
  assert.deepEqual(state.signInError, { code: 'name_taken', message: 'taken', name: 'bob', password: false, kept: false });
  assert.equal(state.me, null);
  const kept = { type: 'error', code: 'name_taken', message: 'kept with a password', password: true };
  state = server(reduce(state, { type: 'hello_sent', name: 'alice' }), kept, { type: 'hello', name: 'alice' });
  assert.equal(state.signInError.kept, true, 'the form asks for the password');
});

test('a room that cannot be joined says why; other refusals become a notice', () => {
  let state = server(inRoom(), { type: 'error', code: 'not_found', message: 'no room' }, { type: 'join_room', room_id: 'r1', as: 'player' });
  assert.equal(state.room, null);
  assert.equal(state.roomError.code, 'not_found');
  state = server(state, { type: 'error', code: 'occupied', message: 'taken' }, { type: 'move', room_id: 'r1' });
  assert.equal(state.notice.code, 'occupied');
});

test('leaving the room for the lobby forgets the room', () => {
  const state = reduce(inRoom(), { type: 'navigate', route: { name: 'lobby' } });
  assert.equal(state.room, null);
});

test('the seats in unfinished games follow snapshots and game_over', () => {
  let state = inRoom();
  assert.deepEqual(state.seatedRooms, ['r1']);
  state = server(state, { type: 'game_over', room_id: 'r1', game_id: 'g1', seq: 1, result: { winner: 'black', reason: 'five', line: [] } });
  assert.deepEqual(state.seatedRooms, []);
});

test('a replay starts at the end, seeks within the game, and autoplays to the end', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: { name: 'replay', gameId: 'g9' } });
  const record = { game_id: 'g9', moves: [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }], result: null };
  state = server(state, { type: 'game', game_id: 'g9', format: 'json', record });
  assert.equal(state.replay.ply, 2);
  state = reduce(state, { type: 'replay_seek', ply: -4 });
  assert.equal(state.replay.ply, 0);
  state = reduce(state, { type: 'replay_seek', ply: Infinity });
  assert.equal(state.replay.ply, 2);
  state = reduce(state, { type: 'replay_play', playing: true });
  assert.deepEqual([state.replay.ply, state.replay.playing], [0, true]);
  state = reduce(reduce(state, { type: 'replay_tick' }), { type: 'replay_tick' });
  assert.deepEqual([state.replay.ply, state.replay.playing], [2, false]);
});

test('the store lets listeners see each change in order, even one they dispatch', () => {
  const store = createStore((count, action) => count + action.add, 0);
  const seen = [];
  store.subscribe((state, previous) => {
    seen.push([previous, state]);
    if (state === 1) store.dispatch({ add: 10 });
  });
  store.subscribe((state) => seen.push(state));
  store.dispatch({ add: 1 });
  assert.deepEqual(seen, [[0, 1], 1, [1, 11], 11]);
});

test('a page opened at an address loads what it names once signed in', () => {
  const replay = initialState(PREFS, { name: 'replay', gameId: 'g7' });
  assert.deepEqual(replay.replay, { gameId: 'g7', record: null, ply: 0, playing: false, error: null, analysis: null, review: null });
  assert.deepEqual(initialState(PREFS, { name: 'players', kind: 'bot' }).leaderboard, { kind: 'bot', players: null });
  assert.deepEqual(initialState(PREFS, { name: 'profile', player: 'bob' }).profile, { name: 'bob', data: null, error: null });
});

test('the leaderboard shown is the one asked for the kind on screen', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: { name: 'players', kind: 'human' } });
  const players = [{ name: 'alice', kind: 'human', rating: 1662, rd: 290, games: 1 }];
  state = server(state, { type: 'leaderboard', players: [] }, { type: 'leaderboard', limit: 100 });
  assert.equal(state.leaderboard.players, null, 'an answer for everyone, while people only are shown');
  state = server(state, { type: 'leaderboard', players }, { type: 'leaderboard', limit: 100, kind: 'human' });
  assert.deepEqual(state.leaderboard, { kind: 'human', players });
  state = reduce(state, { type: 'navigate', route: { name: 'players', kind: 'human' } });
  assert.equal(state.leaderboard.players, players, 'shown again, the list stays until the fresh one comes');
  state = reduce(state, { type: 'navigate', route: { name: 'players', kind: 'bot' } });
  assert.equal(state.leaderboard.players, null);
});

test('a profile is the one for the name on screen; a failure says why', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: { name: 'profile', player: 'bob' } });
  state = reduce(state, { type: 'profile_loaded', name: 'carol', profile: { name: 'carol' } });
  assert.equal(state.profile.data, null, 'a late answer for another player');
  state = reduce(state, { type: 'profile_loaded', name: 'bob', profile: { name: 'bob', rating: 1338 } });
  assert.deepEqual(state.profile, { name: 'bob', data: { name: 'bob', rating: 1338 }, error: null });
  state = reduce(state, { type: 'navigate', route: { name: 'profile', player: 'nobody' } });
  state = reduce(state, { type: 'profile_failed', name: 'nobody', error: 'not_found' });
  assert.deepEqual(state.profile, { name: 'nobody', data: null, error: 'not_found' });
});

test('a game the lobby starts for me is shown: my acceptance, my quick pairing, or my seek taken', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: LOBBY });
  const fresh = snapshot({ roomId: 'paired', gameId: 'g9', you: 'white' });
  const accepted = server(state, fresh, { type: 'accept_seek', seek_id: 's1' });
  assert.deepEqual(accepted.route, { name: 'room', roomId: 'paired', as: 'player' });
  assert.equal(server(state, fresh, { type: 'quick_pair' }).room.id, 'paired');
  const taken = server(state, fresh);
  assert.equal(taken.room.id, 'paired', 'the server sends the seek owner the room unasked');
  assert.deepEqual(taken.seatedRooms, ['r1', 'paired']);

  state = inRoom();
  assert.equal(server(state, fresh).room.id, 'r1', 'a player in a game on screen stays in it');
  assert.deepEqual(server(state, fresh).seatedRooms, ['r1', 'paired'], 'and the lobby offers the way back');
  const lobby = reduce(inRoom(), { type: 'navigate', route: LOBBY });
  assert.equal(server(lobby, snapshot({ roomId: 'paired', status: 'opening', you: 'black' })).room.id, 'paired', 'a seek with an opening');
  const watching = reduce(inRoom({ you: 'spectator' }), { type: 'navigate', route: LOBBY });
  assert.equal(server(watching, snapshot({ roomId: 'r1', you: 'spectator' })).room, null, 'a spectator is never paired');
});

test('the seeks stop being kept when the page leaves the lobby or the connection drops', () => {
  let state = reduce(inRoom(), { type: 'navigate', route: LOBBY });
  state = server(state, { type: 'lobby', online: 1, seeks: [] });
  assert.deepEqual(state.lobby.seeks, []);
  assert.equal(reduce(state, { type: 'navigate', route: { name: 'games', player: null } }).lobby.seeks, null);
  assert.equal(reduce(state, { type: 'connection', status: 'reconnecting' }).lobby.seeks, null);
});

test("a room's chat is the room's, kept across its snapshots; a refused line is given back", () => {
  let state = server(inRoom(), { type: 'chat', room_id: 'r1', from: 'bob', text: '<b>gg</b>', at: 'T' });
  state = server(state, { type: 'chat', room_id: 'elsewhere', from: 'carol', text: 'hi', at: 'T' });
  assert.deepEqual(state.room.chat, [{ from: 'bob', text: '<b>gg</b>', at: 'T' }]);
  state = server(state, snapshot({ seq: 1 }));
  assert.equal(state.room.chat.length, 1, 'a snapshot of the same room keeps what was said');
  const refused = server(state, { type: 'error', code: 'rate_limited', message: 'slow down' }, { type: 'chat', room_id: 'r1', text: 'again' });
  assert.deepEqual(refused.chatRefused, { roomId: 'r1', text: 'again', serial: 1 });
  assert.equal(refused.notice.code, 'rate_limited');
});

test('an opponent who leaves may be claimed against from the moment the server gives; coming back ends it', () => {
  const away = { extra: { white: { name: 'bob', kind: 'human', level: null, connected: false } } };
  let state = server(inRoom({ seq: 2 }), snapshot({ seq: 2, ...away }), null, 1000);
  assert.deepEqual(state.room.away, { white: { claimAt: null } }, 'a snapshot alone does not know when');
  state = server(state, { type: 'opponent_away', room_id: 'r1', color: 'white', claim_at_ms: 30_000 }, null, 1500);
  assert.deepEqual(state.room.away, { white: { claimAt: 31_500 } });
  state = server(state, snapshot({ seq: 3, ...away }), null, 2000);
  assert.deepEqual(state.room.away, { white: { claimAt: 31_500 } }, 'a later snapshot keeps the moment');
  const back = server(state, { type: 'opponent_back', room_id: 'r1', color: 'white' });
  assert.deepEqual(back.room.away, {});
  const over = server(state, { type: 'game_over', room_id: 'r1', game_id: 'g1', seq: 4, result: { winner: 'black', reason: 'abandoned' } });
  assert.deepEqual(over.room.away, {});
  const early = server(state, { type: 'error', code: 'not_allowed', message: 'you can claim in 12 s' }, { type: 'claim_win', room_id: 'r1' });
  assert.equal(early.notice.code, 'claim_not_yet');
});

test("a replay's hint is about the move on screen, and goes when another move is shown", () => {
  let state = reduce(inRoom(), { type: 'navigate', route: { name: 'replay', gameId: 'g1' } });
  const record = { game_id: 'g1', moves: [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }], result: null };
  state = server(state, { type: 'game', game_id: 'g1', format: 'json', record });
  state = reduce(state, { type: 'replay_seek', ply: 1 });
  state = reduce(state, { type: 'replay_analysis_requested' });
  assert.deepEqual(state.replay.analysis, { pending: true, ply: 1 });
  const answer = { type: 'analysis', room_id: null, game_id: 'g1', ply: 1, best: { x: 8, y: 7, move: 'i8' }, score: 30, depth: 4, nodes: 900, pv: ['i8'] };
  assert.equal(server(state, { ...answer, ply: 0 }).replay.analysis.pending, true, 'an answer about another move');
  state = server(state, answer);
  assert.deepEqual(state.replay.analysis, { pending: false, ply: 1, best: answer.best, score: 30, depth: 4, nodes: 900, pv: ['i8'] });
  assert.equal(reduce(state, { type: 'replay_seek', ply: 2 }).replay.analysis, null);
  state = reduce(state, { type: 'replay_analysis_requested' });
  const refused = server(state, { type: 'error', code: 'busy', message: 'busy' }, { type: 'analyze', game_id: 'g1', ply: 1 });
  assert.deepEqual([refused.replay.analysis, refused.notice.code], [null, 'busy']);
});

test('stones picked for an opening step are mine to pick, kept while the decision is open, gone after it', () => {
  const place = { kind: 'place', colors: ['black', 'white', 'black'], least: null, most: null, count: null, offers: null };
  const opening = (decider, steps = []) => ({ rule: 'swap2', to_decide: 'black', decider, choices: [place], steps });
  let state = inRoom({ status: 'opening', extra: { opening: opening('alice') } });
  state = reduce(state, { type: 'opening_pick', x: 7, y: 7 });
  state = reduce(state, { type: 'opening_pick', x: 8, y: 8 });
  assert.deepEqual(state.room.draft, [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }]);
  state = server(state, snapshot({ status: 'opening', seq: 1, extra: { opening: opening('alice') } }));
  assert.equal(state.room.draft.length, 2, 'a snapshot of the same decision (someone came or went) keeps them');
  assert.deepEqual(reduce(state, { type: 'opening_clear' }).room.draft, []);
  const taken = [{ by: 'alice', step: { kind: 'place', points: [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 9, y: 9 }] } }];
  state = server(state, snapshot({ status: 'opening', seq: 2, extra: { opening: opening('bob', taken) } }));
  assert.deepEqual(state.room.draft, [], 'the step was taken');
  assert.equal(reduce(state, { type: 'opening_pick', x: 1, y: 1 }), state, "bob's decision now: alice picks nothing");
});
