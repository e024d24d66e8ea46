// What a game offers, in words, the same way in every list: the rule, the
// board, the clock and whether it is rated; for a seek, also the colour the
// reader plays and the ratings it is open to.

import { formatClockSetting } from '../clock.js';

const OTHER = { black: 'white', white: 'black' };

/** "Freestyle · 15×15 · 5+3 · rated · swap2": what a room or a seek offers to play. */
export function settingsText(summary, t) {
  const parts = [t(`rule.${summary.rule}`), t('size', { size: summary.size })];
  parts.push(summary.clock ? formatClockSetting(summary.clock) : t('create.untimed'));
  if (summary.rated) parts.push(t('room.rated'));
  if (summary.opening && summary.opening !== 'none') parts.push(t(`opening.${summary.opening}`));
  return parts.join(' · ');
}

/**
 * "you play White", "colours at random": the colour a seek gives the reader,
 * its owner (`mine`) or whoever accepts it (a seek's `color` is its owner's);
 * with an opening rule, who places the first stones.
 */
export function seekColorText(seek, mine, t) {
  // With an opening rule the seek's owner is the first player, and the opening decides the colours.
  if (seek.opening && seek.opening !== 'none') return mine ? t('seek.youFirst') : t('seek.theyFirst', { name: seek.by.name });
  if (seek.color === 'random') return t('seek.randomColor');
  return t('lobby.youPlay', { color: t(`color.${mine ? seek.color : OTHER[seek.color]}`) });
}

/** "for ratings 1400 to 1600", "for ratings from 1400", "for ratings up to 1600", or null when open to all. */
export function rangeText(seek, t) {
  const { rating_min: low, rating_max: high } = seek;
  if (low === null && high === null) return null;
  if (high === null) return t('seek.rangeFrom', { low });
  if (low === null) return t('seek.rangeUpTo', { high });
  return t('seek.range', { low, high });
}
