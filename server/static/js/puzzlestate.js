// The puzzle trainer (feature `puzzles`): one puzzle at a time, the attacker's moves sent from the
// first at each try, the defender's replies from the server.
//
// `state.puzzle`: null, or {pending, data: Puzzle | null, played: [{x, y, color}], status:
// 'solving' | 'waiting' | 'solved' | 'failed', solution: [...], rating: {before, after} | null,
// error: {code, message} | null}.

/** A puzzle was asked for. */
export function puzzleAsked() {
  return { pending: true, data: null, played: [], status: 'solving', solution: [], rating: null, error: null };
}

/** A `puzzle` arrived: the trainer starts on it. */
export function puzzleReceived(message) {
  return { ...puzzleAsked(), pending: false, data: message.puzzle };
}

/** No puzzle could be had (`not_found`: none left to try). */
export function puzzleRefused(trainer, refusal) {
  return { ...(trainer ?? puzzleAsked()), pending: false, status: trainer?.data ? 'solving' : 'none', error: refusal };
}

/** The player played a point: it shows at once, and the try waits for the server's answer. */
export function puzzleMovePlayed(trainer, x, y) {
  if (trainer?.data == null || trainer.status !== 'solving') return trainer;
  return { ...trainer, played: [...trainer.played, { x, y, color: trainer.data.to_move }], status: 'waiting', error: null };
}

/** The attacker's moves of the try so far, as `try_puzzle` sends them. */
export function attackerMoves(trainer) {
  return trainer.played.filter(({ color }) => color === trainer.data.to_move).map(({ x, y }) => ({ x, y }));
}

/** A `puzzle_progress` arrived: the defender's reply, or the end of the try. */
export function progressReceived(trainer, message) {
  if (trainer?.data?.puzzle_id !== message.puzzle_id) return trainer;
  if (message.status === 'continue') {
    const defender = trainer.data.to_move === 'black' ? 'white' : 'black';
    return { ...trainer, played: [...trainer.played, { x: message.reply.x, y: message.reply.y, color: defender }], status: 'solving' };
  }
  return { ...trainer, status: message.status, solution: message.solution, rating: message.player_rating ?? null };
}

/** The stones on the trainer's board: the puzzle's position, then the try. */
export function trainerStones(trainer) {
  const position = trainer.data.moves.map(({ x, y }, index) => ({ x, y, color: index % 2 === 0 ? 'black' : 'white' }));
  return [...position, ...trainer.played];
}
