// The opening phase (1.1 openings: swap, swap2, Soosõrv-8) as the page
// sees it. The server's RoomState says whose decision it is and exactly the
// kinds of step open to them (`opening.choices`); this module turns those
// into what a click on the board does, and a set of points picked on the
// board (the draft) into the step to send. Pure, so it is tested alone.
//
// Stones placed and fifth moves offered are picked on the board first and
// sent together, so that a mis-click can be taken back before the server
// sees it; a fifth move on offer is selected with one click.

/** The opening rules a room may have, as `create_room` and `seek` name them; soosorv8 is renju's. */
export const OPENINGS = ['none', 'swap', 'swap2', 'soosorv8'];

/** Whether `rule` allows the opening `name`. */
export function openingFits(name, rule) {
  return name !== 'soosorv8' || rule === 'renju';
}

/** The choice a click on the board serves now (place, offer_fifths or select_fifth), or null. */
export function boardChoice(opening) {
  return opening?.choices.find((choice) => ['place', 'offer_fifths', 'select_fifth'].includes(choice.kind)) ?? null;
}

/** The colours of the stones a choice wants picked, in order: [] for a choice that picks none. */
export function draftColors(choice) {
  if (choice?.kind === 'place') return choice.colors;
  if (choice?.kind === 'offer_fifths') return Array(choice.count).fill('black'); // the fifth move is black's
  return [];
}

/**
 * The draft after a click on (x, y): a point picked again is taken back, a
 * free point is added while stones are still due, and anything else changes
 * nothing (the same array comes back).
 */
export function pickPoint(draft, choice, moves, x, y) {
  const colors = draftColors(choice);
  const index = draft.findIndex((point) => point.x === x && point.y === y);
  if (index >= 0) return draft.filter((_, at) => at !== index).map((point, at) => ({ ...point, color: colors[at] }));
  if (draft.length >= colors.length || moves.some((stone) => stone.x === x && stone.y === y)) return draft;
  return [...draft, { x, y, color: colors[draft.length] }];
}

/** The step a full draft makes ({kind: "place" | "offer_fifths", points}), or null while stones are still due. */
export function draftStep(choice, draft) {
  const colors = draftColors(choice);
  if (colors.length === 0 || draft.length !== colors.length) return null;
  return { kind: choice.kind, points: draft.map(({ x, y }) => ({ x, y })) };
}

/** The `select_fifth` step for a click on (x, y), or null when no fifth move on offer is there. */
export function selectedFifth(choice, x, y) {
  if (choice?.kind !== 'select_fifth' || !choice.offers.some((point) => point.x === x && point.y === y)) return null;
  return { kind: 'select_fifth', point: { x, y } };
}
