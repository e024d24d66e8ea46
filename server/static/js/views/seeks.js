// The lobby's seeks (1.1 `lobby`): quick pairing, one tile per clock, and
// the seeks listed, each with the button to play it (or to withdraw one's
// own). A game starts when someone accepts: both pages then go to its room
// (the store sees to that).

import { h, setText, show } from '../dom.js';
import { formatClockSetting } from '../clock.js';
import { seekOpenTo, seeksOf } from '../lobbystate.js';
import { CLOCK_PRESETS, RULES } from '../requests.js';
import { playerLink, ratingBadge } from './names.js';
import { rangeText, seekColorText, settingsText } from './terms.js';

/** The tiles' clocks: the timed presets, fastest first, then untimed. */
const QUICK_CLOCKS = [...CLOCK_PRESETS.filter((preset) => preset !== null), null];

export function createQuickPair(intents) {
  const heading = h('h2');
  const intro = h('p', { class: 'detail' });
  const rule = h('select', { id: 'quick-rule' }, RULES.map((value) => h('option', { value })));
  const ruleLabel = h('label', { for: rule.id });
  const ratedBox = h('input', { type: 'checkbox', id: 'quick-rated', checked: true });
  const ratedLabel = h('label', { for: ratedBox.id });
  const ratedField = h('div', { class: 'option' }, ratedBox, ratedLabel);
  let rated = false;
  const tiles = QUICK_CLOCKS.map((clock) => h('button', {
    type: 'button',
    class: 'tile',
    onClick: () => intents.quickPair({ rule: rule.value, clock, rated: rated && ratedBox.checked }),
  }));
  const choices = h('div', { class: 'quick-choices' },
    h('div', { class: 'field-row' }, h('div', { class: 'field' }, ruleLabel, rule), ratedField),
    h('div', { class: 'tiles' }, tiles));
  const waitingText = h('p', {});
  const cancel = h('button', { type: 'button' });
  const waiting = h('div', { class: 'quick-waiting', role: 'status' }, waitingText, cancel);
  const element = h('section', { class: 'panel quick-pair' }, heading, intro, choices, waiting);

  return {
    element,
    update(state, t) {
      rated = state.features.includes('ratings');
      setText(heading, t('quick.title'));
      setText(intro, t('quick.intro'));
      setText(ruleLabel, t('create.rule'));
      [...rule.options].forEach((option) => setText(option, t(`rule.${option.value}`)));
      setText(ratedLabel, t('quick.rated'));
      show(ratedField, rated);
      tiles.forEach((tile, index) => {
        const clock = QUICK_CLOCKS[index];
        const text = clock === null ? t('create.untimed') : formatClockSetting(clock);
        setText(tile, text);
        tile.setAttribute('aria-label', t('quick.tileLabel', { clock: text }));
        tile.disabled = state.session !== 'ready';
      });
      const mine = seeksOf(state.lobby, state.me?.name).find((seek) => seek.quick);
      show(choices, mine === undefined);
      show(waiting, mine !== undefined);
      if (mine === undefined) return;
      setText(waitingText, t('quick.waiting', { terms: settingsText(mine, t) }));
      setText(cancel, t('seek.cancel'));
      cancel.onclick = () => intents.cancelSeek(mine.seek_id);
    },
  };
}

/** One seek of the list: who offers what, and the button to play it or, for one's own, to withdraw it. */
export function seekEntry(seek, me, t, intents) {
  const mine = seek.by.name === me?.name;
  const open = seekOpenTo(seek, me?.rating);
  const details = [settingsText(seek, t), seekColorText(seek, mine, t), rangeText(seek, t), seek.quick ? t('seek.quick') : null];
  const button = mine
    ? h('button', {
      type: 'button',
      'aria-label': t('seek.cancelLabel', { terms: settingsText(seek, t) }),
      onClick: () => intents.cancelSeek(seek.seek_id),
    }, t('seek.cancel'))
    : h('button', {
      type: 'button',
      class: 'primary',
      disabled: !open,
      title: open ? null : t('seek.notForYou'),
      'aria-label': t('seek.acceptLabel', { name: seek.by.name }),
      onClick: () => intents.acceptSeek(seek.seek_id),
    }, t('seek.accept'));
  return h('li', { 'data-seek': seek.seek_id, class: mine ? 'mine' : null },
    h('div', { class: 'entry-text' },
      h('strong', {}, playerLink(seek.by.name), ' ', ratingBadge(seek.by, t), mine ? h('span', { class: 'detail' }, ` ${t('player.you')}`) : null),
      h('span', { class: 'detail' }, details.filter(Boolean).join(' · '))),
    button);
}

/** The seeks, newest first. */
export function seekItems(state, t, intents) {
  return [...(state.lobby.seeks ?? [])].reverse().map((seek) => seekEntry(seek, state.me, t, intents));
}

