// Ratings as the page writes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PROVISIONAL_RD, formatChange, formatDelta, formatRating, isProvisional } from '../../../server/static/js/ratings.js';

test('a rating is provisional above the deviation the leaderboard uses, and only when the deviation is known', () => {
  assert.equal(isProvisional({ rating: 1500, rd: 350 }), true);
  assert.equal(isProvisional({ rating: 1500, rd: PROVISIONAL_RD }), false);
  assert.equal(isProvisional({ rating: 1500, rd: 60 }), false);
  assert.equal(isProvisional({ rating: 1500 }), false, 'a seek or the online list carries no deviation');
  assert.equal(isProvisional(null), false);
});

test('a rating is shown rounded, with a question mark while provisional, and empty when unknown', () => {
  assert.equal(formatRating({ rating: 1662, rd: 290 }), '1662?');
  assert.equal(formatRating({ rating: 1707, rd: 100 }), '1707');
  assert.equal(formatRating({ rating: 1499.6 }), '1500');
  assert.equal(formatRating({ name: 'old server' }), '');
  assert.equal(formatRating(null), '');
});

test("a game's change reads before, after and the signed difference", () => {
  assert.equal(formatChange({ before: 1500, after: 1662 }), '1500 → 1662 (+162)');
  assert.equal(formatChange({ before: 1500, after: 1338 }), '1500 → 1338 (−162)');
  assert.equal(formatChange({ before: 1400, after: 1400 }), '1400 → 1400 (±0)');
  assert.equal(formatDelta(-0.4), '±0');
});
