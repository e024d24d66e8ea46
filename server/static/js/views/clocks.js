// A player's clock: the server's figure counted down smoothly while it
// runs, drawn as a warning under LOW_TIME_MS.

import { h, setText } from '../dom.js';
import { LOW_TIME_MS, formatClock, timeLeft } from '../clock.js';

/** A clock face; `update(clock, color, now, t)` redraws it (clock null: untimed, hidden). */
export function createClockFace() {
  const element = h('div', { class: 'clock', role: 'timer', hidden: true });
  return {
    element,
    update(clock, color, now, t) {
      element.hidden = clock === null;
      if (clock === null) return;
      const left = timeLeft(clock, color, now);
      setText(element, formatClock(left));
      element.setAttribute('aria-label', t('clock.label', { color: t(`color.${color}`), time: formatClock(left) }));
      element.classList.toggle('running', clock.running === color);
      element.classList.toggle('low', clock.running === color && left < LOW_TIME_MS);
    },
  };
}

/** Calls `tick()` about ten times a second between `update(true)` and `update(false)`. */
export function createTicker(tick) {
  let timer = null;
  return {
    update(running) {
      if (running && timer === null) timer = setInterval(tick, 100);
      if (!running && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    },
  };
}

/**
 * The sentence to speak about the viewer's own clock: a warning when it has
 * just gone under LOW_TIME_MS while running, else null.
 */
export function lowTimeWarning(clock, color, now, t) {
  if (clock === null || clock.running !== color) return null;
  return timeLeft(clock, color, now) < LOW_TIME_MS ? t('clock.low') : null;
}
