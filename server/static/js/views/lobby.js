// The lobby: games to come back to, quick pairing and a new game (or seek),
// the seeks and open rooms to join, games being played to watch, the bots
// with their ratings, who is online and the lobby's chat.
//
// It is a list of sections, each drawn from the state alone. When the
// server's `welcome` lists 1.1 features (`lobby`: seeks and who is online,
// `chat`, `ratings`...), their sections join this list; a server without
// them shows none of them.

import { h, fill, setText, show } from '../dom.js';
import { createChatBox } from './chat.js';
import { createCreateForm } from './create.js';
import { playerLink, ratingBadge } from './names.js';
import { createQuickPair, seekItems } from './seeks.js';
import { settingsText } from './terms.js';

function seatText(seat, t) {
  if (seat === null) return t('player.open');
  return seat.kind === 'bot' ? t('lobby.botSeat', { name: seat.name }) : seat.name;
}

/** Whether two lists of sources hold the same objects. */
function sameSources(a, b) {
  return a !== null && a.length === b.length && a.every((source, index) => source === b[index]);
}

/**
 * A panel with a heading, a list, and a line shown when the list is empty.
 * `draw(state, t)` gives them, with `sources`: the parts of the state the
 * list is drawn from (it is drawn again only when one of them changes).
 */
function listPanel(className, draw) {
  const heading = h('h2');
  const list = h('ul', { class: 'entries' });
  const empty = h('p', { class: 'empty' });
  const element = h('section', { class: `panel ${className}` }, heading, list, empty);
  let drawnFrom = null;
  let drawnLanguage = null;
  return {
    element,
    update(state, t) {
      const { title, emptyText, items, sources } = draw(state, t);
      setText(heading, title);
      setText(empty, emptyText);
      if (sameSources(drawnFrom, sources) && state.prefs.language === drawnLanguage) return;
      drawnFrom = sources;
      drawnLanguage = state.prefs.language;
      fill(list, items);
      show(empty, items.length === 0);
    },
  };
}

/** The bots from the weakest to the strongest by their measured ratings; unrated ones last. */
export function byStrength(bots) {
  return [...bots].sort((a, b) => (a.rating ?? Infinity) - (b.rating ?? Infinity));
}

/**
 * How a bot plays and for whom, in the page's language, with the server's description of its
 * algorithm (English) one click away; an outside engine has only the description its operator wrote.
 */
function botDescription(bot, t) {
  const plays = t(`bot.plays.${bot.level}`, { fallback: '' });
  if (plays === '') return [h('span', { class: 'detail' }, bot.description)];
  return [
    h('span', { class: 'detail' }, plays),
    h('details', { class: 'bot-how' }, h('summary', {}, t('lobby.botHow')), h('span', { class: 'detail', lang: 'en' }, bot.description)),
  ];
}

export function createLobbyView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const form = createCreateForm(intents);

  const resume = listPanel('resume', (state, t) => ({
    title: t('lobby.resume'),
    emptyText: '',
    sources: [state.seatedRooms, state.lobby.rooms],
    items: state.seatedRooms.map((roomId) => {
      const listed = (state.lobby.rooms ?? []).find((room) => room.room_id === roomId);
      const text = listed === undefined
        ? t('lobby.resumeRoom', { id: roomId })
        : t('lobby.resumeGame', { players: t('lobby.versus', { black: seatText(listed.black, t), white: seatText(listed.white, t) }) });
      return h('li', { 'data-room': roomId },
        h('button', { type: 'button', class: 'primary', onClick: () => intents.openRoom(roomId, 'player') }, text));
    }),
  }));

  const openRooms = listPanel('open-rooms', (state, t) => {
    const rooms = (state.lobby.rooms ?? []).filter((room) => room.status === 'waiting');
    return {
      title: t('lobby.openRooms'),
      emptyText: state.lobby.rooms === null ? t('lobby.loading') : t('lobby.noOpenRooms'),
      sources: [state.lobby.rooms],
      items: rooms.map((room) => {
        const host = room.black ?? room.white;
        const hostName = seatText(host, t);
        const yourColor = room.black === null ? 'black' : 'white';
        return h('li', { 'data-room': room.room_id },
          h('div', { class: 'entry-text' },
            h('strong', {}, hostName, ' ', ratingBadge(host, t)),
            h('span', { class: 'detail' }, `${settingsText(room, t)} · ${t('lobby.youPlay', { color: t(`color.${yourColor}`) })}`)),
          h('button', {
            type: 'button',
            class: 'primary',
            'aria-label': t('lobby.joinLabel', { name: hostName }),
            onClick: () => intents.openRoom(room.room_id, 'player'),
          }, t('lobby.join')));
      }),
    };
  });

  const liveGames = listPanel('live-games', (state, t) => {
    const rooms = (state.lobby.rooms ?? []).filter((room) => room.status === 'playing' || room.status === 'opening');
    return {
      title: t('lobby.liveGames'),
      emptyText: state.lobby.rooms === null ? t('lobby.loading') : t('lobby.noLiveGames'),
      sources: [state.lobby.rooms],
      items: rooms.map((room) => {
        const players = t('lobby.versus', { black: seatText(room.black, t), white: seatText(room.white, t) });
        return h('li', { 'data-room': room.room_id },
          h('div', { class: 'entry-text' },
            h('strong', {}, players),
            h('span', { class: 'detail' }, `${settingsText(room, t)} · ${t('room.spectators', { count: room.spectators })}`)),
          h('button', {
            type: 'button',
            'aria-label': t('lobby.watchLabel', { players }),
            onClick: () => intents.openRoom(room.room_id, 'spectator'),
          }, t('lobby.watch')));
      }),
    };
  });

  const bots = listPanel('bots', (state, t) => ({
    title: t('lobby.bots'),
    emptyText: state.lobby.bots === null ? t('lobby.loading') : t('lobby.noBots'),
    sources: [state.lobby.bots],
    items: byStrength(state.lobby.bots ?? []).map((bot) =>
      h('li', { 'data-bot': bot.level },
        h('div', { class: 'entry-text' },
          h('strong', {}, bot.level, ' ', h('span', { class: 'rating' }, bot.rating === null ? '' : String(bot.rating))),
          ...botDescription(bot, t)),
        h('button', {
          type: 'button',
          'aria-label': t('lobby.playBotLabel', { level: bot.level }),
          onClick: () => intents.createRoom(form.choice({ opponent: 'bot', level: bot.level })),
        }, t('lobby.playBot'))),
    ),
  }));

  const seeks = listPanel('seeks', (state, t) => ({
    title: t('seek.title'),
    emptyText: state.lobby.seeks === null ? t('lobby.loading') : t('seek.none'),
    sources: [state.lobby.seeks, state.me],
    items: seekItems(state, t, intents),
  }));

  const online = listPanel('online', (state, t) => ({
    title: state.lobby.online === null ? t('online.title') : t('online.count', { count: state.lobby.online }),
    emptyText: state.lobby.players === null ? t('lobby.loading') : '',
    sources: [state.lobby.players],
    items: (state.lobby.players ?? []).map((player) =>
      h('li', { 'data-player': player.name },
        h('span', {}, playerLink(player.name), ' ', ratingBadge(player, t)),
        player.status === 'playing' ? h('span', { class: 'status-tag' }, t('online.playing')) : null)),
  }));

  const quickPair = createQuickPair(intents);
  const chat = createChatBox(intents, 'lobby');
  const sections = [seeks, openRooms, liveGames, bots];
  const social = h('div', { class: 'lobby-social' }, online.element, chat.element);
  const element = h(
    'section',
    { class: 'screen lobby-screen' },
    heading,
    resume.element,
    h('div', { class: 'lobby-grid' },
      h('div', { class: 'lobby-start' }, quickPair.element, form.element),
      h('div', { class: 'lobby-lists' }, sections.map((section) => section.element)),
      social),
  );

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      setText(heading, t('lobby.title'));
      show(resume.element, state.seatedRooms.length > 0);
      resume.update(state, t);
      form.update(state, t);
      const lobbyFeature = state.features.includes('lobby');
      show(quickPair.element, lobbyFeature);
      show(seeks.element, lobbyFeature);
      show(online.element, lobbyFeature);
      show(chat.element, lobbyFeature && state.features.includes('chat')); // the lobby's chat reaches its watchers
      show(social, lobbyFeature);
      if (lobbyFeature) {
        quickPair.update(state, t);
        seeks.update(state, t);
        online.update(state, t);
      }
      chat.update(state.lobby.chat, null, state.session === 'ready' && lobbyFeature, state);
      for (const section of sections) if (section !== seeks) section.update(state, t);
    },
  };
}
