// What moderation changes in the page's state (see store.js): the signed-in
// player's role, the moderation page's reports and audit log, the last
// action done, chat lines taken back, games deleted, and a spectator sent
// out of a room, a new name given. Pure functions of (state, message), as the store wants.

import { LOBBY } from './routes.js';

/** The moderation page's state: nothing loaded yet. */
export function initialModeration() {
  return {
    reports: null, // the open reports (`list_reports`), oldest first
    audit: null, // the latest audit entries (`get_audit_log`, admins), newest first
    done: null, // the last `moderation_done`, with a serial so that each shows once
  };
}

/** The state after a moderation message, or null when the message is none of moderation's. */
export function moderationReceived(state, message, notice) {
  switch (message.type) {
    case 'moderation_done':
      return { ...state, moderation: { ...state.moderation, done: { ...message, serial: (state.moderation.done?.serial ?? 0) + 1 } } };
    case 'reports':
      return { ...state, moderation: { ...state.moderation, reports: message.reports } };
    case 'audit_log':
      return { ...state, moderation: { ...state.moderation, audit: message.entries } };
    case 'report_filed':
      return { ...state, notice: notice(state, { code: 'report_filed', message: message.report_id }, 'report') };
    case 'chat_removed':
      return chatRemoved(state, message);
    case 'kicked':
      return kicked(state, message, notice);
    case 'renamed':
      return { ...state, notice: notice(state, { code: 'renamed', message: message.name }, null) };
    case 'games_deleted':
      return gamesDeleted(state, message.game_ids);
    default:
      return null;
  }
}

function chatRemoved(state, message) {
  const without = (lines) => lines.filter((line) => line.chatId !== message.chat_id);
  if (message.room_id === null) return { ...state, lobby: { ...state.lobby, chat: without(state.lobby.chat) } };
  if (state.room?.id !== message.room_id) return state;
  return { ...state, room: { ...state.room, chat: without(state.room.chat) } };
}

/** Sent out of the room on screen: back to the lobby, saying why. */
function kicked(state, message, notice) {
  const next = { ...state, notice: notice(state, { code: 'kicked', message: message.reason }, null) };
  if (state.room?.id !== message.room_id) return next;
  return { ...next, room: null, route: LOBBY };
}

function gamesDeleted(state, gameIds) {
  const list = state.games.list;
  if (list === null) return state;
  return { ...state, games: { ...state.games, list: list.filter((game) => !gameIds.includes(game.game_id)) } };
}

/**
 * Whether I may delete a game of a list: a finished one, mine against one of the server's bots and
 * unrated; an admin's, any finished one (as the server decides: it refuses the others).
 */
export function deletable(game, me, role) {
  if (game.result === null || me === null) return false;
  if (role === 'admin') return true;
  const seats = [game.black, game.white];
  const mine = seats.some((seat) => seat.kind === 'human' && seat.name.toLowerCase() === me.name.toLowerCase());
  const againstBot = seats.some((seat) => seat.kind === 'bot' && seat.level != null);
  return !game.rated && mine && againstBot;
}

/** Whether my role lets me moderate (mute, ban, rename, kick, remove lines, close reports). */
export function moderates(state) {
  return state.role === 'moderator' || state.role === 'admin';
}
