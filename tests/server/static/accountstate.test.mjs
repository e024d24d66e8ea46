// The account's state: whether the name has a password, the devices signed in, and when the page
// offers to keep the name (a player without a password who has played).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { browserDeviceLabel, endsMySession, offersPassword } from '../../../server/static/js/accountstate.js';
import { initialState, reduce } from '../../../server/static/js/store.js';

const PREFS = { name: 'alice', language: 'en', muted: false, moveNumbers: false, confirmTaps: false, replaySpeedMs: 1000 };

function server(state, message, request = null) {
  return reduce(state, { type: 'server', message, request, at: 0 });
}

function welcomed(fields = {}) {
  const player = { name: 'alice', rating: 1500, rd: 350, games: 0, ...fields.player };
  return server(initialState(PREFS), { type: 'welcome', protocol: 1, player, token: 't', rooms: [], features: ['accounts'], password: false, ...fields.welcome });
}

test('a newcomer is offered to keep the name only once a game they played has ended', () => {
  let state = welcomed();
  assert.equal(offersPassword(state), false);
  state = { ...state, seatedRooms: ['r1'] };
  state = server(state, { type: 'game_over', room_id: 'r1', game_id: 'g1', seq: 3, result: { winner: 'black', reason: 'resign' } });
  assert.equal(state.account.played, true);
  assert.equal(offersPassword(state), true);
  state = server(state, { type: 'password_set', name: 'alice' });
  assert.equal(offersPassword(state), false, 'kept now');
  assert.equal(state.account.saved, 1);
});

test('a player with rated games is offered at once; a server without accounts offers nothing', () => {
  assert.equal(offersPassword(welcomed({ player: { games: 3 } })), true);
  assert.equal(offersPassword(welcomed({ player: { games: 3 }, welcome: { password: undefined } })), false);
});

test('devices signed out leave the list', () => {
  let state = welcomed({ welcome: { password: true } });
  const devices = [
    { device_id: 'd1', label: 'laptop', signed_in_at: '2026-11-27T10:00:00Z', current: true },
    { device_id: 'd2', label: 'phone', signed_in_at: '2026-11-27T11:00:00Z', current: false },
  ];
  state = server(state, { type: 'devices', devices });
  state = server(state, { type: 'signed_out', device_ids: ['d2'] }, { type: 'sign_out', device_id: 'd2' });
  assert.deepEqual(state.account.devices.map((device) => device.device_id), ['d1']);
});

test("this page's sign-in ends when its device, or every device, is signed out, or the account deleted", () => {
  const account = { devices: [{ device_id: 'd1', current: true }, { device_id: 'd2', current: false }] };
  const signedOut = { type: 'signed_out', device_ids: ['d2'] };
  assert.equal(endsMySession(signedOut, { type: 'sign_out', device_id: 'd2' }, account), false);
  assert.equal(endsMySession(signedOut, { type: 'sign_out', device_id: 'd1' }, account), true);
  assert.equal(endsMySession(signedOut, { type: 'sign_out', all: true }, account), true);
  assert.equal(endsMySession(signedOut, null, account), true, 'told unasked: another device signed this one out');
  assert.equal(endsMySession({ type: 'account_deleted', name: 'alice', name_free_at: '' }, null, account), true);
});

test('a browser names itself by its name and its platform, within 64 characters and without control characters', () => {
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
  assert.equal(browserDeviceLabel({ userAgent: chrome, userAgentData: { platform: 'Linux' } }), 'Chrome on Linux');
  assert.equal(browserDeviceLabel({ userAgent: `${chrome} Edg/126.0`, platform: 'Win32' }), 'Edge on Win32');
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1';
  assert.equal(browserDeviceLabel({ userAgent: iphone, platform: 'iPhone' }), 'Safari on iPhone');
  assert.equal(browserDeviceLabel({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', platform: 'Linux x86_64' }), 'Firefox on Linux x86_64');
  assert.equal(browserDeviceLabel({ platform: 'Linux x86_64' }), 'Browser on Linux x86_64');
  assert.equal(browserDeviceLabel({ userAgentData: { platform: 'macOS' }, platform: 'MacIntel' }), 'Browser on macOS');
  assert.equal(browserDeviceLabel(undefined), 'Browser');
  assert.equal(browserDeviceLabel({ platform: 'x\u0007'.repeat(40) }).length, 51);
});

test('a refused sign-in says whether it carried a password (the form then says "wrong name or password")', () => {
  const state = server(initialState(PREFS), { type: 'error', code: 'unauthorized', message: 'wrong name or password' }, { type: 'hello', name: 'alice', password: 'secret words' });
  assert.deepEqual(state.signInError, { code: 'unauthorized', message: 'wrong name or password', name: 'alice', password: true, kept: false });
  assert.equal(JSON.stringify(state).includes('secret words'), false, 'the password is not kept');
});

test('the account as it stands now brings a role granted since the sign-in, and the password', () => {
  let state = welcomed();
  assert.equal(state.role, null);
  state = server(state, { type: 'account', name: 'alice', password: true, role: 'moderator' });
  assert.equal(state.role, 'moderator');
  assert.equal(state.account.password, true);
  state = server(state, { type: 'account', name: 'alice', password: true, role: null });
  assert.equal(state.role, null, 'revoked');
});
