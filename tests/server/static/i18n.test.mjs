// Both languages say everything, with the same placeholders.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LANGUAGES, STRINGS, chooseLanguage, translate } from '../../../server/static/js/i18n.js';

const placeholders = (entry) => [...entry.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

test('every language has exactly the English keys', () => {
  const english = Object.keys(STRINGS.en).sort();
  for (const language of Object.keys(LANGUAGES)) assert.deepEqual(Object.keys(STRINGS[language]).sort(), english, language);
});

test('every sentence uses the same placeholders in every language', () => {
  for (const [key, entry] of Object.entries(STRINGS.en)) {
    for (const language of Object.keys(LANGUAGES)) {
      const other = STRINGS[language][key];
      if (typeof entry === 'function' || typeof other === 'function') continue; // plurals: tested below
      assert.deepEqual(placeholders(other), placeholders(entry), `${language} ${key}`);
    }
  }
});

test('placeholders are filled, plurals counted, unknown keys fall back', () => {
  assert.equal(translate('en', 'lobby.versus', { black: 'alice', white: 'bob' }), 'alice vs bob');
  assert.equal(translate('zh', 'lobby.versus', { black: 'alice', white: 'bob' }), 'alice 对 bob');
  assert.equal(translate('en', 'room.spectators', { count: 1 }), '1 spectator');
  assert.equal(translate('en', 'room.spectators', { count: 3 }), '3 spectators');
  assert.equal(translate('zh', 'room.spectators', { count: 3 }), '3 人观战');
  assert.equal(translate('en', 'error.some_new_code', { fallback: 'from the server' }), 'from the server');
  assert.equal(translate('en', 'no.such.key'), 'no.such.key');
});

test('the language comes from what was saved, else from the browser, else English', () => {
  assert.equal(chooseLanguage('zh', ['en-US']), 'zh');
  assert.equal(chooseLanguage(undefined, ['zh-CN', 'en']), 'zh');
  assert.equal(chooseLanguage(undefined, ['fr-FR', 'zh-TW']), 'zh');
  assert.equal(chooseLanguage('klingon', ['de']), 'en');
});
