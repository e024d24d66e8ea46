// Requests built from what a person chose in a form. Pure, so they can be
// tested without a page.

/** The clock presets offered: minutes + seconds of increment per move. */
export const CLOCK_PRESETS = [
  null,
  { initial_ms: 60_000, increment_ms: 0 },
  { initial_ms: 180_000, increment_ms: 2_000 },
  { initial_ms: 300_000, increment_ms: 3_000 },
  { initial_ms: 600_000, increment_ms: 5_000 },
  { initial_ms: 900_000, increment_ms: 10_000 },
  { initial_ms: 1_800_000, increment_ms: 20_000 },
];

export const SIZES = [9, 11, 13, 15, 17, 19];
export const RULES = ['freestyle', 'standard', 'renju'];

/**
 * The `create_room` request for a choice of opponent and settings.
 *
 * options: {opponent: "bot" | "friend" | "anyone" | "bots", level, secondLevel,
 *   depth, width (the search of the bot of `level`, for a level that takes them; null or absent:
 *   the level's own, and the seat is sent without them), rule, size, clock (a CLOCK_PRESETS entry), color: "black" | "white" | "random", private,
 *   rated (1.1 ratings; sent only when true, so a server without ratings reads the same request),
 *   opening (1.1 openings: "none" | "swap" | "swap2" | "soosorv8"; sent only when not "none")}
 * `coin()` answers true or false at random (for a random colour).
 * A friend's room is always private (it is reached by its link); an open room never is.
 */
export function createRoomRequest(options, coin = () => Math.random() < 0.5) {
  const size = options.rule === 'renju' ? 15 : options.size;
  const request = { type: 'create_room', rule: options.rule, size };
  if (options.clock !== null) request.clock = { ...options.clock };
  if (options.rated === true) request.rated = true;
  if (withOpening(options)) request.opening = options.opening;
  const chosenBot = botSeat(options.level, options.depth, options.width);
  if (options.opponent === 'bots') {
    return { ...request, black: chosenBot, white: { bot: options.secondLevel }, private: options.private };
  }
  const color = options.color === 'random' ? (coin() ? 'black' : 'white') : options.color;
  const other = options.opponent === 'bot' ? chosenBot : 'open';
  const isPrivate = options.opponent === 'friend' || (options.opponent === 'bot' && options.private);
  return { ...request, black: color === 'black' ? 'me' : other, white: color === 'white' ? 'me' : other, private: isPrivate };
}

/** A bot seat of `level`, with the depth and width its search was given when they are not null. */
function botSeat(level, depth = null, width = null) {
  const seat = { bot: level };
  if (depth !== null) seat.depth = depth;
  if (width !== null) seat.width = width;
  return seat;
}

/**
 * The `seek` request (1.1 lobby) for the form's choice: the game offered to
 * anyone in the lobby, and the ratings it is open to (null: no bound).
 *
 * options: {rule, size, clock, color: "black" | "white" | "random", rated, ratingMin, ratingMax, opening}
 */
export function seekRequest(options) {
  const request = {
    type: 'seek',
    rule: options.rule,
    size: options.rule === 'renju' ? 15 : options.size,
    rated: options.rated === true,
    color: options.color,
    rating_min: options.ratingMin ?? null,
    rating_max: options.ratingMax ?? null,
  };
  if (options.clock !== null) request.clock = { ...options.clock };
  if (withOpening(options)) request.opening = options.opening;
  return request;
}

/** Whether a request names an opening rule (with none, it leaves the field out as an older client does). */
function withOpening(options) {
  return options.opening !== undefined && options.opening !== 'none';
}

/** The `quick_pair` request: a 15×15 game of `rule` with `clock` (a CLOCK_PRESETS entry), rated or not. */
export function quickPairRequest({ rule, clock, rated }) {
  const request = { type: 'quick_pair', rule, size: 15, rated };
  if (clock !== null) request.clock = { ...clock };
  return request;
}
