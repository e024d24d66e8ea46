// The leaderboard (#players): everyone rated, or people or bots only, best
// first; a provisional rating (deviation over 110) comes after the others,
// as the server orders them. Each name opens the player's profile.

import { h, fill, setText, show } from '../dom.js';
import { playerLink, ratingBadge } from './names.js';

const KINDS = [null, 'human', 'bot'];

export function createPlayersView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const tabs = KINDS.map((kind) => ({ kind, link: h('a', { href: kind === null ? '#players' : `#players/${kind}`, class: 'tab' }) }));
  const nav = h('nav', { class: 'tabs' }, tabs.map((tab) => tab.link));
  const captions = { rank: h('th', { scope: 'col' }), name: h('th', { scope: 'col' }), rating: h('th', { scope: 'col' }), games: h('th', { scope: 'col' }) };
  const body = h('tbody');
  const table = h('table', { class: 'leaderboard' }, h('thead', {}, h('tr', {}, Object.values(captions))), body);
  const empty = h('p', { class: 'empty' });
  const element = h('section', { class: 'screen players-screen' }, heading, h('section', { class: 'panel' }, nav, table, empty));
  let drawn = null;

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const { kind, players } = state.leaderboard;
      setText(heading, t('players.title'));
      nav.setAttribute('aria-label', t('players.kinds'));
      for (const tab of tabs) {
        setText(tab.link, t(`players.kind.${tab.kind ?? 'all'}`));
        tab.link.toggleAttribute('aria-current', tab.kind === kind);
      }
      setText(captions.rank, '#');
      setText(captions.name, t('players.name'));
      setText(captions.rating, t('players.rating'));
      setText(captions.games, t('players.games'));
      setText(empty, players === null ? t('lobby.loading') : t('players.none'));
      show(empty, players === null || players.length === 0);
      show(table, players !== null && players.length > 0);
      if (drawn !== null && drawn[0] === players && drawn[1] === state.prefs.language) return;
      drawn = [players, state.prefs.language];
      fill(body, (players ?? []).map((player, index) =>
        h('tr', { 'data-player': player.name },
          h('td', { class: 'rank' }, String(index + 1)),
          h('td', {}, playerLink(player.name), player.kind === 'bot' ? h('span', { class: 'detail' }, ` ${t('players.bot')}`) : null),
          h('td', {}, ratingBadge(player, t)),
          h('td', { class: 'count' }, String(player.games)))));
    },
  };
}
