// One room's part of the state: a room as its snapshot (`room`) describes
// it, and as each of its events changes it. Pure, like the store it belongs
// to; the store decides which messages reach which room, and in what order
// (`seq`).

import { receivedClock, stoppedClock } from './clock.js';

/** The room as a full snapshot describes it; what the snapshot cannot know is kept from `previous`. */
export function roomFromSnapshot(message, at, previous = null) {
  const snapshot = message.room;
  const sameGame = previous !== null && previous.id === snapshot.room_id && previous.gameId === snapshot.game_id;
  const moves = snapshot.moves.map(({ x, y, color }) => ({ x, y, color }));
  return {
    id: snapshot.room_id,
    gameId: snapshot.game_id,
    rule: snapshot.rule,
    size: snapshot.size,
    status: snapshot.status,
    black: snapshot.black,
    white: snapshot.white,
    you: message.you,
    toMove: snapshot.to_move,
    moves,
    clock: receivedClock(snapshot.clock, at),
    result: snapshot.result,
    seq: snapshot.seq,
    spectators: snapshot.spectators ?? 0,
    private: snapshot.private ?? false,
    rated: snapshot.rated ?? false,
    timeControl: snapshot.time_control ?? null,
    offer: snapshot.offers === undefined ? keptOffer(previous, sameGame, snapshot.seq) : offerFrom(snapshot.offers),
    declined: null,
    resync: null,
    analysis: sameGame && previous.moves.length === moves.length ? previous.analysis : null,
    // The rating changes come only with `game_over`: a snapshot of the same finished game keeps them.
    ratings: sameGame && snapshot.status === 'finished' ? previous.ratings : null,
    chat: previous !== null && previous.id === snapshot.room_id ? previous.chat : [],
    away: awayFrom(snapshot, sameGame ? previous.away : {}),
    opening: snapshot.opening ?? null,
    // The points picked for an opening step not sent yet: kept while the same decision is open.
    draft: sameGame && sameDecision(previous.opening, snapshot.opening) ? previous.draft : [],
  };
}

/** Whether two states of an opening wait for the same decision (no step taken in between). */
function sameDecision(before, after) {
  return before != null && after != null && before.steps.length === after.steps.length && before.decider === after.decider;
}

/**
 * The seats whose player has gone during the game, each with when the
 * opponent may claim the win (`claimAt`, on the performance.now() clock).
 * Only `opponent_away` tells that moment (the server sends it after each
 * snapshot while a seat is away): a seat a snapshot shows away keeps what
 * an earlier one knew, else it is null until that message comes (unknown
 * for good with an older server, which says how long is left if a claim
 * comes too early).
 */
function awayFrom(snapshot, known) {
  const away = {};
  if (snapshot.status !== 'playing') return away;
  for (const color of ['black', 'white']) {
    const seat = snapshot[color];
    if (seat !== null && seat.kind === 'human' && seat.connected === false) away[color] = { claimAt: known[color]?.claimAt ?? null };
  }
  return away;
}

/** The offer waiting for an answer, from a snapshot's `offers` (a draw first, then an undo, then a rematch). */
function offerFrom(offers) {
  if (offers.draw) return { what: 'draw', by: offers.draw };
  if (offers.undo) return { what: 'undo', by: offers.undo };
  if (offers.rematch?.length > 0) return { what: 'rematch', by: offers.rematch[0] };
  return null;
}

/** A server without `offers` in its snapshots: an offer stays shown only if nothing happened since. */
function keptOffer(previous, sameGame, seq) {
  return sameGame && previous.seq === seq && previous.resync === null ? previous.offer : null;
}

const OTHER = { black: 'white', white: 'black' };

/** The room after one event that follows it directly, or null if the event does not fit the room. */
export function applyEvent(room, message, at) {
  switch (message.type) {
    case 'moved': {
      if (message.ply !== room.moves.length + 1 || room.status !== 'playing') return null;
      const stone = { x: message.x, y: message.y, color: message.color };
      return {
        ...room,
        moves: [...room.moves, stone],
        toMove: OTHER[message.color],
        clock: message.clock ? receivedClock(message.clock, at) : room.clock,
        analysis: null,
        declined: null,
      };
    }
    case 'game_over':
      return {
        ...room,
        status: 'finished',
        result: message.result,
        toMove: null,
        clock: stoppedClock(room.clock, at),
        offer: null,
        analysis: null,
        ratings: message.ratings ?? null,
        away: {},
      };
    case 'draw_offered':
      return { ...room, offer: { what: 'draw', by: message.by }, declined: null };
    case 'undo_requested':
      return { ...room, offer: { what: 'undo', by: message.by }, declined: null };
    case 'rematch_offered':
      return { ...room, offer: { what: 'rematch', by: message.by }, declined: null };
    case 'declined':
      return { ...room, offer: null, declined: message.what };
    case 'undone': {
      const kept = room.moves.length - message.removed.length;
      if (kept < 0) return null;
      return {
        ...room,
        moves: room.moves.slice(0, kept),
        toMove: message.to_move,
        clock: message.clock ? receivedClock(message.clock, at) : room.clock,
        offer: null,
        analysis: null,
      };
    }
    default:
      return room;
  }
}

/** The room after a seat's player has gone (the claim's moment with it) or come back; these events carry no `seq`. */
export function awayChanged(room, message, at) {
  const away = { ...room.away };
  if (message.type === 'opponent_away') away[message.color] = { claimAt: at + message.claim_at_ms };
  else delete away[message.color];
  return { ...room, away };
}
