// What the browser remembers between visits (localStorage, per server):
// the player's name and token, and the page's settings. A browser that
// refuses storage (private mode, a full disk) still plays; it just forgets.

import { chooseLanguage } from './i18n.js';
import { THEMES } from './theme.js';

const PREFS_KEY = 'gomoku.prefs';
const TOKENS_KEY = 'gomoku.tokens';

function read(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key) ?? 'null');
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function write(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused: the page works on, without remembering.
  }
}

/** The saved settings, with defaults for what was never saved. */
export function loadPrefs(storage, browserLanguages, coarsePointer) {
  const saved = read(storage, PREFS_KEY);
  return {
    name: typeof saved.name === 'string' ? saved.name : '',
    language: chooseLanguage(saved.language, browserLanguages),
    muted: saved.muted === true,
    moveNumbers: saved.moveNumbers === true,
    confirmTaps: typeof saved.confirmTaps === 'boolean' ? saved.confirmTaps : coarsePointer,
    replaySpeedMs: Number.isInteger(saved.replaySpeedMs) ? saved.replaySpeedMs : 1000,
    theme: THEMES.includes(saved.theme) ? saved.theme : 'system',
  };
}

export function savePrefs(storage, prefs) {
  write(storage, PREFS_KEY, prefs);
}

/** The token the server gave this browser for `name`, or null. */
export function tokenFor(storage, name) {
  const token = read(storage, TOKENS_KEY)[name];
  return typeof token === 'string' ? token : null;
}

export function saveToken(storage, name, token) {
  write(storage, TOKENS_KEY, { ...read(storage, TOKENS_KEY), [name]: token });
}

export function forgetToken(storage, name) {
  const tokens = read(storage, TOKENS_KEY);
  delete tokens[name];
  write(storage, TOKENS_KEY, tokens);
}
