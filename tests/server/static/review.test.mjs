// A stored game's review in the replay: a mark's line played out on the board, stone by stone.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { graphPoints, lineStepped, markHidden, markShown, reviewReceived, shownStones } from '../../../server/static/js/reviewstate.js';

const record = {
  moves: [
    { x: 7, y: 7, color: 'black' },
    { x: 7, y: 6, color: 'white' },
    { x: 8, y: 7, color: 'black' },
    { x: 0, y: 0, color: 'white' },
  ],
};
const blunder = { ply: 1, kind: 'blunder', player: 'white', win: 'vcf', line: [{ x: 9, y: 7, move: 'j8' }, { x: 10, y: 7, move: 'k8' }] };
const missed = { ply: 3, kind: 'missed_win', player: 'white', win: 'vct', line: [{ x: 5, y: 5, move: 'f10' }] };
const review = {
  game_id: 'g1',
  marks: [blunder, missed],
  turning_point: 3,
  evaluations: [0, 1, 2, 3, 4].map((ply) => ({ ply, score: ply === 0 ? 500 : 0, win_in: ply === 2 ? 2 : null })),
};

function replayWithReview() {
  const replay = { gameId: 'g1', record, ply: 4, playing: true, review: { pending: true } };
  return { ...replay, ...reviewReceived(replay, { type: 'game_review', review }) };
}

test("a review of another game than the replay's is not kept", () => {
  const replay = { gameId: 'other', record, ply: 0, review: { pending: true } };
  assert.deepEqual(reviewReceived(replay, { review }), {});
});

test('showing a blunder goes to the position after it, and its line is played out one stone at a time', () => {
  let replay = replayWithReview();
  replay = { ...replay, ...markShown(replay, 0) };
  assert.equal(replay.ply, 2, 'the refutation starts after the blunder');
  assert.equal(replay.playing, false);
  assert.deepEqual(shownStones(record, replay), record.moves.slice(0, 2));
  replay = { ...replay, ...lineStepped(replay, 1) };
  assert.deepEqual(shownStones(record, replay).at(-1), { x: 9, y: 7, color: 'black' });
  replay = { ...replay, ...lineStepped(replay, 5) };
  assert.equal(replay.review.step, 2, 'no further than the line');
  assert.deepEqual(shownStones(record, replay).slice(2), [{ x: 9, y: 7, color: 'black' }, { x: 10, y: 7, color: 'white' }]);
  replay = { ...replay, ...markHidden(replay) };
  assert.deepEqual(shownStones(record, replay), record.moves.slice(0, 2));
});

test('a missed win starts before the move that missed it, with the player who missed it to move', () => {
  let replay = replayWithReview();
  replay = { ...replay, ...markShown(replay, 1) };
  replay = { ...replay, ...lineStepped(replay, 1) };
  assert.equal(replay.ply, 3);
  assert.deepEqual(shownStones(record, replay).at(-1), { x: 5, y: 5, color: 'white' });
  const elsewhere = { ...replay, ply: 1 };
  assert.deepEqual(shownStones(record, elsewhere), record.moves.slice(0, 1), 'away from the line, the game only');
});

test('the graph shows scores within the bounds and forced wins at them', () => {
  assert.deepEqual(graphPoints(review), [[0, 0.5], [1, 0], [2, 1], [3, 0], [4, 0]]);
});

test('the position shown says who wins by force in how many moves, or who is better and by how much', async () => {
  const { describeEvaluation } = await import('../../../server/static/js/views/review.js');
  const t = (key, params = {}) => `${key} ${JSON.stringify(params)}`;
  assert.equal(describeEvaluation({ ply: 3, score: -1000, win_in: -2 }, t), 'review.winIn {"color":"color.white {}","n":2}');
  assert.equal(describeEvaluation({ ply: 0, score: 10, win_in: null }, t), 'review.even {}');
  assert.equal(describeEvaluation({ ply: 0, score: 35, win_in: null }, t), 'review.better.slightly {"color":"color.black {}"}');
  assert.equal(describeEvaluation({ ply: 0, score: -400, win_in: null }, t), 'review.better.clearly {"color":"color.white {}"}');
  assert.equal(describeEvaluation({ ply: 0, score: 900, win_in: null }, t), 'review.better.much {"color":"color.black {}"}');
});
