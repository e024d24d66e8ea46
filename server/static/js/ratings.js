// Ratings as people read them: `1500`, `1500?` while the rating is still
// provisional, and a game's change as `1500 → 1662 (+162)`.
//
// The server rates players and bots in one Glicko-2 pool and sends ratings
// rounded, with their deviation (`rd`) where it has it: a seat, the
// signed-in player, the leaderboard, a profile. Seeks and the online list
// carry the rating alone, so they never show the provisional mark.

/** Above this deviation a rating is provisional (the leaderboard puts such players last). */
export const PROVISIONAL_RD = 110;

/** Whether a player's rating is still provisional; false when its deviation is unknown. */
export function isProvisional(player) {
  return typeof player?.rd === 'number' && player.rd > PROVISIONAL_RD;
}

/** `1500`, `1500?` when provisional, '' when there is no rating. */
export function formatRating(player) {
  if (typeof player?.rating !== 'number') return '';
  return `${Math.round(player.rating)}${isProvisional(player) ? '?' : ''}`;
}

/** A signed difference: `+162`, `−38` (a real minus sign), `±0`. */
export function formatDelta(delta) {
  const rounded = Math.round(delta);
  if (rounded === 0) return '±0';
  return rounded > 0 ? `+${rounded}` : `−${-rounded}`;
}

/** One player's change in a rated game: `1500 → 1662 (+162)`. */
export function formatChange(change) {
  return `${change.before} → ${change.after} (${formatDelta(change.after - change.before)})`;
}
