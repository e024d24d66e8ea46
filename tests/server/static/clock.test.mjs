// Clock figures from the server, counted down between its events, and shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LOW_TIME_MS, formatClock, formatClockSetting, receivedClock, stoppedClock, timeLeft } from '../../../server/static/js/clock.js';

const clock = receivedClock({ black_ms: 60_000, white_ms: 30_000, increment_ms: 2000, running: 'white' }, 1000);

test('only the running side counts down from the moment the figures arrived', () => {
  assert.equal(timeLeft(clock, 'white', 1000), 30_000);
  assert.equal(timeLeft(clock, 'white', 3500), 27_500);
  assert.equal(timeLeft(clock, 'black', 3500), 60_000);
});

test('a running clock never shows less than zero', () => {
  assert.equal(timeLeft(clock, 'white', 1000 + 45_000), 0);
});

test('a clock without `running` (an older server) is taken as stopped', () => {
  const old = receivedClock({ black_ms: 5000, white_ms: 5000, increment_ms: 0 }, 0);
  assert.equal(old.running, null);
  assert.equal(timeLeft(old, 'black', 99_999), 5000);
  assert.equal(receivedClock(null, 0), null);
});

test('stopping keeps what each side had left at that moment', () => {
  const stopped = stoppedClock(clock, 11_000);
  assert.deepEqual([stopped.black_ms, stopped.white_ms, stopped.running], [60_000, 20_000, null]);
  assert.equal(timeLeft(stopped, 'white', 99_000), 20_000);
});

test('minutes and seconds, hours when needed, tenths when time is low', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(61_999), '1:01');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(LOW_TIME_MS), '0:20');
  assert.equal(formatClock(LOW_TIME_MS - 1), '19.9');
  assert.equal(formatClock(9_450), '9.4');
  assert.equal(formatClock(99), '0.0');
  assert.equal(formatClock(-5), '0.0');
});

test('a clock setting reads as minutes + seconds of increment', () => {
  assert.equal(formatClockSetting({ initial_ms: 300_000, increment_ms: 3000 }), '5+3');
  assert.equal(formatClockSetting({ initial_ms: 30_000, increment_ms: 0 }), '0.5+0');
  assert.equal(formatClockSetting(null), null);
});
