// A stored game's review in the replay (feature `review`): asked for once, shown as an evaluation
// graph and marks; a mark's winning line is played out on the board stone by stone.
//
// It lives in `replay.review`: null (not asked), {pending: true}, {error}, or
// {data: GameReview, mark: index | null, step: stones of the mark's line shown}.
// These functions take the replay and return the fields that change.

/** The review was asked for. */
export function reviewRequested() {
  return { review: { pending: true } };
}

/** A `game_review` arrived: it is kept if it is this replay's game. */
export function reviewReceived(replay, message) {
  if (message.review.game_id !== replay.gameId) return {};
  return { review: { data: message.review, mark: null, step: 0 } };
}

/** The review was refused (`busy`, `not_allowed`...). */
export function reviewRefused(refusal) {
  return { review: { error: refusal } };
}

/** Show a mark: the board goes to the position its line starts from, with none of it played yet. */
export function markShown(replay, index) {
  const review = replay.review?.data ? replay.review : null;
  const mark = review?.data.marks[index];
  if (mark === undefined) return {};
  return { review: { ...review, mark: index, step: 0 }, ply: lineStart(mark), playing: false };
}

/** Play the shown mark's line up to `step` stones (0 to the whole line). */
export function lineStepped(replay, step) {
  const review = replay.review;
  if (review?.mark == null) return {};
  const line = review.data.marks[review.mark].line;
  return { review: { ...review, step: Math.max(0, Math.min(line.length, step)) } };
}

/** Leave the line: the replay shows the game again. */
export function markHidden(replay) {
  return replay.review?.data ? { review: { ...replay.review, mark: null, step: 0 } } : {};
}

/** The ply a mark's line starts from: a missed win's before the move, a blunder's after it. */
export function lineStart(mark) {
  return mark.kind === 'missed_win' ? mark.ply : mark.ply + 1;
}

/**
 * The stones the board shows: the game's first `ply` moves, then, while a mark's line is shown
 * from that position, the line's first `step` stones in turn, colours alternating.
 */
export function shownStones(record, replay) {
  const moves = record.moves.slice(0, replay.ply).map(({ x, y, color }) => ({ x, y, color }));
  const review = replay.review;
  if (review?.mark == null || review.step === 0) return moves;
  const mark = review.data.marks[review.mark];
  if (lineStart(mark) !== replay.ply) return moves;
  const first = replay.ply % 2 === 0 ? 'black' : 'white';
  const second = first === 'black' ? 'white' : 'black';
  const line = mark.line.slice(0, review.step).map(({ x, y }, index) => ({ x, y, color: index % 2 === 0 ? first : second }));
  return [...moves, ...line];
}

/** Points of the evaluation graph: [ply, value in -1..1 from black's side], forced wins at the bounds. */
export function graphPoints(review) {
  return review.evaluations.map(({ ply, score, win_in: winIn }) => [ply, winIn == null ? score / 1000 : Math.sign(winIn)]);
}
