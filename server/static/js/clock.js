// The clocks as the server last told them, counted down between its events.
// A clock in the store is the server's `clock` object plus `at`: when it was
// received (performance.now(), milliseconds). Only the `running` colour's
// time moves; the server's next figure always replaces the guess.

/** Below this, a clock shows tenths and is drawn as a warning. */
export const LOW_TIME_MS = 20_000;

/** A server clock object stamped with the moment it arrived. */
export function receivedClock(clock, at) {
  return clock === null || clock === undefined ? null : { ...clock, running: clock.running ?? null, at };
}

/** Milliseconds left for `color` at `now`: a running clock keeps counting down from its figure. */
export function timeLeft(clock, color, now) {
  const stored = color === 'black' ? clock.black_ms : clock.white_ms;
  if (clock.running !== color) return stored;
  return Math.max(0, stored - Math.max(0, now - clock.at));
}

/** The same clock, stopped at `now` (nothing runs; each side keeps what it had left). */
export function stoppedClock(clock, now) {
  if (clock === null) return null;
  return {
    ...clock,
    black_ms: timeLeft(clock, 'black', now),
    white_ms: timeLeft(clock, 'white', now),
    running: null,
    at: now,
  };
}

function twoDigits(number) {
  return String(number).padStart(2, '0');
}

/**
 * Time as a clock shows it: `1:02:03` from an hour, `4:05` from LOW_TIME_MS,
 * `19.4` below it (tenths, rounded down so that `0.0` means the time is out).
 */
export function formatClock(ms) {
  const left = Math.max(0, Math.floor(ms));
  if (left < LOW_TIME_MS) {
    const tenths = Math.floor(left / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const seconds = Math.floor(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${hours}:${twoDigits(minutes)}:${twoDigits(seconds % 60)}`;
  return `${minutes}:${twoDigits(seconds % 60)}`;
}

/** A clock setting as people say it: `5+3` (minutes + seconds of increment), `0.5+0` below a minute. */
export function formatClockSetting(setting) {
  if (setting === null || setting === undefined) return null;
  const minutes = setting.initial_ms / 60_000;
  const increment = (setting.increment_ms ?? 0) / 1000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${increment}`;
}
