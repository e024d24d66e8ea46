// The account screen (#account): keep the name with a password, or change it; the devices signed
// in, each of which can be signed out, or all at once; and deleting the account.

import { MIN_PASSWORD_LENGTH } from '../accountstate.js';
import { fill, h, setText, show } from '../dom.js';

function passwordField(id, autocomplete) {
  const input = h('input', { type: 'password', id, autocomplete, maxLength: 256 });
  return { input, label: h('label', { for: id }) };
}

export function createAccountView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const intro = h('p', { class: 'intro' });
  const status = h('p', { class: 'account-status', role: 'status' });

  const current = passwordField('account-current-password', 'current-password');
  const fresh = passwordField('account-new-password', 'new-password');
  const again = passwordField('account-repeat-password', 'new-password');
  const formError = h('p', { class: 'error', role: 'alert' });
  const save = h('button', { type: 'submit', class: 'primary' });
  const currentRow = h('div', {}, current.label, current.input);
  const passwordForm = h('form', { class: 'account-password' }, currentRow, h('div', {}, fresh.label, fresh.input), h('div', {}, again.label, again.input), save, formError);
  passwordForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const t = intents.t;
    if (fresh.input.value.length < MIN_PASSWORD_LENGTH) return setText(formError, t('account.tooShort', { count: MIN_PASSWORD_LENGTH }));
    if (fresh.input.value !== again.input.value) return setText(formError, t('account.mismatch'));
    setText(formError, '');
    intents.setPassword(fresh.input.value, currentRow.hidden ? null : current.input.value);
    for (const field of [current, fresh, again]) field.input.value = '';
  });

  const devicesHeading = h('h2');
  const deviceList = h('ul', { class: 'devices' });
  const signOutAll = h('button', { type: 'button', onClick: () => intents.signOutEverywhere() });
  const devices = h('section', { class: 'account-devices' }, devicesHeading, deviceList, signOutAll);

  const deleteHeading = h('h2');
  const deleteText = h('p');
  const deletePassword = passwordField('account-delete-password', 'current-password');
  const deleteButton = h('button', { type: 'submit', class: 'danger' });
  const deletePasswordRow = h('div', {}, deletePassword.label, deletePassword.input);
  // A deleted account cannot come back: the form is sent only with this box ticked.
  const understood = h('input', { type: 'checkbox', id: 'account-delete-understood', required: true });
  const understoodLabel = h('label', { for: understood.id });
  const deleteForm = h('form', { class: 'account-delete' }, deleteHeading, deleteText, deletePasswordRow, h('div', {}, understood, understoodLabel), deleteButton);
  deleteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    intents.deleteAccount(deletePasswordRow.hidden ? null : deletePassword.input.value);
    deletePassword.input.value = '';
    understood.checked = false;
  });

  const element = h('section', { class: 'screen account-screen' }, h('div', { class: 'panel' }, heading, intro, status, passwordForm, devices, deleteForm));
  let shownSaved = 0;
  let drawn = null;

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const { password, saved } = state.account;
      const kept = password === true;
      setText(heading, t('account.title'));
      setText(intro, kept ? t('account.kept', { name: state.me?.name ?? '' }) : t('account.offer'));
      if (saved !== shownSaved) {
        shownSaved = saved;
        setText(status, t('account.saved'));
      }
      show(currentRow, kept);
      setText(current.label, t('account.currentPassword'));
      setText(fresh.label, t('account.newPassword'));
      setText(again.label, t('account.repeatPassword'));
      setText(save, kept ? t('account.change') : t('account.set'));
      show(devices, kept);
      setText(devicesHeading, t('account.devices'));
      setText(signOutAll, t('account.signOutAll'));
      setText(deleteHeading, t('account.delete'));
      setText(deleteText, t('account.deleteText'));
      show(deletePasswordRow, kept);
      setText(deletePassword.label, t('account.currentPassword'));
      setText(understoodLabel, t('account.deleteUnderstood'));
      setText(deleteButton, t('account.deleteButton'));
      if (drawn !== null && drawn[0] === state.account.devices && drawn[1] === state.prefs.language) return;
      drawn = [state.account.devices, state.prefs.language];
      fill(deviceList, (state.account.devices ?? []).map((device) => {
        // Two devices may share a label (two Chrome windows on Linux): the time tells them apart.
        const since = t('account.since', { at: new Date(device.signed_in_at).toLocaleString(state.prefs.language) });
        return h('li', { 'data-device': device.device_id, class: device.current ? 'current' : null },
          h('div', { class: 'device-text' },
            h('span', { class: 'device-label' }, device.label, device.current ? h('span', { class: 'this-device' }, t('account.thisDevice')) : null),
            h('span', { class: 'detail' }, since)),
          h('button', { type: 'button', 'aria-label': t('account.signOutDevice', { label: `${device.label}, ${since}` }), onClick: () => intents.signOutDevice(device.device_id) }, t('account.signOut')));
      }));
    },
  };
}
