// The moderators' page (#moderation): act on a player (mute for a time,
// unmute, ban, unban, rename), the open reports to close, and for admins
// the audit log of every moderation action. Every action is the server's
// to allow: a refusal comes back as a notice, a success as the line under
// the buttons, and the lists are asked for again after each.

import { h, fill, setText, show } from '../dom.js';
import { chatTime } from './chat.js';
import { formatDate } from './games.js';
import { playerLink } from './names.js';

const NAME_PATTERN = '[A-Za-z0-9_\\-]{1,32}';
const MAX_REASON_LENGTH = 200;
const MAX_MUTE_MINUTES = 30 * 24 * 60;
const DEFAULT_MUTE_MINUTES = 10;

function field(id, props) {
  const input = h('input', { id, autocomplete: 'off', spellcheck: false, ...props });
  const label = h('label', { for: id });
  return { input, label, row: h('div', { class: 'field' }, label, input) };
}

export function createModerationView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const player = field('moderation-player', { type: 'text', maxLength: 32, pattern: NAME_PATTERN, required: true });
  const reason = field('moderation-reason', { type: 'text', maxLength: MAX_REASON_LENGTH, required: true });
  const minutes = field('moderation-minutes', { type: 'number', min: 1, max: MAX_MUTE_MINUTES, value: DEFAULT_MUTE_MINUTES, required: true });
  const newName = field('moderation-new-name', { type: 'text', maxLength: 32, pattern: NAME_PATTERN });
  const form = h('form', { class: 'moderation-form', noValidate: false }, player.row, reason.row, minutes.row, newName.row);
  const buttons = Object.fromEntries(['mute', 'unmute', 'ban', 'unban', 'rename'].map((action) =>
    [action, h('button', { type: 'button', onClick: () => act(action) })]));
  const actions = h('div', { class: 'moderation-actions share-row' }, Object.values(buttons));
  const done = h('p', { class: 'moderation-done', role: 'status' });
  const actHeading = h('h2');
  const reportsHeading = h('h2');
  const reports = h('ul', { class: 'entries moderation-reports' });
  const noReports = h('p', { class: 'empty' });
  const auditHeading = h('h2');
  const audit = h('ol', { class: 'entries moderation-audit' });
  const noAudit = h('p', { class: 'empty' });
  const auditPanel = h('section', { class: 'panel' }, auditHeading, audit, noAudit);
  const element = h('section', { class: 'screen moderation-screen' }, heading,
    h('section', { class: 'panel' }, actHeading, form, actions, done),
    h('section', { class: 'panel' }, reportsHeading, reports, noReports),
    auditPanel);
  let doneShown = null;
  let drawn = null;
  form.addEventListener('submit', (event) => event.preventDefault());

  /** Send the action on the player named, once the fields it needs are filled in as the server wants. */
  function act(action) {
    newName.input.required = action === 'rename';
    minutes.input.required = action === 'mute';
    if (!form.reportValidity()) return;
    const fields = { player: player.input.value, reason: reason.input.value.trim() };
    if (action === 'mute') intents.moderate({ type: 'mute', ...fields, minutes: Number(minutes.input.value) });
    else if (action === 'rename') intents.moderate({ type: 'rename_player', ...fields, new_name: newName.input.value });
    else intents.moderate({ type: action, ...fields });
  }

  function closeReport(reportId) {
    const resolution = reason.input.value.trim() || intents.t('moderation.closedReason');
    intents.moderate({ type: 'close_report', report_id: reportId, resolution });
  }

  function reportEntry(report, t, language) {
    return h('li', { 'data-report': report.report_id },
      h('div', { class: 'entry-text' },
        h('strong', {}, t('moderation.reported', { reporter: report.reporter, player: report.player })), ' ',
        playerLink(report.player),
        h('span', { class: 'detail' }, [formatDate(report.filed_at, language), report.reason].join(' · ')),
        report.chat_text === null ? null : h('q', { class: 'reported-line' }, report.chat_text)),
      h('div', { class: 'entry-actions' },
        h('button', { type: 'button', onClick: () => closeReport(report.report_id), 'aria-label': t('moderation.closeLabel', { player: report.player }) }, t('moderation.close'))));
  }

  function auditEntry(entry, t, language) {
    const detail = entry.detail === null ? '' : ` (${entry.detail})`;
    return h('li', {},
      h('span', { class: 'chat-time' }, chatTime(entry.at, language)), ' ',
      t('moderation.entry', { actor: entry.actor, action: t(`moderation.action.${entry.action}`), target: entry.target }),
      ': ', h('span', { class: 'audit-reason' }, `${entry.reason}${detail}`));
  }

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      setText(heading, t('moderation.title'));
      setText(actHeading, t('moderation.act'));
      for (const [key, control] of [['player', player], ['reason', reason], ['minutes', minutes], ['newName', newName]]) {
        setText(control.label, t(`moderation.field.${key}`));
      }
      for (const [action, button] of Object.entries(buttons)) setText(button, t(`moderation.button.${action}`));
      const last = state.moderation.done;
      if (last !== null && last.serial !== doneShown) {
        doneShown = last.serial;
        setText(done, t(`moderation.done.${last.action}`, { target: last.target, until: formatDate(last.until, state.prefs.language), newName: last.new_name ?? '' }));
      }
      setText(reportsHeading, t('moderation.reports'));
      setText(auditHeading, t('moderation.audit'));
      show(auditPanel, state.role === 'admin');
      const { reports: open, audit: entries } = state.moderation;
      setText(noReports, open === null ? t('lobby.loading') : t('moderation.noReports'));
      show(noReports, open === null || open.length === 0);
      setText(noAudit, entries === null ? t('lobby.loading') : t('moderation.noAudit'));
      show(noAudit, entries === null || entries.length === 0);
      const key = [open, entries, state.prefs.language];
      if (drawn !== null && key.every((part, index) => part === drawn[index])) return;
      drawn = key;
      fill(reports, (open ?? []).map((report) => reportEntry(report, t, state.prefs.language)));
      fill(audit, (entries ?? []).map((entry) => auditEntry(entry, t, state.prefs.language)));
    },
  };
}
