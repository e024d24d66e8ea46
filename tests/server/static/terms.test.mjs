// What a room or a seek offers, in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { translate } from '../../../server/static/js/i18n.js';
import { rangeText, seekColorText, settingsText } from '../../../server/static/js/views/terms.js';

const t = (key, params) => translate('en', key, params);
const seek = (extra = {}) => ({
  seek_id: 's1', by: { name: 'bob', rating: 1500 }, rule: 'freestyle', size: 15, clock: null, rated: false, color: 'random',
  rating_min: null, rating_max: null, opening: 'none', ...extra,
});

test('the terms: rule, board, clock, rated, opening', () => {
  assert.equal(settingsText(seek(), t), 'Freestyle · 15×15 · Untimed');
  const timed = seek({ clock: { initial_ms: 300_000, increment_ms: 3000 }, rated: true, opening: 'swap2' });
  assert.equal(settingsText(timed, t), 'Freestyle · 15×15 · 5+3 · rated · swap2');
});

test("a seek says the colour the reader plays, or with an opening rule who places the first stones", () => {
  assert.equal(seekColorText(seek({ color: 'black' }), false, t), 'you play White');
  assert.equal(seekColorText(seek({ color: 'black' }), true, t), 'you play Black');
  assert.equal(seekColorText(seek(), false, t), 'colours at random');
  assert.equal(seekColorText(seek({ opening: 'swap2' }), false, t), 'bob places the first stones');
  assert.equal(seekColorText(seek({ opening: 'swap2' }), true, t), 'you place the first stones');
});

test("a seek's rating range, when it has one", () => {
  assert.equal(rangeText(seek(), t), null);
  assert.equal(rangeText(seek({ rating_min: 1400 }), t), 'for ratings from 1400');
  assert.equal(rangeText(seek({ rating_max: 1700 }), t), 'for ratings up to 1700');
  assert.equal(rangeText(seek({ rating_min: 1400, rating_max: 1700 }), t), 'for ratings 1400 to 1700');
});
