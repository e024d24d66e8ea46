// Requests built from the forms' choices: create_room, seek and quick_pair.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CLOCK_PRESETS, createRoomRequest, quickPairRequest, seekRequest } from '../../../server/static/js/requests.js';

const base = { opponent: 'bot', level: 'greedy', secondLevel: 'hard', rule: 'freestyle', size: 15, clock: null, color: 'black', private: false };

test('against a bot: my seat and the bot, untimed, listed unless asked otherwise', () => {
  assert.deepEqual(createRoomRequest(base), { type: 'create_room', rule: 'freestyle', size: 15, black: 'me', white: { bot: 'greedy' }, private: false });
  assert.equal(createRoomRequest({ ...base, private: true }).private, true);
});

test('a friend gets a private room with the other seat open; anyone gets a listed one', () => {
  const friend = createRoomRequest({ ...base, opponent: 'friend', color: 'white', private: false });
  assert.deepEqual([friend.black, friend.white, friend.private], ['open', 'me', true]);
  const anyone = createRoomRequest({ ...base, opponent: 'anyone', private: true });
  assert.deepEqual([anyone.black, anyone.white, anyone.private], ['me', 'open', false]);
});

test('two bots take both seats and the creator watches', () => {
  const bots = createRoomRequest({ ...base, opponent: 'bots' });
  assert.deepEqual([bots.black, bots.white], [{ bot: 'greedy' }, { bot: 'hard' }]);
});

test("a bot's own depth and width go with its seat, and only when chosen", () => {
  const set = createRoomRequest({ ...base, level: 'alphabeta', depth: 6, width: null });
  assert.deepEqual(set.white, { bot: 'alphabeta', depth: 6 });
  const both = createRoomRequest({ ...base, opponent: 'bots', level: 'alphabeta', depth: 2, width: 12 });
  assert.deepEqual([both.black, both.white], [{ bot: 'alphabeta', depth: 2, width: 12 }, { bot: 'hard' }]);
  assert.deepEqual(createRoomRequest({ ...base, depth: null, width: null }).white, { bot: 'greedy' });
});

test('a random colour is drawn by the coin', () => {
  assert.equal(createRoomRequest({ ...base, color: 'random' }, () => true).black, 'me');
  assert.equal(createRoomRequest({ ...base, color: 'random' }, () => false).white, 'me');
});

test('the clock is sent as chosen, and renju is always 15x15', () => {
  const timed = createRoomRequest({ ...base, clock: CLOCK_PRESETS[3] });
  assert.deepEqual(timed.clock, { initial_ms: 300_000, increment_ms: 3000 });
  assert.equal(createRoomRequest({ ...base, rule: 'renju', size: 19 }).size, 15);
});

test('a rated game says so; a casual one sends no rated field (a server without ratings reads the same request)', () => {
  assert.equal(createRoomRequest({ ...base, rated: true }).rated, true);
  assert.equal('rated' in createRoomRequest({ ...base, rated: false }), false);
});

test('a seek says the game, the colour its owner plays and the ratings it is open to', () => {
  const seek = seekRequest({ rule: 'renju', size: 19, clock: CLOCK_PRESETS[3], color: 'white', rated: true, ratingMin: 1400, ratingMax: null });
  assert.deepEqual(seek, {
    type: 'seek', rule: 'renju', size: 15, rated: true, color: 'white', rating_min: 1400, rating_max: null,
    clock: { initial_ms: 300_000, increment_ms: 3000 },
  });
  assert.equal('clock' in seekRequest({ rule: 'freestyle', size: 15, clock: null, color: 'random', rated: false }), false, 'untimed');
});

test('quick pairing asks for a 15×15 game of a rule and a clock, rated or not', () => {
  assert.deepEqual(quickPairRequest({ rule: 'standard', clock: CLOCK_PRESETS[1], rated: false }), {
    type: 'quick_pair', rule: 'standard', size: 15, rated: false, clock: { initial_ms: 60_000, increment_ms: 0 },
  });
});

test('an opening rule is sent when one is chosen, with a room or a seek', () => {
  assert.equal(createRoomRequest({ ...base, opening: 'swap2' }).opening, 'swap2');
  assert.equal('opening' in createRoomRequest({ ...base, opening: 'none' }), false);
  const seek = seekRequest({ rule: 'renju', size: 15, clock: null, color: 'random', rated: false, opening: 'soosorv8' });
  assert.equal(seek.opening, 'soosorv8');
});
