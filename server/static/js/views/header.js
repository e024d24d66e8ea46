// The bar along the top: the name of the game, where to go, the connection and who is signed in,
// on one row at any width; the language, light or dark, the sound and changing player behind the
// menu button (and on a narrow screen where to go too, which would not fit beside the rest). Also
// the line that shows the server's last refusal ("That point is taken").

import { offersPassword } from '../accountstate.js';
import { h, setText, show, svg } from '../dom.js';
import { LANGUAGES } from '../i18n.js';
import { THEMES } from '../theme.js';
import { formatRating, isProvisional } from '../ratings.js';

export function createHeader(intents) {
  const brand = h('a', { href: '#lobby', class: 'brand' }, h('span', { class: 'stone-icon black', 'aria-hidden': 'true' }), h('span', { class: 'brand-name' }));
  const lobby = h('a', { href: '#lobby' });
  const games = h('a', { href: '#games' });
  const players = h('a', { href: '#players' });
  const account = h('a', { href: '#account' });
  const moderation = h('a', { href: '#moderation' });
  const tournaments = h('a', { href: '#tournaments' });
  const puzzles = h('a', { href: '#puzzles' });
  const nav = h('nav', {}, lobby, games, players, tournaments, puzzles, account, moderation);
  const keepName = h('a', { href: '#account', class: 'keep-name' });
  const connection = h('span', { class: 'connection', role: 'status' });
  const player = h('a', { class: 'me' });
  const switchPlayer = h('button', { type: 'button', class: 'link-button', onClick: () => intents.signOut() });
  const language = h('select', { id: 'language', onChange: () => intents.setPref('language', language.value) },
    Object.entries(LANGUAGES).map(([code, name]) => h('option', { value: code, lang: code }, name)));
  const languageLabel = h('label', { for: language.id });
  const theme = h('select', { id: 'theme', onChange: () => intents.setPref('theme', theme.value) },
    THEMES.map((choice) => h('option', { value: choice })));
  const themeLabel = h('label', { for: theme.id });
  const speakerWaves = svg('path', { d: 'M15 8.5a4 4 0 0 1 0 7M17.5 6a7.5 7.5 0 0 1 0 12', class: 'waves' });
  const speakerCross = svg('path', { d: 'M15.5 9.5l5 5M20.5 9.5l-5 5', class: 'waves' });
  const speaker = svg('svg', { viewBox: '0 0 24 24', width: 22, height: 22, 'aria-hidden': 'true' },
    svg('path', { d: 'M3 9.5h4l5-4v13l-5-4H3z', class: 'body' }), speakerWaves, speakerCross);
  const soundText = h('span');
  const sound = h('button', { type: 'button', class: 'sound-button', onClick: () => intents.setPref('muted', sound.getAttribute('aria-pressed') !== 'true') }, speaker, soundText);
  const settings = h('div', { class: 'settings', id: 'header-menu' },
    h('div', { class: 'setting' }, languageLabel, language), h('div', { class: 'setting' }, themeLabel, theme), sound, switchPlayer);
  const menuIcon = svg('svg', { viewBox: '0 0 24 24', width: 22, height: 22, 'aria-hidden': 'true' }, svg('path', { d: 'M4 6.5h16M4 12h16M4 17.5h16' }));
  const menuButton = h('button', { type: 'button', class: 'menu-button icon-button', 'aria-expanded': 'false', 'aria-controls': 'header-menu', onClick: () => setOpen(!isOpen()) }, menuIcon);
  const tools = h('div', { class: 'tools' }, connection, keepName, player, menuButton);
  const element = h('header', { class: 'top' }, brand, nav, tools, settings);
  const isOpen = () => element.classList.contains('menu-open');
  function setOpen(open) {
    element.classList.toggle('menu-open', open);
    menuButton.setAttribute('aria-expanded', String(open));
  }
  // The menu closes as a menu does: on a choice of where to go, on Escape, on a click elsewhere.
  nav.addEventListener('click', (event) => {
    if (event.target.closest('a')) setOpen(false);
  });
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    setOpen(false);
    menuButton.focus();
  });
  document.addEventListener('click', (event) => {
    if (isOpen() && !element.contains(event.target)) setOpen(false);
  });

  const noticeText = h('span');
  const dismiss = h('button', { type: 'button', class: 'icon-button', onClick: () => intents.dismissNotice() }, '×');
  const notice = h('div', { class: 'notice', role: 'alert' }, noticeText, dismiss);
  let noticeTimer = null;
  let shownSerial = null;

  return {
    element,
    notice,
    update(state) {
      const t = intents.t;
      setText(brand.lastChild, t('app.name'));
      setText(lobby, t('nav.lobby'));
      setText(games, t('nav.games'));
      const route = state.route.name;
      lobby.toggleAttribute('aria-current', route === 'lobby');
      games.toggleAttribute('aria-current', route === 'games' || route === 'replay');
      setText(players, t('nav.players'));
      show(players, state.features.includes('ratings'));
      players.toggleAttribute('aria-current', route === 'players' || route === 'profile');
      setText(account, t('nav.account'));
      show(account, state.account.password !== null);
      account.toggleAttribute('aria-current', route === 'account');
      setText(keepName, t('account.offerLink'));
      show(keepName, offersPassword(state) && route !== 'account');
      setText(moderation, t('nav.moderation'));
      show(moderation, state.role !== null);
      moderation.toggleAttribute('aria-current', route === 'moderation');
      setText(tournaments, t('nav.tournaments'));
      show(tournaments, state.features.includes('tournaments'));
      tournaments.toggleAttribute('aria-current', route === 'tournaments' || route === 'tournament');
      setText(puzzles, t('nav.puzzles'));
      show(puzzles, state.features.includes('puzzles'));
      puzzles.toggleAttribute('aria-current', route === 'puzzles');
      show(nav, state.me !== null);
      setText(connection, t(`connection.${state.connection}`));
      connection.className = `connection ${state.connection}`;
      setText(player, state.me === null ? '' : t('header.player', { name: state.me.name, rating: formatRating(state.me) }));
      if (state.me !== null) player.href = `#player/${encodeURIComponent(state.me.name)}`;
      // The "?" of a provisional rating says what it means when pointed at.
      player.title = isProvisional(state.me) ? t('rating.provisional') : '';
      show(switchPlayer, state.me !== null);
      setText(switchPlayer, t('header.switch'));
      setText(languageLabel, t('header.language'));
      language.value = state.prefs.language;
      setText(themeLabel, t('header.theme'));
      [...theme.options].forEach((option) => setText(option, t(`theme.${option.value}`)));
      theme.value = state.prefs.theme;
      sound.setAttribute('aria-pressed', String(state.prefs.muted));
      setText(soundText, t('header.mute'));
      menuButton.setAttribute('aria-label', t('header.menu'));
      speakerWaves.setAttribute('visibility', state.prefs.muted ? 'hidden' : 'visible');
      speakerCross.setAttribute('visibility', state.prefs.muted ? 'visible' : 'hidden');
      dismiss.setAttribute('aria-label', t('header.dismiss'));

      const current = state.notice;
      show(notice, current !== null);
      if (current !== null && current.serial !== shownSerial) {
        shownSerial = current.serial;
        setText(noticeText, t(`error.${current.code}`, { fallback: current.message }));
        clearTimeout(noticeTimer);
        noticeTimer = setTimeout(() => intents.dismissNotice(), 6000);
      }
    },
  };
}
