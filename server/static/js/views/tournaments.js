// The tournaments (#tournaments): the list, and a form to create one; and one tournament
// (#tournament/ID): its standings, the current round's games to watch with one click, a countdown
// to the next round, join and withdraw, the organiser's controls and the crosstable to download.

import { h, fill, setText, show } from '../dom.js';
import { boardResult, isEntered } from '../tournamentstate.js';
import { playerLink } from './names.js';

const FORMATS = ['swiss', 'round_robin', 'arena'];

function field(label, input) {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

export function createTournamentsView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const body = h('tbody');
  const table = h('table', { class: 'tournaments' }, h('thead', {}, h('tr', {}, ...['name', 'format', 'status', 'players', 'round'].map((key) => h('th', { scope: 'col', 'data-caption': key, class: key === 'players' || key === 'round' ? 'count' : null })))), body);
  const empty = h('p', { class: 'empty' });
  const name = h('input', { type: 'text', maxLength: 64, required: true, name: 'tournament-name' });
  const format = h('select', { name: 'tournament-format' }, FORMATS.map((value) => h('option', { value })));
  const rounds = h('input', { type: 'number', min: 1, max: 30, value: 5, name: 'tournament-rounds' });
  const double = h('input', { type: 'checkbox', name: 'tournament-double' });
  const minutes = h('input', { type: 'number', min: 1, max: 1440, value: 30, name: 'tournament-minutes' });
  const clockMinutes = h('input', { type: 'number', min: 0.25, max: 180, step: 0.25, value: 5, name: 'tournament-clock-minutes' });
  const clockSeconds = h('input', { type: 'number', min: 0, max: 60, value: 3, name: 'tournament-clock-seconds' });
  const rated = h('input', { type: 'checkbox', name: 'tournament-rated' });
  const labels = {};
  const labelled = (key, input) => {
    const row = field('', input);
    labels[key] = row.firstChild;
    return row;
  };
  const roundsRow = labelled('rounds', rounds);
  const doubleRow = labelled('cycles', double);
  const minutesRow = labelled('minutes', minutes);
  const submit = h('button', { type: 'submit', class: 'primary' });
  const formHeading = h('h2');
  const form = h('form', {
    class: 'panel create-tournament',
    onSubmit: (event) => {
      event.preventDefault();
      if (name.value.trim() === '') return;
      intents.createTournament({
        name: name.value,
        format: format.value,
        rounds: Number(rounds.value),
        double: double.checked,
        minutes: Number(minutes.value),
        clockMinutes: Number(clockMinutes.value),
        clockSeconds: Number(clockSeconds.value),
        rated: rated.checked,
      });
    },
  }, formHeading, labelled('name', name), labelled('format', format), roundsRow, doubleRow, minutesRow, labelled('clock', h('span', { class: 'clock-fields' }, clockMinutes, '+', clockSeconds)), labelled('rated', rated), submit);
  const showFormat = () => {
    show(roundsRow, format.value === 'swiss');
    show(doubleRow, format.value === 'round_robin');
    show(minutesRow, format.value === 'arena');
  };
  format.addEventListener('change', showFormat);
  showFormat();
  const element = h('section', { class: 'screen tournaments-screen' }, heading, h('section', { class: 'panel' }, h('div', { class: 'table-scroll' }, table), empty), form);

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      setText(heading, t('tournaments.title'));
      for (const cell of table.querySelectorAll('th')) setText(cell, t(`tournaments.${cell.dataset.caption}`));
      setText(formHeading, t('tournaments.create'));
      setText(submit, t('tournaments.create'));
      for (const [key, label] of Object.entries(labels)) setText(label, t(`tournaments.${key}`));
      for (const option of format.options) setText(option, t(`tournaments.format.${option.value}`));
      const list = state.tournaments.list;
      setText(empty, list === null ? t('lobby.loading') : t('tournaments.none'));
      show(empty, list === null || list.length === 0);
      show(table, list !== null && list.length > 0);
      fill(body, (list ?? []).map((item) =>
        h('tr', { 'data-tournament': item.tournament_id },
          h('td', {}, h('a', { href: `#tournament/${encodeURIComponent(item.tournament_id)}` }, item.name)),
          h('td', {}, t(`tournaments.format.${item.format}`)),
          h('td', {}, t(`tournaments.status.${item.status}`)),
          h('td', { class: 'count' }, String(item.players)),
          h('td', { class: 'count' }, item.rounds === null ? String(item.round) : `${item.round}/${item.rounds}`))));
    },
  };
}

export function createTournamentView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const summary = h('p', { class: 'summary' });
  const countdown = h('p', { class: 'countdown', role: 'status' });
  const join = h('button', { type: 'button', class: 'primary', onClick: () => intents.joinTournament() });
  const withdraw = h('button', { type: 'button', onClick: () => intents.withdrawTournament() });
  const controls = ['start', 'pause', 'resume', 'end'].map((action) => h('button', { type: 'button', 'data-action': action, onClick: () => intents.manageTournament(action) }));
  const botLevel = h('select', { name: 'tournament-bot' });
  const addBot = h('button', { type: 'button', onClick: () => intents.addTournamentBot(botLevel.value) });
  const organiser = h('div', { class: 'organiser' }, ...controls, botLevel, addBot);
  const standingsHeading = h('h2');
  const standingsHead = h('tr');
  const standingsBody = h('tbody');
  const standings = h('table', { class: 'standings' }, h('thead', {}, standingsHead), standingsBody);
  const gamesHeading = h('h2');
  const games = h('ul', { class: 'tournament-games' });
  const crosstable = h('a', { class: 'crosstable' });
  const allTournaments = h('a', { href: '#tournaments', class: 'button' });
  const element = h('section', { class: 'screen tournament-screen' }, heading, summary, countdown, allTournaments,
    h('div', { class: 'actions' }, join, withdraw), organiser,
    h('section', { class: 'panel' }, standingsHeading, h('div', { class: 'table-scroll' }, standings), crosstable),
    h('section', { class: 'panel' }, gamesHeading, games));
  let ticking = null;
  let nextRoundAt = null;

  function showCountdown(t) {
    const seconds = nextRoundAt === null ? null : Math.max(0, Math.ceil((Date.parse(nextRoundAt) - Date.now()) / 1000));
    setText(countdown, seconds === null ? '' : t('tournaments.next_round', { seconds }));
    show(countdown, seconds !== null);
  }

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const shown = state.tournaments.shown;
      show(element.querySelector('.actions'), shown !== null);
      show(organiser, false);
      const missing = shown === null && state.tournaments.missing === state.route.tournamentId;
      setText(allTournaments, t('tournaments.all'));
      show(allTournaments, missing);
      for (const part of element.querySelectorAll(':scope > .panel, :scope > .summary')) show(part, shown !== null);
      if (shown === null) {
        setText(heading, missing ? t('tournaments.missing') : t('lobby.loading'));
        return;
      }
      const me = state.me?.name ?? '';
      setText(heading, shown.name);
      const round = shown.rounds === null ? t('tournaments.wave', { round: shown.round }) : t('tournaments.round_of', { round: shown.round, rounds: shown.rounds });
      setText(summary, `${t(`tournaments.format.${shown.format}`)} · ${t(`tournaments.status.${shown.status}`)} · ${round} · ${t('tournaments.players')}: ${shown.players}`);
      nextRoundAt = shown.next_round_at;
      clearInterval(ticking);
      ticking = nextRoundAt === null ? null : setInterval(() => showCountdown(t), 1000);
      showCountdown(t);
      const entered = isEntered(shown, me);
      const open = shown.status !== 'finished' && (shown.status === 'open' || shown.format !== 'round_robin');
      setText(join, t('tournaments.join'));
      setText(withdraw, t('tournaments.withdraw'));
      show(join, open && !entered);
      show(withdraw, entered && shown.status !== 'finished');
      const mine = shown.organiser.toLowerCase() === me.toLowerCase();
      show(organiser, mine && shown.status !== 'finished');
      for (const button of controls) {
        const action = button.dataset.action;
        setText(button, t(`tournaments.${action}`));
        const wanted = { start: shown.status === 'open', pause: shown.status === 'running', resume: shown.status === 'paused', end: shown.status !== 'open' };
        show(button, wanted[action]);
      }
      const bots = state.lobby.bots ?? [];
      if (botLevel.options.length !== bots.length) fill(botLevel, bots.map((bot) => h('option', { value: bot.level }, bot.level)));
      setText(addBot, t('tournaments.add_bot'));
      setText(standingsHeading, t('tournaments.standings'));
      fill(standingsHead, ['#', t('players.name'), t('tournaments.points'), ...shown.tie_breaks.map((name) => t(`tournaments.tie.${name}`)), t('tournaments.performance')].map((text, index) => h('th', { scope: 'col', class: index >= 2 ? 'count' : null }, text)));
      fill(standingsBody, shown.standings.map((row) =>
        h('tr', { 'data-player': row.name, class: row.withdrawn ? 'withdrawn' : null },
          h('td', { class: 'rank' }, String(row.rank)),
          h('td', {}, playerLink(row.name), row.withdrawn ? h('span', { class: 'detail' }, ` ${t('tournaments.withdrawn')}`) : null),
          h('td', { class: 'count' }, String(row.points)),
          ...row.tie_breaks.map((value) => h('td', { class: 'count' }, value === null ? '-' : String(value))),
          h('td', { class: 'count' }, row.performance === null ? '-' : String(row.performance)))));
      crosstable.href = `/api/tournaments/${encodeURIComponent(shown.tournament_id)}.csv`;
      crosstable.download = `${shown.tournament_id}.csv`;
      setText(crosstable, t('tournaments.crosstable'));
      setText(gamesHeading, t('tournaments.games'));
      fill(games, shown.pairings.map((board) => {
        const result = boardResult(board);
        const players = board.white === null ? `${board.black} (${t('tournaments.bye')})` : `${board.black} – ${board.white}`;
        const link = board.room_id === null || board.white === null ? null
          : result === null ? h('a', { href: `#watch/${encodeURIComponent(board.room_id)}`, class: 'watch' }, t('tournaments.watch'))
            : h('a', { href: `#game/${encodeURIComponent(board.game_id)}`, class: 'replay' }, t('tournaments.replay'));
        return h('li', { 'data-board': `${board.round}/${board.board}` }, `${board.round}.${board.board} ${players} `, result === null || result === 'bye' ? null : h('strong', {}, result), ' ', link);
      }));
    },
  };
}
