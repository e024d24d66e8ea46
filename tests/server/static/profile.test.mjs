// Where a rating history is drawn.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { historyPoints } from '../../../server/static/js/views/profile.js';

const history = (...ratings) => ratings.map((rating, index) => ({ game_id: `g${index}`, at: '', rating, rd: 200 }));

test('games go from left to right and a higher rating is drawn higher', () => {
  const { points, low, high } = historyPoints(history(1500, 1662, 1600), 200, 100);
  assert.deepEqual(points.map((point) => point.x), [0, 100, 200]);
  assert.deepEqual([low, high], [1500, 1662]);
  assert.equal(points[1].y, 0, 'the highest at the top');
  assert.equal(points[0].y, 100, 'the lowest at the bottom');
  assert.ok(points[2].y > 0 && points[2].y < 100);
});

test('a small change is not drawn as a cliff, and one game is a point in the middle', () => {
  const flat = historyPoints(history(1500, 1510), 200, 100).points;
  assert.deepEqual(flat.map((point) => Math.round(point.y)), [55, 45], 'the range is at least 100 points, centred');
  assert.deepEqual(historyPoints(history(1700), 200, 100).points, [{ x: 100, y: 50, rating: 1700 }]);
  assert.deepEqual(historyPoints([], 200, 100), { points: [], low: null, high: null });
});
