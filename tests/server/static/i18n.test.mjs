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

test('every sentence the views ask for by name exists', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const root = new URL('../../../server/static/js/', import.meta.url);
  const inFolder = async (folder) => (await readdir(new URL(folder, root))).map((name) => new URL(folder + name, root));
  const files = [...(await inFolder('')), ...(await inFolder('views/'))];
  const asked = new Set();
  for (const file of files.filter((url) => url.pathname.endsWith('.js'))) {
    for (const match of (await readFile(file, 'utf8')).matchAll(/\bt\('([^']+)'/g)) asked.add(match[1]);
  }
  assert.ok(asked.size > 100, `only ${asked.size} keys found`);
  assert.deepEqual([...asked].filter((key) => !(key in STRINGS.en)), []);
});
