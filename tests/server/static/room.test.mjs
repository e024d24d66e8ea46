// The sentences that say where a game stands, in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LANGUAGES, translate } from '../../../server/static/js/i18n.js';
import { deciderText, stepText } from '../../../server/static/js/views/opening.js';
import { analysisAllowed, ratingChanges, resultText, roomTitle, shareLinks, statusText } from '../../../server/static/js/views/room.js';

const seats = {
  black: { name: 'alice', kind: 'human', level: null, connected: true },
  white: { name: 'greedy', kind: 'bot', level: 'greedy', connected: true },
};

const RESULTS = [
  { winner: 'black', reason: 'five' },
  { winner: 'white', reason: 'resign' },
  { winner: 'black', reason: 'timeout' },
  { winner: 'white', reason: 'abandoned' },
  { winner: null, reason: 'draw_agreed' },
  { winner: null, reason: 'full_board' },
];

test('every way a game ends is a whole sentence naming the winner', () => {
  for (const language of Object.keys(LANGUAGES)) {
    const t = (key, params) => translate(language, key, params);
    for (const result of RESULTS) {
      const text = resultText({ ...seats, result: { ...result, line: null } }, t);
      assert.doesNotMatch(text, /[{}]|result\./, `${language} ${result.reason}`);
      if (result.winner !== null) assert.match(text, result.winner === 'black' ? /alice/ : /greedy/);
    }
  }
});

test("a player's result line says whether they won or lost, a spectator's who won", () => {
  const t = (key, params) => translate('en', key, params);
  const ended = (you, winner, reason) => ({ ...seats, you, result: { winner, reason, line: null } });
  assert.equal(resultText(ended('black', 'black', 'five'), t), 'You won with five in a row.');
  assert.equal(resultText(ended('black', 'white', 'five'), t), 'You lost: greedy made five in a row.');
  assert.equal(resultText(ended('white', 'white', 'resign'), t), 'alice resigned: you won.');
  assert.equal(resultText(ended('black', 'white', 'timeout'), t), 'You lost: your time ran out.');
  assert.equal(resultText(ended('black', null, 'draw_agreed'), t), 'Draw by agreement.');
  assert.equal(resultText(ended('spectator', 'black', 'five'), t), 'Black (alice) wins with five in a row.');
  for (const language of Object.keys(LANGUAGES)) {
    const say = (key, params) => translate(language, key, params);
    for (const result of RESULTS.filter(({ winner }) => winner !== null)) {
      for (const you of ['black', 'white']) {
        const text = resultText(ended(you, result.winner, result.reason), say);
        assert.doesNotMatch(text, /[{}]|result\./, `${language} ${you} ${result.reason}`);
        assert.notEqual(text, resultText(ended('spectator', result.winner, result.reason), say), `${language} ${you} ${result.reason}`);
      }
    }
  }
});

test("the status says whose turn it is, from the viewer's side", () => {
  const t = (key, params) => translate('en', key, params);
  const room = { ...seats, status: 'playing', toMove: 'white', you: 'black', result: null };
  assert.equal(statusText(room, t), 'White (greedy) to move.');
  assert.equal(statusText({ ...room, you: 'white' }, t), 'Your turn.');
  assert.equal(statusText({ ...room, status: 'waiting', toMove: null }, t), 'Waiting for an opponent to join.');
  assert.equal(statusText({ ...room, status: 'waiting', toMove: null, you: 'spectator' }, t), 'Waiting for players.');
});

test('the title says the rule, the board, the time control as 5+3, and whether the game is rated or private', () => {
  const t = (key, params) => translate('en', key, params);
  const room = { rule: 'freestyle', size: 15, timeControl: null, clock: null, rated: false, private: false };
  assert.equal(roomTitle(room, t), 'Freestyle · 15×15');
  const timed = { ...room, timeControl: { initial_ms: 300_000, increment_ms: 3000 }, clock: { increment_ms: 3000 } };
  assert.equal(roomTitle({ ...timed, rated: true, private: true }, t), 'Freestyle · 15×15 · 5+3 · rated · private');
  assert.equal(roomTitle({ ...room, clock: { increment_ms: 3000 } }, t), 'Freestyle · 15×15 · +3 s a move', 'an older server');
});

test('rating changes name both players', () => {
  const t = (key, params) => translate('en', key, params);
  const ratings = { black: { before: 1500, after: 1662 }, white: { before: 1500, after: 1338 } };
  assert.deepEqual(ratingChanges({ ...seats, ratings }, t), ['alice: 1500 → 1662 (+162)', 'greedy: 1500 → 1338 (−162)']);
  assert.deepEqual(ratingChanges({ ...seats, ratings: null }, t), []);
});

test('during the opening the status says whose decision it is, and each step taken reads as a sentence', () => {
  const t = (key, params) => translate('en', key, params);
  const opening = { rule: 'swap2', to_decide: 'white', decider: 'bob', choices: [], steps: [] };
  const room = { ...seats, status: 'opening', toMove: null, you: 'black', opening };
  assert.equal(statusText(room, t, 'alice'), 'bob is deciding the opening.');
  assert.equal(statusText({ ...room, you: 'white' }, t, 'bob'), 'Your decision in the opening.');
  assert.equal(deciderText({ ...room, you: 'white' }, 'bob', t), 'Your decision (you are White for now).');
  assert.equal(deciderText(room, 'alice', t), 'bob decides (for now White).');
  const placed = { by: 'alice', step: { kind: 'place', points: [{ x: 7, y: 7 }, { x: 0, y: 0 }, { x: 8, y: 7 }] } };
  assert.equal(stepText(placed, 15, t), 'alice placed h8, a15, i8');
  assert.equal(stepText({ by: 'bob', step: { kind: 'choose_color', color: 'black' } }, 15, t), 'bob chose Black');
  assert.equal(stepText({ by: 'bob', step: { kind: 'declare_offers', count: 3 } }, 15, t), 'bob asked for 3 fifth moves');
  assert.equal(stepText({ by: 'bob', step: { kind: 'select_fifth', point: { x: 7, y: 5 } } }, 15, t), 'bob selected h10');
});

test('the engine is offered where the server answers it: casual bot games and finished games, never a live game between people or a rated one', () => {
  const person = (name) => ({ name, kind: 'human', level: null, connected: true });
  const bot = { name: 'greedy', kind: 'bot', level: 'greedy', connected: true };
  const room = (black, white, status, rated = false) => ({ black, white, status, rated, result: status === 'finished' ? { winner: null, reason: 'draw_agreed' } : null });
  assert.equal(analysisAllowed(room(person('alice'), bot, 'playing'), true), true, 'a casual game against a bot');
  assert.equal(analysisAllowed(room(bot, bot, 'playing'), true), true, 'a casual game between bots');
  assert.equal(analysisAllowed(room(person('alice'), person('bob'), 'playing'), true), false, 'a live game between people');
  assert.equal(analysisAllowed(room(person('alice'), person('bob'), 'opening'), true), false, 'its opening too');
  assert.equal(analysisAllowed(room(person('alice'), bot, 'playing', true), true), false, 'a live rated game against a bot');
  assert.equal(analysisAllowed(room(person('alice'), person('bob'), 'finished', true), true), true, 'any game once over');
  assert.equal(analysisAllowed(room(person('alice'), bot, 'playing'), false), false, 'a server without bots');
  assert.equal(analysisAllowed(room(person('alice'), null, 'waiting'), true), false, 'a game not started');
});

test("a player gets the invitation (saying who invites to which game) while a seat is open, and the spectators' link until the end", () => {
  const base = 'http://example.org/';
  const room = (status) => ({ id: 'r1', status, rule: 'renju', size: 15, private: true });
  assert.deepEqual(shareLinks(room('waiting'), 'black', 'alice', base), {
    invite: 'http://example.org/#room/r1?from=alice&rule=renju&size=15',
    watch: 'http://example.org/#watch/r1',
  });
  assert.deepEqual(shareLinks(room('playing'), 'white', 'bob', base), { invite: null, watch: 'http://example.org/#watch/r1' });
  assert.deepEqual(shareLinks(room('finished'), 'white', 'bob', base), { invite: null, watch: null });
  assert.deepEqual(shareLinks(room('playing'), null, 'carol', base), { invite: null, watch: null }, 'a spectator has the address bar');
});
