// A room's opening (1.1 openings: swap, swap2, Soosõrv-8): the rule in a
// sentence, whose decision it is, and, for the player who decides, exactly
// the choices the server lists: stones to place or fifth moves to offer
// (picked on the board, then sent together), a colour to choose, a count
// of fifth moves to declare, a fifth move to select. The steps taken stay
// listed once the game is under way.

import { h, fill, setText, show } from '../dom.js';
import { formatPoint } from '../notation.js';
import { draftColors, draftStep } from '../opening.js';

/** What a taken step did, in words: "alice placed h8, a15, i8". */
export function stepText(taken, size, t) {
  const step = taken.step;
  const points = (list) => list.map(({ x, y }) => formatPoint(x, y, size)).join(', ');
  switch (step.kind) {
    case 'place':
      return t('opening.step.place', { name: taken.by, points: points(step.points) });
    case 'choose_color':
      return t('opening.step.choose_color', { name: taken.by, color: t(`color.${step.color}`) });
    case 'declare_offers':
      return t('opening.step.declare_offers', { name: taken.by, count: step.count });
    case 'offer_fifths':
      return t('opening.step.offer_fifths', { name: taken.by, points: points(step.points) });
    default:
      return t('opening.step.select_fifth', { name: taken.by, point: points([step.point]) });
  }
}

/** Whose decision it is, from the reader's side. */
export function deciderText(room, me, t) {
  const opening = room.opening;
  const color = t(`color.${opening.to_decide}`);
  if (opening.decider === me && room.you !== 'spectator') return t('opening.yourDecision', { color });
  return t('opening.theirDecision', { name: opening.decider, color });
}

export function createOpeningPanel(intents) {
  const heading = h('h2');
  const about = h('p', { class: 'detail' });
  const status = h('p', { class: 'opening-status' });
  const choices = h('div', { class: 'opening-choices' });
  const steps = h('ol', { class: 'opening-steps' });
  const element = h('section', { class: 'panel opening', hidden: true }, heading, about, status, choices, steps);
  let drawn = null;

  /** The controls of one choice open to me. */
  function choiceControls(choice, room, t) {
    const size = room.size;
    switch (choice.kind) {
      case 'place':
      case 'offer_fifths': {
        const due = draftColors(choice);
        const step = draftStep(choice, room.draft);
        const what = choice.kind === 'place'
          ? t('opening.choice.place', { count: due.length, colors: due.map((color) => t(`color.${color}`)).join(', ') })
          : t('opening.choice.offer_fifths', { count: due.length });
        return h('div', { class: 'opening-choice', 'data-choice': choice.kind },
          h('p', {}, what),
          h('p', { class: 'detail' }, t('opening.picked', { count: room.draft.length, total: due.length })),
          h('div', { class: 'button-row' },
            h('button', { type: 'button', class: 'primary', disabled: step === null, onClick: () => intents.openingStep(step) },
              t(choice.kind === 'place' ? 'opening.send.place' : 'opening.send.offer_fifths')),
            h('button', { type: 'button', disabled: room.draft.length === 0, onClick: () => intents.openingClear() }, t('opening.clear'))));
      }
      case 'choose_color':
        return h('div', { class: 'opening-choice', 'data-choice': choice.kind },
          h('p', {}, t('opening.choice.choose_color')),
          h('div', { class: 'button-row' }, ['black', 'white'].map((color) =>
            h('button', { type: 'button', class: 'primary', onClick: () => intents.openingStep({ kind: 'choose_color', color }) },
              t('opening.play', { color: t(`color.${color}`) })))));
      case 'declare_offers': {
        const counts = [];
        for (let count = choice.least; count <= choice.most; count += 1) counts.push(count);
        const select = h('select', { id: 'opening-offers' }, counts.map((count) => h('option', { value: String(count) }, String(count))));
        return h('div', { class: 'opening-choice', 'data-choice': choice.kind },
          h('label', { for: select.id }, t('opening.choice.declare_offers')),
          h('div', { class: 'button-row' }, select,
            h('button', { type: 'button', class: 'primary', onClick: () => intents.openingStep({ kind: 'declare_offers', count: Number(select.value) }) },
              t('opening.send.declare_offers'))));
      }
      default:
        return h('div', { class: 'opening-choice', 'data-choice': choice.kind },
          h('p', {}, t('opening.choice.select_fifth')),
          h('div', { class: 'button-row' }, choice.offers.map((point) =>
            h('button', { type: 'button', onClick: () => intents.openingStep({ kind: 'select_fifth', point: { x: point.x, y: point.y } }) },
              formatPoint(point.x, point.y, size)))));
    }
  }

  return {
    element,
    update(room, me, current, t) {
      const opening = room.opening;
      show(element, opening !== null && opening.rule !== 'none');
      if (opening === null || opening.rule === 'none') return;
      const deciding = room.status === 'opening' && opening.decider !== null;
      const mine = deciding && current && opening.decider === me && room.you !== 'spectator';
      const key = [opening, room.draft, mine, room.status, t('opening.clear')];
      if (drawn !== null && key.every((part, index) => part === drawn[index])) return;
      drawn = key;
      setText(heading, t('opening.title', { rule: t(`opening.${opening.rule}`) }));
      setText(about, t(`opening.about.${opening.rule}`));
      setText(status, deciding ? deciderText(room, me, t) : t('opening.done'));
      const controls = mine ? opening.choices.map((choice) => choiceControls(choice, room, t)) : [];
      fill(choices, controls.map((control, index) => [index > 0 ? h('p', { class: 'or' }, t('opening.or')) : null, control]));
      fill(steps, opening.steps.map((taken) => h('li', {}, stepText(taken, room.size, t))));
    },
  };
}
