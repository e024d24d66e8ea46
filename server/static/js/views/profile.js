// A player's profile (#player/NAME): the rating with its deviation, the
// record (the rated games, their wins, losses and draws, and every game
// played), the rating after each rated game drawn as a line, and the recent
// games. It comes from GET /api/players/NAME (the server serves profiles
// over HTTP only), fetched each time the page is opened.

import { h, fill, setText, show, svg } from '../dom.js';
import { formatRating, isProvisional } from '../ratings.js';
import { gameEntry } from './games.js';

const CHART = { width: 600, height: 160, left: 48, right: 12, top: 12, bottom: 12 };
/** The least span of ratings a chart shows, so that a few points of change do not look like a cliff. */
const MIN_SPAN = 100;

/**
 * Where each point of a rating history goes in a box `width` × `height`:
 * games from left to right, higher ratings higher up (y grows downwards).
 * The ratings' range is centred, and at least MIN_SPAN tall.
 */
export function historyPoints(history, width, height) {
  if (history.length === 0) return { points: [], low: null, high: null };
  const ratings = history.map((point) => point.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const span = Math.max(high - low, MIN_SPAN);
  const bottom = (low + high) / 2 - span / 2;
  const step = history.length > 1 ? width / (history.length - 1) : 0;
  const points = history.map((point, index) => ({
    x: history.length > 1 ? index * step : width / 2,
    y: height - ((point.rating - bottom) / span) * height,
    rating: point.rating,
  }));
  return { points, low, high };
}

/** The history as an SVG line with its highest and lowest ratings written on the left. */
function historyChart(history, t) {
  const width = CHART.width - CHART.left - CHART.right;
  const height = CHART.height - CHART.top - CHART.bottom;
  const { points, low, high } = historyPoints(history, width, height);
  const at = (rating) => points.find((point) => point.rating === rating).y;
  const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)} ${point.y.toFixed(1)}`).join(' ');
  const last = points.at(-1);
  const labels = (low === high ? [high] : [high, low]).map((rating) =>
    svg('text', { x: -8, y: at(rating), class: 'chart-label', 'dominant-baseline': 'middle' }, String(rating)));
  return svg('svg', {
    viewBox: `0 0 ${CHART.width} ${CHART.height}`,
    class: 'rating-chart',
    role: 'img',
    'aria-label': t('profile.chart', { count: history.length, first: history[0].rating, last: history.at(-1).rating, low, high }),
  },
  svg('g', { transform: `translate(${CHART.left} ${CHART.top})` },
    svg('line', { x1: 0, x2: width, y1: at(high), y2: at(high), class: 'chart-grid' }),
    svg('line', { x1: 0, x2: width, y1: at(low), y2: at(low), class: 'chart-grid' }),
    labels,
    points.length > 1 ? svg('path', { d: path, class: 'chart-line' }) : null,
    svg('circle', { cx: last.x, cy: last.y, r: 4, class: 'chart-dot' })));
}

export function createProfileView(intents) {
  const heading = h('h1', { tabIndex: -1 });
  const failure = h('p', { class: 'empty', role: 'alert' });
  const rating = h('p', { class: 'profile-rating' });
  const provisional = h('p', { class: 'detail' });
  const record = h('p', { class: 'profile-record' });
  const summary = h('section', { class: 'panel profile-summary' }, rating, provisional, record);
  const historyHeading = h('h2');
  const chart = h('div', { class: 'chart-box' });
  const historyPanel = h('section', { class: 'panel' }, historyHeading, chart);
  const recentHeading = h('h2');
  const recent = h('ul', { class: 'entries games-list' });
  const noGames = h('p', { class: 'empty' });
  const allGames = h('a', { class: 'all-games' });
  const recentPanel = h('section', { class: 'panel' }, recentHeading, recent, noGames, allGames);
  const body = h('div', { class: 'profile-body' }, summary, historyPanel, recentPanel);
  const element = h('section', { class: 'screen profile-screen' }, heading, failure, body);
  let drawn = null;

  return {
    element,
    focus: () => heading.focus(),
    update(state) {
      const t = intents.t;
      const profile = state.profile;
      const data = profile?.data ?? null;
      setText(heading, profile?.name ?? '');
      show(failure, profile?.error != null && data === null);
      setText(failure, profile?.error ? t(`profile.${profile.error}`, { name: profile.name }) : '');
      show(body, data !== null);
      if (data === null) return;
      if (drawn !== null && drawn[0] === data && drawn[1] === state.prefs.language) return;
      drawn = [data, state.prefs.language];
      setText(heading, data.kind === 'bot' ? t('profile.botName', { name: data.name }) : data.name);
      fill(rating, h('span', { class: 'big-rating' }, formatRating(data)), ' ', h('span', { class: 'detail' }, t('profile.deviation', { rd: data.rd })));
      setText(provisional, isProvisional(data) ? t('rating.provisional') : '');
      show(provisional, isProvisional(data));
      setText(record, [
        t('profile.rated', { count: data.games }),
        t('profile.record', { wins: data.wins, losses: data.losses, draws: data.draws }),
        data.played == null ? null : t('profile.played', { count: data.played }),
      ].filter(Boolean).join(' · '));
      setText(historyHeading, t('profile.history'));
      const history = data.history ?? [];
      fill(chart, history.length === 0 ? h('p', { class: 'empty' }, t('profile.noHistory')) : historyChart(history, t));
      setText(recentHeading, t('profile.recent'));
      fill(recent, data.recent.map((game) => gameEntry(game, t, state.prefs.language)));
      setText(noGames, t('games.none'));
      show(noGames, data.recent.length === 0);
      allGames.href = `#games/${encodeURIComponent(data.name)}`;
      setText(allGames, t('profile.allGames', { name: data.name }));
    },
  };
}
