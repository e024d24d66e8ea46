// Moderation in the page's state: the role `welcome` gives, lines taken back, games deleted, a spectator
// sent out, and which games of a list I may delete.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { deletable } from '../../../server/static/js/moderationstate.js';
import { LOBBY, formatRoute, parseHash } from '../../../server/static/js/routes.js';
import { initialState, reduce } from '../../../server/static/js/store.js';

const PREFS = { name: 'alice', language: 'en', muted: false, moveNumbers: false, confirmTaps: false, replaySpeedMs: 1000 };
const BOT = { name: 'easy', kind: 'bot', level: 'easy' };
const ALICE = { name: 'alice', kind: 'human', level: null };
const BOB = { name: 'bob', kind: 'human', level: null };

function server(state, message, request = null) {
  return reduce(state, { type: 'server', message, request, at: 0 });
}

function welcomed(role = null) {
  const welcome = { type: 'welcome', protocol: 1, player: { name: 'alice', rating: 1500 }, token: 't', rooms: [], features: ['chat', 'moderation'], role };
  return server(initialState(PREFS), welcome);
}

test('welcome says my role, and signing out forgets it', () => {
  assert.equal(welcomed().role, null);
  const moderator = welcomed('moderator');
  assert.equal(moderator.role, 'moderator');
  assert.equal(reduce(moderator, { type: 'signed_out' }).role, null);
});

test('a removed line leaves the lobby chat; the others stay', () => {
  let state = welcomed();
  for (const [chatId, text] of [['c1', 'spam'], ['c2', 'hello']]) {
    state = server(state, { type: 'chat', room_id: null, from: 'bob', text, at: 'T', chat_id: chatId });
  }
  state = server(state, { type: 'chat_removed', room_id: null, chat_id: 'c1' });
  assert.deepEqual(state.lobby.chat, [{ from: 'bob', text: 'hello', at: 'T', chatId: 'c2' }]);
});

test('deleted games leave the list on screen', () => {
  let state = reduce(welcomed(), { type: 'navigate', route: { name: 'games', player: null } });
  const game = (id) => ({ game_id: id, black: ALICE, white: BOT, result: { winner: 'black', reason: 'five' }, rated: false });
  state = server(state, { type: 'games', games: [game('g1'), game('g2')], next: null }, { type: 'list_games', player: 'alice' });
  state = server(state, { type: 'games_deleted', game_ids: ['g1'] });
  assert.deepEqual(state.games.list.map((kept) => kept.game_id), ['g2']);
});

test('a spectator sent out of the room on screen is back in the lobby, told why', () => {
  let state = reduce(welcomed(), { type: 'navigate', route: { name: 'room', roomId: 'r1', as: 'spectator' } });
  state = { ...state, room: { id: 'r1', chat: [] } };
  state = server(state, { type: 'kicked', room_id: 'r1', reason: 'heckling' });
  assert.equal(state.room, null);
  assert.deepEqual(state.route, LOBBY);
  assert.equal(state.notice.code, 'kicked');
  assert.equal(state.notice.message, 'heckling');
});

test('refusals of chat and sign-in show the server\'s reason', () => {
  const muted = server(welcomed(), { type: 'error', code: 'not_allowed', message: 'you are muted until 2026-11-27T14:00:00Z: spam' }, { type: 'chat', room_id: null, text: 'hi' });
  assert.equal(muted.notice.code, 'chat_refused');
  const banned = server(initialState(PREFS), { type: 'error', code: 'not_allowed', message: "'alice' is banned" }, { type: 'hello', name: 'alice' });
  assert.equal(banned.signInError.code, 'signin_refused');
});

test('I may delete my finished unrated games against the server\'s bots; an admin any finished game', () => {
  const me = { name: 'Alice' };
  const finished = { result: { winner: 'black', reason: 'five' }, rated: false };
  assert.equal(deletable({ ...finished, black: ALICE, white: BOT }, me, null), true);
  assert.equal(deletable({ ...finished, black: ALICE, white: BOT, rated: true }, me, null), false);
  assert.equal(deletable({ ...finished, black: ALICE, white: BOB }, me, null), false);
  assert.equal(deletable({ ...finished, black: BOB, white: BOT }, me, null), false);
  assert.equal(deletable({ ...finished, black: ALICE, white: BOT, result: null }, me, null), false);
  assert.equal(deletable({ ...finished, black: BOB, white: BOB, rated: true }, me, 'admin'), true);
});

test('the moderation page has an address of its own', () => {
  assert.deepEqual(parseHash('#moderation'), { name: 'moderation' });
  assert.equal(formatRoute({ name: 'moderation' }), '#moderation');
});
