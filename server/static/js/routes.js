// Where the page is, as a plain object, and its form in the address bar:
//
//   #lobby             the lobby (also the empty hash)
//   #room/ROOM_ID      a room, taking an open seat if there is one (the link to share)
//   #room/ROOM_ID?from=NAME&rule=RULE&size=N
//                      the same, as an invitation: the sign-in page says who invites to which game
//   #watch/ROOM_ID     a room, as a spectator
//   #games             my games; #games/NAME another player's
//   #game/GAME_ID      the replay of one stored game
//   #players           the leaderboard; #players/human or #players/bot one kind only
//   #player/NAME       a player's profile (rating, record, history, recent games)
//   #account           my account: a password for my name, the devices signed in, deleting it
//   #moderation        the moderators' page (mute, ban, rename; reports; the audit log for admins)
//   #tournaments       the tournaments; #tournament/ID one tournament (standings, games, controls)
//   #puzzles           the puzzle trainer
//
// A room being created has no id yet ({name: "room", roomId: null}); it
// has no hash of its own until the server answers.

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const NAME = /^[A-Za-z0-9_-]{1,32}$/;

export const LOBBY = Object.freeze({ name: 'lobby' });
const KINDS = ['human', 'bot'];
const RULES = ['freestyle', 'standard', 'renju'];
const SIZES = { min: 5, max: 26 };

function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

/** The route that a location hash names; anything unreadable is the lobby. */
export function parseHash(hash) {
  const [path, query] = splitQuery(String(hash).replace(/^#/, ''));
  const [head, rest = '', ...extra] = path.split('/');
  const argument = decoded(rest);
  if (extra.length > 0) return LOBBY;
  if ((head === 'room' || head === 'watch') && ID.test(argument)) {
    const route = { name: 'room', roomId: argument, as: head === 'room' ? 'player' : 'spectator' };
    const invite = head === 'room' ? inviteFrom(new URLSearchParams(query)) : null;
    return invite === null ? route : { ...route, invite };
  }
  if (head === 'games' && rest === '') return { name: 'games', player: null };
  if (head === 'games' && NAME.test(argument)) return { name: 'games', player: argument };
  if (head === 'game' && ID.test(argument)) return { name: 'replay', gameId: argument };
  if (head === 'players' && (rest === '' || KINDS.includes(argument))) return { name: 'players', kind: rest === '' ? null : argument };
  if (head === 'player' && NAME.test(argument)) return { name: 'profile', player: argument };
  if (head === 'account' && rest === '') return { name: 'account' };
  if (head === 'moderation' && rest === '') return { name: 'moderation' };
  if (head === 'tournaments' && rest === '') return { name: 'tournaments' };
  if (head === 'tournament' && ID.test(argument)) return { name: 'tournament', tournamentId: argument };
  if (head === 'puzzles' && rest === '') return { name: 'puzzles' };
  return LOBBY;
}

function splitQuery(text) {
  const mark = text.indexOf('?');
  return mark < 0 ? [text, ''] : [text.slice(0, mark), text.slice(mark + 1)];
}

/**
 * Who invites (a player's name, or no invitation at all) to which game (its
 * rule and size, each null when the link's is not one there can be). Only
 * what a name or a number can say is read: a link is anyone's to write.
 */
function inviteFrom(params) {
  const from = params.get('from');
  if (from === null || !NAME.test(from)) return null;
  const rule = RULES.includes(params.get('rule')) ? params.get('rule') : null;
  const size = Number(params.get('size'));
  return { from, rule, size: Number.isInteger(size) && size >= SIZES.min && size <= SIZES.max ? size : null };
}

/** The hash for a route, or null for a route that has none (a room not created yet). */
export function formatRoute(route) {
  switch (route.name) {
    case 'room':
      if (route.roomId === null) return null;
      return `#${route.as === 'spectator' ? 'watch' : 'room'}/${encodeURIComponent(route.roomId)}${inviteQuery(route)}`;
    case 'games':
      return route.player === null ? '#games' : `#games/${encodeURIComponent(route.player)}`;
    case 'replay':
      return `#game/${encodeURIComponent(route.gameId)}`;
    case 'players':
      return route.kind === null ? '#players' : `#players/${route.kind}`;
    case 'profile':
      return `#player/${encodeURIComponent(route.player)}`;
    case 'account':
      return '#account';
    case 'moderation':
      return '#moderation';
    case 'tournaments':
      return '#tournaments';
    case 'tournament':
      return `#tournament/${encodeURIComponent(route.tournamentId)}`;
    case 'puzzles':
      return '#puzzles';
    default:
      return '#lobby';
  }
}

function inviteQuery(route) {
  const invite = route.as === 'player' ? route.invite : undefined;
  if (invite == null) return '';
  const params = new URLSearchParams({ from: invite.from });
  if (invite.rule !== null) params.set('rule', invite.rule);
  if (invite.size !== null) params.set('size', String(invite.size));
  return `?${params}`;
}

/** Whether two routes show the same thing. */
export function sameRoute(a, b) {
  return formatRoute(a) === formatRoute(b) && a.name === b.name;
}
