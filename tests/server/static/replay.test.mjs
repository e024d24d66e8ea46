// The engine's hint on a stored game: offered where the server answers it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { replayAnalysisAllowed } from '../../../server/static/js/views/replay.js';

const person = (name) => ({ name, kind: 'human', level: null });
const bot = { name: 'greedy', kind: 'bot', level: 'greedy' };

test('a game still played between two people gets no hint at any move; once over, it does', () => {
  const live = { black: person('alice'), white: person('bob'), result: null };
  assert.equal(replayAnalysisAllowed(live, false, true), false);
  assert.equal(replayAnalysisAllowed({ ...live, result: { winner: 'black', reason: 'resign' } }, true, true), true);
});

test('a game against a bot is open while played, and no position with five on it is', () => {
  assert.equal(replayAnalysisAllowed({ black: person('alice'), white: bot, result: null }, false, true), true);
  const five = { black: person('alice'), white: bot, result: { winner: 'black', reason: 'five' } };
  assert.equal(replayAnalysisAllowed(five, true, true), false);
  assert.equal(replayAnalysisAllowed(five, false, true), true);
  assert.equal(replayAnalysisAllowed(five, false, false), false, 'a server without bots');
});
