// Points written as in renju books: column letter, row counted from the bottom.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatPoint, parsePoint, starPoints } from '../../../server/static/js/notation.js';

test('h8 is the centre of 15x15 and a1 its bottom-left corner', () => {
  assert.equal(formatPoint(7, 7, 15), 'h8');
  assert.equal(formatPoint(0, 14, 15), 'a1');
  assert.equal(formatPoint(14, 0, 15), 'o15');
  assert.equal(formatPoint(8, 0, 9), 'i9');
});

test('no letter is skipped: i is a column', () => {
  assert.equal(formatPoint(8, 7, 15), 'i8');
  assert.deepEqual(parsePoint('i8', 15), { x: 8, y: 7 });
});

test('parsing reads any case and spaces, and round-trips every point', () => {
  assert.deepEqual(parsePoint(' H8 ', 15), { x: 7, y: 7 });
  for (const size of [5, 15, 26]) {
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) assert.deepEqual(parsePoint(formatPoint(x, y, size), size), { x, y });
    }
  }
});

test('text that names no point of the board is null', () => {
  for (const text of ['', 'h', '8', 'h0', 'h16', 'p1', '7,7', 'hh8', 'h8x']) assert.equal(parsePoint(text, 15), null, text);
});

test('star points: the centre and four points three in from the corners on 15x15', () => {
  const text = starPoints(15).map(({ x, y }) => formatPoint(x, y, 15)).sort();
  assert.deepEqual(text, ['d12', 'd4', 'h8', 'l12', 'l4']);
  assert.equal(starPoints(19).length, 9);
  assert.deepEqual(starPoints(5), []);
});
