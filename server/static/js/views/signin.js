// Signing in: a name is all it takes. The server hands back a token that
// the browser keeps, so the next visit signs in by itself. A name kept with
// a password (accounts) signs in from any browser with it. A page opened
// by an invitation link says first who invites to which game.

import { h, setText, show } from '../dom.js';

/** "alice invites you to a game: Renju · 15×15." when the page was opened by an invitation link, else null. */
export function invitationText(route, t) {
  const invite = route.name === 'room' ? route.invite : undefined;
  if (invite == null) return null;
  const game = [invite.rule === null ? null : t(`rule.${invite.rule}`), invite.size === null ? null : t('size', { size: invite.size })];
  const known = game.filter((part) => part !== null);
  if (known.length === 0) return t('signin.invited', { name: invite.from });
  return t('signin.invitedTo', { name: invite.from, game: known.join(' · ') });
}

export function createSignInView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const intro = h('p', { class: 'intro' });
  const invitation = h('p', { class: 'invitation', hidden: true });
  const input = h('input', {
    type: 'text',
    id: 'signin-name',
    required: true,
    maxLength: 32,
    pattern: '[A-Za-z0-9_\\-]{1,32}',
    autocomplete: 'nickname',
    spellcheck: false,
    'aria-describedby': 'signin-rules signin-error',
  });
  const label = h('label', { for: input.id });
  const password = h('input', { type: 'password', id: 'signin-password', maxLength: 256, autocomplete: 'current-password' });
  const passwordLabel = h('label', { for: password.id });
  const rules = h('p', { id: 'signin-rules', class: 'hint-text' });
  const error = h('p', { id: 'signin-error', class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' });
  // The page says what is wrong with a name itself, in the page's language (not a browser's tooltip).
  const form = h('form', { class: 'signin-form', noValidate: true }, label, h('div', { class: 'share-row' }, input, submit), rules, passwordLabel, password, error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.checkValidity()) {
      error.textContent = intents.t('signin.invalid');
      input.focus();
      return;
    }
    intents.signIn(input.value, password.value);
    password.value = '';
  });
  const element = h('section', { class: 'screen signin-screen' }, h('div', { class: 'panel signin-panel' }, heading, invitation, intro, form));
  let prefilled = false;
  let askedFor = null; // the refusal that asked for the password, once the field has the focus

  return {
    element,
    focus: () => input.focus(),
    update(state) {
      const t = intents.t;
      setText(heading, t('signin.title'));
      setText(intro, t('signin.intro'));
      const invited = invitationText(state.route, t);
      setText(invitation, invited ?? '');
      show(invitation, invited !== null);
      setText(label, t('signin.name'));
      setText(rules, t('signin.rules'));
      setText(passwordLabel, t('signin.password'));
      setText(submit, state.session === 'pending' ? t('signin.pending') : t('signin.submit'));
      submit.disabled = state.connection !== 'online' || state.session === 'pending';
      if (!prefilled && state.prefs.name) {
        prefilled = true;
        input.value = state.prefs.name;
      }
      const refusal = state.signInError;
      let message = '';
      if (refusal !== null) {
        const taken = refusal.code === 'name_taken' || refusal.code === 'unauthorized';
        if (refusal.code === 'unauthorized' && refusal.password) message = t('signin.wrongPassword');
        else if (refusal.code === 'name_taken' && refusal.kept) message = t('signin.needsPassword', { name: refusal.name });
        else if (refusal.code === 'rate_limited') message = refusal.message;
        else message = taken ? t('signin.taken', { name: refusal.name }) : t(`error.${refusal.code}`, { fallback: refusal.message });
      }
      setText(error, message);
      show(error, message !== '');
      if (refusal?.kept && askedFor !== refusal) {
        askedFor = refusal;
        password.focus();
      }
    },
  };
}
