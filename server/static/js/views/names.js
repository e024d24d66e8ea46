// A player's name and rating, the same way on every screen: the name links
// to the player's profile (#player/NAME), the rating is a small badge.

import { h } from '../dom.js';
import { formatRating, isProvisional } from '../ratings.js';

/** A player's name, as a link to their profile. */
export function playerLink(name) {
  return h('a', { href: `#player/${encodeURIComponent(name)}`, class: 'player-link' }, name);
}

/**
 * A rating as a small badge: `1500`, or `1500?` while provisional (the
 * question mark explains itself on hover and to screen readers). Empty
 * when the server sent no rating.
 */
export function ratingBadge(player, t) {
  const text = formatRating(player);
  if (!isProvisional(player)) return h('span', { class: 'rating' }, text);
  const figure = text.slice(0, -1);
  return h('span', { class: 'rating' }, figure, h('abbr', { class: 'provisional', title: t('rating.provisional') }, '?'));
}
