// The form that opens a new room: who to play (a bot, a friend by a link,
// anyone, or two bots to watch), the rule, the board, the clock and the
// colour. The inputs hold the choice until it is sent.
//
// A bot whose search a player may set (`list_bots` gives its depth and width
// bounds) gets two number fields; left empty, the level's own is used, and a
// bot with its own settings plays unrated.
//
// With a 1.1 server, the form can also post a seek to the lobby (open to a
// range of ratings) instead of opening a room, and make a game rated.

import { h, fill, setText, show } from '../dom.js';
import { formatClockSetting } from '../clock.js';
import { OPENINGS, openingFits } from '../opening.js';
import { CLOCK_PRESETS, RULES, SIZES } from '../requests.js';

const OPPONENTS = ['bot', 'friend', 'seek', 'anyone', 'bots'];
const RATING_BOUNDS = { min: 0, max: 5000 };
const COLORS = ['black', 'white', 'random'];

function radio(name, value, checked) {
  const input = h('input', { type: 'radio', name, value, id: `${name}-${value}`, checked });
  const label = h('label', { for: input.id });
  return { input, label, element: h('div', { class: 'choice' }, input, label) };
}

function labelled(id, control) {
  const label = h('label', { for: id });
  return { label, element: h('div', { class: 'field' }, label, control) };
}

export function createCreateForm(intents) {
  const heading = h('h2', { id: 'create-heading' });
  const opponentLegend = h('legend');
  const opponents = OPPONENTS.map((value) => radio('opponent', value, value === 'bot'));
  const level = h('select', { id: 'create-level' });
  const secondLevel = h('select', { id: 'create-second-level' });
  const levelField = labelled(level.id, level);
  const secondField = labelled(secondLevel.id, secondLevel);
  const searchBox = (id) => h('input', { type: 'number', id, step: 1, inputMode: 'numeric' });
  const depth = searchBox('create-depth');
  const width = searchBox('create-width');
  const depthField = labelled(depth.id, depth);
  const widthField = labelled(width.id, width);
  const searchRow = h('div', { class: 'field-row' }, depthField.element, widthField.element);

  const rule = h('select', { id: 'create-rule' }, RULES.map((value) => h('option', { value })));
  const size = h('select', { id: 'create-size' }, SIZES.map((value) => h('option', { value: String(value), selected: value === 15 })));
  const clock = h('select', { id: 'create-clock' }, CLOCK_PRESETS.map((_, index) => h('option', { value: String(index) })));
  const ruleField = labelled(rule.id, rule);
  const sizeField = labelled(size.id, size);
  const clockField = labelled(clock.id, clock);
  const opening = h('select', { id: 'create-opening' }, OPENINGS.map((value) => h('option', { value })));
  const openingField = labelled(opening.id, opening);
  const openingHelp = h('p', { class: 'detail field-help' });
  const openingBox = h('div', {}, openingField.element, openingHelp);

  const colorLegend = h('legend');
  const colors = COLORS.map((value) => radio('color', value, value === 'black'));
  const colorSet = h('fieldset', { class: 'choices inline' }, colorLegend, colors.map((choice) => choice.element));
  const privateBox = h('input', { type: 'checkbox', id: 'create-private' });
  const privateLabel = h('label', { for: privateBox.id });
  const privateField = h('div', { class: 'option' }, privateBox, privateLabel);
  const ratedBox = h('input', { type: 'checkbox', id: 'create-rated' });
  const ratedLabel = h('label', { for: ratedBox.id });
  const ratedField = h('div', { class: 'option' }, ratedBox, ratedLabel);
  const ratingBox = (id) => h('input', { type: 'number', id, min: RATING_BOUNDS.min, max: RATING_BOUNDS.max, step: 1, inputMode: 'numeric' });
  const ratingMin = ratingBox('create-rating-min');
  const ratingMax = ratingBox('create-rating-max');
  const ratingMinField = labelled(ratingMin.id, ratingMin);
  const ratingMaxField = labelled(ratingMax.id, ratingMax);
  const rangeLegend = h('legend');
  const rangeSet = h('fieldset', { class: 'choices range' }, rangeLegend, h('div', { class: 'field-row' }, ratingMinField.element, ratingMaxField.element));
  const submit = h('button', { type: 'submit', class: 'primary' });

  const form = h(
    'form',
    { class: 'create-form', 'aria-labelledby': heading.id },
    h('fieldset', { class: 'choices' }, opponentLegend, opponents.map((choice) => choice.element)),
    h('div', { class: 'field-row' }, levelField.element, secondField.element),
    searchRow,
    h('div', { class: 'field-row' }, ruleField.element, sizeField.element),
    clockField.element,
    openingBox,
    colorSet,
    rangeSet,
    ratedField,
    privateField,
    submit,
  );
  const element = h('section', { class: 'panel create' }, heading, form);

  const opponent = () => opponents.find((choice) => choice.input.checked).input.value;
  const numberIn = (input) => (input.disabled || input.value === '' ? null : Number(input.value));
  /** The search bounds `list_bots` gives for the chosen level: {depth, width}, or null. */
  function searchBounds() {
    const bot = botsShown?.find((entry) => entry.level === level.value);
    return bot?.depth && bot?.width ? { depth: bot.depth, width: bot.width } : null;
  }

  /** What the form says now, as createRoomRequest reads it. */
  function choice(overrides = {}) {
    return {
      opponent: opponent(),
      level: level.value,
      secondLevel: secondLevel.value,
      depth: numberIn(depth),
      width: numberIn(width),
      rule: rule.value,
      size: Number(size.value),
      clock: CLOCK_PRESETS[Number(clock.value)],
      color: colors.find((entry) => entry.input.checked).input.value,
      private: privateBox.checked,
      rated: !ratedField.hidden && ratedBox.checked,
      ratingMin: ratingMin.value === '' ? null : Number(ratingMin.value),
      ratingMax: ratingMax.value === '' ? null : Number(ratingMax.value),
      opening: openingShown ? opening.value : 'none',
      ...overrides,
    };
  }

  let ratings = false;
  let seeks = false;
  let openingShown = false;

  function arrange() {
    const seekChoice = opponents.find((entry) => entry.input.value === 'seek');
    show(seekChoice.element, seeks);
    if (!seeks && seekChoice.input.checked) opponents[1].input.checked = true;
    const kind = opponent();
    const bounds = kind === 'bot' || kind === 'bots' ? searchBounds() : null;
    show(searchRow, bounds !== null);
    for (const [input, range] of [[depth, bounds?.depth], [width, bounds?.width]]) {
      input.disabled = !range; // a hidden field is left out of the form's checks and of the choice
      if (range) Object.assign(input, { min: range.min, max: range.max });
    }
    const ownSearch = numberIn(depth) !== null || numberIn(width) !== null;
    show(ratedField, ratings && kind !== 'bots' && !ownSearch); // a bot with its own settings plays unrated
    show(rangeSet, kind === 'seek');
    ratingMin.disabled = ratingMax.disabled = kind !== 'seek'; // a hidden field is left out of the form's checks
    const backwards = ratingMin.value !== '' && ratingMax.value !== '' && Number(ratingMin.value) > Number(ratingMax.value);
    ratingMax.setCustomValidity(backwards ? words.rangeBackwards : '');
    setText(submit, kind === 'seek' ? words.seek : words.room);
    show(levelField.element, kind === 'bot' || kind === 'bots');
    show(secondField.element, kind === 'bots');
    // A seek with an opening rule makes its owner the first player: the opening decides the colours.
    show(colorSet, kind !== 'bots' && !(kind === 'seek' && openingShown && opening.value !== 'none'));
    show(privateField, kind === 'bot' || kind === 'bots');
    size.disabled = rule.value === 'renju';
    if (rule.value === 'renju') size.value = '15';
    show(openingBox, openingShown);
    for (const option of opening.options) option.disabled = !openingFits(option.value, rule.value);
    if (!openingFits(opening.value, rule.value)) opening.value = 'none';
    setText(openingHelp, words.openings[opening.value] ?? '');
  }

  // The sentences arrange() needs, in the page's language.
  let words = { rangeBackwards: '', seek: '', room: '', openings: {} };
  form.addEventListener('change', arrange);
  form.addEventListener('input', arrange);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (opponent() === 'seek') intents.postSeek(choice());
    else intents.createRoom(choice());
  });
  let botsShown = null;

  return {
    element,
    choice,
    update(state, t) {
      const bots = state.lobby.bots ?? [];
      if (bots !== botsShown) {
        botsShown = bots;
        for (const select of [level, secondLevel]) {
          const kept = select.value;
          fill(select, bots.map((bot) => h('option', { value: bot.level }, bot.level)));
          if (bots.some((bot) => bot.level === kept)) select.value = kept;
        }
      }
      const noBots = state.lobby.bots !== null && bots.length === 0;
      for (const choiceEntry of opponents) {
        if (choiceEntry.input.value === 'bot' || choiceEntry.input.value === 'bots') choiceEntry.input.disabled = noBots;
      }
      if (noBots && (opponent() === 'bot' || opponent() === 'bots')) opponents[1].input.checked = true;
      setText(heading, t('create.title'));
      setText(opponentLegend, t('create.opponent'));
      opponents.forEach((entry) => setText(entry.label, t(`create.opponent.${entry.input.value}`)));
      setText(levelField.label, t('create.level'));
      setText(secondField.label, t('create.secondLevel'));
      setText(depthField.label, t('create.depth'));
      setText(widthField.label, t('create.width'));
      depth.placeholder = width.placeholder = t('create.levelsOwn');
      setText(ruleField.label, t('create.rule'));
      setText(sizeField.label, t('create.size'));
      setText(clockField.label, t('create.clock'));
      [...rule.options].forEach((option) => setText(option, t(`rule.${option.value}`)));
      [...size.options].forEach((option) => setText(option, t('size', { size: option.value })));
      [...clock.options].forEach((option, index) => {
        const preset = CLOCK_PRESETS[index];
        setText(option, preset === null ? t('create.untimed') : t('create.clockPreset', { text: formatClockSetting(preset) }));
      });
      setText(colorLegend, t('create.color'));
      colors.forEach((entry) => setText(entry.label, t(`create.color.${entry.input.value}`)));
      setText(privateLabel, t('create.private'));
      setText(ratedLabel, t('create.rated'));
      ratings = state.features.includes('ratings');
      seeks = state.features.includes('lobby');
      setText(rangeLegend, t('create.range'));
      setText(ratingMinField.label, t('create.ratingMin'));
      setText(ratingMaxField.label, t('create.ratingMax'));
      ratingMin.placeholder = ratingMax.placeholder = t('create.anyRating');
      openingShown = state.features.includes('openings');
      setText(openingField.label, t('create.opening'));
      [...opening.options].forEach((option) => setText(option, option.value === 'none' ? t('create.noOpening') : t(`opening.${option.value}`)));
      words = {
        rangeBackwards: t('create.rangeBackwards'),
        seek: t('create.postSeek'),
        room: t('create.submit'),
        openings: Object.fromEntries(OPENINGS.map((name) => [name, t(`opening.about.${name}`)])),
      };
      submit.disabled = state.session !== 'ready';
      arrange();
    },
  };
}
