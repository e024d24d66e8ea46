// The opening phase: what a click on the board does, and the step a set of picked points makes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { boardChoice, draftColors, draftStep, openingFits, pickPoint, selectedFifth } from '../../../server/static/js/opening.js';

const place = (...colors) => ({ kind: 'place', colors, least: null, most: null, count: null, offers: null });
const chooseColor = { kind: 'choose_color', colors: null, least: null, most: null, count: null, offers: null };
const offerFifths = (count) => ({ kind: 'offer_fifths', colors: null, least: null, most: null, count, offers: null });
const selectFifth = (...offers) => ({ kind: 'select_fifth', colors: null, least: null, most: null, count: null, offers });

test('Soosõrv-8 is an opening of renju only', () => {
  assert.equal(openingFits('soosorv8', 'renju'), true);
  assert.equal(openingFits('soosorv8', 'freestyle'), false);
  assert.equal(openingFits('swap2', 'standard'), true);
});

test('a click on the board serves the choice that puts stones on it, if the decider has one', () => {
  assert.deepEqual(boardChoice({ choices: [chooseColor, place('white', 'black')] }), place('white', 'black'));
  assert.equal(boardChoice({ choices: [chooseColor] }), null);
  assert.equal(boardChoice(null), null);
  assert.deepEqual(draftColors(offerFifths(3)), ['black', 'black', 'black'], 'the fifth move is black');
  assert.deepEqual(draftColors(chooseColor), []);
});

test('points are picked in the colours due, taken back by a second click, never on a stone or past the count', () => {
  const choice = place('black', 'white', 'black');
  const moves = [{ x: 0, y: 0, color: 'black' }];
  let draft = pickPoint([], choice, moves, 7, 7);
  draft = pickPoint(draft, choice, moves, 8, 8);
  assert.deepEqual(draft, [{ x: 7, y: 7, color: 'black' }, { x: 8, y: 8, color: 'white' }]);
  assert.equal(pickPoint(draft, choice, moves, 0, 0), draft, 'a stone is there');
  assert.equal(draftStep(choice, draft), null, 'a stone is still due');
  draft = pickPoint(draft, choice, moves, 9, 9);
  assert.equal(pickPoint(draft, choice, moves, 10, 10), draft, 'all three are picked');
  assert.deepEqual(draftStep(choice, draft), { kind: 'place', points: [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 9, y: 9 }] });
  assert.deepEqual(pickPoint(draft, choice, moves, 7, 7), [{ x: 8, y: 8, color: 'black' }, { x: 9, y: 9, color: 'white' }],
    'the colours follow the order once one is taken back');
});

test('fifth moves are offered together, and one on offer is selected with a click', () => {
  const draft = pickPoint(pickPoint([], offerFifths(2), [], 3, 4), offerFifths(2), [], 5, 6);
  assert.deepEqual(draftStep(offerFifths(2), draft), { kind: 'offer_fifths', points: [{ x: 3, y: 4 }, { x: 5, y: 6 }] });
  const choice = selectFifth({ x: 3, y: 4 }, { x: 5, y: 6 });
  assert.deepEqual(selectedFifth(choice, 5, 6), { kind: 'select_fifth', point: { x: 5, y: 6 } });
  assert.equal(selectedFifth(choice, 1, 1), null, 'not on offer');
  assert.equal(selectedFifth(place('black'), 5, 6), null);
});
