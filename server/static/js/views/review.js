// The review panel of the replay: a button to ask for the review, then an evaluation graph over
// the game (a click on it goes to that move), the marks as buttons (each goes to where its line
// starts), and steps to play the shown mark's winning line out on the board, stone by stone.

import { fill, h, setText, show, svg } from '../dom.js';
import { formatPoint } from '../notation.js';
import { graphPoints } from '../reviewstate.js';

const WIDTH = 300;
const HEIGHT = 80;

export function createReviewPanel(intents) {
  const title = h('h2');
  const ask = h('button', { type: 'button', class: 'primary', onClick: () => intents.reviewGame() });
  const status = h('p', { class: 'review-status', role: 'status' });
  const curve = svg('polyline', { class: 'review-curve', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 });
  const cursor = svg('line', { class: 'review-cursor', y1: 0, y2: HEIGHT, stroke: 'currentColor', 'stroke-dasharray': '2 2' });
  const graph = svg('svg', { class: 'review-graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img' },
    svg('line', { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, stroke: 'currentColor', 'stroke-opacity': 0.3 }), curve, cursor);
  const here = h('p', { class: 'review-here', 'aria-live': 'polite' });
  const marks = h('ol', { class: 'review-marks' });
  const back = h('button', { type: 'button', class: 'icon', onClick: () => intents.stepLine(step - 1) }, '◀');
  const forward = h('button', { type: 'button', class: 'icon', onClick: () => intents.stepLine(step + 1) }, '▶');
  const close = h('button', { type: 'button', onClick: () => intents.hideMark() });
  const lineText = h('p', { class: 'review-line', 'aria-live': 'polite' });
  const lineControls = h('div', { class: 'button-row review-line-controls' }, back, forward, close);
  const element = h('section', { class: 'review-panel' }, title, ask, status, graph, here, marks, lineText, lineControls);
  let step = 0;
  let plies = 0;
  let drawn = null;

  graph.addEventListener('click', (event) => {
    const box = graph.getBoundingClientRect();
    if (box.width === 0 || plies === 0) return;
    intents.seek(Math.round(((event.clientX - box.left) / box.width) * plies));
  });

  function drawReview(data, size, t) {
    plies = Math.max(1, data.evaluations.length - 1);
    const points = graphPoints(data).map(([ply, value]) => `${(ply / plies) * WIDTH},${(HEIGHT / 2) * (1 - value)}`);
    curve.setAttribute('points', points.join(' '));
    fill(marks, data.marks.map((mark, index) => h('li', {},
      h('button', { type: 'button', class: 'review-mark', onClick: () => intents.showMark(index) }, describeMark(mark, size, t)))));
  }

  return {
    element,
    update(state, replay, record) {
      const t = intents.t;
      const review = replay.review;
      const offered = state.features.includes('review') && record.result != null;
      show(element, offered);
      if (!offered) return;
      setText(title, t('review.title'));
      setText(ask, t('review.ask'));
      show(ask, review == null || review.error != null);
      ask.disabled = !(state.connection === 'online' && state.session === 'ready');
      const data = review?.data ?? null;
      setText(status, review?.pending ? t('review.pending') : review?.error ? review.error.message
        : data === null ? '' : data.turning_point === null ? t('review.clean') : t('review.turning', { n: data.turning_point + 1 }));
      show(graph, data !== null);
      graph.setAttribute('aria-label', t('review.graph'));
      show(here, data !== null);
      setText(here, data === null ? '' : describeEvaluation(data.evaluations[replay.ply], t));
      show(marks, data !== null);
      const key = data === null ? null : `${data.game_id}:${state.prefs.language}`;
      if (data !== null && drawn !== key) {
        drawn = key;
        drawReview(data, record.size, t);
      }
      if (data !== null) {
        const x = (replay.ply / plies) * WIDTH;
        cursor.setAttribute('x1', String(x));
        cursor.setAttribute('x2', String(x));
      }
      const mark = data !== null && review.mark != null ? data.marks[review.mark] : null;
      show(lineText, mark !== null);
      show(lineControls, mark !== null);
      if (mark === null) return;
      step = review.step;
      setText(lineText, t('review.line', { shown: step, total: mark.line.length, moves: mark.line.slice(0, Math.max(step, 1)).map((move) => move.move).join(' ') }));
      back.disabled = step === 0;
      forward.disabled = step === mark.line.length;
      back.setAttribute('aria-label', t('review.lineBack'));
      forward.setAttribute('aria-label', t('review.lineForward'));
      setText(close, t('review.lineClose'));
    },
  };
}

// The engine's score (hundredths, from black's side) in words: who is better, and by how much.
const EVEN_BELOW = 30;
const CLEARLY_FROM = 150;
const MUCH_FROM = 600;

/** The evaluation of the position shown: a forced win in N moves, or who is better and by how much. */
export function describeEvaluation(evaluation, t) {
  if (evaluation === undefined) return '';
  if (evaluation.win_in != null) {
    return t('review.winIn', { color: t(evaluation.win_in > 0 ? 'color.black' : 'color.white'), n: Math.abs(evaluation.win_in) });
  }
  const size = Math.abs(evaluation.score);
  if (size < EVEN_BELOW) return t('review.even');
  const by = size < CLEARLY_FROM ? 'slightly' : size < MUCH_FROM ? 'clearly' : 'much';
  return t(`review.better.${by}`, { color: t(evaluation.score > 0 ? 'color.black' : 'color.white') });
}

/** A mark as a line of text: the move, what it did, and how its line wins. */
export function describeMark(mark, size, t) {
  const move = formatPoint(mark.line[0].x, mark.line[0].y, size);
  return t(`review.${mark.kind}`, { n: mark.ply + 1, color: t(`color.${mark.player}`), win: t(`review.${mark.win}`), move });
}
