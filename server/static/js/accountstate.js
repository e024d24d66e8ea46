// The account of the player signed in (feature `accounts`): whether the name is kept with a
// password, the devices signed in to it, and whether a game was played on this page (the page then
// offers to keep the name); an `account` answer also brings the moderation role as it stands now.
// Pure, like store.js, which hands it each server message.

export const MIN_PASSWORD_LENGTH = 8;

export function initialAccount() {
  return {
    password: null, // null (unknown: a server without accounts) | false | true, from `welcome`
    devices: null, // [{device_id, label, signed_in_at, current}] once listed
    played: false, // a game I played ended while this page was open
    saved: 0, // counts `password_set` answers, for the view to say "saved" once each
  };
}

/** The account after a server message: `previous` is the page's state before it, `next` after the rest of the page took it. */
export function accountAfter(previous, next, message) {
  const account = next.account;
  switch (message.type) {
    case 'welcome':
      return { ...next, account: { ...initialAccount(), played: account.played, password: message.password ?? null } };
    case 'account':
      return { ...next, role: message.role ?? null, account: { ...account, password: message.password } };
    case 'password_set':
      return { ...next, account: { ...account, password: true, saved: account.saved + 1 } };
    case 'devices':
      return { ...next, account: { ...account, devices: message.devices } };
    case 'signed_out': {
      const gone = new Set(message.device_ids);
      const devices = account.devices?.filter((device) => !gone.has(device.device_id)) ?? null;
      return { ...next, account: { ...account, devices } };
    }
    case 'game_over':
      return playedIn(previous, message.room_id) && !account.played ? { ...next, account: { ...account, played: true } } : next;
    default:
      return next;
  }
}

function playedIn(state, roomId) {
  return state.seatedRooms.includes(roomId) || (state.room?.id === roomId && state.room.you !== 'spectator');
}

/** Whether the page offers "keep this name: set a password": a player without one, who has played. */
export function offersPassword(state) {
  return state.me !== null && state.account.password === false && (state.account.played || (state.me.games ?? 0) > 0);
}

/**
 * Whether a `signed_out` or `account_deleted` means this page's own sign-in is gone (its token is
 * refused from now on): told unasked, or the answer to signing out everywhere, or this very device.
 */
export function endsMySession(message, request, account) {
  if (message.type === 'account_deleted') return true;
  if (message.type !== 'signed_out') return false;
  if (request?.type !== 'sign_out' || request.all === true) return true;
  return account.devices?.some((device) => device.current && device.device_id === request.device_id) ?? false;
}

// The browser's name from the mark its user agent carries; the first that matches wins (Edge and
// Opera say Chrome too, and Chrome says Safari).
const BROWSER_MARKS = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']];

/**
 * What this browser is called in the device list: "Chrome on Linux", "Safari on iPhone", so that a
 * player tells their devices apart (never more than the protocol's 64 characters).
 */
export function browserDeviceLabel(navigatorLike) {
  const platform = navigatorLike?.userAgentData?.platform || navigatorLike?.platform || '';
  const clean = String(platform).replace(/[\x00-\x1f\x7f-\x9f]/g, '').trim();
  const agent = String(navigatorLike?.userAgent ?? '');
  const browser = BROWSER_MARKS.find(([mark]) => agent.includes(mark))?.[1] ?? 'Browser';
  return (clean === '' ? browser : `${browser} on ${clean}`).slice(0, 64);
}
