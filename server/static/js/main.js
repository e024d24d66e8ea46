// Start the page: read what the browser remembers, open the connection,
// and draw the state each time it changes.

import { Connection, serverUrl } from './connection.js';
import { createController } from './controller.js';
import { loadPrefs } from './prefs.js';
import { parseHash } from './routes.js';
import { createSound } from './sound.js';
import { createStore, initialState, reduce } from './store.js';
import { createApp } from './views/app.js';

function browserStorage() {
  try {
    return window.localStorage;
  } catch {
    // Storage forbidden (some private modes): remember for this page only.
    const memory = new Map();
    return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => memory.set(key, value) };
  }
}

const storage = browserStorage();
// Tapping twice to play is the default under a finger, and wherever the board's points come out
// smaller than a finger's tip (a 15x15 board in a window under 600 px wide), a touch screen or not.
const smallPoints = matchMedia('(pointer: coarse), (any-pointer: coarse), (max-width: 600px)').matches;
const prefs = loadPrefs(storage, navigator.languages ?? [navigator.language], smallPoints);
const store = createStore(reduce, initialState(prefs, parseHash(location.hash)));
let controller = null;
const connection = new Connection(serverUrl(location), {
  onMessage: (message, request) => controller.received(message, request),
  onStatus: (status) => controller.statusChanged(status),
});
controller = createController({ store, connection, storage, sound: createSound(document), location, history, document, fetch: (url, options) => window.fetch(url, options), darkScheme: matchMedia('(prefers-color-scheme: dark)') });
const app = createApp(document.getElementById('app'), controller.intents);
store.subscribe((state) => app.render(state));
window.addEventListener('hashchange', () => controller.hashChanged());
// Leaving the page is leaving the game: the socket closes even if the browser keeps the page to come
// back to (back/forward cache), and opens again when the page is shown from that cache.
window.addEventListener('pagehide', () => connection.stop());
window.addEventListener('pageshow', (event) => {
  if (event.persisted) connection.start();
});
app.render(store.getState());
controller.start();
