// The sentences that say where a game stands, in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LANGUAGES, translate } from '../../../server/static/js/i18n.js';
import { resultText, statusText } from '../../../server/static/js/views/room.js';

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

test("the status says whose turn it is, from the viewer's side", () => {
  const t = (key, params) => translate('en', key, params);
  const room = { ...seats, status: 'playing', toMove: 'white', you: 'black', result: null };
  assert.equal(statusText(room, t), 'White (greedy) to move.');
  assert.equal(statusText({ ...room, you: 'white' }, t), 'Your turn.');
  assert.equal(statusText({ ...room, status: 'waiting', toMove: null }, t), 'Waiting for an opponent to join.');
  assert.equal(statusText({ ...room, status: 'waiting', toMove: null, you: 'spectator' }, t), 'Waiting for players.');
});
