// The board: an SVG drawing with a grid of real buttons on top of it.
//
// The drawing (wood, lines, star points, coordinates, stones and marks) is
// redrawn from a plain model each time it changes. Input goes through the
// buttons, one per point, so the mouse, the keyboard and a screen reader
// all use the same controls: each button's accessible name starts with
// the point's coordinate (`h8, black stone, move 1`). Only one button is
// in the tab order; the arrow keys move between points, Enter or Space
// plays.
//
// What the board keeps itself is what never leaves it: the point under
// the pointer or keyboard cursor (drawn as a preview stone) and a tap
// waiting for its confirmation. A click only asks `onPlay(x, y)`; the
// stone appears when the server's `moved` comes back into the model.

import { h, svg } from '../dom.js';
import { columnLetter, formatPoint, rowNumber, starPoints } from '../notation.js';

let boards = 0;

// Board units: one between two lines, the first line at 1. The wood reaches
// MARGIN beyond the outer lines, and the coordinates stand LABEL_INSET from
// its edge, clear of a stone on the outer line (radius 0.47, its rings 0.56).
const MARGIN = 1.25;
const LABEL_INSET = 0.36;

/**
 * @param {{onPlay: (x: number, y: number) => void}} handlers
 * @returns {{element: HTMLElement, update: (model) => void}}
 *
 * model: {size, moves: [{x, y, color}], winLine: [[x, y]] | null,
 *   forbidden: [{x, y, reason}], hint: {best: {x, y}, pv: [{x, y, color}]} | null,
 *   playable: "black" | "white" | null (the colour a click would play now),
 *   draft: [{x, y, color}] (stones picked for an opening step, not sent yet; optional),
 *   offers: [{x, y}] (fifth moves on offer in a Soosõrv-8 opening; optional),
 *   moveNumbers, confirmTaps, label, t (the translate function)}
 */
export function createBoard({ onPlay }) {
  boards += 1;
  const prefix = `board${boards}`;
  const drawing = svg('svg', { class: 'board-drawing', 'aria-hidden': 'true' });
  const grid = h('div', { class: 'board-points', role: 'group' });
  const help = h('p', { class: 'visually-hidden', id: `${prefix}-help` });
  grid.setAttribute('aria-describedby', help.id);
  const element = h('div', { class: 'board' }, drawing, grid, help);

  let model = null;
  let size = 0;
  let buttons = [];
  let layers = null;
  let cursor = null; // {x, y}: the point the keyboard is on
  let hover = null; // {x, y}: the point under the pointer
  let armed = null; // {x, y}: a tap waiting for its confirming second tap
  let drawnKey = '';

  function stoneAt(x, y) {
    return model.stones.get(y * size + x) ?? null;
  }

  function build(newSize) {
    size = newSize;
    const width = size - 1 + 2 * MARGIN;
    drawing.setAttribute('viewBox', `${1 - MARGIN} ${1 - MARGIN} ${width} ${width}`);
    element.style.setProperty('--points', String(size));
    element.style.setProperty('--width', String(width));
    element.style.setProperty('--margin', String(MARGIN));
    drawing.replaceChildren(definitions(prefix), ...woodAndLines(size, prefix));
    layers = {
      shadows: svg('g', { filter: `url(#${prefix}-blur)`, class: 'shadows' }),
      stones: svg('g', { class: 'stones' }),
      marks: svg('g', { class: 'marks' }),
      numbers: svg('g', { class: 'numbers' }),
      preview: svg('g', { class: 'preview' }),
    };
    drawing.append(layers.shadows, layers.stones, layers.marks, layers.numbers, layers.preview);
    buttons = [];
    grid.replaceChildren();
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        const button = h('button', {
          type: 'button',
          class: 'point',
          tabIndex: -1,
          'data-point': formatPoint(x, y, size),
          onClick: (event) => clicked(x, y, event),
          onFocus: () => moveCursor(x, y, false),
          onPointerenter: () => hovered({ x, y }),
        });
        buttons.push(button);
        grid.append(button);
      }
    }
    const middle = Math.floor(size / 2);
    cursor = { x: middle, y: middle };
    buttons[middle * size + middle].tabIndex = 0;
    drawnKey = '';
  }

  function clicked(x, y, event) {
    moveCursor(x, y, false); // not every browser focuses a button it clicks
    const picked = model.draft.some((point) => point.x === x && point.y === y); // a second click takes it back
    if ((model.playable === null && !picked) || stoneAt(x, y) !== null) return;
    const fromKeyboard = event.detail === 0;
    if (model.confirmTaps && !fromKeyboard && (armed === null || armed.x !== x || armed.y !== y)) {
      armed = { x, y };
      drawPreview();
      return;
    }
    armed = null;
    onPlay(x, y);
  }

  function hovered(point) {
    hover = point;
    drawPreview();
  }

  function moveCursor(x, y, focus) {
    const previous = buttons[cursor.y * size + cursor.x];
    if (previous !== undefined) previous.tabIndex = -1;
    cursor = { x, y };
    const button = buttons[y * size + x];
    button.tabIndex = 0;
    if (focus) button.focus();
    drawPreview();
  }

  grid.addEventListener('pointerleave', () => hovered(null));
  grid.addEventListener('focusout', (event) => {
    if (!grid.contains(event.relatedTarget)) drawPreview();
  });
  grid.addEventListener('keydown', (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const x = Math.min(size - 1, Math.max(0, cursor.x + step[0]));
    const y = Math.min(size - 1, Math.max(0, cursor.y + step[1]));
    moveCursor(x, y, true);
  });

  function drawPreview() {
    if (model === null) return;
    layers.preview.replaceChildren();
    const focused = grid.contains(document.activeElement) ? cursor : null;
    const target = armed ?? hover ?? focused;
    element.classList.toggle('playable', model.playable !== null);
    if (model.playable === null || target === null || stoneAt(target.x, target.y) !== null) return;
    const [cx, cy] = [target.x + 1, target.y + 1];
    layers.preview.append(
      svg('circle', { cx, cy, r: 0.46, fill: `url(#${prefix}-${model.playable})`, opacity: armed ? 0.75 : 0.45 }),
    );
    if (armed !== null) {
      layers.preview.append(svg('circle', { cx, cy, r: 0.56, class: 'armed-ring' }));
    }
  }

  function draw() {
    const { shadows, stones, marks, numbers } = layers;
    for (const layer of [shadows, stones, marks, numbers]) layer.replaceChildren();
    const last = model.moves.at(-1) ?? null;
    model.moves.forEach((stone, index) => {
      const [cx, cy] = [stone.x + 1, stone.y + 1];
      shadows.append(svg('circle', { cx: cx + 0.05, cy: cy + 0.07, r: 0.46, class: 'shadow' }));
      stones.append(svg('circle', { cx, cy, r: 0.47, fill: `url(#${prefix}-${stone.color})`, class: `stone ${stone.color}` }));
      if (model.moveNumbers) {
        const isLast = stone === last;
        numbers.append(numberText(cx, cy, index + 1, `number on-${stone.color}${isLast ? ' last' : ''}`));
      }
    });
    if (last !== null && !model.moveNumbers) {
      marks.append(svg('circle', { cx: last.x + 1, cy: last.y + 1, r: 0.14, class: 'last-move' }));
    }
    if (model.winLine !== null && model.winLine.length > 0) {
      const [first, end] = [model.winLine[0], model.winLine.at(-1)];
      marks.append(svg('line', { x1: first[0] + 1, y1: first[1] + 1, x2: end[0] + 1, y2: end[1] + 1, class: 'win-line' }));
      for (const [x, y] of model.winLine) marks.append(svg('circle', { cx: x + 1, cy: y + 1, r: 0.5, class: 'win-ring' }));
    }
    for (const { x, y } of model.forbidden) {
      const d = 0.17;
      marks.append(svg('path', { d: `M${x + 1 - d} ${y + 1 - d}L${x + 1 + d} ${y + 1 + d}M${x + 1 + d} ${y + 1 - d}L${x + 1 - d} ${y + 1 + d}`, class: 'forbidden' }));
    }
    model.draft.forEach((stone, index) => {
      const [cx, cy] = [stone.x + 1, stone.y + 1];
      marks.append(svg('circle', { cx, cy, r: 0.46, fill: `url(#${prefix}-${stone.color})`, class: 'draft' }));
      marks.append(svg('circle', { cx, cy, r: 0.52, class: 'draft-ring' }));
      numbers.append(numberText(cx, cy, index + 1, `number on-${stone.color}`));
    });
    for (const { x, y } of model.offers) marks.append(svg('circle', { cx: x + 1, cy: y + 1, r: 0.4, class: 'offer-ring' }));
    if (model.hint !== null) {
      model.hint.pv.forEach((ghost, index) => {
        const [cx, cy] = [ghost.x + 1, ghost.y + 1];
        marks.append(svg('circle', { cx, cy, r: 0.44, fill: `url(#${prefix}-${ghost.color})`, class: 'ghost' }));
        numbers.append(numberText(cx, cy, index + 1, `number ghost-number on-${ghost.color}`));
      });
      const { x, y } = model.hint.best;
      marks.append(svg('circle', { cx: x + 1, cy: y + 1, r: 0.52, class: 'hint-ring' }));
    }
  }

  function label(x, y, info) {
    const t = model.t;
    const parts = [formatPoint(x, y, size)];
    const stone = stoneAt(x, y);
    if (stone === null) parts.push(t('point.empty'));
    else parts.push(t(`point.${stone.color}`), t('point.move', { n: stone.n }));
    if (stone !== null && stone.n === model.moves.length) parts.push(t('point.last'));
    if (info.win) parts.push(t('point.winning'));
    if (info.forbidden) parts.push(t('point.forbidden', { reason: t(`forbidden.${info.forbidden}`) }));
    if (info.best) parts.push(t('point.hint'));
    if (info.draft) parts.push(t('point.draft', { n: info.draft, color: t(`point.${info.draftColor}`) }));
    if (info.offer) parts.push(t('point.offer'));
    return parts.join(t('point.separator'));
  }

  function relabel() {
    const info = new Map();
    const note = (x, y, key, value) => {
      const index = y * size + x;
      info.set(index, { ...(info.get(index) ?? {}), [key]: value });
    };
    for (const [x, y] of model.winLine ?? []) note(x, y, 'win', true);
    for (const { x, y, reason } of model.forbidden) note(x, y, 'forbidden', reason);
    if (model.hint !== null) note(model.hint.best.x, model.hint.best.y, 'best', true);
    model.draft.forEach(({ x, y, color }, index) => {
      note(x, y, 'draft', index + 1);
      note(x, y, 'draftColor', color);
    });
    for (const { x, y } of model.offers) note(x, y, 'offer', true);
    buttons.forEach((button, index) => {
      const text = label(index % size, Math.floor(index / size), info.get(index) ?? {});
      if (button.getAttribute('aria-label') !== text) button.setAttribute('aria-label', text);
    });
  }

  function update(next) {
    const stones = new Map();
    next.moves.forEach((stone, index) => stones.set(stone.y * next.size + stone.x, { color: stone.color, n: index + 1 }));
    const previousMoves = model?.moves.length;
    model = { draft: [], offers: [], ...next, stones };
    if (next.size !== size) build(next.size);
    if (previousMoves !== next.moves.length) armed = null;
    grid.setAttribute('aria-label', next.label);
    help.textContent = next.t('board.help');
    const key = JSON.stringify([next.moves, next.winLine, next.forbidden, next.hint, model.draft, model.offers, next.moveNumbers, next.t('point.empty')]);
    if (key !== drawnKey) {
      drawnKey = key;
      draw();
      relabel();
    }
    drawPreview();
  }

  return { element, update };
}

function numberText(cx, cy, n, className) {
  const fontSize = n >= 100 ? 0.34 : 0.42;
  return svg('text', { x: cx, y: cy, 'font-size': fontSize, class: className, 'dominant-baseline': 'central' }, String(n));
}

function definitions(prefix) {
  const stop = (offset, color) => svg('stop', { offset, 'stop-color': color });
  return svg(
    'defs',
    {},
    svg('radialGradient', { id: `${prefix}-black`, cx: '0.36', cy: '0.32', r: '0.7' },
      stop('0', '#70737a'), stop('0.35', '#2b2d31'), stop('1', '#060607')),
    svg('radialGradient', { id: `${prefix}-white`, cx: '0.36', cy: '0.32', r: '0.75' },
      stop('0', '#ffffff'), stop('0.55', '#f1efe9'), stop('1', '#bdb8ad')),
    svg('linearGradient', { id: `${prefix}-wood`, x1: '0', y1: '0', x2: '1', y2: '1' },
      stop('0', '#e9c27a'), stop('0.5', '#dfb163'), stop('1', '#cf9d4c')),
    svg('filter', { id: `${prefix}-blur`, x: '-0.1', y: '-0.1', width: '1.2', height: '1.2' },
      svg('feGaussianBlur', { stdDeviation: '0.04' })),
  );
}

function woodAndLines(size, prefix) {
  const [low, high] = [1 - MARGIN, size + MARGIN]; // the wood's edges
  const parts = [svg('rect', { x: low, y: low, width: high - low, height: high - low, rx: 0.35, fill: `url(#${prefix}-wood)`, class: 'wood' })];
  const lines = svg('g', { class: 'lines' });
  for (let i = 1; i <= size; i += 1) {
    const edge = i === 1 || i === size ? ' edge' : '';
    lines.append(svg('line', { x1: 1, y1: i, x2: size, y2: i, class: `line${edge}` }));
    lines.append(svg('line', { x1: i, y1: 1, x2: i, y2: size, class: `line${edge}` }));
  }
  parts.push(lines);
  for (const { x, y } of starPoints(size)) parts.push(svg('circle', { cx: x + 1, cy: y + 1, r: 0.1, class: 'star' }));
  const labels = svg('g', { class: 'coordinates', 'font-size': 0.36 });
  const [near, far] = [low + LABEL_INSET, high - LABEL_INSET];
  for (let i = 0; i < size; i += 1) {
    const letter = columnLetter(i);
    const number = String(rowNumber(i, size));
    labels.append(
      svg('text', { x: i + 1, y: near, 'dominant-baseline': 'central' }, letter),
      svg('text', { x: i + 1, y: far, 'dominant-baseline': 'central' }, letter),
      svg('text', { x: near, y: i + 1, 'dominant-baseline': 'central' }, number),
      svg('text', { x: far, y: i + 1, 'dominant-baseline': 'central' }, number),
    );
  }
  parts.push(labels);
  return parts;
}
