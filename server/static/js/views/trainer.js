// The puzzle trainer: the puzzle's board, whose side is to play and win; each right move is
// answered by the defender, a wrong one ends the try and shows the solution; then the next puzzle.

import { fill, h, setText, show } from '../dom.js';
import { trainerStones } from '../puzzlestate.js';
import { createBoard } from './board.js';

export function createTrainerView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const about = h('p', { class: 'puzzle-about' });
  const status = h('p', { class: 'puzzle-status', 'aria-live': 'polite' });
  const board = createBoard({ onPlay: (x, y) => intents.puzzleMove(x, y) });
  const next = h('button', { type: 'button', class: 'primary', onClick: () => intents.nextPuzzle(false) });
  const daily = h('button', { type: 'button', onClick: () => intents.nextPuzzle(true) });
  const game = h('a', { class: 'puzzle-game' });
  const main = h('div', { class: 'room-main' }, h('div', { class: 'board-frame' }, board.element));
  const side = h('div', { class: 'room-side' }, about, status, h('div', { class: 'button-row' }, next, daily), game);
  const element = h('section', { class: 'screen trainer-screen' }, h('div', { class: 'room-layout' }, h('div', { class: 'room-head' }, heading), main, side));

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const trainer = state.puzzle;
      setText(heading, t('puzzle.title'));
      setText(next, t('puzzle.next'));
      setText(daily, t('puzzle.daily'));
      const puzzle = trainer?.data ?? null;
      show(main, puzzle !== null);
      show(about, puzzle !== null);
      show(game, puzzle?.game_id != null);
      setText(status, statusText(trainer, t));
      if (puzzle === null) return;
      // The source is the server's words (players' names, the rule in English): marked as such.
      fill(about, t('puzzle.about', { color: t(`color.${puzzle.to_move}`), n: puzzle.win_in, rating: puzzle.rating }), ' ',
        t('puzzle.from'), ' ', h('span', { lang: 'en' }, puzzle.source));
      if (puzzle.game_id != null) {
        game.href = `#game/${encodeURIComponent(puzzle.game_id)}`;
        setText(game, t('puzzle.game'));
      }
      const failed = trainer.status === 'failed';
      board.update({
        size: puzzle.size,
        moves: failed ? trainerStones({ ...trainer, played: [] }) : trainerStones(trainer),
        winLine: null,
        forbidden: [],
        hint: failed ? solutionMarks(trainer) : null,
        playable: trainer.status === 'solving' ? puzzle.to_move : null,
        moveNumbers: false,
        confirmTaps: state.prefs.confirmTaps,
        label: t('board.label', { size: puzzle.size }),
        t,
      });
    },
  };
}

function statusText(trainer, t) {
  if (trainer == null || trainer.pending) return t('lobby.loading');
  if (trainer.error?.code === 'not_found' && trainer.data == null) return t('puzzle.none');
  if (trainer.error) return trainer.error.message;
  const line = trainer.solution.map((move) => move.move).join(' ');
  const rating = trainer.rating ? t('puzzle.rating', { before: trainer.rating.before, after: trainer.rating.after }) : '';
  if (trainer.status === 'solved') return `${t('puzzle.solved', { line })} ${rating}`.trim();
  if (trainer.status === 'failed') return `${t('puzzle.failed', { line })} ${rating}`.trim();
  if (trainer.status === 'waiting') return t('puzzle.waiting');
  return trainer.played.length === 0 ? t('puzzle.start') : t('puzzle.right');
}

/** After a wrong try, the solution on the puzzle's position, drawn as a hint is: its first move
 * ringed, the rest as faint stones. */
function solutionMarks(trainer) {
  const [first, ...rest] = trainer.solution;
  if (first === undefined) return null;
  const attacker = trainer.data.to_move;
  const defender = attacker === 'black' ? 'white' : 'black';
  const pv = [first, ...rest].map(({ x, y }, index) => ({ x, y, color: index % 2 === 0 ? attacker : defender }));
  return { best: { x: first.x, y: first.y }, pv };
}
