// The lobby's part of the state (1.1 `lobby` and `chat`): the seeks as a
// watcher sees them come and go, how many are online and who, and the
// lobby's chat. Pure, like the store it belongs to.
//
// `seeks` is null until the server's `lobby` answers `watch_lobby`, and
// again once the page stops watching: events are applied only to a list
// that is being kept current.

/** How many chat lines a page keeps (the server stores none). */
export const CHAT_LINES = 100;

/** The lobby of a page that has not heard from the server yet. */
export function initialLobby() {
  return { rooms: null, bots: null, seeks: null, online: null, players: null, chat: [] };
}

/** The lobby after one of the server's lobby messages; the same object when nothing changed. */
export function lobbyReceived(lobby, message) {
  switch (message.type) {
    case 'lobby':
      return { ...lobby, seeks: message.seeks, online: message.online };
    case 'seek_added':
    case 'seek_created':
      return withSeek(lobby, message.seek);
    case 'seek_removed':
      if (lobby.seeks === null || !lobby.seeks.some((seek) => seek.seek_id === message.seek_id)) return lobby;
      return { ...lobby, seeks: lobby.seeks.filter((seek) => seek.seek_id !== message.seek_id) };
    case 'online':
      return { ...lobby, online: message.count };
    case 'online_players':
      return { ...lobby, online: message.count, players: message.players };
    case 'chat':
      return message.room_id === null ? { ...lobby, chat: withLine(lobby.chat, message) } : lobby;
    default:
      return lobby;
  }
}

function withSeek(lobby, seek) {
  if (lobby.seeks === null || lobby.seeks.some((known) => known.seek_id === seek.seek_id)) return lobby;
  return { ...lobby, seeks: [...lobby.seeks, seek] };
}

/** A chat's lines with one more: `{from, text, at}`, the oldest dropped past CHAT_LINES. */
export function withLine(lines, message) {
  return [...lines, { from: message.from, text: message.text, at: message.at }].slice(-CHAT_LINES);
}

/** The lobby once the page stops watching it: the seeks are no longer kept current. */
export function unwatched(lobby) {
  return lobby.seeks === null ? lobby : { ...lobby, seeks: null };
}

/** My seeks among those listed (a quick pairing waiting is one, with `quick`). */
export function seeksOf(lobby, name) {
  return (lobby.seeks ?? []).filter((seek) => seek.by.name === name);
}

/** Whether a seek's rating range lets a player of `rating` accept it. */
export function seekOpenTo(seek, rating) {
  if (typeof rating !== 'number') return true;
  return (seek.rating_min === null || rating >= seek.rating_min) && (seek.rating_max === null || rating <= seek.rating_max);
}
