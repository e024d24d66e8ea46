// Stored games: mine, or any player's (`list_games`), each with a replay
// link and downloads in the server's formats (GET /api/games/ID.sgf ...).

import { h, fill, setText, show } from '../dom.js';
import { deletable } from '../moderationstate.js';

/** The download links of a game: SGF, PSQ (Piskvork) and JSON. */
export function downloadLinks(gameId, t) {
  const id = encodeURIComponent(gameId);
  return [
    ['sgf', `/api/games/${id}.sgf`],
    ['psq', `/api/games/${id}.psq`],
    ['json', `/api/games/${id}`],
  ].map(([format, href]) =>
    h('a', { href, download: `${gameId}.${format}`, class: 'download', 'aria-label': t('games.downloadLabel', { format: format.toUpperCase() }) }, format.toUpperCase()),
  );
}

function seatName(seat, t) {
  return seat.kind === 'bot' ? t('lobby.botSeat', { name: seat.name }) : seat.name;
}

/** "Black wins (five)", "Draw (agreed)", "Playing". */
export function shortResult(game, t) {
  if (game.result === null) return t('games.unfinished');
  if (game.result.winner === null) return t('games.draw', { reason: t(`reason.${game.result.reason}`) });
  return t('games.win', { color: t(`color.${game.result.winner}`), reason: t(`reason.${game.result.reason}`) });
}

export function formatDate(text, language) {
  if (!text) return '';
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(language === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** One game of a list: who played, when, the rule, its length and result; a replay link and downloads. */
export function gameEntry(game, t, language) {
  return h('li', { 'data-game': game.game_id },
    h('div', { class: 'entry-text' },
      h('strong', {}, t('lobby.versus', { black: seatName(game.black, t), white: seatName(game.white, t) })),
      h('span', { class: 'detail' }, [
        formatDate(game.started_at, language),
        `${t(`rule.${game.rule}`)} ${t('size', { size: game.size })}`,
        game.rated ? t('room.rated') : null,
        t('games.moves', { count: game.moves }),
        shortResult(game, t),
      ].filter(Boolean).join(' · '))),
    h('div', { class: 'entry-actions' },
      h('a', { href: `#game/${encodeURIComponent(game.game_id)}`, class: 'button' }, t('games.replay')),
      downloadLinks(game.game_id, t)));
}

export function createGamesView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const input = h('input', { type: 'text', id: 'games-player', maxLength: 32, pattern: '[A-Za-z0-9_\\-]{1,32}', autocomplete: 'off', spellcheck: false });
  const label = h('label', { for: input.id });
  const submit = h('button', { type: 'submit' });
  const mine = h('button', { type: 'button', class: 'link-button', onClick: () => intents.showGames(null) });
  const form = h('form', { class: 'games-search' }, label, h('div', { class: 'share-row' }, input, submit), mine);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.checkValidity() && input.value !== '') intents.showGames(input.value);
  });
  const list = h('ul', { class: 'entries games-list' });
  const empty = h('p', { class: 'empty' });
  const deleteChosen = h('button', { type: 'button', onClick: () => intents.deleteGames(chosen()) });
  const element = h('section', { class: 'screen games-screen' }, heading, h('section', { class: 'panel' }, form, list, empty, deleteChosen));
  let drawn = null;

  /** The games ticked for deletion. */
  function chosen() {
    return [...list.querySelectorAll('input.delete-game:checked')].map((box) => box.value);
  }

  function countChosen() {
    const count = chosen().length;
    setText(deleteChosen, intents.t('games.deleteChosen', { count }));
    deleteChosen.disabled = count === 0;
  }

  /** A game of the list, with a box to tick it for deletion when I may delete it. */
  function entry(game, state) {
    const item = gameEntry(game, intents.t, state.prefs.language);
    if (deletable(game, state.me, state.role)) {
      const box = h('input', { type: 'checkbox', class: 'delete-game', value: game.game_id, id: `delete-${game.game_id}`, onChange: countChosen });
      const label = h('label', { for: box.id, class: 'visually-hidden' }, intents.t('games.deleteLabel'));
      item.prepend(box, label);
    }
    return item;
  }

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const player = state.games.player ?? state.route.player ?? state.me?.name ?? '';
      const own = player === state.me?.name;
      setText(heading, own ? t('games.mine') : t('games.of', { name: player }));
      setText(label, t('games.player'));
      setText(submit, t('games.show'));
      setText(mine, t('games.showMine'));
      show(mine, !own);
      const games = state.games.list;
      setText(empty, games === null ? t('lobby.loading') : t('games.none'));
      show(empty, games === null || games.length === 0);
      const key = [games, state.prefs.language, state.role];
      if (drawn !== null && key.every((part, index) => part === drawn[index])) return;
      drawn = key;
      fill(list, (games ?? []).map((game) => entry(game, state)));
      show(deleteChosen, (games ?? []).some((game) => deletable(game, state.me, state.role)));
      countChosen();
    },
  };
}
