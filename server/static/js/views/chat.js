// A chat: the lines said (the sender's name, then the text), and a field
// to say one. Used by the lobby and by rooms.
//
// Every line is put on the page as text nodes: whatever someone typed,
// markup included, is shown as typed and never read as HTML. A line the
// server refuses (too fast, too long) comes back into the field, so that
// nothing typed is lost. Another player's line can be reported; a
// moderator can take it back from everyone (a line the server gave an id).

import { h, fill, setText } from '../dom.js';
import { moderates } from '../moderationstate.js';
import { playerLink } from './names.js';

/** The server's limit on a line (1.1 chat). */
export const MAX_CHAT_LENGTH = 500;

/** The time a line was said, as the reader's clock shows it (`14:05`). */
export function chatTime(at, language) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString(language === 'zh' ? 'zh-CN' : 'en', { hour: '2-digit', minute: '2-digit' });
}

/**
 * @param intents the controller's intents (`say`, `t`)
 * @param id a prefix for the field's id, unique on the page
 * @returns {{element, update(lines, roomId, enabled, state)}}
 */
export function createChatBox(intents, id) {
  const heading = h('h2');
  const lines = h('ol', { class: 'chat-lines', 'aria-live': 'polite' });
  const empty = h('p', { class: 'empty' });
  const field = h('input', { type: 'text', id: `${id}-chat`, maxLength: MAX_CHAT_LENGTH, autocomplete: 'off' });
  const label = h('label', { for: field.id, class: 'visually-hidden' });
  const send = h('button', { type: 'submit' });
  const form = h('form', { class: 'chat-form share-row' }, label, field, send);
  const element = h('section', { class: `panel chat ${id}-chat` }, heading, lines, empty, form);
  let roomId = null;
  let drawn = null;
  let refusalSeen = 0;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (text === '') return;
    intents.say(roomId, text);
    field.value = '';
  });

  /** Report and remove buttons for a line of someone else's (one without an id has none). */
  function lineActions(line, state) {
    if (line.chatId === undefined || line.from === state.me?.name) return null;
    const t = intents.t;
    const report = h('button', {
      type: 'button',
      class: 'link-button chat-action',
      'aria-label': t('chat.reportLabel', { name: line.from }),
      onClick: () => intents.moderate({ type: 'report', player: line.from, chat_id: line.chatId, reason: t('chat.reportReason') }),
    }, t('chat.report'));
    const remove = moderates(state) ? h('button', {
      type: 'button',
      class: 'link-button chat-action',
      'aria-label': t('chat.removeLabel', { name: line.from }),
      onClick: () => intents.moderate({ type: 'remove_chat', chat_id: line.chatId, reason: t('chat.removeReason') }),
    }, t('chat.remove')) : null;
    return [' ', report, remove === null ? null : ' ', remove];
  }

  return {
    element,
    update(said, room, enabled, state) {
      const t = intents.t;
      roomId = room;
      setText(heading, t('chat.title'));
      setText(empty, t('chat.empty'));
      empty.hidden = said.length > 0;
      setText(label, t('chat.label'));
      field.placeholder = t('chat.placeholder');
      setText(send, t('chat.send'));
      field.disabled = send.disabled = !enabled;
      const refused = state.chatRefused;
      if (refused !== null && refused.serial !== refusalSeen) {
        refusalSeen = refused.serial;
        if (refused.roomId === roomId && field.value === '') field.value = refused.text;
      }
      if (drawn !== null && drawn[0] === said && drawn[1] === state.prefs.language && drawn[2] === state.role) return;
      drawn = [said, state.prefs.language, state.role];
      const atBottom = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
      fill(lines, said.map((line) =>
        h('li', {},
          h('span', { class: 'chat-time' }, chatTime(line.at, state.prefs.language)), ' ',
          playerLink(line.from), ' ',
          h('span', { class: 'chat-text' }, line.text),
          lineActions(line, state))));
      if (atBottom) lines.scrollTop = lines.scrollHeight;
    },
  };
}
