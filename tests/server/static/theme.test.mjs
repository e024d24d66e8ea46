// Light or dark: the system's by default, the player's once chosen, and remembered.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadPrefs, savePrefs } from '../../../server/static/js/prefs.js';
import { THEMES, shownTheme } from '../../../server/static/js/theme.js';
import { LANGUAGES, translate } from '../../../server/static/js/i18n.js';

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value) };
}

test("the system's scheme decides until the player chooses", () => {
  assert.equal(shownTheme('system', true), 'dark');
  assert.equal(shownTheme('system', false), 'light');
  assert.equal(shownTheme('light', true), 'light');
  assert.equal(shownTheme('dark', false), 'dark');
});

test('the choice is remembered, and a stored value that is no choice reads as the system', () => {
  const storage = memoryStorage();
  assert.equal(loadPrefs(storage, ['en'], false).theme, 'system');
  savePrefs(storage, { ...loadPrefs(storage, ['en'], false), theme: 'dark' });
  assert.equal(loadPrefs(storage, ['en'], false).theme, 'dark');
  storage.setItem('gomoku.prefs', JSON.stringify({ theme: 'purple' }));
  assert.equal(loadPrefs(storage, ['en'], false).theme, 'system');
});

test('every choice has a name in every language', () => {
  for (const language of Object.keys(LANGUAGES)) {
    for (const key of ['header.theme', ...THEMES.map((theme) => `theme.${theme}`)]) {
      assert.notEqual(translate(language, key), key, `${language} ${key}`);
    }
  }
});
