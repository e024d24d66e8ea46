// The address bar's hash and the route it names, both ways.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LOBBY, formatRoute, parseHash } from '../../../server/static/js/routes.js';

test('every route round-trips through its hash', () => {
  const routes = [
    LOBBY,
    { name: 'room', roomId: 'AbC-_9', as: 'player' },
    { name: 'room', roomId: 'AbC-_9', as: 'spectator' },
    { name: 'room', roomId: 'AbC-_9', as: 'player', invite: { from: 'alice', rule: 'renju', size: 15 } },
    { name: 'games', player: null },
    { name: 'games', player: 'alice' },
    { name: 'replay', gameId: 'g1' },
    { name: 'players', kind: null },
    { name: 'players', kind: 'human' },
    { name: 'players', kind: 'bot' },
    { name: 'profile', player: 'alice' },
  ];
  for (const route of routes) assert.deepEqual(parseHash(formatRoute(route)), route);
});

test('a room link (the one to share) joins as a player; a watch link as a spectator', () => {
  assert.deepEqual(parseHash('#room/x1'), { name: 'room', roomId: 'x1', as: 'player' });
  assert.deepEqual(parseHash('#watch/x1'), { name: 'room', roomId: 'x1', as: 'spectator' });
});

test('an invitation link says who invites to which game, and a part that is unreadable is left out', () => {
  assert.equal(formatRoute({ name: 'room', roomId: 'x1', as: 'player', invite: { from: 'alice', rule: 'freestyle', size: 15 } }), '#room/x1?from=alice&rule=freestyle&size=15');
  assert.deepEqual(parseHash('#room/x1?from=alice&rule=freestyle&size=15'), { name: 'room', roomId: 'x1', as: 'player', invite: { from: 'alice', rule: 'freestyle', size: 15 } });
  assert.deepEqual(parseHash('#room/x1?from=alice&rule=chess&size=99'), { name: 'room', roomId: 'x1', as: 'player', invite: { from: 'alice', rule: null, size: null } });
  assert.deepEqual(parseHash('#room/x1?from=<b>&rule=renju'), { name: 'room', roomId: 'x1', as: 'player' });
  assert.deepEqual(parseHash('#watch/x1?from=alice'), { name: 'room', roomId: 'x1', as: 'spectator' });
});

test('anything unreadable is the lobby', () => {
  for (const hash of ['', '#', '#nowhere', '#room/', '#room/a b', '#room/a/b', '#games/<script>', '#game/%E0%A4%A', '#room/' + 'x'.repeat(65), '#players/robots', '#player/', '#player/a b']) {
    assert.deepEqual(parseHash(hash), LOBBY, hash);
  }
});

test('a room still being created has no hash', () => {
  assert.equal(formatRoute({ name: 'room', roomId: null, as: 'player' }), null);
});
