// The lobby's part of the state (1.1 `lobby` and `chat`): the seeks as a
// watcher sees them come and go, how many are online and who, and the
// lobby's chat. Pure, like the store it belongs to.
//
// `seeks` is null until the server's `lobby` answers `watch_lobby`, and
// again once the page stops watching: events are applied only to a list
// that is being kept current.
//
// A 1.2 server (feature `lobby_batches`) sends the changes in numbered
// batches, `lobby_changes`, the first numbered one past the snapshot's
// `seq`. A batch that does not follow the last one means one was missed:
// the seeks are dropped and `rewatch` is 'needed' until the controller has
// asked for a fresh snapshot.

/** How many chat lines a page keeps (the server stores none). */
export const CHAT_LINES = 100;

/** The lobby of a page that has not heard from the server yet. */
export function initialLobby() {
  return { rooms: null, bots: null, seeks: null, seq: null, rewatch: null, online: null, players: null, chat: [] };
}

/** The request that watches the lobby: in batches from a server that sends them. */
export function watchLobbyRequest(features) {
  return features.includes('lobby_batches') ? { type: 'watch_lobby', batches: true } : { type: 'watch_lobby' };
}

/** The lobby once the request to watch it again has been sent. */
export function lobbyRewatched(lobby) {
  return lobby.rewatch === null ? lobby : { ...lobby, rewatch: null };
}

/** The lobby after one of the server's lobby messages; the same object when nothing changed. */
export function lobbyReceived(lobby, message) {
  switch (message.type) {
    case 'lobby':
      return { ...lobby, seeks: message.seeks, seq: message.seq ?? null, online: message.online };
    case 'lobby_changes':
      return changesReceived(lobby, message);
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

function changesReceived(lobby, batch) {
  if (lobby.seeks === null || lobby.seq === null) return lobby; // nothing being kept current to apply it to
  if (batch.seq !== lobby.seq + 1) return { ...lobby, seeks: null, seq: null, rewatch: 'needed' };
  const removed = new Set(batch.removed);
  const kept = lobby.seeks.filter((seek) => !removed.has(seek.seek_id));
  const known = new Set(kept.map((seek) => seek.seek_id));
  const seeks = [...kept, ...batch.added.filter((seek) => !known.has(seek.seek_id))];
  return { ...lobby, seeks, seq: batch.seq, online: batch.online ?? lobby.online };
}

function withSeek(lobby, seek) {
  if (lobby.seeks === null || lobby.seeks.some((known) => known.seek_id === seek.seek_id)) return lobby;
  return { ...lobby, seeks: [...lobby.seeks, seek] };
}

/** A chat's lines with one more: `{from, text, at}`, the oldest dropped past CHAT_LINES. */
export function withLine(lines, message) {
  // Watching the lobby again replays its last lines: one already shown is not shown twice.
  if (message.chat_id != null && lines.some((shown) => shown.chatId === message.chat_id)) return lines;
  const line = { from: message.from, text: message.text, at: message.at };
  if (message.chat_id != null) line.chatId = message.chat_id; // what a report or a moderator's removal names
  return [...lines, line].slice(-CHAT_LINES);
}

/** The lobby once the page stops watching it: the seeks are no longer kept current. */
export function unwatched(lobby) {
  return lobby.seeks === null ? lobby : { ...lobby, seeks: null, seq: null };
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
