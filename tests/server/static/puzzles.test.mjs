// The puzzle trainer's state: a try's moves, the defender's replies, and its end.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { attackerMoves, progressReceived, puzzleMovePlayed, puzzleReceived, puzzleRefused, trainerStones } from '../../../server/static/js/puzzlestate.js';
import { formatRoute, parseHash } from '../../../server/static/js/routes.js';

const puzzle = { puzzle_id: 'ab12', size: 9, to_move: 'black', moves: [{ x: 3, y: 4 }, { x: 2, y: 4 }], win_in: 2 };

test('a right move is answered by the defender, and the try goes on from there', () => {
  let trainer = puzzleReceived({ puzzle });
  trainer = puzzleMovePlayed(trainer, 6, 4);
  assert.equal(trainer.status, 'waiting');
  assert.deepEqual(puzzleMovePlayed(trainer, 0, 0), trainer, 'no second move while the first is checked');
  assert.deepEqual(attackerMoves(trainer), [{ x: 6, y: 4 }]);
  trainer = progressReceived(trainer, { puzzle_id: 'ab12', status: 'continue', reply: { x: 7, y: 4, move: 'h5' } });
  assert.equal(trainer.status, 'solving');
  assert.deepEqual(trainerStones(trainer).slice(2), [{ x: 6, y: 4, color: 'black' }, { x: 7, y: 4, color: 'white' }]);
  trainer = puzzleMovePlayed(trainer, 6, 5);
  assert.deepEqual(attackerMoves(trainer), [{ x: 6, y: 4 }, { x: 6, y: 5 }], 'the attacker\'s moves only, from the first');
  const solution = [{ x: 6, y: 4, move: 'g5' }];
  trainer = progressReceived(trainer, { puzzle_id: 'ab12', status: 'solved', solution, player_rating: { before: 1500, after: 1620 } });
  assert.deepEqual([trainer.status, trainer.solution, trainer.rating], ['solved', solution, { before: 1500, after: 1620 }]);
});

test("another puzzle's progress changes nothing, and no puzzle left is said so", () => {
  const trainer = puzzleMovePlayed(puzzleReceived({ puzzle }), 6, 4);
  assert.equal(progressReceived(trainer, { puzzle_id: 'other', status: 'failed', solution: [] }), trainer);
  const none = puzzleRefused(null, { code: 'not_found', message: 'none' });
  assert.deepEqual([none.status, none.data, none.error.code], ['none', null, 'not_found']);
});

test('the trainer has an address of its own', () => {
  assert.deepEqual(parseHash('#puzzles'), { name: 'puzzles' });
  assert.equal(formatRoute({ name: 'puzzles' }), '#puzzles');
});
