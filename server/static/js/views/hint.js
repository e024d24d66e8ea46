// The engine's hint: a button to ask, the best move and the expected line
// in words, and the marks it leaves on the board. Used by rooms (the
// position on the board now) and by replays (any move of a stored game).

import { h, fill, setText, show } from '../dom.js';
import { parsePoint } from '../notation.js';

const OTHER = { black: 'white', white: 'black' };

/**
 * @param {{ask: () => void, hide: () => void}} actions
 * @returns {{element, update(analysis, visible, enabled, t)}} analysis: null, {pending: true}, or the answer
 */
export function createHintBox({ ask: onAsk, hide: onHide }) {
  const ask = h('button', { type: 'button', onClick: onAsk });
  const hide = h('button', { type: 'button', class: 'link-button', onClick: onHide });
  const result = h('div', { class: 'hint-result', 'aria-live': 'polite' });
  const element = h('section', { class: 'panel hint', hidden: true }, h('div', { class: 'button-row' }, ask, hide), result);
  let drawn;
  return {
    element,
    update(analysis, visible, enabled, t) {
      show(element, visible);
      setText(ask, t('hint.ask'));
      setText(hide, t('hint.hide'));
      ask.disabled = !enabled || analysis?.pending === true;
      show(hide, analysis !== null && !analysis.pending);
      const language = t('hint.ask'); // the words change with the page's language
      if (drawn !== undefined && analysis === drawn.analysis && language === drawn.language) return;
      drawn = { analysis, language };
      if (analysis === null) fill(result);
      else if (analysis.pending) fill(result, h('p', {}, t('hint.thinking')));
      else {
        fill(
          result,
          h('p', { class: 'hint-best' }, t('hint.best', { move: analysis.best.move, score: analysis.score, depth: analysis.depth })),
          h('p', { class: 'hint-pv' }, t('hint.pv', { line: analysis.pv.join(' ') })),
        );
      }
    },
  };
}

/**
 * The hint drawn on a board of `size` holding `moves`: the best point and the
 * principal variation as numbered ghost stones (up to its first point that
 * is taken or unreadable); null while there is no answer.
 */
export function hintMarks(analysis, moves, size) {
  if (analysis === null || analysis.pending) return null;
  let color = analysis.ply % 2 === 0 ? 'black' : 'white';
  const taken = new Set(moves.map((stone) => stone.y * size + stone.x));
  const pv = [];
  for (const move of analysis.pv) {
    const point = parsePoint(move, size);
    if (point === null || taken.has(point.y * size + point.x)) break;
    taken.add(point.y * size + point.x);
    pv.push({ ...point, color });
    color = OTHER[color];
  }
  return { best: { x: analysis.best.x, y: analysis.best.y }, pv };
}
