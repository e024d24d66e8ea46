// The lobby as a watcher keeps it: seeks come and go, the online count and list, the lobby's chat.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  CHAT_LINES, initialLobby, lobbyReceived, lobbyRewatched, seekOpenTo, seeksOf, unwatched, watchLobbyRequest,
} from '../../../server/static/js/lobbystate.js';

function seek(id, name = 'bob', extra = {}) {
  return {
    seek_id: id, by: { name, rating: 1500 }, rule: 'freestyle', size: 15, clock: null, rated: false, color: 'random',
    rating_min: null, rating_max: null, created_at: '2026-01-01T00:00:00Z', quick: false, ...extra,
  };
}

test('seeks come and go only in a list being watched', () => {
  let lobby = lobbyReceived(initialLobby(), { type: 'seek_added', seek: seek('s1') });
  assert.equal(lobby.seeks, null, 'not watching yet');
  lobby = lobbyReceived(lobby, { type: 'lobby', online: 3, seeks: [seek('s1')] });
  lobby = lobbyReceived(lobby, { type: 'seek_added', seek: seek('s2') });
  lobby = lobbyReceived(lobby, { type: 'seek_created', seek: seek('s2') });
  assert.deepEqual(lobby.seeks.map((entry) => entry.seek_id), ['s1', 's2'], 'my own seek is listed once');
  lobby = lobbyReceived(lobby, { type: 'seek_removed', seek_id: 's1' });
  assert.deepEqual(lobby.seeks.map((entry) => entry.seek_id), ['s2']);
  assert.equal(lobbyReceived(lobby, { type: 'seek_removed', seek_id: 'gone' }), lobby, 'nothing changed');
  assert.equal(unwatched(lobby).seeks, null);
  assert.equal(lobby.online, 3);
});

test('a server with batches is watched in batches, each applied in order from the snapshot', () => {
  assert.deepEqual(watchLobbyRequest(['lobby', 'lobby_batches']), { type: 'watch_lobby', batches: true });
  assert.deepEqual(watchLobbyRequest(['lobby']), { type: 'watch_lobby' }, 'a 1.1 server: a message per change');
  let lobby = lobbyReceived(initialLobby(), { type: 'lobby', online: 3, seeks: [seek('s1'), seek('s2')], seq: 4 });
  lobby = lobbyReceived(lobby, { type: 'lobby_changes', added: [seek('s3'), seek('s2')], removed: ['s1'], online: null, seq: 5 });
  assert.deepEqual(lobby.seeks.map((entry) => entry.seek_id), ['s2', 's3'], 'a seek the snapshot already had is listed once');
  assert.equal(lobby.online, 3, 'null: the count has not changed');
  lobby = lobbyReceived(lobby, { type: 'lobby_changes', added: [], removed: ['gone'], online: 5, seq: 6 });
  assert.deepEqual([lobby.seeks.length, lobby.online, lobby.seq], [2, 5, 6]);
});

test('a batch missed drops the seeks until the lobby, watched again, sends a fresh snapshot', () => {
  let lobby = lobbyReceived(initialLobby(), { type: 'lobby', online: 3, seeks: [seek('s1')], seq: 4 });
  lobby = lobbyReceived(lobby, { type: 'lobby_changes', added: [seek('s9')], removed: [], online: null, seq: 6 });
  assert.deepEqual([lobby.seeks, lobby.rewatch], [null, 'needed']);
  lobby = lobbyRewatched(lobby);
  assert.equal(lobby.rewatch, null);
  assert.equal(lobbyReceived(lobby, { type: 'lobby_changes', added: [seek('s8')], removed: [], online: 1, seq: 7 }).seeks, null);
  lobby = lobbyReceived(lobby, { type: 'lobby', online: 2, seeks: [seek('s9')], seq: 7 });
  assert.deepEqual(lobby.seeks.map((entry) => entry.seek_id), ['s9']);
});

test('the online count follows its events, and the list comes with its own count', () => {
  let lobby = lobbyReceived(initialLobby(), { type: 'online', count: 4 });
  assert.equal(lobby.online, 4);
  const players = [{ name: 'alice', rating: 1500, status: 'idle' }];
  lobby = lobbyReceived(lobby, { type: 'online_players', count: 1, players });
  assert.deepEqual([lobby.online, lobby.players], [1, players]);
});

test("the lobby's chat keeps the last lines; a room's line is not the lobby's", () => {
  let lobby = initialLobby();
  for (let index = 0; index < CHAT_LINES + 5; index += 1) {
    lobby = lobbyReceived(lobby, { type: 'chat', room_id: null, from: 'bob', text: `line ${index}`, at: '' });
  }
  assert.equal(lobby.chat.length, CHAT_LINES);
  assert.deepEqual(lobby.chat.at(-1), { from: 'bob', text: `line ${CHAT_LINES + 4}`, at: '' });
  assert.equal(lobbyReceived(lobby, { type: 'chat', room_id: 'r1', from: 'bob', text: 'hi', at: '' }), lobby);
});

test("watching the lobby again replays its last lines, and a line already shown is not shown twice", () => {
  const line = { type: 'chat', room_id: null, from: 'bob', text: 'hi', at: '', chat_id: 'local/1' };
  const once = lobbyReceived(initialLobby(), line);
  assert.deepEqual(lobbyReceived(once, line).chat, once.chat);
  assert.equal(lobbyReceived(once, { ...line, chat_id: 'local/2' }).chat.length, 2);
});

test("my seeks, and whether a seek's rating range lets a player in", () => {
  const lobby = lobbyReceived(initialLobby(), { type: 'lobby', online: 2, seeks: [seek('s1'), seek('s2', 'alice')] });
  assert.deepEqual(seeksOf(lobby, 'alice').map((entry) => entry.seek_id), ['s2']);
  const ranged = seek('s3', 'bob', { rating_min: 1400, rating_max: 1600 });
  assert.equal(seekOpenTo(ranged, 1400), true);
  assert.equal(seekOpenTo(ranged, 1601), false);
  assert.equal(seekOpenTo(seek('s4', 'bob', { rating_min: 1700 }), 1500), false);
  assert.equal(seekOpenTo(seek('s5'), 900), true);
});
