// Points as people write them: column letter, then the row counted from
// the bottom (renju books, PROTOCOL.md). On 15x15, h8 is x=7, y=7 and a1 is
// x=0, y=14. Letters run a..z with none skipped.

/** The letter of column `x` (0 is `a`). */
export function columnLetter(x) {
  return String.fromCharCode(97 + x);
}

/** The row number printed for row `y` (0 is the top) on a `size` board. */
export function rowNumber(y, size) {
  return size - y;
}

/** `h8` for x=7, y=7 on 15x15. */
export function formatPoint(x, y, size) {
  return `${columnLetter(x)}${rowNumber(y, size)}`;
}

/** `{x, y}` for text such as `h8` (any case, spaces around), or null if it names no point of the board. */
export function parsePoint(text, size) {
  const match = /^([a-z])([0-9]{1,2})$/.exec(String(text).trim().toLowerCase());
  if (match === null) return null;
  const x = match[1].charCodeAt(0) - 97;
  const row = Number(match[2]);
  if (x >= size || row < 1 || row > size) return null;
  return { x, y: size - row };
}

/** The star points (hoshi) drawn on a `size` board: the centre and four points near the corners. */
export function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const points = [
    { x: edge, y: edge }, { x: far, y: edge }, { x: edge, y: far }, { x: far, y: far },
  ];
  if (size % 2 === 1) {
    const middle = (size - 1) / 2;
    points.push({ x: middle, y: middle });
    if (size >= 19) {
      points.push({ x: middle, y: edge }, { x: middle, y: far }, { x: edge, y: middle }, { x: far, y: middle });
    }
  }
  return points;
}
