// Renju forbidden points on the positions the rule texts discuss (the same
// positions as tests/engine/test_rules_renju.py). The same answers as the
// server's engine on many more positions are checked from Python
// (tests/server/test_web_client_js.py).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cellsFromMoves, forbiddenPoints, forbiddenReason } from '../../../server/static/js/renju.js';
import { parsePoint } from '../../../server/static/js/notation.js';

/** Stones from a picture of the board: X black, O white, one row per line, the top row first. */
function picture(text) {
  const rows = text.trim().split('\n').map((line) => line.trim().split(/\s+/));
  const moves = [];
  rows.forEach((cells, y) => cells.forEach((cell, x) => {
    if (cell === 'X') moves.push({ x, y, color: 'black' });
    if (cell === 'O') moves.push({ x, y, color: 'white' });
  }));
  return moves;
}

function reason(moves, point) {
  const { x, y } = parsePoint(point, 15);
  return forbiddenReason(cellsFromMoves(moves, 15), 15, x, y);
}

const EMPTY_ROWS = '. . . . . . . . . . . . . . .\n';

function board(middle, bottom = 'O . O . O . O . . . . . . . .') {
  const lines = middle.trim().split('\n');
  return picture(EMPTY_ROWS.repeat(5) + lines.join('\n') + '\n' + EMPTY_ROWS.repeat(14 - 5 - lines.length) + bottom);
}

test('X.XXX.X on one line is a double-four', () => {
  const moves = board(`
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . X . X . X . X . . . . .`);
  assert.equal(reason(moves, 'g8'), 'double-four');
});

test('two open threes crossing at the move: double-three', () => {
  const moves = board(`
    . . . . . . X . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . X . X . . . . . . .
    . . . . . . . . . . . . . . .`);
  assert.equal(reason(moves, 'g8'), 'double-three');
});

test('a four and a three together are allowed', () => {
  const moves = board(`
    . . . . . . . . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . X X . . X . . . . . . .
    . . . . . . X . . . . . . . .`);
  assert.equal(reason(moves, 'g8'), null);
});

test('six in a row is an overline; exactly five never is forbidden', () => {
  const moves = board(`
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . X X X . X X . . . . . . .`);
  assert.equal(reason(moves, 'f8'), 'overline');
  const five = board(`
    . . . . . . . . . . . . . . .
    . . . . . . . X . . . . . . .
    . . . X X X X . . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . X . . . . . . .`);
  assert.equal(reason(five, 'h8'), null);
});

test('a three whose only straight-four point is forbidden (an overline) is no three', () => {
  const moves = picture(`
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . X . . . . . . . . .
    . . . . . X . X . . . . . . .
    . . . . . . X . X . O . . . .
    . . . . . X . X . . . . . . .
    . . . . . X . . . . . . . . .
    . . . . . X . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    O . O . O . O . O . O . O . O`);
  assert.equal(reason(moves, 'h8'), null);
});

test('the same three is real when its straight-four point is legal', () => {
  const moves = picture(`
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . X . X . O . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    O . O . O . . . . . . . . . .`);
  assert.equal(reason(moves, 'h8'), 'double-three');
});

test('two levels of the rule: the straight-four point is itself a double-three', () => {
  const moves = picture(`
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . X . X . . . . . . . . .
    . . . . X X . X . . . . . . .
    . . . . . . X . X . O . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    O . O . O . O . O . O . O . .`);
  assert.equal(reason(moves, 'h8'), null);
});

test('forbidden points lists every empty point black may not play, row by row', () => {
  const moves = board(`
    . . . . . . X . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . X . X . . . . . . .
    . . . . . . . . . . . . . . .`);
  const found = forbiddenPoints(moves, 15).map(({ x, y, reason: why }) => [x, y, why]);
  assert.deepEqual(found, [[6, 7, 'double-three']]);
});

test('an occupied point is not a question', () => {
  assert.throws(() => reason(picture('X'), 'a15'), RangeError);
});
