// The sign-in page opened by an invitation link says who invites to which game.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LANGUAGES, translate } from '../../../server/static/js/i18n.js';
import { parseHash } from '../../../server/static/js/routes.js';
import { invitationText } from '../../../server/static/js/views/signin.js';

const en = (key, params) => translate('en', key, params);

test('an invitation link names the inviter and the game', () => {
  assert.equal(invitationText(parseHash('#room/r1?from=alice&rule=renju&size=15'), en), 'alice invites you to a game: Renju · 15×15.');
  assert.equal(invitationText(parseHash('#room/r1?from=alice&rule=nonsense'), en), 'alice invites you to a game.');
});

test('a plain room link, a watch link or another page invites nobody', () => {
  for (const hash of ['#room/r1', '#watch/r1?from=alice', '#lobby', '']) assert.equal(invitationText(parseHash(hash), en), null, hash);
});

test('the invitation is a whole sentence in every language', () => {
  for (const language of Object.keys(LANGUAGES)) {
    const t = (key, params) => translate(language, key, params);
    const text = invitationText(parseHash('#room/r1?from=alice&rule=freestyle&size=19'), t);
    assert.match(text, /alice/);
    assert.doesNotMatch(text, /[{}]|signin\./, language);
  }
});
