// Replaying a stored game: the board at any move, a slider, step buttons,
// the arrow keys, and autoplay at a chosen speed.
//
// The position shown is `replay.ply`, in the store. Panels about that
// position go in `panels` below the board: the engine's hint at any move
// (1.1's `analyze` with `game_id` and `ply`) is one.

import { h, fill, setText, show, svg } from '../dom.js';
import { formatPoint } from '../notation.js';
import { createBoard } from './board.js';
import { createHintBox, hintMarks } from './hint.js';
import { createReviewPanel } from './review.js';
import { shownStones } from '../reviewstate.js';
import { downloadLinks, formatDate, shortResult } from './games.js';

const SPEEDS_MS = [2000, 1000, 500, 250];

export function createReplayView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const meta = h('p', { class: 'replay-meta' });
  const board = createBoard({ onPlay: () => {} });
  const button = (action, className, ...content) => h('button', { type: 'button', class: className, onClick: action }, ...content);
  const icon = (path) => svg('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' }, svg('path', { d: path }));
  const first = button(() => intents.seek(0), 'icon', icon('M7 5v14M18 5l-9 7 9 7z'));
  const previous = button(() => intents.seek(ply - 1), 'icon', icon('M16 5l-9 7 9 7z'));
  const play = button(() => intents.autoplay(!playing), 'primary');
  const next = button(() => intents.seek(ply + 1), 'icon', icon('M8 5l9 7-9 7z'));
  const last = button(() => intents.seek(Infinity), 'icon', icon('M17 5v14M6 5l9 7-9 7z'));
  const slider = h('input', { type: 'range', id: 'replay-slider', min: 0, step: 1, onInput: () => intents.seek(Number(slider.value)) });
  const sliderLabel = h('label', { for: slider.id });
  const position = h('p', { class: 'replay-position', 'aria-live': 'polite' });
  const speed = h('select', { id: 'replay-speed', onChange: () => intents.setPref('replaySpeedMs', Number(speed.value)) },
    SPEEDS_MS.map((ms) => h('option', { value: String(ms) })));
  const speedLabel = h('label', { for: speed.id });
  const downloads = h('p', { class: 'downloads' });
  const hint = createHintBox({ ask: () => intents.analyzeReplay(), hide: () => intents.clearReplayAnalysis() });
  const review = createReviewPanel(intents);
  const panels = h('div', { class: 'replay-panels' }, hint.element, review.element);
  const failure = h('p', { class: 'empty', role: 'alert' });
  const controls = h('div', { class: 'replay-controls' },
    h('div', { class: 'button-row' }, first, previous, play, next, last),
    h('div', { class: 'field slider-field' }, sliderLabel, slider),
    position,
    h('div', { class: 'field' }, speedLabel, speed),
    downloads,
    panels);
  const head = h('div', { class: 'room-head' }, heading, meta);
  const main = h('div', { class: 'room-main' }, h('div', { class: 'board-frame' }, board.element));
  const layout = h('div', { class: 'room-layout' }, head, main, h('div', { class: 'room-side' }, controls));
  const element = h('section', { class: 'screen replay-screen' }, failure, layout);

  let ply = 0;
  let playing = false;
  let drawnDownloads = null;

  element.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target.closest('.board-points, input, select, textarea')) return;
    const isButton = target.tagName === 'BUTTON';
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      intents.seek(moves[event.key]);
    } else if (event.key === ' ' && !isButton) {
      event.preventDefault();
      intents.autoplay(!playing);
    }
  });

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const replay = state.replay;
      const record = replay?.record ?? null;
      show(failure, replay?.error != null);
      setText(failure, replay?.error ? t('replay.missing') : '');
      show(main, record !== null);
      show(controls, record !== null);
      if (record === null) {
        setText(heading, replay?.error ? t('replay.title') : t('lobby.loading'));
        setText(meta, '');
        return;
      }
      ply = replay.ply;
      playing = replay.playing;
      const total = record.moves.length;
      setText(heading, t('lobby.versus', { black: record.black.name, white: record.white.name }));
      setText(meta, [
        `${t(`rule.${record.rule}`)} ${t('size', { size: record.size })}`,
        formatDate(record.started_at, state.prefs.language),
        shortResult(record, t),
      ].filter(Boolean).join(' · '));
      const moves = shownStones(record, replay);
      const atEnd = ply === total;
      board.update({
        size: record.size,
        moves,
        winLine: atEnd ? record.result?.line ?? null : null,
        forbidden: [],
        hint: hintMarks(replay.analysis, moves, record.size),
        playable: null,
        moveNumbers: state.prefs.moveNumbers,
        confirmTaps: false,
        label: t('board.label', { size: record.size }),
        t,
      });
      first.setAttribute('aria-label', t('replay.first'));
      previous.setAttribute('aria-label', t('replay.previous'));
      next.setAttribute('aria-label', t('replay.next'));
      last.setAttribute('aria-label', t('replay.last'));
      setText(play, playing ? t('replay.pause') : t('replay.play'));
      first.disabled = previous.disabled = ply === 0;
      next.disabled = last.disabled = atEnd;
      slider.max = String(total);
      if (Number(slider.value) !== ply) slider.value = String(ply);
      setText(sliderLabel, t('replay.slider'));
      const lastMove = record.moves[ply - 1];
      setText(position, lastMove === undefined
        ? t('replay.start', { total })
        : t('replay.position', { n: ply, total, color: t(`color.${lastMove.color}`), move: formatPoint(lastMove.x, lastMove.y, record.size) }));
      setText(speedLabel, t('replay.speed'));
      [...speed.options].forEach((option) => setText(option, t('replay.speedOption', { seconds: Number(option.value) / 1000 })));
      speed.value = String(state.prefs.replaySpeedMs);
      const canAnalyse = state.features.includes('analysis_at_ply') && replayAnalysisAllowed(record, atEnd, (state.lobby.bots ?? []).length > 0);
      hint.update(replay.analysis, canAnalyse, state.connection === 'online' && state.session === 'ready', t);
      review.update(state, replay, record);
      const downloadsKey = `${record.game_id}:${state.prefs.language}`;
      if (drawnDownloads !== downloadsKey) {
        drawnDownloads = downloadsKey;
        fill(downloads, t('replay.download'), ' ', downloadLinks(record.game_id, t));
      }
    },
  };
}

/**
 * Whether the server analyses the position shown of a stored game: it needs
 * bots and no five on the board; and a game still being played between two
 * people is closed to the engine (fair play, 1.2). A record does not say
 * whether it is rated: the server refuses a live rated bot game, and the
 * refusal says why.
 */
export function replayAnalysisAllowed(record, atEnd, serverHasBots) {
  if (!serverHasBots || (atEnd && record.result?.reason === 'five')) return false;
  return record.result != null || record.black.kind === 'bot' || record.white.kind === 'bot';
}
