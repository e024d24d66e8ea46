// Renju forbidden points for black, the same rule as the server's engine
// (engine/rules.py), so that the board can show them before black plays.
// The server stays the judge: a forbidden move is still sent and refused.
//
// Black's overline, double-four and double-three are forbidden; a move that
// makes exactly five never is. A three counts only if some point turns it
// into a straight four and that point is not itself forbidden (checked
// recursively). A double-four may lie on one line (X.XXX.X).
//
// The board is `cells`: size*size numbers indexed y*size + x (0 empty,
// 1 black, 2 white). Functions that try stones put the cells back.

const EMPTY = 0;
const BLACK = 1;
const WHITE = 2;

const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];
const NEAR = [-4, -3, -2, -1, 1, 2, 3, 4];

/** The cells of a board after `moves` ([{x, y, color}], color "black" or "white"). */
export function cellsFromMoves(moves, size) {
  const cells = new Uint8Array(size * size);
  for (const { x, y, color } of moves) cells[y * size + x] = color === 'black' ? BLACK : WHITE;
  return cells;
}

function onBoard(x, y, size) {
  return x >= 0 && x < size && y >= 0 && y < size;
}

/** Stones of `color` next to (x, y) going along (dx, dy), (x, y) itself not counted. */
function countDirection(cells, size, x, y, dx, dy, color) {
  let count = 0;
  for (let cx = x + dx, cy = y + dy; onBoard(cx, cy, size) && cells[cy * size + cx] === color; cx += dx, cy += dy) {
    count += 1;
  }
  return count;
}

function lineLength(cells, size, x, y, dx, dy) {
  return 1 + countDirection(cells, size, x, y, dx, dy, BLACK) + countDirection(cells, size, x, y, -dx, -dy, BLACK);
}

/** Offsets k along (dx, dy) of the empty points within four steps of (x, y). */
function emptyPointsNear(cells, size, x, y, dx, dy) {
  const found = [];
  for (const k of NEAR) {
    const qx = x + k * dx;
    const qy = y + k * dy;
    if (onBoard(qx, qy, size) && cells[qy * size + qx] === EMPTY) found.push({ k, qx, qy });
  }
  return found;
}

/** Offsets of the empty points where black makes exactly five through the black stone at (x, y). */
function fiveCompletions(cells, size, x, y, dx, dy) {
  const offsets = [];
  for (const { k, qx, qy } of emptyPointsNear(cells, size, x, y, dx, dy)) {
    cells[qy * size + qx] = BLACK;
    const forward = countDirection(cells, size, qx, qy, dx, dy, BLACK);
    const backward = countDirection(cells, size, qx, qy, -dx, -dy, BLACK);
    cells[qy * size + qx] = EMPTY;
    // The run through q spans offsets k-backward .. k+forward; it must hold (x, y).
    if (forward + backward === 4 && k - backward <= 0 && 0 <= k + forward) offsets.push(k);
  }
  return offsets;
}

/** How many fours the stone at (x, y) makes on one line: a straight four is one, X.XXX.X is two. */
function countFours(cells, size, x, y, dx, dy) {
  const offsets = fiveCompletions(cells, size, x, y, dx, dy);
  if (offsets.length === 2 && Math.abs(offsets[0] - offsets[1]) === 5) return 1;
  return offsets.length;
}

function isStraightFour(cells, size, x, y, dx, dy) {
  const offsets = fiveCompletions(cells, size, x, y, dx, dy);
  return offsets.some((a) => offsets.some((b) => Math.abs(a - b) === 5));
}

/** Whether the stone at (x, y) makes a real three on this line: one allowed move away from a straight four. */
function isThree(cells, size, x, y, dx, dy) {
  for (const { qx, qy } of emptyPointsNear(cells, size, x, y, dx, dy)) {
    cells[qy * size + qx] = BLACK;
    const straight = isStraightFour(cells, size, x, y, dx, dy);
    cells[qy * size + qx] = EMPTY;
    if (straight && forbiddenReason(cells, size, qx, qy) === null) return true;
  }
  return false;
}

function reasonWithStone(cells, size, x, y) {
  const lengths = DIRECTIONS.map(([dx, dy]) => lineLength(cells, size, x, y, dx, dy));
  if (lengths.includes(5)) return null;
  if (lengths.some((length) => length > 5)) return 'overline';
  let fours = 0;
  let threes = 0;
  for (const [dx, dy] of DIRECTIONS) {
    const lineFours = countFours(cells, size, x, y, dx, dy);
    if (lineFours > 0) fours += lineFours;
    else if (isThree(cells, size, x, y, dx, dy)) threes += 1;
  }
  if (fours >= 2) return 'double-four';
  if (threes >= 2) return 'double-three';
  return null;
}

/**
 * Why black may not play the empty point (x, y): "overline", "double-four",
 * "double-three", or null when black may play it.
 */
export function forbiddenReason(cells, size, x, y) {
  const index = y * size + x;
  if (cells[index] !== EMPTY) throw new RangeError(`(${x}, ${y}) is not empty`);
  cells[index] = BLACK;
  try {
    return reasonWithStone(cells, size, x, y);
  } finally {
    cells[index] = EMPTY;
  }
}

/** Every forbidden point for black after `moves`, as [{x, y, reason}], row by row. */
export function forbiddenPoints(moves, size) {
  const cells = cellsFromMoves(moves, size);
  const found = [];
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      if (cells[y * size + x] !== EMPTY) continue;
      const reason = forbiddenReason(cells, size, x, y);
      if (reason !== null) found.push({ x, y, reason });
    }
  }
  return found;
}
