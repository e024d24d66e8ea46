// The page's title tells a player in another tab that it is their move.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LANGUAGES, translate } from '../../../server/static/js/i18n.js';
import { pageTitle } from '../../../server/static/js/title.js';

const en = (key, params) => translate('en', key, params);

function playing(you, toMove) {
  return { me: { name: 'alice' }, room: { status: 'playing', you, toMove, opening: null } };
}

test('the title says "(Your move)" while I am to move, and only then', () => {
  assert.equal(pageTitle(playing('black', 'black'), en), '(Your move) Gomoku');
  assert.equal(pageTitle(playing('black', 'white'), en), 'Gomoku');
  assert.equal(pageTitle(playing('spectator', 'black'), en), 'Gomoku');
  assert.equal(pageTitle({ me: null, room: null }, en), 'Gomoku');
  const finished = { me: { name: 'alice' }, room: { status: 'finished', you: 'black', toMove: null, opening: null } };
  assert.equal(pageTitle(finished, en), 'Gomoku');
});

test('my decision in the opening is my move too', () => {
  const deciding = (decider) => ({ me: { name: 'alice' }, room: { status: 'opening', you: 'white', toMove: null, opening: { decider } } });
  assert.equal(pageTitle(deciding('alice'), en), '(Your move) Gomoku');
  assert.equal(pageTitle(deciding('bob'), en), 'Gomoku');
});

test('the title is in the page language', () => {
  for (const language of Object.keys(LANGUAGES)) {
    const t = (key, params) => translate(language, key, params);
    const title = pageTitle(playing('white', 'white'), t);
    assert.match(title, new RegExp(t('app.name')));
    assert.doesNotMatch(title, /[{}]|title\./);
  }
});
