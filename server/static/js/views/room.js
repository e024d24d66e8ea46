// The room: the board between the two players' bars, and beside it the
// game's state, the offers, the buttons, the engine's hint and the moves.
//
// Everything drawn here comes from `state.room`; the buttons only call
// intents. The room is shown dimmed and refuses input while it may be out
// of date (a lost connection, a skipped event), until a snapshot arrives.

import { h, fill, setText, show } from '../dom.js';
import { formatClockSetting } from '../clock.js';
import { formatPoint } from '../notation.js';
import { boardChoice, draftColors, selectedFifth } from '../opening.js';
import { formatChange, formatDelta } from '../ratings.js';
import { forbiddenPoints } from '../renju.js';
import { formatRoute } from '../routes.js';
import { createBoard } from './board.js';
import { createChatBox } from './chat.js';
import { createClockFace, createTicker, lowTimeWarning } from './clocks.js';
import { createHintBox, hintMarks } from './hint.js';
import { createOpeningPanel } from './opening.js';
import { playerLink, ratingBadge } from './names.js';

const OTHER = { black: 'white', white: 'black' };

export function createRoomView(intents) {
  const heading = h('h1', { class: 'room-title', tabIndex: -1 });
  const status = h('p', { class: 'room-status' });
  const announcer = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-role': 'announcer' });
  const clockAnnouncer = h('p', { class: 'visually-hidden', 'aria-live': 'assertive' });
  const banner = h('p', { class: 'room-banner', role: 'status', hidden: true });
  const board = createBoard({ onPlay: (x, y) => boardClicked(x, y) });
  const bars = { top: createPlayerBar(), bottom: createPlayerBar() };
  const waiting = h('p', { class: 'room-waiting' });

  const share = createShareBoxes();
  const offers = h('div', { class: 'offers', role: 'group', hidden: true });
  const claim = createClaimBox(intents);
  const opening = createOpeningPanel(intents);
  const chat = createChatBox(intents, 'room');
  const actions = createActions(intents);
  const hint = createHintBox({ ask: () => intents.analyze(), hide: () => intents.clearAnalysis() });
  const options = createOptions(intents);
  const moves = h('ol', { class: 'move-list' });
  const movesHeading = h('h2');
  const movesBox = h('section', { class: 'panel moves-panel' }, movesHeading, moves);
  const spectators = h('p', { class: 'spectators' });
  const back = h('button', { type: 'button', class: 'link-button', onClick: () => intents.leaveRoom() });

  // In the page's order the heading comes first, then the board, then the rest, which is
  // the order of the keyboard and of a screen reader; the grid places them side by side.
  const changesLine = h('p', { class: 'rating-changes' });
  const tournamentLink = h('a', { class: 'tournament-link' });
  const tournamentLine = h('p', { class: 'tournament-line', hidden: true }, h('span'), ' ', tournamentLink);
  const head = h('div', { class: 'room-head' }, heading, tournamentLine, status, changesLine, spectators);
  // The board comes before both players' bars (whose names link to profiles), so that Tab goes
  // from the heading to the board; the style draws the opponent's bar above it.
  bars.top.element.classList.add('top-bar');
  const main = h('div', { class: 'room-main' }, h('div', { class: 'board-frame' }, board.element, banner), bars.top.element, bars.bottom.element);
  const side = h(
    'div',
    { class: 'room-side' },
    share.inviteBox,
    opening.element,
    claim.element,
    offers,
    actions.element,
    hint.element,
    movesBox,
    chat.element,
    share.watchBox,
    options.element,
    back,
    announcer,
    clockAnnouncer,
  );
  const layout = h('div', { class: 'room-layout' }, head, main, side);
  const lobbyLink = h('a', { href: '#lobby', class: 'button' });
  const element = h('section', { class: 'screen room-screen' }, waiting, lobbyLink, layout);

  let state = null;
  let shownRoom = null;

  /** A click on the board: a move, or during the opening a point for the step I am to take. */
  function boardClicked(x, y) {
    const room = state.room;
    if (room?.status !== 'opening') {
      intents.play(x, y);
      return;
    }
    const fifth = selectedFifth(boardChoice(room.opening), x, y);
    if (fifth !== null) intents.openingStep(fifth);
    else intents.openingPick(x, y);
  }
  let forbiddenCache = { key: '', points: [] };
  let lastWarning = null;

  const ticker = createTicker(() => {
    if (element.hidden) ticker.update(false); // another screen is shown: it starts again on the next update
    else drawClocks(performance.now());
  });

  function drawClocks(now) {
    const room = state.room;
    const t = intents.t;
    for (const bar of Object.values(bars)) bar.drawClock(room.clock, now, t);
    const mine = room.you === 'spectator' ? null : room.you;
    const warning = mine === null ? null : lowTimeWarning(room.clock, mine, now, t);
    if (warning !== lastWarning) {
      lastWarning = warning;
      if (warning !== null) setText(clockAnnouncer, warning);
    }
  }

  function forbiddenFor(room) {
    const key = `${room.gameId}:${room.moves.length}`;
    if (forbiddenCache.key !== key) forbiddenCache = { key, points: forbiddenPoints(room.moves, room.size) };
    return forbiddenCache.points;
  }

  function update(next) {
    state = next;
    const t = intents.t;
    const room = next.room;
    const route = next.route;
    show(layout, room !== null);
    show(waiting, room === null);
    setText(back, t('room.back'));
    setText(lobbyLink, t('room.back'));
    show(lobbyLink, room === null && next.roomError !== null);
    if (room === null) {
      shownRoom = null;
      ticker.update(false);
      if (next.roomError !== null) setText(waiting, t('room.error', { message: t(`error.${next.roomError.code}`, { fallback: next.roomError.message }) }));
      else setText(waiting, route.roomId === null ? t('room.creating') : t('room.joining'));
      return;
    }
    if (room.id !== shownRoom) {
      // A room that has just opened (created, joined): the keyboard starts at its heading.
      shownRoom = room.id;
      queueMicrotask(() => heading.focus());
    }
    const mine = room.you === 'spectator' ? null : room.you;
    const current = room.resync === null && next.connection === 'online';
    const myTurn = current && room.status === 'playing' && mine !== null && room.toMove === mine;
    const myDecision = current && room.status === 'opening' && mine !== null && room.opening?.decider === next.me?.name;

    setText(heading, roomTitle(room, t));
    setText(status, statusText(room, t, next.me?.name ?? null));
    const changes = ratingChanges(room, t);
    if (changesLine.textContent !== changes.join(' · ')) {
      fill(changesLine, changes.map((change, index) => [index > 0 ? ' · ' : null, h('span', {}, change)]));
    }
    show(changesLine, changes.length > 0);
    setText(spectators, t('room.spectators', { count: room.spectators }));
    show(banner, !current);
    setText(banner, next.connection === 'online' ? t('room.catchingUp') : t('connection.reconnecting'));
    element.classList.toggle('stale', !current);

    const bottomColor = mine ?? 'black';
    bars.bottom.update(room, bottomColor, mine, t);
    bars.top.update(room, OTHER[bottomColor], mine, t);
    drawClocks(performance.now());
    ticker.update(room.clock !== null && room.clock.running !== null);

    board.update({
      size: room.size,
      moves: room.moves,
      winLine: room.result?.line ?? null,
      forbidden: room.rule === 'renju' && myTurn && mine === 'black' ? forbiddenFor(room) : [],
      hint: hintMarks(room.analysis, room.moves, room.size),
      playable: myTurn ? mine : myDecision ? openingPlayable(room) : null,
      draft: room.draft,
      offers: boardChoice(room.opening)?.offers ?? [],
      moveNumbers: next.prefs.moveNumbers,
      confirmTaps: next.prefs.confirmTaps,
      label: t('board.label', { size: room.size }),
      t,
    });

    share.update(room, mine, next.me?.name ?? null, t);
    opening.update(room, next.me?.name, current, t);
    claim.update(room, next.features.includes('claims') ? mine : null, current, t);
    drawOffers(room, mine, current, t);
    actions.update(room, mine, current, t, next.features);
    const tournamentGame = next.tournamentGames[room.id] ?? null;
    show(tournamentLine, tournamentGame !== null);
    if (tournamentGame !== null) {
      setText(tournamentLine.firstChild, t('room.tournamentRound', { round: tournamentGame.round }));
      tournamentLink.href = `#tournament/${encodeURIComponent(tournamentGame.tournamentId)}`;
      setText(tournamentLink, t('room.backToTournament'));
    }
    hint.update(room.analysis, analysisAllowed(room, (next.lobby.bots ?? []).length > 0), current, t);
    options.update(next.prefs, t);
    setText(movesHeading, t('room.moves'));
    show(movesBox, room.moves.length > 0);
    drawMoveList(moves, room);
    show(chat.element, next.features.includes('chat'));
    chat.update(room.chat, room.id, current, next);
    setText(announcer, announcement(room, mine, t));
  }

  function drawOffers(room, mine, current, t) {
    const offer = room.offer;
    const declined = room.declined;
    show(offers, offer !== null || declined !== null);
    if (offer === null) {
      fill(offers, declined === null ? '' : h('p', {}, t(`offer.declined.${declined}`)));
      return;
    }
    const who = seatName(room, offer.by, t);
    if (offer.by === mine) {
      fill(offers, h('p', {}, t(`offer.sent.${offer.what}`)));
      return;
    }
    const text = h('p', {}, t(`offer.received.${offer.what}`, { name: who }));
    if (mine === null || !current) {
      fill(offers, text);
      return;
    }
    const accept = h('button', { type: 'button', class: 'primary', onClick: () => intents.answer(offer.what, true) }, t(`offer.accept.${offer.what}`));
    const decline = offer.what === 'rematch' ? null : h('button', { type: 'button', onClick: () => intents.answer(offer.what, false) }, t('offer.decline'));
    fill(offers, text, h('div', { class: 'button-row' }, accept, decline));
  }

  return { element, update, focus: () => heading.focus() };
}

// ------------------------------------------------------------------ parts

function createPlayerBar() {
  const stone = h('span', { class: 'stone-icon', 'aria-hidden': 'true' });
  const name = h('span', { class: 'player-name' });
  const tag = h('span', { class: 'player-tag' });
  const presence = h('span', { class: 'presence' });
  const turn = h('span', { class: 'turn-marker' });
  const clock = createClockFace();
  const element = h('div', { class: 'player-bar' }, stone, h('div', { class: 'player-text' }, name, tag), presence, turn, clock.element);
  let color = 'black';
  let drawnName = null;
  return {
    element,
    update(room, barColor, mine, t) {
      color = barColor;
      const seat = room[color];
      stone.className = `stone-icon ${color}`;
      const change = room.ratings?.[color] ?? null;
      const key = JSON.stringify([seat?.name, seat?.rating, seat?.rd, change, t('player.open')]);
      if (key !== drawnName) {
        drawnName = key;
        if (seat === null) fill(name, t('player.open'));
        else if (change !== null) fill(name, playerLink(seat.name), ' ', h('span', { class: 'rating' }, `${change.after} (${formatDelta(change.after - change.before)})`));
        else fill(name, playerLink(seat.name), ' ', ratingBadge(seat, t));
      }
      const tags = [t(`color.${color}`)];
      if (seat?.kind === 'bot') tags.push(t('player.bot', { level: seat.level ?? seat.name }));
      if (seat?.depth) tags.push(t('player.botDepth', { depth: seat.depth }));
      if (seat?.width) tags.push(t('player.botWidth', { width: seat.width }));
      if (color === mine) tags.push(t('player.you'));
      setText(tag, tags.join(' · '));
      const away = seat !== null && seat.kind === 'human' && !seat.connected;
      setText(presence, away ? t('player.away') : '');
      show(presence, away);
      const toMove = room.status === 'playing' && room.toMove === color;
      const deciding = room.status === 'opening' && room.opening?.to_decide === color;
      setText(turn, toMove ? t('player.toMove') : deciding ? t('player.deciding') : '');
      element.classList.toggle('to-move', toMove || deciding);
    },
    drawClock(clockState, now, t) {
      clock.update(clockState, color, now, t);
    },
  };
}

/**
 * When the opponent has gone during the game: how long until the win may be
 * claimed, counted down, then the button to claim it (the server refuses a
 * claim that comes early). A page that comes back after the opponent left
 * learns the moment from the `opponent_away` that follows its snapshot; an
 * older server sends none, and the button is then ready: the server answers.
 */
function createClaimBox(intents) {
  const text = h('p', {});
  const button = h('button', { type: 'button', class: 'primary', onClick: () => intents.claimWin() });
  const element = h('section', { class: 'claim', role: 'status', hidden: true }, text, button);
  let shown = null;
  const ticker = createTicker(() => draw());

  function draw() {
    if (shown === null || element.hidden) {
      ticker.update(false);
      return;
    }
    const { room, current, t, name } = shown;
    const claimAt = room.away[OTHER[room.you]].claimAt;
    const waitMs = claimAt === null ? 0 : claimAt - performance.now();
    setText(text, waitMs > 0 ? t('claim.wait', { name, seconds: Math.ceil(waitMs / 1000) }) : t('claim.ready', { name }));
    button.disabled = !current || waitMs > 0;
    ticker.update(waitMs > 0);
  }

  return {
    element,
    update(room, mine, current, t) {
      const gone = mine !== null && room.status === 'playing' ? room.away[OTHER[mine]] : undefined;
      show(element, gone !== undefined);
      shown = gone === undefined ? null : { room, current, t, name: seatName(room, OTHER[mine], t) };
      setText(button, t('claim.button'));
      draw();
    },
  };
}

/** A link to copy: its label, the link in a read-only field, and a button that copies it. */
function createLinkBox(id) {
  const input = h('input', { type: 'text', readOnly: true, class: 'share-link', id });
  const label = h('label', { for: id });
  const copied = h('span', { class: 'copied', role: 'status' });
  const copy = h('button', {
    type: 'button',
    onClick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        document.execCommand?.('copy');
      }
      copied.textContent = copy.dataset.copied;
    },
  });
  const element = h('div', { class: 'link-box' }, label, h('div', { class: 'share-row' }, input, copy), copied);
  return {
    element,
    update(link, labelText, t) {
      show(element, link !== null);
      if (link === null) return;
      if (input.value !== link) {
        input.value = link;
        copied.textContent = '';
      }
      setText(label, labelText);
      setText(copy, t('share.copy'));
      copy.dataset.copied = t('share.copied');
    },
  };
}

/**
 * The links a player passes on, each in a panel of its own: the invitation
 * at the top (while waiting it is what the page is for), the spectators'
 * link below the game's own controls.
 */
function createShareBoxes() {
  const invite = createLinkBox('share-link');
  const watch = createLinkBox('watch-link');
  const inviteBox = h('section', { class: 'panel share', hidden: true }, invite.element);
  const watchBox = h('section', { class: 'panel share', hidden: true }, watch.element);
  return {
    inviteBox,
    watchBox,
    update(room, mine, me, t) {
      const links = shareLinks(room, mine, me, `${location.origin}${location.pathname}`);
      show(inviteBox, links.invite !== null);
      show(watchBox, links.watch !== null);
      invite.update(links.invite, room.private ? t('share.private') : t('share.open'), t);
      watch.update(links.watch, t('share.watch'), t);
    },
  };
}

/**
 * The links a player of the room may pass on (full addresses on `base`):
 * while a seat is open, the invitation to it, which says who invites to
 * which game; until the game is over, the link for spectators (a private
 * game is listed nowhere, so its players are the only way in).
 */
export function shareLinks(room, mine, me, base) {
  if (mine === null || me === null || room.status === 'finished') return { invite: null, watch: null };
  const invitation = { name: 'room', roomId: room.id, as: 'player', invite: { from: me, rule: room.rule, size: room.size } };
  return {
    invite: room.status === 'waiting' ? base + formatRoute(invitation) : null,
    watch: base + formatRoute({ name: 'room', roomId: room.id, as: 'spectator' }),
  };
}

function createActions(intents) {
  const draw = h('button', { type: 'button', onClick: () => intents.offerDraw() });
  const undo = h('button', { type: 'button', onClick: () => intents.requestUndo() });
  const resign = h('button', { type: 'button', class: 'danger', onClick: () => confirming(true) });
  const rematch = h('button', { type: 'button', class: 'primary', onClick: () => intents.rematch() });
  const review = h('button', { type: 'button', onClick: () => intents.reviewFinishedGame(shownGameId) });
  let shownGameId = null;
  const question = h('p', { id: 'resign-question' });
  const yes = h('button', { type: 'button', class: 'danger', onClick: () => { confirming(false); intents.resign(); } });
  const no = h('button', { type: 'button', onClick: () => { confirming(false); resign.focus(); } });
  const confirm = h('div', { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'resign-question', hidden: true }, question, h('div', { class: 'button-row' }, yes, no));
  const row = h('div', { class: 'button-row' }, draw, undo, resign, rematch, review);
  const element = h('section', { class: 'actions' }, row, confirm);

  function confirming(on) {
    show(confirm, on);
    show(row, !on);
    if (on) no.focus();
  }

  return {
    element,
    update(room, mine, current, t, features) {
      const playing = mine !== null && room.status === 'playing';
      const finished = mine !== null && room.status === 'finished';
      const opening = mine !== null && room.status === 'opening'; // an opening may be resigned, nothing else
      show(element, playing || finished || opening);
      if (!playing && !opening && !confirm.hidden) confirming(false);
      setText(draw, t('action.draw'));
      setText(undo, t('action.undo'));
      setText(resign, t('action.resign'));
      setText(rematch, t('action.rematch'));
      setText(question, t('action.resignQuestion'));
      setText(yes, t('action.resignConfirm'));
      setText(no, t('action.resignCancel'));
      show(draw, playing);
      show(undo, playing && !room.rated); // a rated game allows no take-backs
      show(resign, playing || opening);
      show(rematch, finished);
      shownGameId = room.gameId;
      setText(review, t('action.review'));
      show(review, finished && features.includes('review'));
      const myMoves = room.moves.filter((stone) => stone.color === mine).length;
      draw.disabled = !current || room.offer?.what === 'draw';
      undo.disabled = !current || myMoves === 0 || room.offer?.what === 'undo';
      resign.disabled = !current;
      rematch.disabled = !current || (room.offer?.what === 'rematch' && room.offer.by === mine);
    },
  };
}

/**
 * Whether the server would answer `analyze` here: it needs bots and a
 * position without five. Fair play (1.2): while a game between two people,
 * or a rated game, is played, nobody gets the engine's hints, spectators
 * included (anyone can open a second window as a spectator); a casual game
 * against a bot, and a finished game, are open to them.
 */
export function analysisAllowed(room, serverHasBots) {
  if (!serverHasBots || room.status === 'waiting' || room.result?.reason === 'five') return false;
  if (room.status === 'finished') return true;
  return !room.rated && (room.black?.kind === 'bot' || room.white?.kind === 'bot');
}

function createOptions(intents) {
  const toggle = (key) => {
    const input = h('input', { type: 'checkbox', id: `option-${key}`, onChange: () => intents.setPref(key, input.checked) });
    const label = h('label', { for: input.id });
    return { key, input, label, element: h('div', { class: 'option' }, input, label) };
  };
  const numbers = toggle('moveNumbers');
  const taps = toggle('confirmTaps');
  const element = h('section', { class: 'options' }, numbers.element, taps.element);
  return {
    element,
    update(prefs, t) {
      for (const option of [numbers, taps]) {
        option.input.checked = prefs[option.key];
        setText(option.label, t(`option.${option.key}`));
      }
    },
  };
}

// ------------------------------------------------------------ pure helpers

/** "Freestyle · 15×15 · 5+3 · rated · swap2 · private" */
export function roomTitle(room, t) {
  const parts = [t(`rule.${room.rule}`), t('size', { size: room.size })];
  if (room.timeControl !== null) parts.push(formatClockSetting(room.timeControl));
  else if (room.clock !== null && room.clock.increment_ms > 0) {
    // A server whose snapshots carry no time control: the increment is all the room tells.
    parts.push(t('room.increment', { seconds: room.clock.increment_ms / 1000 }));
  }
  if (room.rated) parts.push(t('room.rated'));
  if (room.opening != null && room.opening.rule !== 'none') parts.push(t(`opening.${room.opening.rule}`));
  if (room.private) parts.push(t('room.private'));
  return parts.join(' · ');
}

/** ["alice: 1500 → 1662 (+162)", "bob: 1500 → 1338 (−162)"] after a rated game, else []. */
export function ratingChanges(room, t) {
  if (room.ratings === null) return [];
  return ['black', 'white'].map((color) =>
    t('room.ratingChange', { name: seatName(room, color, t), change: formatChange(room.ratings[color]) }));
}

function seatName(room, color, t) {
  return room[color]?.name ?? t(`color.${color}`);
}

/** The colour a click on the board picks during the opening, or null when no more stones are due. */
function openingPlayable(room) {
  const choice = boardChoice(room.opening);
  if (choice?.kind === 'select_fifth') return 'black';
  return draftColors(choice)[room.draft.length] ?? null;
}

/** The one line saying where the game stands. */
export function statusText(room, t, me = null) {
  if (room.status === 'waiting') return room.you === 'spectator' ? t('status.waiting') : t('status.waitingForOpponent');
  if (room.status === 'opening') {
    const yours = room.opening.decider === me && room.you !== 'spectator';
    return yours ? t('status.openingYours') : t('status.opening', { name: room.opening.decider });
  }
  if (room.status === 'finished') return resultText(room, t);
  if (room.toMove === room.you) return t('status.yourTurn');
  return t('status.toMove', { color: t(`color.${room.toMove}`), name: seatName(room, room.toMove, t) });
}

/** How the game ended, as a sentence: to a player, whether they won or lost; to a spectator, who won. */
export function resultText(room, t) {
  const result = room.result;
  if (result === null) return '';
  if (result.winner === null) return t(`result.draw.${result.reason}`);
  const loser = OTHER[result.winner];
  if (room.you === result.winner) return t(`result.won.${result.reason}`, { name: seatName(room, loser, t) });
  if (room.you === loser) return t(`result.lost.${result.reason}`, { name: seatName(room, result.winner, t) });
  return t(`result.win.${result.reason}`, { winner: t(`color.${result.winner}`), loser: t(`color.${loser}`), name: seatName(room, result.winner, t) });
}

/** What the live region says: the last move, then whose turn it is or how the game ended. */
function announcement(room, mine, t) {
  const last = room.moves.at(-1);
  const parts = [];
  if (last !== undefined) {
    parts.push(t('announce.move', { n: room.moves.length, color: t(`color.${last.color}`), move: formatPoint(last.x, last.y, room.size) }));
  }
  if (room.status === 'finished') parts.push(resultText(room, t));
  else if (room.status === 'playing' && room.toMove === mine) parts.push(t('status.yourTurn'));
  return parts.join(' ');
}

function drawMoveList(list, room) {
  const count = Math.ceil(room.moves.length / 2);
  if (list.dataset.drawn === `${room.gameId}:${room.moves.length}`) return;
  list.dataset.drawn = `${room.gameId}:${room.moves.length}`;
  const items = [];
  for (let pair = 0; pair < count; pair += 1) {
    const stones = room.moves.slice(pair * 2, pair * 2 + 2);
    items.push(h('li', {}, ...stones.map((stone) => h('span', { class: `move ${stone.color}` }, formatPoint(stone.x, stone.y, room.size)))));
  }
  fill(list, items);
  list.scrollTop = list.scrollHeight;
}
